#include "materials/bsdf.h"

#include "scene/scene.h"

namespace raystream {

MaterialData make_material_data(const Material& material) {
  MaterialData m;
  m.albedo = material.color;
  m.emission = material.emission;
  m.ior = material.ior;
  m.two_sided = material.two_sided ? 1 : 0;
  // Every material that reflects takes its colour from its texture where it has one (the scene
  // format's TEXTURE is for Diffuse and Plastic; a glTF base colour texture for any); the
  // course's emitters have no colour to texture.
  m.texture = material.type == MaterialType::emitting ? -1 : material.texture;
  if (material.type == MaterialType::emitting) {
    // The course format's emitters: radiance RGB x EMITTANCE, no reflection.
    m.kind = static_cast<std::int32_t>(BsdfKind::none);
    m.albedo = glm::vec3(0.0f);
    m.emission = material.color * material.emittance;
  }
#define RAYSTREAM_LOBE_OF_TYPE(lobe, scene_type)     \
  if (material.type == MaterialType::scene_type) {   \
    m.kind = static_cast<std::int32_t>(lobe::kKind); \
    m.alpha = lobe::alpha_of(material.roughness);    \
  }
  RAYSTREAM_LOBES(RAYSTREAM_LOBE_OF_TYPE)
#undef RAYSTREAM_LOBE_OF_TYPE
  return m;
}

LobeFeatures lobe_features(const MaterialData* materials, std::size_t count) {
  LobeFeatures f;
  f.mask = 0u;
  f.textured = f.rough = false;
  for (std::size_t k = 0; k < count; ++k) {
    f.mask |= lobe_bit(static_cast<BsdfKind>(materials[k].kind));
    f.textured = f.textured || materials[k].texture >= 0;
    f.rough = f.rough || is_rough(materials[k]);
  }
  return f;
}

}  // namespace raystream
