// A coated diffuse surface ("plastic"): a clear dielectric coat (index eta, GGX width alpha) over a
// Lambertian base of albedo A:
//
//   f(wo, wi) = F(wo.m) D(m) G2(wo, wi) / (4 cos_o cos_i)  +  A / pi (1 - F(cos_o)) (1 - F(cos_i))
//
// the coat's white highlight plus the base's light that crossed the coat twice. Sampled as a
// mixture: the coat's visible normals with probability p (its Fresnel share of the reflected
// energy seen from wo, within [0.1, 0.9]), else the cosine; the pdf is the mixture's, so the
// weight is eval / pdf. Light reflected inside the coat is not followed (the base looks a little
// lighter than a real coated surface's, never brighter than A). Two-sided. The coat is never a
// delta lobe: alpha is at least kMinPlasticAlpha.
#pragma once

#include "core/sampling.h"
#include "materials/fresnel.h"
#include "materials/lobe.h"
#include "materials/material_data.h"
#include "materials/microfacet.h"

namespace raystream {

inline constexpr float kMinPlasticAlpha = 0.01f;  // ROUGHNESS 0.1

RAYSTREAM_HD inline float plastic_alpha(float alpha) {
  return fmaxf(alpha, kMinPlasticAlpha);
}

// The probability of sampling the coat, from the albedo at the hit (its texture's included: the
// pdf sees the same parameters as the sampler).
RAYSTREAM_HD inline float plastic_coat_probability(const glm::vec3& albedo, float eta,
                                                   float cos_o) {
  const float f = fresnel_reflectance(fminf(fabsf(cos_o), 1.0f), 1.0f, eta);
  const float base = (1.0f - f) * (0.2126f * albedo.x + 0.7152f * albedo.y + 0.0722f * albedo.z);
  const float p = f + base > 0.0f ? f / (f + base) : 0.5f;
  return fminf(0.9f, fmaxf(0.1f, p));
}

// f |cos theta_i| for the pair (wo, wi), both on the same side.
RAYSTREAM_HD inline glm::vec3 plastic_eval(const glm::vec3& albedo, float eta, float alpha,
                                           const glm::vec3& wo, const glm::vec3& wi) {
  if (!same_hemisphere(wo, wi)) return glm::vec3(0.0f);
  alpha = plastic_alpha(alpha);
  const glm::vec3 o(wo.x, wo.y, fabsf(wo.z)), i(wi.x, wi.y, fabsf(wi.z));
  const glm::vec3 m = glm::normalize(o + i);
  const float coat = fresnel_reflectance(fminf(glm::dot(o, m), 1.0f), 1.0f, eta) * ggx_d(alpha, m) *
                     ggx_g2(alpha, o, i) / (4.0f * o.z);
  const float through = (1.0f - fresnel_reflectance(fminf(o.z, 1.0f), 1.0f, eta)) *
                        (1.0f - fresnel_reflectance(fminf(i.z, 1.0f), 1.0f, eta));
  return glm::vec3(coat) + albedo * (through * i.z / kPi);
}

RAYSTREAM_HD inline float plastic_pdf(const glm::vec3& albedo, float eta, float alpha,
                                      const glm::vec3& wo, const glm::vec3& wi) {
  if (!same_hemisphere(wo, wi)) return 0.0f;
  alpha = plastic_alpha(alpha);
  const glm::vec3 o(wo.x, wo.y, fabsf(wo.z)), i(wi.x, wi.y, fabsf(wi.z));
  const glm::vec3 m = glm::normalize(o + i);
  const float o_m = glm::dot(o, m);
  const float p = plastic_coat_probability(albedo, eta, o.z);
  const float coat = o_m > 0.0f ? ggx_visible_pdf(alpha, o, m) / (4.0f * o_m) : 0.0f;
  return p * coat + (1.0f - p) * i.z / kPi;
}

RAYSTREAM_HD inline LobeSample plastic_sample(const glm::vec3& albedo, float eta, float alpha,
                                              const glm::vec3& wo, float uc, float u1, float u2) {
  LobeSample s;
  if (wo.z == 0.0f) return s;
  const float side = wo.z < 0.0f ? -1.0f : 1.0f;
  const glm::vec3 o(wo.x, wo.y, side * wo.z);
  glm::vec3 i;
  if (uc < plastic_coat_probability(albedo, eta, o.z)) {
    i = reflect_local(o, sample_ggx_visible(plastic_alpha(alpha), o, u1, u2));
    if (i.z <= 0.0f) return s;
  } else {
    const glm::vec2 d = sample_concentric_disk(u1, u2);
    i = glm::vec3(d.x, d.y, sqrtf(fmaxf(0.0f, 1.0f - d.x * d.x - d.y * d.y)));
  }
  s.wi = glm::vec3(i.x, i.y, side * i.z);
  s.pdf = plastic_pdf(albedo, eta, alpha, wo, s.wi);
  if (s.pdf > 0.0f) s.weight = plastic_eval(albedo, eta, alpha, wo, s.wi) / s.pdf;
  return s;
}

// The lobe of a Plastic material.
struct Plastic {
  static constexpr BsdfKind kKind = BsdfKind::kPlastic;
  static float alpha_of(float roughness) { return plastic_alpha(ggx_alpha(roughness)); }
  RAYSTREAM_HD static bool delta(const BsdfParams&) { return false; }
  RAYSTREAM_HD static LobeSample sample(const BsdfParams& m,
                                        const glm::vec3& wo, float uc, float u1, float u2) {
    return plastic_sample(m.albedo, m.ior, m.alpha, wo, uc, u1, u2);
  }
  RAYSTREAM_HD static glm::vec3 eval(const BsdfParams& m,
                                     const glm::vec3& wo, const glm::vec3& wi) {
    return plastic_eval(m.albedo, m.ior, m.alpha, wo, wi);
  }
  RAYSTREAM_HD static float pdf(const BsdfParams& m, const glm::vec3& wo, const glm::vec3& wi) {
    return plastic_pdf(m.albedo, m.ior, m.alpha, wo, wi);
  }
};

}  // namespace raystream
