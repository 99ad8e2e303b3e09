// Materials as the kernels see them, and BSDF sampling: Lambertian (cosine-weighted), perfect
// or rough (GGX) mirror, smooth dielectric (reflect or refract chosen by the Fresnel reflectance,
// total internal reflection). Emitters have no BSDF: a path that hits one ends.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/rng.h"
#include "core/sampling.h"
#include "core/scene_enums.h"
#include "materials/fresnel.h"
#include "materials/microfacet.h"

namespace raystream {

struct Material;  // scene/scene.h

struct MaterialData {
  glm::vec3 color{1.0f};  // albedo, or emitted colour
  float emittance = 0.0f;
  float ior = 1.5f;
  float alpha = 0.0f;     // GGX width of a rough mirror (0: perfect)
  std::int32_t type = 0;  // MaterialType
};

MaterialData make_material_data(const Material& material);

RAYSTREAM_HD inline bool is_emitter(const MaterialData& m) {
  return m.type == static_cast<std::int32_t>(MaterialType::emitting);
}

// Radiance leaving an emitter (both sides).
RAYSTREAM_HD inline glm::vec3 emitted_radiance(const MaterialData& m) {
  return m.color * m.emittance;
}

struct BsdfSample {
  glm::vec3 direction{0.0f};  // unit
  glm::vec3 weight{0.0f};     // f * |cos| / pdf
  glm::vec3 side{0.0f};       // unit normal on the side the new ray leaves from (for the offset)
};

RAYSTREAM_HD inline glm::vec3 reflect_about(const glm::vec3& d, const glm::vec3& n) {
  return d - 2.0f * glm::dot(d, n) * n;
}

// Samples the continuation of a ray with unit direction `d` hitting a surface with unit outward
// normal `n`. Draws two numbers from rng for every material (so the streams stay aligned).
RAYSTREAM_HD inline BsdfSample sample_bsdf(const MaterialData& m, const glm::vec3& d,
                                           const glm::vec3& n, Rng& rng) {
  const float u1 = rng.next_float();
  const float u2 = rng.next_float();
  const bool front = glm::dot(d, n) < 0.0f;
  const glm::vec3 facing = front ? n : -n;  // normal on the side the ray came from
  BsdfSample s;
  s.weight = m.color;
  if (m.type == static_cast<std::int32_t>(MaterialType::specular)) {
    s.side = facing;
    if (m.alpha > 0.0f) {
      const glm::vec3 h = sample_ggx_normal(facing, m.alpha, u1, u2);
      s.direction = glm::normalize(reflect_about(d, h));
      s.weight *= ggx_sample_weight(m.alpha, facing, -d, s.direction, h);
    } else {
      s.direction = glm::normalize(reflect_about(d, facing));
    }
  } else if (m.type == static_cast<std::int32_t>(MaterialType::refractive)) {
    const float eta_i = front ? 1.0f : m.ior;
    const float eta_t = front ? m.ior : 1.0f;
    const float cos_i = fminf(1.0f, fmaxf(0.0f, -glm::dot(d, facing)));
    const float reflectance = fresnel_reflectance(cos_i, eta_i, eta_t);  // 1 under TIR
    if (u1 < reflectance) {
      s.direction = glm::normalize(reflect_about(d, facing));
      s.side = facing;
    } else {
      const float eta = eta_i / eta_t;
      const float cos_t = refracted_cos(cos_i, eta_i, eta_t);
      s.direction = glm::normalize(eta * d + (eta * cos_i - cos_t) * facing);
      s.side = -facing;
    }
    // Choosing by the Fresnel probability makes the weight the tint alone: F / F or T / T.
  } else {
    // Lambertian: f = albedo / pi, pdf = cos / pi, so the weight is the albedo.
    s.direction = sample_cosine_hemisphere(facing, u1, u2);
    s.side = facing;
  }
  return s;
}

}  // namespace raystream
