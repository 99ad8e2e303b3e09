// What every BSDF lobe returns when it samples a direction. All lobes work in the local shading
// frame (normal +z; materials/bsdf.h carries directions in and out), with wo pointing towards
// where the light goes (the viewer) and wi towards where it comes from.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"

namespace raystream {

// A material's parameters at one hit, its textures read (materials/material_eval.h): what every
// lobe's sample / eval / pdf reads. Each lobe reads its own; the others stay unread.
struct BsdfParams {
  glm::vec3 albedo{1.0f};  // Lambertian albedo, conductor reflectance, dielectric tint, base colour
  std::int32_t kind = 1;   // BsdfKind (materials/material_data.h)
  float alpha = 0.0f;      // GGX width (conductor, dielectric, plastic coat, metallic-roughness)
  float ior = 1.5f;        // dielectric: index inside over outside
  float metallic = 0.0f;   // metallic-roughness: the metal's share
  float specular = 1.0f;   // metallic-roughness: KHR_materials_specular's weight of the layer
  glm::vec3 specular_color{1.0f};  // and the colour of its normal-incidence reflectance
  float transmission = 0.0f;       // KHR_materials_transmission: the dielectric's base that
                                   // passes through (thin-walled)
  float clearcoat = 0.0f;          // KHR_materials_clearcoat: the coat's weight
  float clearcoat_alpha = 0.0f;    // and its GGX width
};

struct LobeSample {
  glm::vec3 wi{0.0f};      // unit, local frame
  glm::vec3 weight{0.0f};  // f |cos theta_i| / pdf; zero when there is no sample (the path ends)
  float pdf = 0.0f;        // density per unit solid angle (delta lobes: the choice's probability)
  bool delta = false;      // a specular direction: no other strategy can find it (no MIS)
};

RAYSTREAM_HD inline bool same_hemisphere(const glm::vec3& a, const glm::vec3& b) {
  return a.z * b.z > 0.0f;
}

// The mirror direction of w about the unit normal m (both pointing away from the surface).
RAYSTREAM_HD inline glm::vec3 reflect_local(const glm::vec3& w, const glm::vec3& m) {
  return 2.0f * glm::dot(w, m) * m - w;
}

}  // namespace raystream
