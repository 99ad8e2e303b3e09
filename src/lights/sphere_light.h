// An emissive sphere of uniform scale, sampled uniformly in the cone of directions it covers seen
// from the shading point; by area over the whole sphere from inside it (or from within a hair of
// its surface, where the cone is too wide for float). A point on the far side seen from just
// outside is no sample: the near side hides it.
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/sampling.h"
#include "geometry/shapes.h"
#include "lights/area_light.h"

namespace raystream {

struct SphereLight {
  static constexpr LightKind kKind = LightKind::sphere;

  glm::vec3 centre{0.0f};
  float radius = 0.0f;
  float area = 0.0f;

  // Seen from a point at squared distance d2 from the centre (r2: the squared radius): whether
  // the sphere is sampled in its cone, the cosine of the cone's half-angle, and the density of a
  // direction uniform in it (pick included).
  RAYSTREAM_HD static bool in_cone(float d2, float r2) { return d2 > r2 * 1.0001f; }
  RAYSTREAM_HD static float cone_cos_max(float d2, float r2) {
    return sqrtf(fmaxf(0.0f, 1.0f - r2 / d2));
  }
  RAYSTREAM_HD static float cone_pdf(float pick, float cos_max) {
    return pick / (2.0f * kPi * fmaxf(1.0f - cos_max, 1.0e-12f));
  }

  RAYSTREAM_HD LightSample sample(const Light& light, const glm::vec3& x, float, float u1,
                                  float u2) const {
    const glm::vec3 to_centre = centre - x;
    const float d2 = glm::dot(to_centre, to_centre);
    const float r2 = radius * radius;
    if (in_cone(d2, r2)) {
      LightSample s;
      const float d = sqrtf(d2);
      const float cos_max = cone_cos_max(d2, r2);
      const float cos_t = 1.0f - u1 * (1.0f - cos_max);
      const float sin_t = sqrtf(fmaxf(0.0f, 1.0f - cos_t * cos_t));
      const float phi = 2.0f * kPi * u2;
      const glm::vec3 w = to_centre / d;
      glm::vec3 t, b;
      orthonormal_basis(w, t, b);
      s.wi = glm::normalize(sin_t * cosf(phi) * t + sin_t * sinf(phi) * b + cos_t * w);
      // The nearer intersection with the sphere (the tangent distance if rounding misses it).
      const float proj = glm::dot(to_centre, s.wi);
      const float disc = r2 - (d2 - proj * proj);
      s.distance = disc > 0.0f ? proj - sqrtf(disc) : proj;
      s.radiance = light.emission;
      s.pdf = cone_pdf(light.pick, cos_max);
      return s;
    }
    glm::vec3 on_unit, n;  // by area over the whole sphere
    UnitSphere::sample(0.0f, u1, u2, on_unit, n);
    const glm::vec3 q = centre + radius * n;
    if (d2 > r2 && glm::dot(n, q - x) > 0.0f) return LightSample{};  // the far side
    return sample_area_point(light, x, q, n, 1.0f / area);
  }

  RAYSTREAM_HD float pdf(const Light& light, const glm::vec3& x, const glm::vec3& q,
                         const glm::vec3& n) const {
    const glm::vec3 to_centre = centre - x;
    const float d2 = glm::dot(to_centre, to_centre);
    const float r2 = radius * radius;
    if (in_cone(d2, r2)) return cone_pdf(light.pick, cone_cos_max(d2, r2));
    return light.pick * area_to_solid_angle(light.two_sided, 1.0f / area, x, q, n);
  }

  double power(const Light& light) const { return area_light_power(light, area); }
};

}  // namespace raystream
