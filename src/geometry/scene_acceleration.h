// The scene's primitives in the form the intersection code reads (see scene_geometry.h), built
// on the host once per render: triangles precomputed, and with the SAH build reordered to the
// BVH's leaf order, the BVH over triangles and objects (by their world bounding boxes), and its
// numbers. (The LBVH is built on the executor from these arrays in the scene's order:
// geometry/lbvh_build.h.)
#pragma once

#include <cstdint>
#include <vector>

#include "geometry/bvh.h"
#include "geometry/scene_geometry.h"
#include "geometry/scene_object.h"
#include "geometry/triangle.h"
#include "scene/scene.h"

namespace raystream {

struct SceneAcceleration {
  std::vector<SceneObject> objects;  // Scene::objects, in order
  std::vector<TriangleGeometry> triangles;
  std::vector<TriangleShading> shading;
  // The triangles' details (TriangleShading::detail), in the scene's order of the triangles that
  // have them: those whose material reads a normal map or the second texture coordinates.
  std::vector<TriangleDetail> details;
  // The slot in `triangles` of each scene triangle (empty: triangles keep the scene's order).
  std::vector<std::int32_t> triangle_slot;
  std::vector<BvhNode> nodes;            // empty without a BVH
  std::vector<std::int32_t> primitives;  // leaf ranges index this (see SceneGeometry)
  std::size_t leaves = 0;
  int depth = 0;
  double sah_cost = 0.0;
  double build_ms = 0.0;  // host wall time of the BVH build and the triangles' reordering

  // Host pointers into the arrays above (valid while this lives and is not changed).
  SceneGeometry geometry() const;
};

// World-space bounding box of a sphere or cube object (its unit box carried to world space).
void object_world_bounds(const Object& object, glm::vec3& lo, glm::vec3& hi);

// Scene::triangles as the intersection code reads them, in the scene's order (OpenMP).
void triangles_in_scene_order(const Scene& scene, std::vector<TriangleGeometry>& geometry,
                              std::vector<TriangleShading>& shading);

// With `use_bvh` the BVH is built (binned SAH) and the triangles follow its leaf order; without,
// triangles keep the scene's order and the intersection tests every primitive.
SceneAcceleration build_scene_acceleration(const Scene& scene, bool use_bvh);

}  // namespace raystream
