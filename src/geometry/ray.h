// A ray and the record of its closest hit.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"

namespace raystream {

struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};  // not necessarily unit length
};

// No hit: t stays kNoHit and material -1.
inline constexpr float kNoHit = 3.0e38f;

struct Hit {
  float t = kNoHit;        // ray parameter of the hit: origin + t * direction
  glm::vec3 normal{0.0f};  // unit geometric normal in world space, pointing out of the shape
  int material = -1;
  int light = -1;  // the light this primitive is (lights/light.h), -1 none
  // Texture coordinates at the hit: a triangle's corner uvs interpolated, a sphere's or a cube's
  // from its object-space hit point (geometry/scene_object.h). v = 0 is the image's bottom.
  glm::vec2 uv{0.0f};
  glm::vec3 geometric_normal{0.0f};  // unit: the face's (triangles), the normal (objects)
};

// The closest hit as a traversal finds it, 16 bytes: the ray parameter, the primitive (a
// reference of SceneGeometry::primitives: r >= 0 triangle r, r < 0 object ~r) and, for a
// triangle, the barycentric coordinates (u, v) of its second and third corners. What the
// wavefront keeps from intersect to shade; surface_at (scene_geometry.h) rebuilds the Hit.
struct HitRecord {
  float t = kNoHit;
  std::int32_t primitive = 0;
  glm::vec2 barycentrics{0.0f};
  RAYSTREAM_HD bool hit() const { return t < kNoHit; }
};

RAYSTREAM_HD inline glm::vec3 point_at(const Ray& ray, float t) {
  return ray.origin + t * ray.direction;
}

}  // namespace raystream
