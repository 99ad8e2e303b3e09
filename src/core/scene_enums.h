// The kinds of shape and material, shared by the scene loader (which reads them from JSON) and the
// per-path code (which branches on them), so device headers need not include the loader's types.
#pragma once

namespace raystream {

// What a material type of the scene format accepts beyond RGB (the loader warns about a key the
// type ignores).
enum MaterialTypeTraits : unsigned {
  kTypeRough = 1u,     // ROUGHNESS
  kTypeIor = 2u,       // IOR
  kTypeTextured = 4u,  // TEXTURE (and an MTL map_Kd)
  kTypePbr = 8u,       // METALLIC, SPECULAR, SPECULAR_COLOR and their textures (and MTL Pm, map_Pm)
};

// Every material type of the scene format, once: X(enumerator, scene-file name, traits). A type
// that reflects is drawn by one BSDF lobe (materials/bsdf.h lists which); the course's Emitting
// only emits.
#define RAYSTREAM_MATERIAL_TYPES(X)                  \
  X(diffuse, "Diffuse", kTypeTextured)               \
  X(emitting, "Emitting", 0u)                        \
  X(specular, "Specular", kTypeRough)                \
  X(refractive, "Refractive", kTypeRough | kTypeIor) \
  X(plastic, "Plastic", kTypeRough | kTypeIor | kTypeTextured)      \
  X(pbr, "Pbr", kTypeRough | kTypeIor | kTypeTextured | kTypePbr)

#define RAYSTREAM_MATERIAL_TYPE_ENUMERATOR(name, scene_name, traits) name,
enum class MaterialType { RAYSTREAM_MATERIAL_TYPES(RAYSTREAM_MATERIAL_TYPE_ENUMERATOR) };
#undef RAYSTREAM_MATERIAL_TYPE_ENUMERATOR

// The traits of a material type.
constexpr unsigned material_type_traits(MaterialType type) {
#define RAYSTREAM_MATERIAL_TYPE_TRAITS(name, scene_name, traits) \
  if (type == MaterialType::name) return traits;
  RAYSTREAM_MATERIAL_TYPES(RAYSTREAM_MATERIAL_TYPE_TRAITS)
#undef RAYSTREAM_MATERIAL_TYPE_TRAITS
  return 0u;
}

enum class ShapeType { sphere, cube };

}  // namespace raystream
