// The GGX (Trowbridge-Reitz) microfacet distribution shared by the rough conductor and the rough
// dielectric, in the local shading frame (normal +z): the distribution D, Smith's masking with the
// height-correlated shadowing-masking G2 (Heitz 2014, "Understanding the Masking-Shadowing
// Function"), and sampling of the normals visible from a direction (Heitz 2018, "Sampling the GGX
// Distribution of Visible Normals"). The width is alpha = ROUGHNESS^2, the perceptual mapping of
// Burley 2012. Single scattering only: light that would bounce between microfacets is lost (see
// conductor.h for how much).
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/sampling.h"

namespace raystream {

// Below this width a surface is treated as smooth: a delta lobe (the GGX peak would be too narrow
// for float).
inline constexpr float kMinGgxAlpha = 1.0e-3f;

RAYSTREAM_HD inline float ggx_alpha(float roughness) {
  return roughness * roughness;
}

// D(m) for a microfacet normal m in the local frame (m.z = cos theta_m).
RAYSTREAM_HD inline float ggx_d(float alpha, const glm::vec3& m) {
  if (m.z <= 0.0f) return 0.0f;
  const float a2 = alpha * alpha;
  const float t = m.z * m.z * (a2 - 1.0f) + 1.0f;
  return a2 / (kPi * t * t);
}

// Smith's Lambda(w) = (-1 + sqrt(1 + alpha^2 tan^2 theta)) / 2, either hemisphere.
RAYSTREAM_HD inline float ggx_lambda(float alpha, const glm::vec3& w) {
  const float cos2 = w.z * w.z;
  if (cos2 <= 0.0f) return 1.0e30f;
  const float tan2 = fmaxf(0.0f, 1.0f - cos2) / cos2;
  return 0.5f * (-1.0f + sqrtf(1.0f + alpha * alpha * tan2));
}

RAYSTREAM_HD inline float ggx_g1(float alpha, const glm::vec3& w) {
  return 1.0f / (1.0f + ggx_lambda(alpha, w));
}

// Height-correlated shadowing and masking of the pair (wo, wi).
RAYSTREAM_HD inline float ggx_g2(float alpha, const glm::vec3& wo, const glm::vec3& wi) {
  return 1.0f / (1.0f + ggx_lambda(alpha, wo) + ggx_lambda(alpha, wi));
}

// Density of the visible normal m seen from w: D_w(m) = G1(w) max(0, w.m) D(m) / |cos theta_w|.
RAYSTREAM_HD inline float ggx_visible_pdf(float alpha, const glm::vec3& w, const glm::vec3& m) {
  const float cos_w = fabsf(w.z);
  if (cos_w <= 0.0f) return 0.0f;
  return ggx_g1(alpha, w) * fabsf(glm::dot(w, m)) * ggx_d(alpha, m) / cos_w;
}

// A microfacet normal (upper hemisphere) visible from w, with density ggx_visible_pdf, from u in
// [0, 1)^2. w is taken on the upper side.
RAYSTREAM_HD inline glm::vec3 sample_ggx_visible(float alpha, glm::vec3 w, float u1, float u2) {
  if (w.z < 0.0f) w = -w;
  // The view direction in the space where the distribution is the unit hemisphere.
  const glm::vec3 vh = glm::normalize(glm::vec3(alpha * w.x, alpha * w.y, w.z));
  const float len2 = vh.x * vh.x + vh.y * vh.y;
  const glm::vec3 t1 =
      len2 > 0.0f ? glm::vec3(-vh.y, vh.x, 0.0f) / sqrtf(len2) : glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 t2 = glm::cross(vh, t1);
  // A point of the projected disk, the half of it in the view's shadow squeezed.
  const float r = sqrtf(u1);
  const float phi = 2.0f * kPi * u2;
  const float p1 = r * cosf(phi);
  float p2 = r * sinf(phi);
  const float s = 0.5f * (1.0f + vh.z);
  p2 = (1.0f - s) * sqrtf(fmaxf(0.0f, 1.0f - p1 * p1)) + s * p2;
  const glm::vec3 nh = p1 * t1 + p2 * t2 + sqrtf(fmaxf(0.0f, 1.0f - p1 * p1 - p2 * p2)) * vh;
  return glm::normalize(glm::vec3(alpha * nh.x, alpha * nh.y, fmaxf(1.0e-6f, nh.z)));
}

}  // namespace raystream
