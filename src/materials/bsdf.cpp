#include "materials/bsdf.h"

#include <cmath>

#include "scene/scene.h"

namespace raystream {
namespace {

// The binding of a slot (appended), or -1 for a slot without a texture. Colour parameters read
// the texels as colours (sRGB-decoded), the others as data.
std::int32_t bind(const TextureSlot& slot, bool colour, std::vector<TextureBinding>& bindings) {
  if (!slot.present()) return -1;
  TextureBinding b;
  b.texture = slot.texture;
  b.channel = slot.channel;
  b.texcoord = slot.texcoord;
  b.wrap_u = static_cast<std::int32_t>(slot.wrap_u);
  b.wrap_v = static_cast<std::int32_t>(slot.wrap_v);
  b.nearest = slot.nearest;
  b.srgb = colour ? 1 : 0;
  // uv' = offset + R(rotation) (scale * uv).
  const float c = std::cos(slot.rotation), s = std::sin(slot.rotation);
  b.m[0] = c * slot.scale.x;
  b.m[1] = -s * slot.scale.y;
  b.m[2] = slot.offset.x;
  b.m[3] = s * slot.scale.x;
  b.m[4] = c * slot.scale.y;
  b.m[5] = slot.offset.y;
  bindings.push_back(b);
  return static_cast<std::int32_t>(bindings.size() - 1);
}

}  // namespace

MaterialData make_material_data(const Material& material, std::vector<TextureBinding>& bindings) {
  MaterialData m;
  m.albedo = material.color;
  m.emission = material.emission;
  m.ior = material.ior;
  m.two_sided = material.two_sided ? 1 : 0;
  m.metallic = material.metallic;
  m.roughness = material.roughness;
  m.specular = material.specular;
  m.specular_color = material.specular_color;
  m.transmission = material.transmission;
  m.clearcoat = material.clearcoat;
  m.clearcoat_roughness = material.clearcoat_roughness;
  m.opacity = material.opacity;
  m.alpha_cutoff = material.alpha_cutoff;
  m.alpha_mode = static_cast<std::int32_t>(material.alpha_mode);
  m.normal_scale = material.normal_scale;
  if (material.type == MaterialType::emitting) {
    // The course format's emitters: radiance RGB x EMITTANCE, no reflection, no textures.
    m.kind = static_cast<std::int32_t>(BsdfKind::none);
    m.albedo = glm::vec3(0.0f);
    m.emission = material.color * material.emittance;
    return m;
  }
#define RAYSTREAM_LOBE_OF_TYPE(lobe, scene_type)     \
  if (material.type == MaterialType::scene_type) {   \
    m.kind = static_cast<std::int32_t>(lobe::kKind); \
    m.alpha = lobe::alpha_of(material.roughness);    \
  }
  RAYSTREAM_LOBES(RAYSTREAM_LOBE_OF_TYPE)
#undef RAYSTREAM_LOBE_OF_TYPE
  // Every material that reflects takes its colour from its texture where it has one; the
  // metallic-roughness parameters only where its lobe reads them.
  m.texture = bind(material.texture, true, bindings);
  if (material.type == MaterialType::pbr) {
    m.metallic_texture = bind(material.metallic_texture, false, bindings);
    m.roughness_texture = bind(material.roughness_texture, false, bindings);
    m.specular_texture = bind(material.specular_texture, false, bindings);
    m.specular_color_texture = bind(material.specular_color_texture, true, bindings);
    m.transmission_texture = bind(material.transmission_texture, false, bindings);
    m.clearcoat_texture = bind(material.clearcoat_texture, false, bindings);
    m.clearcoat_roughness_texture = bind(material.clearcoat_roughness_texture, false, bindings);
  }
  m.emission_texture = bind(material.emission_texture, true, bindings);
  m.normal_texture = bind(material.normal_texture, false, bindings);
  if (material.alpha_mode != AlphaMode::opaque)
    m.opacity_texture = bind(material.opacity_texture, false, bindings);
  m.textured = is_textured(m) ? 1 : 0;
  return m;
}

LobeFeatures lobe_features(const MaterialData* materials, std::size_t count) {
  LobeFeatures f;
  f.mask = f.textured_kinds = 0u;
  f.textured = f.rough = f.alpha = false;
  for (std::size_t k = 0; k < count; ++k) {
    const unsigned bit = lobe_bit(static_cast<BsdfKind>(materials[k].kind));
    f.mask |= bit;
    if (is_textured(materials[k])) f.textured_kinds |= bit;
    f.textured = f.textured || is_textured(materials[k]);
    f.rough = f.rough || is_rough(materials[k]);
    f.alpha = f.alpha || materials[k].alpha_mode != 0;
  }
  return f;
}

}  // namespace raystream
