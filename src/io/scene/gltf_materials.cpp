// glTF materials onto the renderer's Pbr type, per texel: the metallic-roughness model's base
// colour, metalness and roughness with their textures, the normal map, emission, alpha, IOR and
// KHR_materials_specular; each texture a slot with its coordinate set, sampler and
// KHR_texture_transform. docs/scene-format.md ("glTF scenes") gives the mapping.
#include <algorithm>
#include <cmath>

#include "io/scene/gltf_builder.h"

namespace raystream::gltf {
namespace {

float clamped(float v, float lo, float hi) {
  return std::min(std::max(v, lo), hi);
}

TextureWrap wrap_mode(int mode) {
  if (mode == TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE) return TextureWrap::clamp;
  if (mode == TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT) return TextureWrap::mirror;
  return TextureWrap::repeat;
}

// What the renderer draws for a material extension it does not implement, for its warning.
std::string rendered_instead(const std::string& extension) {
  if (extension == "KHR_materials_volume")
    return "rendered without a volume (a thin wall: no refraction, no absorption inside)";
  if (extension == "KHR_materials_sheen") return "rendered without the sheen";
  if (extension == "KHR_materials_pbrSpecularGlossiness")
    return "the core metallic-roughness properties are rendered";
  if (extension == "KHR_materials_unlit") return "rendered lit, as a metallic-roughness surface";
  return "rendered without it";
}

}  // namespace

// Tested by GltfWritten.TextureTransformHitsTheSameTexel: with D = diag(1, -1) and e = (0, 1)
// (uv_r = D uv_g + e), the glTF lookup conjugated by the flip is
// uv_r' = R(-rotation) S uv_r + D offset + D R(rotation) S e + e.
void convert_texture_transform(const glm::vec2& offset, float rotation, const glm::vec2& scale,
                               TextureSlot& slot) {
  const float c = std::cos(rotation), s = std::sin(rotation);
  const glm::vec2 rs_e(-s * scale.y, c * scale.y);  // R(rotation) S (0, 1)
  slot.rotation = -rotation;
  slot.scale = scale;
  slot.offset = glm::vec2(offset.x + rs_e.x, -offset.y - rs_e.y + 1.0f);
}

int Builder::material_id(int material) {
  const auto found = material_ids_.find(material);
  if (found != material_ids_.end()) return found->second;
  out_.materials.push_back(map_material(material));
  if (out_.materials.size() > std::size_t(kMaxMaterials))
    fail("materials", "too many materials (at most " + std::to_string(kMaxMaterials) + ")");
  const int id = int(out_.materials.size()) - 1;
  material_ids_[material] = id;
  return id;
}

Material Builder::map_material(int index) {
  Material m;
  m.type = MaterialType::pbr;
  const Json none = Json::object();
  const Json& j = index >= 0 ? doc_["materials"][std::size_t(index)] : none;
  const std::string key = index >= 0 ? "materials[" + std::to_string(index) + "]" : "materials";
  const tinygltf::Material defaults;
  const tinygltf::Material& g = index >= 0 ? m_.materials[std::size_t(index)] : defaults;
  material_name_ = index < 0 ? std::string("default")
                             : (g.name.empty() ? "#" + std::to_string(index) : excerpt(g.name));
  m.name = stem_ + ":" + material_name_;
  const Json& ext = j.contains("extensions") ? j["extensions"] : none;
  float ior = extension_factor(ext, key, "KHR_materials_ior", "ior", 1.5f);
  if (!(ior >= 1.0f)) {
    note(key, "KHR_materials_ior below 1 is rendered as 1.5");
    ior = 1.5f;
  }
  m.ior = ior;
  const float strength =
      extension_factor(ext, key, "KHR_materials_emissive_strength", "emissiveStrength", 1.0f);
  if (strength < 0.0f) fail(key, "emissiveStrength must not be negative");
  map_base(j, key, m);
  map_alpha(j, key, m);
  map_specular(ext, key, m);
  map_layers(ext, key, m);
  m.emission = emission(j, strength, key);
  if (j.contains("emissiveTexture"))
    m.emission_texture = texture_slot(j["emissiveTexture"], key + ".emissiveTexture", 0);
  if (j.contains("normalTexture")) {
    const Json& normal = j["normalTexture"];
    m.normal_texture = texture_slot(normal, key + ".normalTexture", 0);
    if (normal.contains("scale"))
      m.normal_scale = r_.real(normal["scale"], key + ".normalTexture.scale");
  }
  // A path tracer finds the occlusion itself: the baked one would darken twice. Its texture is
  // checked, not read.
  if (j.contains("occlusionTexture"))
    check_index(j["occlusionTexture"]["index"].get<int>(), m_.textures,
                key + ".occlusionTexture.index", "texture");
  m.two_sided = g.doubleSided;
  for (const auto& item : ext.items())
    if (!supported_extension(item.key()))
      note(key + ".extensions", "extension " + excerpt(item.key()) +
                                    " is not supported: " + rendered_instead(item.key()));
  return m;
}

// An extension's factor where the material has it (its type checked), else `fallback`.
float Builder::extension_factor(const Json& ext, const std::string& key, const char* extension,
                                const char* property, float fallback) const {
  if (!ext.contains(extension) || !ext[extension].contains(property)) return fallback;
  return r_.real(ext[extension][property], key + ".extensions." + extension + "." + property);
}

// The base colour (its alpha the opacity), metalness and roughness, and their textures: the
// metallicRoughnessTexture's B is the metalness, its G the roughness.
void Builder::map_base(const Json& j, const std::string& key, Material& m) {
  const Json none = Json::object();
  const Json& pbr = j.contains("pbrMetallicRoughness") ? j["pbrMetallicRoughness"] : none;
  const std::string pkey = key + ".pbrMetallicRoughness";
  glm::vec4 base(1.0f);
  if (pbr.contains("baseColorFactor"))
    for (int c = 0; c < 4; ++c)
      base[c] = r_.real(pbr["baseColorFactor"][std::size_t(c)],
                        pkey + ".baseColorFactor[" + std::to_string(c) + "]");
  if (glm::any(glm::lessThan(base, glm::vec4(0.0f))) ||
      glm::any(glm::greaterThan(base, glm::vec4(1.0f))))
    note(key, "baseColorFactor components outside [0, 1] are clamped");
  base = glm::clamp(base, glm::vec4(0.0f), glm::vec4(1.0f));
  m.color = glm::vec3(base);
  m.opacity = base.w;
  const auto factor = [&](const char* name) {
    if (!pbr.contains(name)) return 1.0f;
    const float v = r_.real(pbr[name], pkey + "." + name);
    if (v < 0.0f || v > 1.0f) note(key, std::string(name) + " outside [0, 1] is clamped");
    return clamped(v, 0.0f, 1.0f);
  };
  m.metallic = factor("metallicFactor");
  m.roughness = factor("roughnessFactor");
  if (pbr.contains("baseColorTexture"))
    m.texture = texture_slot(pbr["baseColorTexture"], pkey + ".baseColorTexture", 0);
  if (pbr.contains("metallicRoughnessTexture")) {
    const std::string tkey = pkey + ".metallicRoughnessTexture";
    m.metallic_texture = texture_slot(pbr["metallicRoughnessTexture"], tkey, 2);
    m.roughness_texture = m.metallic_texture;
    m.roughness_texture.channel = 1;
  }
}

// alphaMode and alphaCutoff; MASK and BLEND read the base colour texture's alpha too.
void Builder::map_alpha(const Json& j, const std::string& key, Material& m) {
  const std::string mode = j.contains("alphaMode") ? j["alphaMode"].get<std::string>() : "OPAQUE";
  if (mode == "MASK") {
    m.alpha_mode = AlphaMode::mask;
  } else if (mode == "BLEND") {
    m.alpha_mode = AlphaMode::blend;
  } else if (mode != "OPAQUE") {
    fail(key + ".alphaMode",
         "unknown alphaMode \"" + excerpt(mode) + "\" (expected OPAQUE, MASK or BLEND)");
  }
  if (j.contains("alphaCutoff")) {
    m.alpha_cutoff = r_.real(j["alphaCutoff"], key + ".alphaCutoff");
    if (m.alpha_cutoff < 0.0f)
      fail(key + ".alphaCutoff", "expected a number >= 0, got " + j["alphaCutoff"].dump());
  }
  if (m.alpha_mode != AlphaMode::opaque && m.texture.present()) {
    m.opacity_texture = m.texture;
    m.opacity_texture.channel = 3;
  }
}

// KHR_materials_specular: the dielectric's specular strength (its texture's A) and colour.
// KHR_materials_transmission (thin-walled) and KHR_materials_clearcoat: factors in [0, 1] and
// their textures (transmission R, clearcoat R, clearcoat roughness G). The clearcoat's own normal
// map is not read (the coat takes the material's shading normal).
void Builder::map_layers(const Json& ext, const std::string& key, Material& m) {
  const auto unit = [&](const char* extension, const char* property, float fallback) {
    const float v = extension_factor(ext, key, extension, property, fallback);
    if (!(v >= 0.0f && v <= 1.0f))
      fail(key + ".extensions." + extension + "." + property, "expected a value in [0, 1]");
    return v;
  };
  const auto slot = [&](const char* extension, const char* name, int channel, TextureSlot& out) {
    if (!ext.contains(extension) || !ext[extension].contains(name)) return;
    const std::string tkey = key + ".extensions." + extension + "." + name;
    const Json& t = ext[extension][name];
    if (!t.is_object() || !t.contains("index"))
      fail(tkey, "expected a textureInfo object with an index");
    out = texture_slot(t, tkey, channel);
  };
  m.transmission = unit("KHR_materials_transmission", "transmissionFactor", 0.0f);
  slot("KHR_materials_transmission", "transmissionTexture", 0, m.transmission_texture);
  m.clearcoat = unit("KHR_materials_clearcoat", "clearcoatFactor", 0.0f);
  slot("KHR_materials_clearcoat", "clearcoatTexture", 0, m.clearcoat_texture);
  m.clearcoat_roughness = unit("KHR_materials_clearcoat", "clearcoatRoughnessFactor", 0.0f);
  slot("KHR_materials_clearcoat", "clearcoatRoughnessTexture", 1, m.clearcoat_roughness_texture);
  if (ext.contains("KHR_materials_clearcoat") &&
      ext["KHR_materials_clearcoat"].contains("clearcoatNormalTexture"))
    note(key, "KHR_materials_clearcoat: clearcoatNormalTexture is not supported; the coat takes "
              "the material's normal");
}

void Builder::map_specular(const Json& ext, const std::string& key, Material& m) {
  if (!ext.contains("KHR_materials_specular")) return;
  const Json& s = ext["KHR_materials_specular"];
  const std::string skey = key + ".extensions.KHR_materials_specular";
  if (s.contains("specularFactor")) {
    m.specular = r_.real(s["specularFactor"], skey + ".specularFactor");
    if (m.specular < 0.0f || m.specular > 1.0f)
      fail(skey + ".specularFactor", "expected a value in [0, 1]");
  }
  if (s.contains("specularColorFactor")) {
    const Json& c = s["specularColorFactor"];
    if (!c.is_array() || c.size() != 3)
      fail(skey + ".specularColorFactor", "expected an array of 3 numbers");
    m.specular_color = r_.vec3(c, skey + ".specularColorFactor");
    if (glm::any(glm::lessThan(m.specular_color, glm::vec3(0.0f))))
      fail(skey + ".specularColorFactor", "expected non-negative components");
  }
  const auto info = [&](const char* name) -> const Json* {
    if (!s.contains(name)) return nullptr;
    if (!s[name].is_object() || !s[name].contains("index"))
      fail(skey + "." + name, "expected a textureInfo object with an index");
    return &s[name];
  };
  if (const Json* t = info("specularTexture"))
    m.specular_texture = texture_slot(*t, skey + ".specularTexture", 3);
  if (const Json* t = info("specularColorTexture"))
    m.specular_color_texture = texture_slot(*t, skey + ".specularColorTexture", 0);
}

// emissiveFactor x emissiveStrength (its texture is the material's emission_texture).
glm::vec3 Builder::emission(const Json& j, float strength, const std::string& key) {
  glm::vec3 emission(0.0f);
  if (j.contains("emissiveFactor"))
    for (int c = 0; c < 3; ++c)
      emission[c] = r_.real(j["emissiveFactor"][std::size_t(c)],
                            key + ".emissiveFactor[" + std::to_string(c) + "]");
  emission = glm::max(emission, glm::vec3(0.0f)) * strength;
  if (!std::isfinite(emission.x) || !std::isfinite(emission.y) || !std::isfinite(emission.z))
    fail(key, "the emission (emissiveFactor x emissiveStrength) overflows a float");
  return emission;
}

// A textureInfo as a slot: its image, coordinate set, sampler and transform; `channel` the one a
// scalar parameter reads.
TextureSlot Builder::texture_slot(const Json& info, const std::string& key, int channel) {
  TextureSlot slot;
  slot.channel = channel;
  if (!info.contains("index")) fail(key + ".index", "missing required property");
  const Json& index = info["index"];
  if (!index.is_number_unsigned())
    fail(key + ".index", "expected an index (an integer >= 0), got " + index.dump());
  const int texture = index.get<int>();
  slot.texture = texture_id(texture, key);
  std::uint64_t set = 0;
  if (info.contains("texCoord")) {
    if (!info["texCoord"].is_number_unsigned())
      fail(key + ".texCoord",
           "expected an index (an integer >= 0), got " + info["texCoord"].dump());
    set = info["texCoord"].get<std::uint64_t>();
  }
  const Json* transform = nullptr;
  if (info.contains("extensions") && info["extensions"].contains("KHR_texture_transform")) {
    transform = &info["extensions"]["KHR_texture_transform"];
    if (transform->contains("texCoord")) {
      const Json& t = (*transform)["texCoord"];
      if (!t.is_number_unsigned())
        fail(key + ".extensions.KHR_texture_transform.texCoord",
             "expected an index (an integer >= 0), got " + t.dump());
      set = t.get<std::uint64_t>();
    }
  }
  if (set > 1)
    fail(key + ".texCoord", "material \"" + material_name_ + "\" reads TEXCOORD_" +
                                std::to_string(set) + "; only TEXCOORD_0 and TEXCOORD_1 are read");
  slot.texcoord = int(set);
  const tinygltf::Texture& t = m_.textures[std::size_t(texture)];
  if (t.sampler >= 0) {
    check_index(t.sampler, m_.samplers, "textures[" + std::to_string(texture) + "].sampler",
                "sampler");
    const tinygltf::Sampler& s = m_.samplers[std::size_t(t.sampler)];
    slot.wrap_u = wrap_mode(s.wrapS);
    slot.wrap_v = wrap_mode(s.wrapT);
    slot.nearest = s.magFilter == TINYGLTF_TEXTURE_FILTER_NEAREST ? 1 : 0;
  }
  if (transform)
    read_texture_transform(*transform, key + ".extensions.KHR_texture_transform", slot);
  return slot;
}

void Builder::read_texture_transform(const Json& transform, const std::string& key,
                                     TextureSlot& slot) {
  const auto pair = [&](const char* name, glm::vec2 fallback) {
    if (!transform.contains(name)) return fallback;
    const Json& v = transform[name];
    if (!v.is_array() || v.size() != 2) fail(key + "." + name, "expected an array of 2 numbers");
    return glm::vec2(r_.real(v[0], key + "." + name + "[0]"),
                     r_.real(v[1], key + "." + name + "[1]"));
  };
  const glm::vec2 offset = pair("offset", glm::vec2(0.0f));
  const glm::vec2 scale = pair("scale", glm::vec2(1.0f));
  const float rotation =
      transform.contains("rotation") ? r_.real(transform["rotation"], key + ".rotation") : 0.0f;
  convert_texture_transform(offset, rotation, scale, slot);
  if (!std::isfinite(slot.offset.x) || !std::isfinite(slot.offset.y))
    fail(key, "the transform overflows a float");
}

int Builder::texture_id(int texture, const std::string& key) {
  check_index(texture, m_.textures, key + ".index", "texture");
  const tinygltf::Texture& t = m_.textures[std::size_t(texture)];
  const std::string tkey = "textures[" + std::to_string(texture) + "]";
  const bool basisu = t.extensions.count("KHR_texture_basisu") != 0;
  if (t.source < 0)
    fail(tkey, basisu ? "its image is KTX2 (KHR_texture_basisu), which is not supported, and it "
                        "has no PNG or JPEG fallback source"
                      : "has no source image (or only an extension's)");
  check_index(t.source, m_.images, tkey + ".source", "image");
  if (context_.ktx2_images.count(t.source))
    fail(tkey, "its image images[" + std::to_string(t.source) +
                   "] is KTX2 (KHR_texture_basisu), which is not supported; a PNG or JPEG "
                   "fallback source is needed");
  if (basisu)
    note(tkey + ".extensions",
         "KHR_texture_basisu (KTX2 images) is not supported; the fallback source image is used");
  const auto found = texture_ids_.find(t.source);
  if (found != texture_ids_.end()) return found->second;
  const auto image = context_.images.find(t.source);
  if (image == context_.images.end())
    fail("images[" + std::to_string(t.source) + "]",
         context_.problem.empty() ? "the image could not be read" : context_.problem);
  out_.textures.push_back(image->second);
  const int id = int(out_.textures.size()) - 1;
  texture_ids_[t.source] = id;
  return id;
}

}  // namespace raystream::gltf
