// Ray intersection with the two object-space shapes: the unit sphere (radius 0.5 at the origin)
// and the unit cube ([-0.5, 0.5]^3). The ray's direction need not be unit length, so a ray
// carried into object space by an affine inverse transform keeps the world-space parameter t.
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"
#include "geometry/ray.h"

namespace raystream {

// Rays shorter than this do not count as hits (the new ray's origin is also offset off the
// surface; this only rejects the surface a ray starts on when the offset was not enough).
inline constexpr float kMinHitDistance = 1.0e-5f;

// Smallest t > t_min at which the ray meets the sphere |p| = 0.5, or kNoHit; rays from inside
// hit the far side. Writes the outward object-space normal.
RAYSTREAM_HD inline float intersect_unit_sphere(const glm::vec3& o, const glm::vec3& d, float t_min,
                                                glm::vec3& normal) {
  const float a = glm::dot(d, d);
  const float b = glm::dot(o, d);
  const float c = glm::dot(o, o) - 0.25f;
  const float discriminant = b * b - a * c;
  if (a <= 0.0f || discriminant < 0.0f) return kNoHit;
  const float root = sqrtf(discriminant);
  // The numerically stable pair of roots: q = -(b + sign(b) root); t0 = q / a, t1 = c / q.
  const float q = b >= 0.0f ? -(b + root) : -(b - root);
  float t0 = q / a;
  float t1 = q != 0.0f ? c / q : t0;
  if (t0 > t1) {
    const float tmp = t0;
    t0 = t1;
    t1 = tmp;
  }
  const float t = t0 > t_min ? t0 : t1;
  if (!(t > t_min)) return kNoHit;
  normal = glm::normalize(o + t * d);
  return t;
}

// Smallest t > t_min at which the ray meets the cube's surface, or kNoHit; rays from inside hit
// the exit face. Writes the outward object-space normal of the face hit.
RAYSTREAM_HD inline float intersect_unit_cube(const glm::vec3& o, const glm::vec3& d, float t_min,
                                              glm::vec3& normal) {
  float t_near = -kNoHit;
  float t_far = kNoHit;
  for (int axis = 0; axis < 3; ++axis) {
    if (d[axis] == 0.0f) {
      // Parallel to this pair of faces: inside the slab or a miss.
      if (o[axis] < -0.5f || o[axis] > 0.5f) return kNoHit;
      continue;
    }
    const float inv = 1.0f / d[axis];
    float t0 = (-0.5f - o[axis]) * inv;
    float t1 = (0.5f - o[axis]) * inv;
    if (t0 > t1) {
      const float tmp = t0;
      t0 = t1;
      t1 = tmp;
    }
    t_near = t0 > t_near ? t0 : t_near;
    t_far = t1 < t_far ? t1 : t_far;
  }
  if (t_near > t_far) return kNoHit;
  const float t = t_near > t_min ? t_near : t_far;
  if (!(t > t_min) || t >= kNoHit) return kNoHit;
  // The face hit is the axis where the hit point lies furthest out.
  const glm::vec3 p = o + t * d;
  const glm::vec3 a = glm::abs(p);
  int axis = 0;
  if (a.y > a[axis]) axis = 1;
  if (a.z > a[axis]) axis = 2;
  normal = glm::vec3(0.0f);
  normal[axis] = p[axis] >= 0.0f ? 1.0f : -1.0f;
  return t;
}

}  // namespace raystream
