// A material as the kernels see it, and the list of BSDF lobes: each lobe is one type (one file:
// lambertian.h, conductor.h, dielectric.h, plastic.h, metallic_roughness.h) with its sample /
// eval / pdf / delta, listed once here; materials/bsdf.h dispatches on the kind, and
// materials/material_eval.h turns a material and a hit's texture coordinates into the lobe's
// parameters (BsdfParams, materials/lobe.h).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/scene_enums.h"

namespace raystream {

// Every BSDF lobe, once: L(lobe type, the scene's MaterialType it draws). Adding one: its type
// (sample / eval / pdf / delta / alpha_of, in a file of its own, included by materials/bsdf.h),
// its entry here, and its scene-file name in RAYSTREAM_MATERIAL_TYPES (core/scene_enums.h).
#define RAYSTREAM_LOBES(L)  \
  L(Lambertian, diffuse)    \
  L(Conductor, specular)    \
  L(Dielectric, refractive) \
  L(Plastic, plastic)       \
  L(MetallicRoughness, pbr)

// none: black (the course's Emitting materials only emit); then one kind per lobe, in list order.
#define RAYSTREAM_LOBE_KIND(lobe, scene_type) k##lobe,
enum class BsdfKind : std::int32_t { none, RAYSTREAM_LOBES(RAYSTREAM_LOBE_KIND) count };
#undef RAYSTREAM_LOBE_KIND
inline constexpr int kBsdfKindCount = static_cast<int>(BsdfKind::count);

// The textured parameters of a material, once: X(slot). Each is a TextureSlot of the scene's
// Material (scene/scene.h) and a binding index of MaterialData (-1: the factor alone), read by
// materials/material_eval.h. Adding a textured parameter: its factor and slot in Material, its
// entry here, the line that reads it in material_eval.h.
#define RAYSTREAM_MATERIAL_TEXTURES(X)                                                    \
  X(texture) X(metallic_texture) X(roughness_texture) X(specular_texture)                 \
  X(specular_color_texture) X(transmission_texture) X(clearcoat_texture)                  \
  X(clearcoat_roughness_texture) X(emission_texture) X(normal_texture) X(opacity_texture)

struct Material;  // scene/scene.h

struct MaterialData {
  glm::vec3 albedo{1.0f};  // colour factor: Lambertian albedo, conductor reflectance, tint, base
  // BsdfKind; a default material is Lambertian, the first lobe.
  std::int32_t kind = static_cast<std::int32_t>(BsdfKind::kLambertian);
  glm::vec3 emission{0.0f};    // emitted radiance factor (0: not a light)
  float ior = 1.5f;            // dielectric: index inside over outside
  float alpha = 0.0f;          // GGX width (conductor, dielectric, plastic); below kMinGgxAlpha smooth
  std::int32_t two_sided = 1;  // emits from both sides (else only where the normal points)
  float metallic = 0.0f;       // metallic-roughness: metalness factor
  float roughness = 0.0f;      // metallic-roughness: perceptual roughness factor (alpha = r^2)
  glm::vec3 specular_color{1.0f};
  float specular = 1.0f;
  float transmission = 0.0f;
  float clearcoat = 0.0f;
  float clearcoat_roughness = 0.0f;  // perceptual
  float opacity = 1.0f;        // base colour alpha factor
  float alpha_cutoff = 0.5f;
  std::int32_t alpha_mode = 0;  // AlphaMode: 0 opaque, 1 mask, 2 blend
  float normal_scale = 1.0f;
  std::int32_t textured = 0;  // 1: some parameter reads a texture (is_textured)
  // Binding indices of the textured parameters (-1: none).
#define RAYSTREAM_MATERIAL_BINDING(slot) std::int32_t slot = -1;
  RAYSTREAM_MATERIAL_TEXTURES(RAYSTREAM_MATERIAL_BINDING)
#undef RAYSTREAM_MATERIAL_BINDING
};

// Whether any of a material's parameters reads a texture.
RAYSTREAM_HD inline bool is_textured(const MaterialData& m) {
  bool any = false;
#define RAYSTREAM_MATERIAL_ANY(slot) any = any || m.slot >= 0;
  RAYSTREAM_MATERIAL_TEXTURES(RAYSTREAM_MATERIAL_ANY)
#undef RAYSTREAM_MATERIAL_ANY
  return any;
}

}  // namespace raystream
