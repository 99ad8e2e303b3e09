// A material at one hit: its parameters with their textures read (each parameter is its factor
// times its texture's value where it has one: RAYSTREAM_MATERIAL_TEXTURES lists them), the one
// place the shading code reads material textures. The lobes then see only BsdfParams.
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"
#include "materials/lobe.h"
#include "materials/material_data.h"
#include "materials/microfacet.h"
#include "materials/texture.h"

namespace raystream {

// The textures of a scene as the shading code reads them. The functions below take it and
// TexCoords by value: the compiler may keep a lookup a call rather than inline it, and a reference
// to a kernel parameter's member passed to a call makes the kernel copy its whole parameter block
// into local memory per thread.
struct MaterialTextures {
  const TextureView* views = nullptr;        // TextureBinding::texture indexes this
  const TextureBinding* bindings = nullptr;  // MaterialData's binding indices index this
};

// Where a hit reads its textures: both sets of texture coordinates and the level of detail of
// the ray's footprint there (log2 texels of a texture of 1 x 1 texel; a texture adds log2 of its
// size).
struct TexCoords {
  glm::vec2 uv0{0.0f}, uv1{0.0f};
  float lod = 0.0f;
};

// The value of binding `b` at the hit (white where b < 0).
RAYSTREAM_HD inline glm::vec4 read_binding(MaterialTextures tx, std::int32_t b, TexCoords tc) {
  if (b < 0) return glm::vec4(1.0f);
  const TextureBinding& binding = tx.bindings[b];
  const TextureView& view = tx.views[binding.texture];
  return sample_texture(view, binding, binding_uv(binding, tc.uv0, tc.uv1), tc.lod);
}

// A scalar parameter: the binding's channel.
RAYSTREAM_HD inline float read_channel(MaterialTextures tx, std::int32_t b, TexCoords tc) {
  if (b < 0) return 1.0f;
  const glm::vec4 v = read_binding(tx, b, tc);
  const std::int32_t c = tx.bindings[b].channel;
  return c == 0 ? v.x : (c == 1 ? v.y : (c == 2 ? v.z : v.w));
}

// The lobe's parameters at the hit. Textures false: the factors alone (code compiled for
// untextured materials leaves every lookup out).
template <bool Textures = true>
RAYSTREAM_HD inline BsdfParams bsdf_params(const MaterialData& m, MaterialTextures tx,
                                           TexCoords tc) {
  BsdfParams p;
  p.kind = m.kind;
  p.albedo = m.albedo;
  p.alpha = m.alpha;
  p.ior = m.ior;
  p.metallic = m.metallic;
  p.specular = m.specular;
  p.specular_color = m.specular_color;
  p.transmission = m.transmission;
  p.clearcoat = m.clearcoat;
  p.clearcoat_alpha = ggx_alpha(m.clearcoat_roughness);
  if constexpr (Textures) {
    if (m.texture >= 0) p.albedo *= glm::vec3(read_binding(tx, m.texture, tc));
    if (m.metallic_texture >= 0) p.metallic *= read_channel(tx, m.metallic_texture, tc);
    if (m.roughness_texture >= 0) {
      const float r = m.roughness * read_channel(tx, m.roughness_texture, tc);
      p.alpha = fmaxf(ggx_alpha(r), kMinGgxAlpha);
    }
    if (m.specular_texture >= 0) p.specular *= read_channel(tx, m.specular_texture, tc);
    if (m.specular_color_texture >= 0)
      p.specular_color *= glm::vec3(read_binding(tx, m.specular_color_texture, tc));
    if (m.transmission_texture >= 0) p.transmission *= read_channel(tx, m.transmission_texture, tc);
    if (m.clearcoat_texture >= 0) p.clearcoat *= read_channel(tx, m.clearcoat_texture, tc);
    if (m.clearcoat_roughness_texture >= 0)
      p.clearcoat_alpha =
          ggx_alpha(m.clearcoat_roughness * read_channel(tx, m.clearcoat_roughness_texture, tc));
  }
  return p;
}

// The albedo alone (the denoiser's first-hit albedo).
template <bool Textures = true>
RAYSTREAM_HD inline glm::vec3 albedo_at(const MaterialData& m, MaterialTextures tx, TexCoords tc) {
  if (Textures && m.texture >= 0) return m.albedo * glm::vec3(read_binding(tx, m.texture, tc));
  return m.albedo;
}

// The emitted radiance factor at the hit (emission x its texture's RGB).
RAYSTREAM_HD inline glm::vec3 emission_at(const MaterialData& m, MaterialTextures tx,
                                          TexCoords tc) {
  if (m.emission_texture < 0) return m.emission;
  return m.emission * glm::vec3(read_binding(tx, m.emission_texture, tc));
}

// The opacity at the hit (the factor x its texture's channel).
RAYSTREAM_HD inline float opacity_at(const MaterialData& m, MaterialTextures tx, TexCoords tc) {
  return m.opacity_texture < 0 ? m.opacity : m.opacity * read_channel(tx, m.opacity_texture, tc);
}

// The normal map's direction at the hit in tangent space (x along the tangent, y the bitangent,
// z the normal), unit, x and y scaled by normal_scale; (0, 0, 1) without one.
RAYSTREAM_HD inline glm::vec3 tangent_space_normal(const MaterialData& m, MaterialTextures tx,
                                                   TexCoords tc) {
  if (m.normal_texture < 0) return glm::vec3(0.0f, 0.0f, 1.0f);
  const glm::vec4 t = read_binding(tx, m.normal_texture, tc);
  glm::vec3 n(2.0f * t.x - 1.0f, 2.0f * t.y - 1.0f, 2.0f * t.z - 1.0f);
  n.x *= m.normal_scale;
  n.y *= m.normal_scale;
  const float length = glm::length(n);
  return length > 1.0e-6f && n.z > -1.0f ? n / length : glm::vec3(0.0f, 0.0f, 1.0f);
}

}  // namespace raystream
