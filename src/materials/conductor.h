// A conductor: a perfect mirror (alpha below kMinGgxAlpha) or GGX microfacet reflection with the
// height-correlated G2, sampled through the visible normals, so a sample's weight is
// R G2(wo, wi) / G1(wo). The colour R stands in for the Fresnel term (constant over angles), so
// ROUGHNESS 0 is the old perfect mirror exactly. Two-sided, like the Lambertian.
//
// Energy lost to single scattering: light that would bounce between microfacets leaves the lobe.
// With R = 1 the directional albedo at normal incidence is 0.991 at ROUGHNESS 0.3, 0.825 at 0.6
// and 0.307 (exactly 1 - ln 2) at 1.0 (tests/materials/bsdf_sampling_test.cpp); lower at grazing
// angles. Not compensated: keep ROUGHNESS below about 0.6 for metals that should not darken.
#pragma once

#include "materials/lobe.h"
#include "materials/material_data.h"
#include "materials/microfacet.h"

namespace raystream {

RAYSTREAM_HD inline LobeSample conductor_sample(const glm::vec3& color, float alpha,
                                                const glm::vec3& wo, float u1, float u2) {
  LobeSample s;
  if (alpha < kMinGgxAlpha) {
    s.wi = glm::vec3(-wo.x, -wo.y, wo.z);
    s.weight = color;
    s.pdf = 1.0f;
    s.delta = true;
    return s;
  }
  const float side = wo.z < 0.0f ? -1.0f : 1.0f;
  const glm::vec3 o(wo.x, wo.y, side * wo.z);  // on the upper side
  const glm::vec3 m = sample_ggx_visible(alpha, o, u1, u2);
  const glm::vec3 i = reflect_local(o, m);
  const float o_m = glm::dot(o, m);
  if (i.z <= 0.0f || o.z <= 0.0f || o_m <= 0.0f) return s;  // below the surface: no sample
  s.wi = glm::vec3(i.x, i.y, side * i.z);
  s.pdf = ggx_visible_pdf(alpha, o, m) / (4.0f * o_m);
  s.weight = color * (ggx_g2(alpha, o, i) / ggx_g1(alpha, o));
  return s;
}

// f |cos theta_i| = R D G2 / (4 |cos theta_o|).
RAYSTREAM_HD inline glm::vec3 conductor_eval(const glm::vec3& color, float alpha,
                                             const glm::vec3& wo, const glm::vec3& wi) {
  if (alpha < kMinGgxAlpha || !same_hemisphere(wo, wi)) return glm::vec3(0.0f);
  const glm::vec3 o(wo.x, wo.y, fabsf(wo.z)), i(wi.x, wi.y, fabsf(wi.z));
  const glm::vec3 m = glm::normalize(o + i);
  return color * (ggx_d(alpha, m) * ggx_g2(alpha, o, i) / (4.0f * o.z));
}

RAYSTREAM_HD inline float conductor_pdf(float alpha, const glm::vec3& wo, const glm::vec3& wi) {
  if (alpha < kMinGgxAlpha || !same_hemisphere(wo, wi)) return 0.0f;
  const glm::vec3 o(wo.x, wo.y, fabsf(wo.z)), i(wi.x, wi.y, fabsf(wi.z));
  const glm::vec3 m = glm::normalize(o + i);
  const float o_m = glm::dot(o, m);
  return o_m > 0.0f ? ggx_visible_pdf(alpha, o, m) / (4.0f * o_m) : 0.0f;
}

// The lobe of a Specular material.
struct Conductor {
  static constexpr BsdfKind kKind = BsdfKind::kConductor;
  static float alpha_of(float roughness) { return ggx_alpha(roughness); }
  RAYSTREAM_HD static bool delta(const BsdfParams& m) { return m.alpha < kMinGgxAlpha; }
  RAYSTREAM_HD static LobeSample sample(const BsdfParams& m,
                                        const glm::vec3& wo, float, float u1, float u2) {
    return conductor_sample(m.albedo, m.alpha, wo, u1, u2);
  }
  RAYSTREAM_HD static glm::vec3 eval(const BsdfParams& m,
                                     const glm::vec3& wo, const glm::vec3& wi) {
    return conductor_eval(m.albedo, m.alpha, wo, wi);
  }
  RAYSTREAM_HD static float pdf(const BsdfParams& m, const glm::vec3& wo, const glm::vec3& wi) {
    return conductor_pdf(m.alpha, wo, wi);
  }
};

}  // namespace raystream
