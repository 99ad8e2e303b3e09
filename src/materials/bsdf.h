// Materials as the kernels see them, and the BSDF interface every material implements:
// sample_bsdf (a direction, its weight f |cos| / pdf, its pdf and whether it is a delta lobe),
// eval_bsdf (f |cos| for a pair of directions) and pdf_bsdf (the density sample_bsdf draws that
// pair with). The lobes live one family per file: lambertian.h, conductor.h, dielectric.h,
// plastic.h; here
// directions go from world space into the local frame of the shading normal and back.
//
// A material may also emit (emission > 0): an emitter is a surface like any other, which reflects
// by its BSDF. The course format's Emitting materials have no BSDF (kind none): they are black.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/sampling.h"
#include "materials/conductor.h"
#include "materials/dielectric.h"
#include "materials/lambertian.h"
#include "materials/plastic.h"

namespace raystream {

struct Material;  // scene/scene.h

enum class BsdfKind : std::int32_t { none, lambertian, conductor, dielectric, plastic };

struct MaterialData {
  glm::vec3 albedo{1.0f};      // Lambertian albedo, conductor reflectance or dielectric tint
  std::int32_t kind = 1;       // BsdfKind
  glm::vec3 emission{0.0f};    // emitted radiance (0: not a light)
  float ior = 1.5f;            // dielectric: index inside over outside
  float alpha = 0.0f;          // GGX width (conductor, dielectric); below kMinGgxAlpha smooth
  std::int32_t two_sided = 1;  // emits from both sides (else only where the normal points)
  std::int32_t texture = -1;   // albedo texture, -1 none
  std::int32_t pad = 0;
};

MaterialData make_material_data(const Material& material);

RAYSTREAM_HD inline bool is_emissive(const MaterialData& m) {
  return m.emission.x > 0.0f || m.emission.y > 0.0f || m.emission.z > 0.0f;
}

// Radiance leaving the surface towards wo (unit, pointing away) with outward unit normal n.
RAYSTREAM_HD inline glm::vec3 emitted_radiance(const MaterialData& m, const glm::vec3& wo,
                                               const glm::vec3& n) {
  return m.two_sided || glm::dot(wo, n) > 0.0f ? m.emission : glm::vec3(0.0f);
}

// True when every direction the BSDF scatters into is a delta (or it scatters none): light
// sampling cannot help there.
RAYSTREAM_HD inline bool is_specular(const MaterialData& m) {
  const auto kind = static_cast<BsdfKind>(m.kind);
  return kind == BsdfKind::none ||
         ((kind == BsdfKind::conductor || kind == BsdfKind::dielectric) && m.alpha < kMinGgxAlpha);
}

// The local frame of unit normal n.
struct ShadingFrame {
  glm::vec3 t, b, n;
  RAYSTREAM_HD explicit ShadingFrame(const glm::vec3& normal) : n(normal) {
    orthonormal_basis(n, t, b);
  }
  RAYSTREAM_HD glm::vec3 to_local(const glm::vec3& v) const {
    return glm::vec3(glm::dot(v, t), glm::dot(v, b), glm::dot(v, n));
  }
  RAYSTREAM_HD glm::vec3 to_world(const glm::vec3& v) const { return v.x * t + v.y * b + v.z * n; }
};

struct BsdfSample {
  glm::vec3 wi{0.0f};      // unit, world space
  glm::vec3 weight{0.0f};  // f |cos| / pdf; zero: the path ends
  float pdf = 0.0f;        // solid-angle density (a delta lobe's: its choice probability)
  bool delta = false;
};

// Samples the direction light arrives from, for light leaving towards wo (unit, away from the
// surface) at a surface with unit outward normal n, with albedo `albedo` (the material's, or its
// texture's). uc chooses between lobes, (u1, u2) the direction.
RAYSTREAM_HD inline BsdfSample sample_bsdf(const MaterialData& m, const glm::vec3& albedo,
                                           const glm::vec3& wo, const glm::vec3& n, float uc,
                                           float u1, float u2) {
  const ShadingFrame frame(n);
  const glm::vec3 o = frame.to_local(wo);
  LobeSample s;
  switch (static_cast<BsdfKind>(m.kind)) {
    case BsdfKind::lambertian:
      s = lambertian_sample(albedo, o, u1, u2);
      break;
    case BsdfKind::conductor:
      s = conductor_sample(albedo, m.alpha, o, u1, u2);
      break;
    case BsdfKind::dielectric:
      s = dielectric_sample(albedo, m.ior, m.alpha, o, uc, u1, u2);
      break;
    case BsdfKind::plastic:
      s = plastic_sample(albedo, m.albedo, m.ior, m.alpha, o, uc, u1, u2);
      break;
    default:
      break;
  }
  BsdfSample b;
  if (!(s.pdf > 0.0f)) return b;  // no sample: zero weight, the path ends
  b.wi = glm::normalize(frame.to_world(s.wi));
  b.weight = s.weight;
  b.pdf = s.pdf;
  b.delta = s.delta;
  return b;
}

// f(wo, wi) |cos theta_i|; zero for delta lobes.
RAYSTREAM_HD inline glm::vec3 eval_bsdf(const MaterialData& m, const glm::vec3& albedo,
                                        const glm::vec3& wo, const glm::vec3& wi,
                                        const glm::vec3& n) {
  const ShadingFrame frame(n);
  const glm::vec3 o = frame.to_local(wo), i = frame.to_local(wi);
  switch (static_cast<BsdfKind>(m.kind)) {
    case BsdfKind::lambertian:
      return lambertian_eval(albedo, o, i);
    case BsdfKind::conductor:
      return conductor_eval(albedo, m.alpha, o, i);
    case BsdfKind::dielectric:
      return dielectric_eval(albedo, m.ior, m.alpha, o, i);
    case BsdfKind::plastic:
      return plastic_eval(albedo, m.ior, m.alpha, o, i);
    default:
      return glm::vec3(0.0f);
  }
}

// The density with which sample_bsdf draws wi given wo; zero for delta lobes.
RAYSTREAM_HD inline float pdf_bsdf(const MaterialData& m, const glm::vec3& wo, const glm::vec3& wi,
                                   const glm::vec3& n) {
  const ShadingFrame frame(n);
  const glm::vec3 o = frame.to_local(wo), i = frame.to_local(wi);
  switch (static_cast<BsdfKind>(m.kind)) {
    case BsdfKind::lambertian:
      return lambertian_pdf(o, i);
    case BsdfKind::conductor:
      return conductor_pdf(m.alpha, o, i);
    case BsdfKind::dielectric:
      return dielectric_pdf(m.ior, m.alpha, o, i);
    case BsdfKind::plastic:
      return plastic_pdf(m.albedo, m.ior, m.alpha, o, i);
    default:
      return 0.0f;
  }
}

}  // namespace raystream
