// glTF materials onto the renderer's: the metallic-roughness model's base colour, metalness,
// roughness, transmission, IOR and emission mapped onto one lobe kind and its parameters, and the
// textures the renderer reads (the base colour's; the emissive texture's mean).
#include <algorithm>
#include <cmath>

#include "io/scene/gltf_builder.h"

namespace raystream::gltf {
namespace {

float clamped(float v, float lo, float hi) {
  return std::min(std::max(v, lo), hi);
}

}  // namespace

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
  const Json none = Json::object();
  const Json& j = index >= 0 ? doc_["materials"][std::size_t(index)] : none;
  const std::string key = index >= 0 ? "materials[" + std::to_string(index) + "]" : "materials";
  const tinygltf::Material defaults;
  const tinygltf::Material& g = index >= 0 ? m_.materials[std::size_t(index)] : defaults;
  m.name = stem_ + ":" +
           (index < 0 ? std::string("default")
                      : (g.name.empty() ? "#" + std::to_string(index) : excerpt(g.name)));
  const Json& ext = j.contains("extensions") ? j["extensions"] : none;
  const float transmission =
      clamped(extension_factor(ext, key, "KHR_materials_transmission", "transmissionFactor", 0.0f),
              0.0f, 1.0f);
  float ior = extension_factor(ext, key, "KHR_materials_ior", "ior", 1.5f);
  if (!(ior >= 1.0f)) {
    note(key, "KHR_materials_ior below 1 is rendered as 1.5");
    ior = 1.5f;
  }
  const float strength =
      extension_factor(ext, key, "KHR_materials_emissive_strength", "emissiveStrength", 1.0f);
  if (strength < 0.0f) fail(key, "emissiveStrength must not be negative");
  map_lobe(g, transmission, key, m);
  m.ior = ior;
  m.emission = emission(g, strength, key);
  m.two_sided = g.doubleSided;
  for (const auto& item : ext.items())
    if (!supported_extension(item.key()))
      note(key + ".extensions", "extension " + excerpt(item.key()) + " is ignored");
  return m;
}

// An extension's factor where the material has it (its type checked), else `fallback`.
float Builder::extension_factor(const Json& ext, const std::string& key, const char* extension,
                                const char* property, float fallback) const {
  if (!ext.contains(extension) || !ext[extension].contains(property)) return fallback;
  return r_.real(ext[extension][property], key + ".extensions." + extension + "." + property);
}

// The lobe kind and its parameters: transmission over metalness over the metallic-roughness
// model's dielectric, each factor rounded to 0 or 1; the base colour and its texture.
void Builder::map_lobe(const tinygltf::Material& g, float transmission, const std::string& key,
                       Material& m) {
  const tinygltf::PbrMetallicRoughness& pbr = g.pbrMetallicRoughness;
  glm::vec3 base(1.0f);
  if (pbr.baseColorFactor.size() == 4)
    base = glm::vec3(float(pbr.baseColorFactor[0]), float(pbr.baseColorFactor[1]),
                     float(pbr.baseColorFactor[2]));
  const float metallic = clamped(float(pbr.metallicFactor), 0.0f, 1.0f);
  const float roughness = clamped(float(pbr.roughnessFactor), 0.0f, 1.0f);
  if (base.x < 0 || base.y < 0 || base.z < 0 || base.x > 1 || base.y > 1 || base.z > 1)
    note(key, "baseColorFactor components outside [0, 1] are clamped");
  m.color = glm::clamp(base, glm::vec3(0.0f), glm::vec3(1.0f));
  if (transmission >= 0.5f) {
    m.type = MaterialType::refractive;
    m.roughness = roughness;
  } else if (metallic >= 0.5f) {
    m.type = MaterialType::specular;
    m.roughness = roughness;
  } else {
    // The metallic-roughness model's dielectric: a diffuse base under a clear coat.
    m.type = MaterialType::plastic;
    m.roughness = std::max(roughness, kMinPlasticRoughness);
  }
  if ((metallic > 0.0f && metallic < 1.0f) || (transmission > 0.0f && transmission < 1.0f))
    note(key, "metallic and transmission factors between 0 and 1 are rounded to 0 or 1");
  if (pbr.baseColorTexture.index >= 0) {
    m.texture.texture =
        texture_id(pbr.baseColorTexture.index, key + ".pbrMetallicRoughness.baseColorTexture");
  }
  if (pbr.metallicRoughnessTexture.index >= 0)
    note(key, "metallicRoughnessTexture is ignored (metalness and roughness are per material)");
  if (g.normalTexture.index >= 0) note(key, "normalTexture is ignored");
  if (g.occlusionTexture.index >= 0) note(key, "occlusionTexture is ignored");
  if (g.alphaMode != "OPAQUE")
    note(key, "alphaMode " + excerpt(g.alphaMode) + " is rendered opaque");
}

// emissiveFactor x emissiveStrength, times the emissive texture's mean where there is one.
glm::vec3 Builder::emission(const tinygltf::Material& g, float strength, const std::string& key) {
  glm::vec3 emission(0.0f);
  if (g.emissiveFactor.size() == 3)
    emission = glm::vec3(float(g.emissiveFactor[0]), float(g.emissiveFactor[1]),
                         float(g.emissiveFactor[2]));
  emission = glm::max(emission, glm::vec3(0.0f)) * strength;
  if (g.emissiveTexture.index >= 0 && (emission.x > 0 || emission.y > 0 || emission.z > 0)) {
    emission *= mean_texture(g.emissiveTexture.index, key + ".emissiveTexture");
    note(key, "emissiveTexture: its mean colour is used (emission is uniform per material)");
  }
  if (!std::isfinite(emission.x) || !std::isfinite(emission.y) || !std::isfinite(emission.z))
    fail(key, "the emission (emissiveFactor x emissiveStrength) overflows a float");
  return emission;
}

int Builder::texture_id(int texture, const std::string& key) {
  check_index(texture, m_.textures, key, "texture");
  const tinygltf::Texture& t = m_.textures[std::size_t(texture)];
  const std::string tkey = "textures[" + std::to_string(texture) + "]";
  if (t.source < 0) fail(tkey, "has no source image (or only an extension's)");
  check_index(t.source, m_.images, tkey + ".source", "image");
  if (t.sampler >= 0) {
    check_index(t.sampler, m_.samplers, tkey + ".sampler", "sampler");
    const tinygltf::Sampler& s = m_.samplers[std::size_t(t.sampler)];
    if (s.wrapS != TINYGLTF_TEXTURE_WRAP_REPEAT || s.wrapT != TINYGLTF_TEXTURE_WRAP_REPEAT)
      note("samplers", "wrap modes other than REPEAT are rendered as REPEAT");
  }
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

glm::vec3 Builder::mean_texture(int texture, const std::string& key) {
  const TextureImage& image = out_.textures[std::size_t(texture_id(texture, key))];
  glm::dvec3 sum(0.0);
  for (const glm::vec4& t : image.texels) sum += glm::dvec3(t);
  return image.texels.empty() ? glm::vec3(1.0f) : glm::vec3(sum / double(image.texels.size()));
}

}  // namespace raystream::gltf
