// A rough mirror: GGX (Trowbridge-Reitz) microfacet reflection with Smith's separable shadowing
// (Walter et al. 2007, "Microfacet Models for Refraction through Rough Surfaces"). The width is
// alpha = ROUGHNESS^2, the perceptual mapping of Burley 2012. The mirror's colour stands in for
// the Fresnel term, as it does for the perfect mirror, so ROUGHNESS 0 is that mirror exactly.
// Single scattering only: light that would bounce between microfacets is lost, so rougher mirrors
// are a little darker at grazing angles.
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/sampling.h"

namespace raystream {

RAYSTREAM_HD inline float ggx_alpha(float roughness) {
  return roughness * roughness;
}

// Normal distribution D(h) of microfacet normals at cos(theta_h) to the surface normal.
RAYSTREAM_HD inline float ggx_d(float alpha, float cos_h) {
  if (cos_h <= 0.0f) return 0.0f;
  const float a2 = alpha * alpha;
  const float t = cos_h * cos_h * (a2 - 1.0f) + 1.0f;
  return a2 / (kPi * t * t);
}

// Smith's shadowing of one direction at cos(theta_v) to the surface normal.
RAYSTREAM_HD inline float smith_g1(float alpha, float cos_v) {
  if (cos_v <= 0.0f) return 0.0f;
  const float a2 = alpha * alpha;
  return 2.0f * cos_v / (cos_v + sqrtf(a2 + (1.0f - a2) * cos_v * cos_v));
}

// The BRDF for unit directions wo (towards the viewer) and wi (towards the light) on the side of
// unit normal n, without the colour: D G / (4 cos_o cos_i).
RAYSTREAM_HD inline float ggx_brdf(float alpha, const glm::vec3& n, const glm::vec3& wo,
                                   const glm::vec3& wi) {
  const float cos_o = glm::dot(n, wo), cos_i = glm::dot(n, wi);
  if (cos_o <= 0.0f || cos_i <= 0.0f) return 0.0f;
  const glm::vec3 h = glm::normalize(wo + wi);
  return ggx_d(alpha, glm::dot(n, h)) * smith_g1(alpha, cos_o) * smith_g1(alpha, cos_i) /
         (4.0f * cos_o * cos_i);
}

// A microfacet normal around unit n with pdf D(h) cos(theta_h), from u in [0, 1)^2.
RAYSTREAM_HD inline glm::vec3 sample_ggx_normal(const glm::vec3& n, float alpha, float u1,
                                                float u2) {
  const float tan2 = alpha * alpha * u1 / (1.0f - u1);
  const float cos_t = 1.0f / sqrtf(1.0f + tan2);
  const float sin_t = sqrtf(fmaxf(0.0f, 1.0f - cos_t * cos_t));
  const float phi = 2.0f * kPi * u2;
  glm::vec3 t, b;
  orthonormal_basis(n, t, b);
  return glm::normalize(sin_t * cosf(phi) * t + sin_t * sinf(phi) * b + cos_t * n);
}

// The weight f cos_i / pdf of wi = reflect(-wo, h) for h drawn by sample_ggx_normal: with
// pdf(wi) = D cos_h / (4 (wo.h)) it is G (wo.h) / (cos_o cos_h). Zero when wi leaves below the
// surface (the path ends).
RAYSTREAM_HD inline float ggx_sample_weight(float alpha, const glm::vec3& n, const glm::vec3& wo,
                                            const glm::vec3& wi, const glm::vec3& h) {
  const float cos_o = glm::dot(n, wo), cos_i = glm::dot(n, wi);
  const float cos_h = glm::dot(n, h), o_h = glm::dot(wo, h);
  if (cos_o <= 0.0f || cos_i <= 0.0f || cos_h <= 0.0f || o_h <= 0.0f) return 0.0f;
  return smith_g1(alpha, cos_o) * smith_g1(alpha, cos_i) * o_h / (cos_o * cos_h);
}

}  // namespace raystream
