// The state of the paths of one frame, structure-of-arrays, indexed by path id (= pixel index),
// and the scene as the stages see it. Plain pointers: device memory on the GPU executor, host
// memory on the CPU executor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>

#include "geometry/camera.h"
#include "geometry/scene_geometry.h"
#include "geometry/scene_object.h"
#include "materials/bsdf.h"

namespace raystream {

// Marks a slot of the path-id array whose path has ended.
inline constexpr std::uint32_t kDeadPath = 0xFFFFFFFFu;

struct PathState {
  glm::vec3* origin = nullptr;
  glm::vec3* direction = nullptr;   // unit
  glm::vec3* throughput = nullptr;  // product of BSDF weights so far
  glm::vec3* radiance = nullptr;    // light gathered by the path this frame
  glm::vec3* hit_point = nullptr;   // closest hit of the current bounce
  glm::vec3* hit_normal = nullptr;
  std::int32_t* hit_material = nullptr;
};

struct SceneView {
  const SceneObject* objects = nullptr;
  int object_count = 0;
  const MaterialData* materials = nullptr;
  int material_count = 0;
  CameraFrame camera;
  // Triangles and the BVH over triangles and objects (bvh_node_count 0: brute force). Last, so
  // that positional initialisation of the fields above stays valid.
  const TriangleGeometry* triangles = nullptr;
  const TriangleShading* triangle_shading = nullptr;
  int triangle_count = 0;
  const BvhNode* bvh_nodes = nullptr;
  int bvh_node_count = 0;
  const std::int32_t* bvh_primitives = nullptr;
};

// What the intersection code sees of the scene.
inline RAYSTREAM_HD SceneGeometry scene_geometry(const SceneView& view) {
  SceneGeometry g;
  g.objects = view.objects;
  g.object_count = view.object_count;
  g.triangles = view.triangles;
  g.triangle_shading = view.triangle_shading;
  g.triangle_count = view.triangle_count;
  g.nodes = view.bvh_nodes;
  g.node_count = view.bvh_node_count;
  g.primitives = view.bvh_primitives;
  return g;
}

// The live bound of a stage: the count the previous compaction left on the device (read inside
// the kernel), or all n slots when no compaction runs.
struct LiveBound {
  const std::size_t* count = nullptr;  // null: every slot
  std::size_t n = 0;                   // slots launched over
};

}  // namespace raystream
