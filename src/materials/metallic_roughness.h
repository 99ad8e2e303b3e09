// The glTF 2.0 metallic-roughness BRDF (the specification's Appendix B), with
// KHR_materials_specular's weight and colour of the dielectric's layer:
//
//   f = (1 - metallic) dielectric + metallic metal
//   metal      = F_schlick(f0 = base colour, v.h) D G2 / (4 cos_o cos_i)
//   dielectric = (1 - specular max(Fd)) base / pi + specular Fd D G2 / (4 cos_o cos_i)
//   Fd         = F_schlick(f0 = min(((ior - 1) / (ior + 1))^2 specular_color, 1), v.h)
//
// with D the GGX distribution of width alpha = roughness^2 and G2 the height-correlated Smith
// shadowing-masking (materials/microfacet.h): single scattering, as the specification writes it.
// Metal and dielectric are mixed by the metalness as it is (not rounded), per texel.
//
// Sampled as a mixture of two strategies: the GGX visible normals (the layer and the metal share
// one distribution) with probability p, else the cosine; p is the layer's estimated share of the
// reflected energy seen from wo (Schlick at cos_o), within [0.05, 0.95] where both strategies have
// something to find. The pdf is the whole mixture's, so a sample's weight is eval / pdf and MIS
// with light sampling stays unbiased. Two-sided, like the other reflecting lobes; never a delta
// lobe (alpha is at least kMinMetallicRoughnessAlpha, a mirror for any image).
#pragma once

#include "core/sampling.h"
#include "materials/lobe.h"
#include "materials/material_data.h"
#include "materials/microfacet.h"

namespace raystream {

inline constexpr float kMinMetallicRoughnessAlpha = 2.0e-3f;

RAYSTREAM_HD inline float mr_luminance(const glm::vec3& c) {
  return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

RAYSTREAM_HD inline float schlick_weight(float cos_theta) {
  const float m = fminf(fmaxf(1.0f - cos_theta, 0.0f), 1.0f);
  const float m2 = m * m;
  return m2 * m2 * m;
}

// The dielectric layer's reflectance at normal incidence.
RAYSTREAM_HD inline glm::vec3 mr_dielectric_f0(const BsdfParams& p) {
  const float r = (p.ior - 1.0f) / (p.ior + 1.0f);
  return glm::min(glm::vec3(r * r) * p.specular_color, glm::vec3(1.0f));
}

RAYSTREAM_HD inline float mr_alpha(const BsdfParams& p) {
  return fmaxf(p.alpha, kMinMetallicRoughnessAlpha);
}

// The probability of sampling the GGX lobe for a view at cos_o (upper side).
RAYSTREAM_HD inline float mr_specular_probability(const BsdfParams& p, float cos_o) {
  const float w = schlick_weight(cos_o);
  const glm::vec3 f0 = mr_dielectric_f0(p);
  const glm::vec3 fd = f0 + (glm::vec3(1.0f) - f0) * w;
  const glm::vec3 fm = p.albedo + (glm::vec3(1.0f) - p.albedo) * w;
  const float fd_max = fmaxf(fd.x, fmaxf(fd.y, fd.z));
  const float layer = (1.0f - p.metallic) * p.specular * mr_luminance(fd) +
                      p.metallic * mr_luminance(fm);
  const float base =
      (1.0f - p.metallic) * (1.0f - p.specular * fd_max) * mr_luminance(p.albedo);
  const float q = layer + base > 0.0f ? layer / (layer + base) : 0.5f;
  return fminf(0.95f, fmaxf(0.05f, q));
}

// f |cos theta_i| for the pair (wo, wi), both on the same side.
RAYSTREAM_HD inline glm::vec3 metallic_roughness_eval(const BsdfParams& p, const glm::vec3& wo,
                                                      const glm::vec3& wi) {
  if (!same_hemisphere(wo, wi)) return glm::vec3(0.0f);
  const float alpha = mr_alpha(p);
  const glm::vec3 o(wo.x, wo.y, fabsf(wo.z)), i(wi.x, wi.y, fabsf(wi.z));
  const glm::vec3 m = glm::normalize(o + i);
  const float w = schlick_weight(fminf(fmaxf(glm::dot(o, m), 0.0f), 1.0f));
  const glm::vec3 f0 = mr_dielectric_f0(p);
  const glm::vec3 fd = f0 + (glm::vec3(1.0f) - f0) * w;
  const glm::vec3 fm = p.albedo + (glm::vec3(1.0f) - p.albedo) * w;
  const float fd_max = fmaxf(fd.x, fmaxf(fd.y, fd.z));
  const float microfacet = ggx_d(alpha, m) * ggx_g2(alpha, o, i) / (4.0f * o.z);  // x cos_i
  const glm::vec3 layer = (1.0f - p.metallic) * p.specular * fd + p.metallic * fm;
  const glm::vec3 base = (1.0f - p.metallic) * (1.0f - p.specular * fd_max) * p.albedo;
  return layer * microfacet + base * (i.z / kPi);
}

RAYSTREAM_HD inline float metallic_roughness_pdf(const BsdfParams& p, const glm::vec3& wo,
                                                 const glm::vec3& wi) {
  if (!same_hemisphere(wo, wi)) return 0.0f;
  const float alpha = mr_alpha(p);
  const glm::vec3 o(wo.x, wo.y, fabsf(wo.z)), i(wi.x, wi.y, fabsf(wi.z));
  const glm::vec3 m = glm::normalize(o + i);
  const float o_m = glm::dot(o, m);
  const float q = mr_specular_probability(p, o.z);
  const float specular = o_m > 0.0f ? ggx_visible_pdf(alpha, o, m) / (4.0f * o_m) : 0.0f;
  return q * specular + (1.0f - q) * i.z / kPi;
}

RAYSTREAM_HD inline LobeSample metallic_roughness_sample(const BsdfParams& p, const glm::vec3& wo,
                                                         float uc, float u1, float u2) {
  LobeSample s;
  if (wo.z == 0.0f) return s;
  const float side = wo.z < 0.0f ? -1.0f : 1.0f;
  const glm::vec3 o(wo.x, wo.y, side * wo.z);
  glm::vec3 i;
  if (uc < mr_specular_probability(p, o.z)) {
    i = reflect_local(o, sample_ggx_visible(mr_alpha(p), o, u1, u2));
    if (i.z <= 0.0f) return s;
  } else {
    const glm::vec2 d = sample_concentric_disk(u1, u2);
    i = glm::vec3(d.x, d.y, sqrtf(fmaxf(0.0f, 1.0f - d.x * d.x - d.y * d.y)));
  }
  s.wi = glm::vec3(i.x, i.y, side * i.z);
  s.pdf = metallic_roughness_pdf(p, wo, s.wi);
  if (s.pdf > 0.0f) s.weight = metallic_roughness_eval(p, wo, s.wi) / s.pdf;
  return s;
}

// The lobe of a Pbr material (glTF's metallic-roughness materials).
struct MetallicRoughness {
  static constexpr BsdfKind kKind = BsdfKind::kMetallicRoughness;
  static float alpha_of(float roughness) {
    return fmaxf(ggx_alpha(roughness), kMinMetallicRoughnessAlpha);
  }
  RAYSTREAM_HD static bool delta(const BsdfParams&) { return false; }
  RAYSTREAM_HD static LobeSample sample(const BsdfParams& m, const glm::vec3& wo, float uc,
                                        float u1, float u2) {
    return metallic_roughness_sample(m, wo, uc, u1, u2);
  }
  RAYSTREAM_HD static glm::vec3 eval(const BsdfParams& m, const glm::vec3& wo,
                                     const glm::vec3& wi) {
    return metallic_roughness_eval(m, wo, wi);
  }
  RAYSTREAM_HD static float pdf(const BsdfParams& m, const glm::vec3& wo, const glm::vec3& wi) {
    return metallic_roughness_pdf(m, wo, wi);
  }
};

}  // namespace raystream
