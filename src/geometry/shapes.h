// The object shapes, each one type with everything the renderer asks of a shape: the unit sphere
// (radius 0.5 at the origin) and the unit cube ([-0.5, 0.5]^3), in object space. Geometry
// (intersection, texture coordinates) and lights (sampling a point, the normal at a point, the
// area, whether a point is outside) use the same trait, listed once (RAYSTREAM_SHAPES) and reached
// through dispatch_shape: no code elsewhere asks "cube, or else sphere".
//
// A ray's direction need not be unit length, so a ray carried into object space by an affine
// inverse transform keeps the world-space parameter t.
#pragma once

#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/sampling.h"
#include "core/scene_enums.h"
#include "geometry/ray.h"

namespace raystream {

// Rays shorter than this do not count as hits (the new ray's origin is also offset off the
// surface; this only rejects the surface a ray starts on when the offset was not enough).
inline constexpr float kMinHitDistance = 1.0e-5f;

struct UnitSphere {
  static constexpr ShapeType kType = ShapeType::sphere;
  static constexpr float kArea = kPi;  // 4 pi 0.5^2
  // Any rotation leaves it as it is: with the same scale on every axis it is a world-space
  // sphere (intersected without matrices).
  static constexpr bool kRotationInvariant = true;

  // Smallest t > t_min at which the ray meets the sphere |p| = 0.5, or kNoHit; rays from inside
  // hit the far side. Writes the outward object-space normal.
  RAYSTREAM_HD static float intersect(const glm::vec3& o, const glm::vec3& d, float t_min,
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
    normal = UnitSphere::normal(o + t * d);  // as surface_at rebuilds it from t
    return t;
  }

  // The outward normal at (near) the surface point p.
  RAYSTREAM_HD static glm::vec3 normal(const glm::vec3& p) {
    const float len = glm::length(p);
    return len > 0.0f ? p / len : glm::vec3(0.0f, 0.0f, 1.0f);
  }

  // A point uniform by area and its normal (u0 unused).
  RAYSTREAM_HD static void sample(float, float u1, float u2, glm::vec3& p, glm::vec3& n) {
    const float z = 1.0f - 2.0f * u1;
    const float r = sqrtf(fmaxf(0.0f, 1.0f - z * z));
    const float phi = 2.0f * kPi * u2;
    n = glm::vec3(r * cosf(phi), r * sinf(phi), z);
    p = 0.5f * n;
  }

  RAYSTREAM_HD static bool outside(const glm::vec3& p) { return glm::dot(p, p) > 0.25f; }

  // Longitude and latitude: u = 0.5 + atan2(x, z) / (2 pi), v = 0.5 + asin(y) / pi (only the
  // direction of p counts). The image's centre faces +z, upright (v = 1, its top row, at the +y
  // pole) and seen unmirrored from outside; the seam where u wraps lies at -z.
  RAYSTREAM_HD static glm::vec2 uv(const glm::vec3& p) {
    const float length = glm::length(p);
    if (!(length > 0.0f)) return glm::vec2(0.5f);
    const glm::vec3 n = p / length;
    const float y = n.y < -1.0f ? -1.0f : (n.y > 1.0f ? 1.0f : n.y);
    return glm::vec2(0.5f + atan2f(n.x, n.z) / (2.0f * kPi), 0.5f + asinf(y) / kPi);
  }

  // World area under a transform whose normal matrix is M^-T and |det M| = det: an ellipsoid has
  // no closed form, so a midpoint quadrature over the sphere (Nanson's formula per element).
  static float world_area(const glm::mat3& normal_to_world, float det) {
    constexpr int kSteps = 64;
    constexpr double kPiD = 3.14159265358979323846;
    double area = 0.0;
    for (int i = 0; i < kSteps; ++i) {
      for (int j = 0; j < 2 * kSteps; ++j) {
        const double theta = (i + 0.5) * kPiD / kSteps;
        const double phi = (j + 0.5) * kPiD / kSteps;
        const glm::vec3 n(static_cast<float>(std::sin(theta) * std::cos(phi)),
                          static_cast<float>(std::sin(theta) * std::sin(phi)),
                          static_cast<float>(std::cos(theta)));
        const double d_area = 0.25 * std::sin(theta) * (kPiD / kSteps) * (kPiD / kSteps);
        area += d_area * det * glm::length(normal_to_world * n);
      }
    }
    return static_cast<float>(area);
  }
};

struct UnitCube {
  static constexpr ShapeType kType = ShapeType::cube;
  static constexpr float kArea = 6.0f;
  // Axis-aligned in world space only when turned by multiples of 90 degrees.
  static constexpr bool kRotationInvariant = false;

  // Smallest t > t_min at which the ray meets the cube's surface, or kNoHit; rays from inside hit
  // the exit face. Writes the outward object-space normal of the face hit.
  RAYSTREAM_HD static float intersect(const glm::vec3& o, const glm::vec3& d, float t_min,
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

  // The outward normal of the face the point p lies on (the axis where it lies furthest out).
  RAYSTREAM_HD static glm::vec3 normal(const glm::vec3& p) {
    const glm::vec3 a = glm::abs(p);
    int axis = 0;
    if (a.y > a[axis]) axis = 1;
    if (a.z > a[axis]) axis = 2;
    glm::vec3 n(0.0f);
    n[axis] = p[axis] >= 0.0f ? 1.0f : -1.0f;
    return n;
  }

  // A point uniform by area (a face by u0, uniform on it) and its normal.
  RAYSTREAM_HD static void sample(float u0, float u1, float u2, glm::vec3& p, glm::vec3& n) {
    const int six = static_cast<int>(u0 * 6.0f);
    const int face = six < 5 ? six : 5;
    const int axis = face >> 1;
    const float sign = (face & 1) ? 1.0f : -1.0f;
    p = glm::vec3(0.0f);
    n = glm::vec3(0.0f);
    p[axis] = 0.5f * sign;
    n[axis] = sign;
    p[(axis + 1) % 3] = u1 - 0.5f;
    p[(axis + 2) % 3] = u2 - 0.5f;
  }

  RAYSTREAM_HD static bool outside(const glm::vec3& p) {
    return fmaxf(fabsf(p.x), fmaxf(fabsf(p.y), fabsf(p.z))) > 0.5f;
  }

  // Each face shows the whole image over its side, as its two other coordinates + 0.5 with the
  // signs that keep the image unmirrored seen from outside. Side faces stand upright
  // (v = y + 0.5): +z u = x, -z u = -x, +x u = -z, -x u = z (each + 0.5); the top (+y)
  // u = x + 0.5, v = 0.5 - z; the bottom (-y) u = x + 0.5, v = z + 0.5.
  RAYSTREAM_HD static glm::vec2 uv(const glm::vec3& p) {
    const glm::vec3 a = glm::abs(p);
    if (a.x >= a.y && a.x >= a.z) return glm::vec2((p.x >= 0.0f ? -p.z : p.z) + 0.5f, p.y + 0.5f);
    if (a.y >= a.z) return glm::vec2(p.x + 0.5f, (p.y >= 0.0f ? -p.z : p.z) + 0.5f);
    return glm::vec2((p.z >= 0.0f ? p.x : -p.x) + 0.5f, p.y + 0.5f);
  }

  // World area under a transform (normal matrix M^-T, |det M| = det): six faces by Nanson's
  // formula, exact.
  static float world_area(const glm::mat3& normal_to_world, float det) {
    float area = 0.0f;
    for (int axis = 0; axis < 3; ++axis) {
      glm::vec3 n(0.0f);
      n[axis] = 1.0f;
      area += 2.0f * det * glm::length(normal_to_world * n);
    }
    return area;
  }
};

// Every shape, once: S(trait). Adding one: its trait (kType, its ShapeType in core/scene_enums.h,
// and the members above), its entry here, and its scene-file name in the scene loader.
#define RAYSTREAM_SHAPES(S) \
  S(UnitSphere)             \
  S(UnitCube)

// Calls f with the trait of `shape` (a ShapeType) and returns what it returns. Every ShapeType is
// in the list (the compiler warns of one that is not), and a scene holds no other shape.
template <class F>
RAYSTREAM_HD inline auto dispatch_shape(std::int32_t shape, F&& f) {
  switch (static_cast<ShapeType>(shape)) {
#define RAYSTREAM_SHAPE_CASE(trait) \
  case trait::kType:                \
    return f(trait{});
    RAYSTREAM_SHAPES(RAYSTREAM_SHAPE_CASE)
#undef RAYSTREAM_SHAPE_CASE
  }
  __builtin_unreachable();
}

}  // namespace raystream
