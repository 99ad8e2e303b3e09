// The Lambertian lobe: f = albedo / pi on the side of wo (two-sided: a surface seen from behind
// reflects the same), sampled with pdf cos(theta) / pi, so a sample's weight is the albedo.
#pragma once

#include "core/sampling.h"
#include "materials/lobe.h"
#include "materials/material_data.h"

namespace raystream {

RAYSTREAM_HD inline LobeSample lambertian_sample(const glm::vec3& albedo, const glm::vec3& wo,
                                                 float u1, float u2) {
  const glm::vec2 d = sample_concentric_disk(u1, u2);
  const float z = sqrtf(fmaxf(0.0f, 1.0f - d.x * d.x - d.y * d.y));
  LobeSample s;
  s.wi = glm::vec3(d.x, d.y, wo.z < 0.0f ? -z : z);
  s.pdf = z / kPi;
  if (s.pdf > 0.0f) s.weight = albedo;
  return s;
}

// f |cos theta_i| for the pair (wo, wi).
RAYSTREAM_HD inline glm::vec3 lambertian_eval(const glm::vec3& albedo, const glm::vec3& wo,
                                              const glm::vec3& wi) {
  return same_hemisphere(wo, wi) ? albedo * (fabsf(wi.z) / kPi) : glm::vec3(0.0f);
}

RAYSTREAM_HD inline float lambertian_pdf(const glm::vec3& wo, const glm::vec3& wi) {
  return same_hemisphere(wo, wi) ? fabsf(wi.z) / kPi : 0.0f;
}

// The lobe of a Diffuse material.
struct Lambertian {
  static constexpr BsdfKind kKind = BsdfKind::kLambertian;
  static float alpha_of(float) { return 0.0f; }
  RAYSTREAM_HD static bool delta(const BsdfParams&) { return false; }
  RAYSTREAM_HD static LobeSample sample(const BsdfParams& m,
                                        const glm::vec3& wo, float, float u1, float u2) {
    return lambertian_sample(m.albedo, wo, u1, u2);
  }
  RAYSTREAM_HD static glm::vec3 eval(const BsdfParams& m,
                                     const glm::vec3& wo, const glm::vec3& wi) {
    return lambertian_eval(m.albedo, wo, wi);
  }
  RAYSTREAM_HD static float pdf(const BsdfParams&, const glm::vec3& wo, const glm::vec3& wi) {
    return lambertian_pdf(wo, wi);
  }
};

}  // namespace raystream
