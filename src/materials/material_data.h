// A material as the kernels see it, and the list of BSDF lobes: each lobe is one type (one file:
// lambertian.h, conductor.h, dielectric.h, plastic.h) with its sample / eval / pdf / delta, listed
// once here; materials/bsdf.h dispatches on the kind.
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
  L(Plastic, plastic)

// none: black (the course's Emitting materials only emit); then one kind per lobe, in list order.
#define RAYSTREAM_LOBE_KIND(lobe, scene_type) k##lobe,
enum class BsdfKind : std::int32_t { none, RAYSTREAM_LOBES(RAYSTREAM_LOBE_KIND) count };
#undef RAYSTREAM_LOBE_KIND
inline constexpr int kBsdfKindCount = static_cast<int>(BsdfKind::count);

struct Material;  // scene/scene.h

struct MaterialData {
  glm::vec3 albedo{1.0f};      // Lambertian albedo, conductor reflectance or dielectric tint
  // BsdfKind; a default material is Lambertian, the first lobe.
  std::int32_t kind = static_cast<std::int32_t>(BsdfKind::kLambertian);
  glm::vec3 emission{0.0f};    // emitted radiance (0: not a light)
  float ior = 1.5f;            // dielectric: index inside over outside
  float alpha = 0.0f;          // GGX width (conductor, dielectric); below kMinGgxAlpha smooth
  std::int32_t two_sided = 1;  // emits from both sides (else only where the normal points)
  std::int32_t texture = -1;   // albedo texture, -1 none
  std::int32_t pad = 0;
};

MaterialData make_material_data(const Material& material);

}  // namespace raystream
