// What the light kinds that are surfaces share: a point sampled by area becomes a sample in solid
// angle, and the power a pick follows is the emitted flux of the area.
#pragma once

#include <cmath>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/sampling.h"
#include "lights/light_list.h"

namespace raystream {

// Solid-angle density of an area density at `q` (unit normal n) seen from `x`; zero when the
// light does not emit towards x.
RAYSTREAM_HD inline float area_to_solid_angle(bool two_sided, float area_pdf, const glm::vec3& x,
                                              const glm::vec3& q, const glm::vec3& n) {
  const glm::vec3 d = q - x;
  const float dist2 = glm::dot(d, d);
  if (!(dist2 > 0.0f)) return 0.0f;
  const float cos_l = -glm::dot(n, d) / sqrtf(dist2);
  if (!two_sided && cos_l <= 0.0f) return 0.0f;
  const float c = fabsf(cos_l);
  return c > 0.0f ? area_pdf * dist2 / c : 0.0f;
}

// The sample of the point q (unit normal n) of `light`, drawn with area density area_pdf, seen
// from x: no radiance where the light does not emit towards x.
RAYSTREAM_HD inline LightSample sample_area_point(const Light& light, const glm::vec3& x,
                                                  const glm::vec3& q, const glm::vec3& n,
                                                  float area_pdf) {
  LightSample s;
  const glm::vec3 d = q - x;
  const float dist = glm::length(d);
  if (!(dist > 0.0f)) return s;
  s.wi = d / dist;
  s.distance = dist;
  const float pdf = area_to_solid_angle(light.two_sided, area_pdf, x, q, n);
  if (!(pdf > 0.0f)) return s;
  s.pdf = light.pick * pdf;
  s.radiance = light.emission;
  return s;
}

// Luminance of linear RGB (Rec. 709), in double: the powers of lights near the float limit.
inline double luminance(const glm::dvec3& c) {
  return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b;
}

// The power of a light emitting its radiance from `area`: luminance x area x pi (x 2 when
// two-sided), in double (a lamp of radiance near the float limit has a power beyond it); zero
// when the area is not positive and finite (no light).
inline double area_light_power(const Light& light, float area) {
  if (!(area > 0.0f) || !std::isfinite(area)) return 0.0;
  return luminance(glm::dvec3(light.emission)) * double(area) * double(kPi) *
         (light.two_sided ? 2.0 : 1.0);
}

}  // namespace raystream
