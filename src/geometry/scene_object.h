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

// Texture coordinates of a point on the unit sphere (object space; only its direction counts):
// longitude and latitude, u = 0.5 + atan2(x, z) / (2 pi), v = 0.5 + asin(y) / pi. The image's
// centre faces +z, upright (v = 1, its top row, at the +y pole) and seen unmirrored from outside;
// the seam where u wraps lies at -z.
RAYSTREAM_HD inline glm::vec2 sphere_uv(const glm::vec3& p) {
  const float length = glm::length(p);
  if (!(length > 0.0f)) return glm::vec2(0.5f);
  const glm::vec3 n = p / length;
  const float y = n.y < -1.0f ? -1.0f : (n.y > 1.0f ? 1.0f : n.y);
  const float kPi = 3.14159265358979f;
  return glm::vec2(0.5f + atan2f(n.x, n.z) / (2.0f * kPi), 0.5f + asinf(y) / kPi);
}

// Texture coordinates of a point on the unit cube (object space): each face shows the whole
// image over its side, as its two other coordinates + 0.5 with the signs that keep the image
// unmirrored seen from outside. Side faces stand upright (v = y + 0.5): +z u = x, -z u = -x,
// +x u = -z, -x u = z (each + 0.5); the top (+y) u = x + 0.5, v = 0.5 - z; the bottom (-y)
// u = x + 0.5, v = z + 0.5. The face is the axis where the point lies furthest out.
RAYSTREAM_HD inline glm::vec2 cube_uv(const glm::vec3& p) {
  const glm::vec3 a = glm::abs(p);
  if (a.x >= a.y && a.x >= a.z) return glm::vec2((p.x >= 0.0f ? -p.z : p.z) + 0.5f, p.y + 0.5f);
  if (a.y >= a.z) return glm::vec2(p.x + 0.5f, (p.y >= 0.0f ? -p.z : p.z) + 0.5f);
  return glm::vec2((p.z >= 0.0f ? p.x : -p.x) + 0.5f, p.y + 0.5f);
}

// Hit of the ray with one object (t > t_min), or a Hit with t == kNoHit, without its texture
// coordinates: the test a traversal makes of every candidate (object_uv gives them for the one
// hit that is kept).
RAYSTREAM_HD inline Hit intersect_object_surface(const SceneObject& object, const Ray& ray,
                                                 float t_min) {
  const bool cube = object.shape == static_cast<std::int32_t>(ShapeType::cube);
  glm::vec3 o, d;
  if (object.axis_aligned) {
    o = (ray.origin - object.center) * object.inv_size;
    d = ray.direction * object.inv_size;
  } else {
    o = glm::vec3(object.world_to_object * glm::vec4(ray.origin, 1.0f));
    d = glm::vec3(object.world_to_object * glm::vec4(ray.direction, 0.0f));
  }
  glm::vec3 n_object(0.0f);
  const float t = cube ? intersect_unit_cube(o, d, t_min, n_object)
                       : intersect_unit_sphere(o, d, t_min, n_object);
  Hit hit;
  if (t < kNoHit) {
    hit.t = t;
    hit.normal = object.axis_aligned ? n_object : glm::normalize(object.normal_to_world * n_object);
    hit.material = object.material;
    hit.light = object.light;
  }
  return hit;
}

// Texture coordinates of the object's point at t along the ray. They follow the object's own
// axes, so the point is carried to object space (the axis-aligned test works in a frame without
// the object's rotation).
RAYSTREAM_HD inline glm::vec2 object_uv(const SceneObject& object, const Ray& ray, float t) {
  const glm::vec3 p = glm::vec3(object.world_to_object * glm::vec4(point_at(ray, t), 1.0f));
  return object.shape == static_cast<std::int32_t>(ShapeType::cube) ? cube_uv(p) : sphere_uv(p);
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
