// An emissive triangle, sampled uniformly by area.
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"
#include "lights/area_light.h"

namespace raystream {

struct TriangleLight {
  static constexpr LightKind kKind = LightKind::triangle;

  glm::vec3 p{0.0f};             // v0
  glm::vec3 e1{0.0f}, e2{0.0f};  // v1 - v0, v2 - v0
  float area = 0.0f;

  RAYSTREAM_HD LightSample sample(const Light& light, const glm::vec3& x, float, float u1,
                                  float u2) const {
    const float r = sqrtf(u1);
    const glm::vec3 q = p + r * (1.0f - u2) * e1 + r * u2 * e2;  // barycentrics uniform
    const glm::vec3 n = glm::normalize(glm::cross(e1, e2));
    LightSample s = sample_area_point(light, x, q, n, 1.0f / area);
    s.barycentrics = glm::vec2(r * (1.0f - u2), r * u2);
    return s;
  }

  RAYSTREAM_HD float pdf(const Light& light, const glm::vec3& x, const glm::vec3& q,
                         const glm::vec3& n) const {
    return light.pick * area_to_solid_angle(light.two_sided, 1.0f / area, x, q, n);
  }

  double power(const Light& light) const { return area_light_power(light, area); }
};

}  // namespace raystream
