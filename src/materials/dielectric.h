// A dielectric interface (glass, water): smooth (alpha below kMinGgxAlpha), where reflection or
// refraction is chosen by the Fresnel reflectance, or rough: GGX microfacet reflection and
// transmission (Walter et al. 2007, "Microfacet Models for Refraction through Rough Surfaces"),
// sampled through the normals visible from wo, reflection or refraction chosen by the Fresnel
// reflectance of the sampled microfacet. The local frame's +z is the outward normal; eta is the
// index inside over the index outside. The tint multiplies both lobes. Radiance is not scaled by
// 1/eta^2 on crossing (the scenes' cameras and lights are outside every object, where the factors
// cancel).
#pragma once

#include "materials/fresnel.h"
#include "materials/lobe.h"
#include "materials/material_data.h"
#include "materials/microfacet.h"

namespace raystream {

// The direction refracted from w (pointing away from the surface) through the interface with
// unit normal m; eta is the relative index on m's negative side. False under total internal
// reflection.
RAYSTREAM_HD inline bool refract_local(const glm::vec3& w, glm::vec3 m, float eta, glm::vec3& t) {
  float cos_i = glm::dot(m, w);
  if (cos_i < 0.0f) {
    eta = 1.0f / eta;
    cos_i = -cos_i;
    m = -m;
  }
  const float sin2_t = fmaxf(0.0f, 1.0f - cos_i * cos_i) / (eta * eta);
  if (sin2_t >= 1.0f) return false;
  const float cos_t = sqrtf(1.0f - sin2_t);
  t = -w / eta + (cos_i / eta - cos_t) * m;
  return true;
}

RAYSTREAM_HD inline LobeSample dielectric_sample(const glm::vec3& tint, float eta, float alpha,
                                                 const glm::vec3& wo, float uc, float u1,
                                                 float u2) {
  LobeSample s;
  if (alpha < kMinGgxAlpha) {
    const float r = fresnel_dielectric(wo.z, eta);  // 1 under total internal reflection
    s.delta = true;
    s.weight = tint;  // chosen with probability F (or T): the weight is F / F (or T / T)
    if (uc < r) {
      s.wi = glm::vec3(-wo.x, -wo.y, wo.z);
      s.pdf = r;
    } else if (refract_local(wo, glm::vec3(0.0f, 0.0f, 1.0f), eta, s.wi)) {
      s.wi = glm::normalize(s.wi);
      s.pdf = 1.0f - r;
    } else {
      s.weight = glm::vec3(0.0f);
    }
    return s;
  }
  if (wo.z == 0.0f) return s;
  const glm::vec3 m = sample_ggx_visible(alpha, wo, u1, u2);  // upper side; faces wo's side
  const float o_m = glm::dot(wo, m);
  const float r = fresnel_dielectric(o_m, eta);
  const float visible = ggx_visible_pdf(alpha, wo, m);
  if (uc < r) {
    const glm::vec3 wi = reflect_local(wo, m);
    if (!same_hemisphere(wo, wi)) return s;
    s.wi = wi;
    s.pdf = visible / (4.0f * fabsf(o_m)) * r;
    s.weight = tint * (ggx_g2(alpha, wo, wi) / ggx_g1(alpha, wo));
    return s;
  }
  glm::vec3 wi;
  if (!refract_local(wo, m, eta, wi)) return s;
  wi = glm::normalize(wi);
  if (same_hemisphere(wo, wi) || wi.z == 0.0f) return s;
  // Walter's transmission term over the density of the refracted direction: D, |i.m| |o.m| and
  // the Jacobian's denominator cancel, leaving G2 / G1 as for reflection.
  const float etap = o_m > 0.0f ? eta : 1.0f / eta;
  const float i_m = glm::dot(wi, m);
  const float denom = (i_m + o_m / etap) * (i_m + o_m / etap);
  s.wi = wi;
  s.pdf = visible * fabsf(i_m) / denom * (1.0f - r);
  s.weight = tint * (ggx_g2(alpha, wo, wi) / ggx_g1(alpha, wo));
  return s;
}

namespace detail {

// The half vector of (wo, wi), on the upper side, for reflection (etap 1) or transmission; false
// when the pair is degenerate or lies on the back of its microfacet.
RAYSTREAM_HD inline bool dielectric_half_vector(const glm::vec3& wo, const glm::vec3& wi, float eta,
                                                glm::vec3& m, float& etap) {
  if (wo.z == 0.0f || wi.z == 0.0f) return false;
  const bool reflect = same_hemisphere(wo, wi);
  etap = reflect ? 1.0f : (wo.z > 0.0f ? eta : 1.0f / eta);
  m = wi * etap + wo;
  const float len2 = glm::dot(m, m);
  if (!(len2 > 0.0f)) return false;
  m /= sqrtf(len2);
  if (m.z < 0.0f) m = -m;
  return glm::dot(m, wi) * wi.z >= 0.0f && glm::dot(m, wo) * wo.z >= 0.0f;
}

}  // namespace detail

// f |cos theta_i| for the pair (wo, wi); zero for a smooth interface.
RAYSTREAM_HD inline glm::vec3 dielectric_eval(const glm::vec3& tint, float eta, float alpha,
                                              const glm::vec3& wo, const glm::vec3& wi) {
  glm::vec3 m;
  float etap;
  if (alpha < kMinGgxAlpha || !detail::dielectric_half_vector(wo, wi, eta, m, etap))
    return glm::vec3(0.0f);
  const float o_m = glm::dot(wo, m), i_m = glm::dot(wi, m);
  const float r = fresnel_dielectric(o_m, eta);
  const float dg = ggx_d(alpha, m) * ggx_g2(alpha, wo, wi);
  float f;
  if (etap == 1.0f && same_hemisphere(wo, wi)) {
    f = dg * r / (4.0f * fabsf(wo.z));
  } else {
    const float denom = (i_m + o_m / etap) * (i_m + o_m / etap);
    f = dg * (1.0f - r) * fabsf(i_m * o_m / (denom * wo.z));
  }
  return tint * f;
}

RAYSTREAM_HD inline float dielectric_pdf(float eta, float alpha, const glm::vec3& wo,
                                         const glm::vec3& wi) {
  glm::vec3 m;
  float etap;
  if (alpha < kMinGgxAlpha || !detail::dielectric_half_vector(wo, wi, eta, m, etap)) return 0.0f;
  const float o_m = glm::dot(wo, m), i_m = glm::dot(wi, m);
  const float r = fresnel_dielectric(o_m, eta);
  const float visible = ggx_visible_pdf(alpha, wo, m);
  if (same_hemisphere(wo, wi)) return visible / (4.0f * fabsf(o_m)) * r;
  const float denom = (i_m + o_m / etap) * (i_m + o_m / etap);
  return visible * fabsf(i_m) / denom * (1.0f - r);
}

// The lobe of a Refractive material.
struct Dielectric {
  static constexpr BsdfKind kKind = BsdfKind::kDielectric;
  static float alpha_of(float roughness) { return ggx_alpha(roughness); }
  RAYSTREAM_HD static bool delta(const BsdfParams& m) { return m.alpha < kMinGgxAlpha; }
  RAYSTREAM_HD static LobeSample sample(const BsdfParams& m,
                                        const glm::vec3& wo, float uc, float u1, float u2) {
    return dielectric_sample(m.albedo, m.ior, m.alpha, wo, uc, u1, u2);
  }
  RAYSTREAM_HD static glm::vec3 eval(const BsdfParams& m,
                                     const glm::vec3& wo, const glm::vec3& wi) {
    return dielectric_eval(m.albedo, m.ior, m.alpha, wo, wi);
  }
  RAYSTREAM_HD static float pdf(const BsdfParams& m, const glm::vec3& wo, const glm::vec3& wi) {
    return dielectric_pdf(m.ior, m.alpha, wo, wi);
  }
};

}  // namespace raystream
