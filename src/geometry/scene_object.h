// An object ready for intersection: its world-to-object transform, the matrix that carries
// object-space normals to world space, its shape and material. Built once per render on the host.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/scene_enums.h"
#include "geometry/ray.h"
#include "geometry/shapes.h"

namespace raystream {

struct Object;

struct SceneObject {
  // Axis-aligned objects (a sphere of uniform scale, a cube turned by multiples of 90 degrees)
  // are intersected in world space: the ray is carried into the unit shape's space by a shift
  // and a scale, and the unit shape's normal is the world normal. Others use the matrices.
  glm::vec3 center{0.0f};
  std::int32_t axis_aligned = 0;
  glm::vec3 inv_size{1.0f};         // 1 / (the world extent of the unit shape), per axis
  std::int32_t shape = 0;           // ShapeType
  glm::mat4 world_to_object{1.0f};  // inverse of translate * rotateX * rotateY * rotateZ * scale
  glm::mat3 normal_to_world{1.0f};  // inverse transpose of the linear part of object-to-world
  std::int32_t material = 0;
  std::int32_t light = -1;  // index into the light table, -1: not emissive
};

// Precomputes the inverse, the normal matrix and the axis-aligned form where there is one.
SceneObject make_scene_object(const Object& object);

// The ray in the space of the object's unit shape (origin o, direction d; t is kept).
RAYSTREAM_HD inline void unit_shape_ray(const SceneObject& object, const Ray& ray, glm::vec3& o,
                                        glm::vec3& d) {
  if (object.axis_aligned) {
    o = (ray.origin - object.center) * object.inv_size;
    d = ray.direction * object.inv_size;
  } else {
    o = glm::vec3(object.world_to_object * glm::vec4(ray.origin, 1.0f));
    d = glm::vec3(object.world_to_object * glm::vec4(ray.direction, 0.0f));
  }
}

// Hit of the ray with one object (t > t_min), or a Hit with t == kNoHit, without its texture
// coordinates: the test a traversal makes of every candidate (object_uv gives them for the one
// hit that is kept).
RAYSTREAM_HD inline Hit intersect_object_surface(const SceneObject& object, const Ray& ray,
                                                 float t_min) {
  glm::vec3 o, d;
  unit_shape_ray(object, ray, o, d);
  glm::vec3 n_object(0.0f);
  const float t = dispatch_shape(
      object.shape, [&](auto shape) { return decltype(shape)::intersect(o, d, t_min, n_object); });
  Hit hit;
  if (t < kNoHit) {
    hit.t = t;
    hit.normal = object.axis_aligned ? n_object : glm::normalize(object.normal_to_world * n_object);
    hit.material = object.material;
    hit.light = object.light;
  }
  return hit;
}

// The surface of the object at t along the ray (a hit the intersection found): the outward normal
// at that point, the material and the light, without texture coordinates. The normal is the unit
// shape's at the point carried into the shape's space, as the intersection's would be.
RAYSTREAM_HD inline Hit object_surface(const SceneObject& object, const Ray& ray, float t) {
  glm::vec3 o, d;
  unit_shape_ray(object, ray, o, d);
  const glm::vec3 p = o + t * d;
  const glm::vec3 n_object =
      dispatch_shape(object.shape, [&](auto shape) { return decltype(shape)::normal(p); });
  Hit hit;
  hit.t = t;
  hit.normal = object.axis_aligned ? n_object : glm::normalize(object.normal_to_world * n_object);
  hit.material = object.material;
  hit.light = object.light;
  return hit;
}

// Texture coordinates of the object's point at t along the ray. They follow the object's own
// axes, so the point is carried to object space (the axis-aligned test works in a frame without
// the object's rotation).
RAYSTREAM_HD inline glm::vec2 object_uv(const SceneObject& object, const Ray& ray, float t) {
  const glm::vec3 p = glm::vec3(object.world_to_object * glm::vec4(point_at(ray, t), 1.0f));
  return dispatch_shape(object.shape, [&](auto shape) { return decltype(shape)::uv(p); });
}

// Hit of the ray with one object (t > t_min) with its texture coordinates, or a Hit with
// t == kNoHit.
RAYSTREAM_HD inline Hit intersect_object(const SceneObject& object, const Ray& ray, float t_min) {
  Hit hit = intersect_object_surface(object, ray, t_min);
  if (hit.t < kNoHit) hit.uv = object_uv(object, ray, hit.t);
  return hit;
}

// Closest hit over all objects, brute force (a BVH replaces this later).
RAYSTREAM_HD inline Hit closest_hit(const SceneObject* objects, int count, const Ray& ray,
                                    float t_min = kMinHitDistance) {
  Hit best;
  for (int k = 0; k < count; ++k) {
    const Hit hit = intersect_object(objects[k], ray, t_min);
    if (hit.t < best.t) best = hit;
  }
  return best;
}

}  // namespace raystream
