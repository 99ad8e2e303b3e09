// The glTF 2.0 metallic-roughness BRDF (the specification's Appendix B), with
// KHR_materials_specular's weight and colour of the dielectric's layer, KHR_materials_transmission
// (thin-walled) and KHR_materials_clearcoat:
//
//   f          = (1 - clearcoat Fc) material + clearcoat Fc coat
//   material   = (1 - metallic) dielectric + metallic metal
//   metal      = F_schlick(f0 = base colour, v.h) D G2 / (4 |n.v| |n.l|)
//   dielectric = (1 - specular max(Fd)) base + specular Fd D G2 / (4 |n.v| |n.l|)
//   base       = (1 - transmission) base colour / pi       (l on v's side)
//              + transmission base colour D G2 / (4 |n.v| |n.l|), h from l mirrored through the
//                surface (l on the other side: a thin wall, no refraction)
//   Fd         = F_schlick(f0 = min(((ior - 1) / (ior + 1))^2 specular colour, 1), v.h)
//   coat       = D_c G2_c / (4 |n.v| |n.l|),  Fc = F_schlick(0.04, |n.v|)
//
// with D the GGX distribution of width alpha = roughness^2 and G2 the height-correlated Smith
// shadowing-masking (materials/microfacet.h): single scattering, as the specification writes it.
// Metal and dielectric are mixed by the metalness as it is (not rounded), per texel.
//
// Sampled as a mixture of four strategies, each chosen in proportion to its estimated share of
// the energy seen from wo (Schlick at |n.v|): the GGX visible normals (the layer and the metal
// share one distribution), the cosine, the visible normals mirrored through the surface
// (transmission) and the coat's visible normals. The pdf is the whole mixture's, so a sample's
// weight is eval / pdf and MIS with light sampling stays unbiased. Two-sided, like the other
// reflecting lobes; never a delta lobe (alpha is at least kMinMetallicRoughnessAlpha, a mirror
// for any image).
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

RAYSTREAM_HD inline float mr_alpha(float alpha) {
  return fmaxf(alpha, kMinMetallicRoughnessAlpha);
}

// The coat's Fresnel weight (f0 0.04: index 1.5) times its weight, at |n.v| = cos_o.
RAYSTREAM_HD inline float mr_coat(const BsdfParams& p, float cos_o) {
  return p.clearcoat * (0.04f + 0.96f * schlick_weight(cos_o));
}

// The probabilities of the four strategies for a view at cos_o (upper side): GGX reflection,
// cosine, transmission, coat; the last is 1 minus the others.
struct MrStrategies {
  float specular = 0.0f, diffuse = 0.0f, transmission = 0.0f, coat = 0.0f;
};

RAYSTREAM_HD inline MrStrategies mr_strategies(const BsdfParams& p, float cos_o) {
  const float w = schlick_weight(cos_o);
  const glm::vec3 f0 = mr_dielectric_f0(p);
  const glm::vec3 fd = f0 + (glm::vec3(1.0f) - f0) * w;
  const glm::vec3 fm = p.albedo + (glm::vec3(1.0f) - p.albedo) * w;
  const float fd_max = fmaxf(fd.x, fmaxf(fd.y, fd.z));
  const float coat = mr_coat(p, cos_o);
  const float under = 1.0f - coat;
  const float base = under * (1.0f - p.metallic) * (1.0f - p.specular * fd_max) *
                     mr_luminance(p.albedo);
  MrStrategies s;
  s.specular = under * ((1.0f - p.metallic) * p.specular * mr_luminance(fd) +
                        p.metallic * mr_luminance(fm));
  s.diffuse = base * (1.0f - p.transmission);
  s.transmission = base * p.transmission;
  s.coat = coat;
  float total = s.specular + s.diffuse + s.transmission + s.coat;
  if (!(total > 0.0f)) {
    s.diffuse = total = 1.0f;
    s.specular = s.transmission = s.coat = 0.0f;
  }
  // Every strategy that has something to find keeps a share of at least 5%.
  const float floor_share = 0.05f * total;
  if (s.specular > 0.0f) s.specular = fmaxf(s.specular, floor_share);
  if (s.diffuse > 0.0f) s.diffuse = fmaxf(s.diffuse, floor_share);
  if (s.transmission > 0.0f) s.transmission = fmaxf(s.transmission, floor_share);
  if (s.coat > 0.0f) s.coat = fmaxf(s.coat, floor_share);
  total = s.specular + s.diffuse + s.transmission + s.coat;
  s.specular /= total;
  s.diffuse /= total;
  s.transmission /= total;
  s.coat = fmaxf(0.0f, 1.0f - s.specular - s.diffuse - s.transmission);
  return s;
}

// D G2 / (4 cos_o) for the pair (o, i) on the upper side (x cos_i: f |cos_i|).
RAYSTREAM_HD inline float mr_microfacet(float alpha, const glm::vec3& o, const glm::vec3& i,
                                        const glm::vec3& m) {
  return ggx_d(alpha, m) * ggx_g2(alpha, o, i) / (4.0f * o.z);
}

// The density of GGX reflection through the visible normals of o reaching i (upper side).
RAYSTREAM_HD inline float mr_reflection_pdf(float alpha, const glm::vec3& o, const glm::vec3& i) {
  const glm::vec3 m = glm::normalize(o + i);
  const float o_m = glm::dot(o, m);
  return o_m > 0.0f ? ggx_visible_pdf(alpha, o, m) / (4.0f * o_m) : 0.0f;
}

// f |cos theta_i| for the pair (wo, wi): reflection on wo's side, transmission on the other.
RAYSTREAM_HD inline glm::vec3 metallic_roughness_eval(const BsdfParams& p, const glm::vec3& wo,
                                                      const glm::vec3& wi) {
  if (wo.z == 0.0f || wi.z == 0.0f) return glm::vec3(0.0f);
  const float alpha = mr_alpha(p.alpha);
  const glm::vec3 o(wo.x, wo.y, fabsf(wo.z)), i(wi.x, wi.y, fabsf(wi.z));
  const glm::vec3 m = glm::normalize(o + i);
  const float w = schlick_weight(fminf(fmaxf(glm::dot(o, m), 0.0f), 1.0f));
  const glm::vec3 f0 = mr_dielectric_f0(p);
  const glm::vec3 fd = f0 + (glm::vec3(1.0f) - f0) * w;
  const float fd_max = fmaxf(fd.x, fmaxf(fd.y, fd.z));
  const float microfacet = mr_microfacet(alpha, o, i, m);
  const glm::vec3 base = (1.0f - p.metallic) * (1.0f - p.specular * fd_max) * p.albedo;
  const float under = 1.0f - mr_coat(p, o.z);
  if (!same_hemisphere(wo, wi)) return under * p.transmission * microfacet * base;
  const glm::vec3 fm = p.albedo + (glm::vec3(1.0f) - p.albedo) * w;
  const glm::vec3 layer = (1.0f - p.metallic) * p.specular * fd + p.metallic * fm;
  glm::vec3 f = under * (layer * microfacet + (1.0f - p.transmission) * base * (i.z / kPi));
  if (p.clearcoat > 0.0f) {
    const float coat_alpha = mr_alpha(p.clearcoat_alpha);
    f += glm::vec3(mr_coat(p, o.z) * mr_microfacet(coat_alpha, o, i, m));
  }
  return f;
}

RAYSTREAM_HD inline float metallic_roughness_pdf(const BsdfParams& p, const glm::vec3& wo,
                                                 const glm::vec3& wi) {
  if (wo.z == 0.0f || wi.z == 0.0f) return 0.0f;
  const glm::vec3 o(wo.x, wo.y, fabsf(wo.z)), i(wi.x, wi.y, fabsf(wi.z));
  const MrStrategies s = mr_strategies(p, o.z);
  if (!same_hemisphere(wo, wi)) return s.transmission * mr_reflection_pdf(mr_alpha(p.alpha), o, i);
  float pdf = s.specular * mr_reflection_pdf(mr_alpha(p.alpha), o, i) + s.diffuse * i.z / kPi;
  if (s.coat > 0.0f) pdf += s.coat * mr_reflection_pdf(mr_alpha(p.clearcoat_alpha), o, i);
  return pdf;
}

RAYSTREAM_HD inline LobeSample metallic_roughness_sample(const BsdfParams& p, const glm::vec3& wo,
                                                         float uc, float u1, float u2) {
  LobeSample s;
  if (wo.z == 0.0f) return s;
  const float side = wo.z < 0.0f ? -1.0f : 1.0f;
  const glm::vec3 o(wo.x, wo.y, side * wo.z);
  const MrStrategies k = mr_strategies(p, o.z);
  glm::vec3 i;
  if (uc < k.diffuse) {
    const glm::vec2 d = sample_concentric_disk(u1, u2);
    i = glm::vec3(d.x, d.y, sqrtf(fmaxf(0.0f, 1.0f - d.x * d.x - d.y * d.y)));
  } else {
    const bool coat = uc >= k.diffuse + k.specular + k.transmission;
    i = reflect_local(o, sample_ggx_visible(mr_alpha(coat ? p.clearcoat_alpha : p.alpha), o, u1,
                                            u2));
    if (i.z <= 0.0f) return s;
    // Transmission: the reflection mirrored through the surface (a thin wall).
    if (!coat && uc >= k.diffuse + k.specular) i.z = -i.z;
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
