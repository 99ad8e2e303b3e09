// The scene file's Materials: each material's TYPE and the keys its type reads (RGB, EMITTANCE,
// IOR, ROUGHNESS, EMISSION, TWO_SIDED, the Pbr type's METALLIC, SPECULAR, SPECULAR_COLOR,
// TRANSMISSION, CLEARCOAT and CLEARCOAT_ROUGHNESS,
// alpha, and the texture keys), checked, and ignored with a warning by the types
// without them; the materials an OBJ file's MTL library adds; material names looked up.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/stop_request.h"
#include "io/image/image_reader.h"
#include "io/scene/bump_map.h"
#include "io/scene/scene_context.h"

namespace raystream {

int texture_id(Scene& scene, TextureIds& ids, const std::string& resolved) {
  const auto found = ids.find(resolved);
  if (found != ids.end()) return found->second;
  poll_stop();
  scene.textures.push_back(load_texture_image(resolved));
  const int id = static_cast<int>(scene.textures.size()) - 1;
  ids.emplace(resolved, id);
  return id;
}

bool emits(const Material& m) {
  if (m.type != MaterialType::emitting)
    return m.emission.x > 0 || m.emission.y > 0 || m.emission.z > 0;
  return m.emittance > 0 && (m.color.x > 0 || m.color.y > 0 || m.color.z > 0);
}

namespace {

// The TYPE, in any case ("Dielectric" is Refractive's other name).
MaterialType read_material_type(JsonReader& r, const Json& j, const std::string& key) {
  const std::string type_key = key + ".TYPE";
  std::string type = lower(r.string(r.require(j, key, "TYPE"), type_key));
  if (type == "dielectric") type = "refractive";  // the other name of a Refractive material
  std::string names;
#define RAYSTREAM_READ_TYPE(name, scene_name, traits)       \
  if (type == lower(scene_name)) return MaterialType::name; \
  names += std::string(names.empty() ? "" : ", ") + scene_name;
  RAYSTREAM_MATERIAL_TYPES(RAYSTREAM_READ_TYPE)
#undef RAYSTREAM_READ_TYPE
  r.fail(type_key, "unknown material TYPE \"" + excerpt(j["TYPE"].get<std::string>()) +
                       "\" (expected one of " + names + ", or Dielectric for Refractive)");
}

// The types a trait belongs to, for messages: "Specular, Refractive and Plastic".
std::string types_with(unsigned trait) {
  std::vector<std::string> with;
#define RAYSTREAM_TYPE_WITH(name, scene_name, traits) \
  if ((traits)&trait) with.push_back(scene_name);
  RAYSTREAM_MATERIAL_TYPES(RAYSTREAM_TYPE_WITH)
#undef RAYSTREAM_TYPE_WITH
  std::string text;
  for (std::size_t i = 0; i < with.size(); ++i)
    text += (i == 0 ? "" : i + 1 == with.size() ? " and " : ", ") + with[i];
  return text;
}

// RGB and EMITTANCE: the colour (refractive materials default to clear glass; the others need
// theirs), and the emittance an Emitting material needs and the others ignore.
void read_color_and_emittance(JsonReader& r, const Json& j, const std::string& key, Material& m) {
  if (m.type == MaterialType::refractive && !j.contains("RGB")) {
    m.color = glm::vec3(1.0f);
  } else {
    m.color = r.vec3(r.require(j, key, "RGB"), key + ".RGB");
  }
  if (m.color.x < 0 || m.color.y < 0 || m.color.z < 0) {
    r.fail(key + ".RGB", "expected non-negative components");
  }
  if (m.type == MaterialType::emitting) {
    m.emittance = r.real(r.require(j, key, "EMITTANCE"), key + ".EMITTANCE");
  } else if (j.contains("EMITTANCE")) {
    m.emittance = r.real(j["EMITTANCE"], key + ".EMITTANCE");
  }
  if (m.emittance < 0) r.fail(key + ".EMITTANCE", "expected a non-negative number");
  if (m.emittance > 0 && m.type != MaterialType::emitting)
    r.warn(key + ".EMITTANCE",
           "only Emitting materials use EMITTANCE (the others emit EMISSION); ignored");
  // The radiance the renderer uses, as the environment's RGB x SCALE: it must be a float.
  const glm::vec3 radiance = m.color * m.emittance;
  if (m.type == MaterialType::emitting &&
      !(std::isfinite(radiance.x) && std::isfinite(radiance.y) && std::isfinite(radiance.z)))
    r.fail(key + ".EMITTANCE", "RGB x EMITTANCE overflows a float");
}

// IOR, ROUGHNESS, EMISSION and TWO_SIDED where given: checked, and ignored with a warning by the
// types without them (`traits`).
void read_surface_properties(JsonReader& r, const Json& j, const std::string& key, unsigned traits,
                             Material& m) {
  if (j.contains("IOR")) {
    m.ior = r.real(j["IOR"], key + ".IOR");
    if (m.ior <= 0) r.fail(key + ".IOR", "expected a positive index of refraction");
    if (!(traits & kTypeIor))
      r.warn(key + ".IOR", "only " + types_with(kTypeIor) + " materials have an IOR; ignored");
  }
  if (j.contains("ROUGHNESS")) {
    m.roughness = r.real(j["ROUGHNESS"], key + ".ROUGHNESS");
    if (m.roughness < 0 || m.roughness > 1)
      r.fail(key + ".ROUGHNESS", "expected a value in [0, 1]");
    if (m.roughness > 0 && !(traits & kTypeRough))
      r.warn(key + ".ROUGHNESS",
             "only " + types_with(kTypeRough) + " materials are rough; ignored");
    if (m.type == MaterialType::plastic && m.roughness < kMinPlasticRoughness)
      r.warn(key + ".ROUGHNESS", "a Plastic's coat is at least 0.1 rough; rendered as 0.1");
  }
  if (j.contains("EMISSION")) {
    if (m.type == MaterialType::emitting)
      r.fail(key + ".EMISSION",
             "an Emitting material emits RGB x EMITTANCE; EMISSION is for "
             "surfaces that also reflect (Diffuse, Specular, Refractive, Plastic, Pbr)");
    m.emission = r.vec3(j["EMISSION"], key + ".EMISSION");
    if (m.emission.x < 0 || m.emission.y < 0 || m.emission.z < 0)
      r.fail(key + ".EMISSION", "expected non-negative components");
  }
  if (j.contains("TWO_SIDED")) {
    if (!j["TWO_SIDED"].is_boolean())
      r.fail(key + ".TWO_SIDED", "expected true or false, got " + json_type_name(j["TWO_SIDED"]));
    m.two_sided = j["TWO_SIDED"].get<bool>();
    if (!emits(m))
      r.warn(key + ".TWO_SIDED",
             "only emitters (Emitting, or EMISSION above 0) have sides to emit from; ignored");
  }
}

// A texture key: a file name (relative to the scene file's folder), or {"FILE": name,
// "CHANNEL": "R" | "G" | "B" | "A"} (the channel a scalar parameter reads; R by default, for
// greyscale images). `scalar`: whether the parameter reads one channel; `applies`: whether the
// material's type reads it (else a warning that says which types do, `who`).
TextureSlot read_texture_key(JsonReader& r, const Json& j, const std::string& key, const char* name,
                             bool scalar, bool applies, const std::string& who,
                             const std::string& path, Scene& scene, TextureIds& textures) {
  TextureSlot slot;
  if (!j.contains(name)) return slot;
  const std::string texture_key = key + "." + name;
  const Json& value = j[name];
  std::string file;
  if (value.is_object()) {
    r.check_keys(value, texture_key, {"FILE", "CHANNEL"});
    file = r.path(r.require(value, texture_key, "FILE"), texture_key + ".FILE", "image file path");
    if (value.contains("CHANNEL")) {
      const std::string channel_key = texture_key + ".CHANNEL";
      const std::string channel = r.string(value["CHANNEL"], channel_key);
      static const char* kChannels[] = {"R", "G", "B", "A"};
      slot.channel = -1;
      for (int c = 0; c < 4; ++c)
        if (channel == kChannels[c]) slot.channel = c;
      if (slot.channel < 0)
        r.fail(channel_key,
               "expected \"R\", \"G\", \"B\" or \"A\", got \"" + excerpt(channel) + "\"");
      if (!scalar) {
        r.warn(channel_key, "a colour texture reads RGB; ignored");
        slot.channel = 0;
      }
    }
  } else {
    file = r.path(value, texture_key, "image file path (or an object with FILE and CHANNEL)");
  }
  if (!applies) {
    r.warn(texture_key, "only " + who + " materials read " + name + "; ignored");
    return TextureSlot();
  }
  try {
    slot.texture = texture_id(scene, textures, beside_scene(path, file));
  } catch (const SceneError& e) {
    r.fail(texture_key, e.what());
  }
  return slot;
}

// A number in [lo, hi], where the material gives it; warns where the type ignores it.
void read_bounded(JsonReader& r, const Json& j, const std::string& key, const char* name, float lo,
                  float hi, bool applies, const std::string& who, float& value) {
  if (!j.contains(name)) return;
  const std::string value_key = key + "." + name;
  value = r.real(j[name], value_key);
  if (value < lo || value > hi) {
    char range[64];
    std::snprintf(range, sizeof range, "expected a value in [%g, %g]", double(lo), double(hi));
    r.fail(value_key, range);
  }
  if (!applies) r.warn(value_key, "only " + who + " materials have " + name + "; ignored");
}

// The textures of every type that takes them, and the Pbr type's own keys: METALLIC, SPECULAR,
// SPECULAR_COLOR; the normal map, emission texture and alpha of any type that reflects.
void read_textured_parameters(JsonReader& r, const Json& j, const std::string& key,
                              const std::string& path, unsigned traits, Scene& scene,
                              TextureIds& textures, Material& m) {
  const bool pbr = (traits & kTypePbr) != 0;
  const bool reflects = m.type != MaterialType::emitting;
  const std::string pbr_types = types_with(kTypePbr);
  const std::string reflecting = "reflecting (all but Emitting)";
  const auto texture = [&](const char* name, bool scalar, bool applies, const std::string& who) {
    return read_texture_key(r, j, key, name, scalar, applies, who, path, scene, textures);
  };
  m.texture = texture("TEXTURE", false, traits & kTypeTextured, types_with(kTypeTextured));
  read_bounded(r, j, key, "METALLIC", 0.0f, 1.0f, pbr, pbr_types, m.metallic);
  read_bounded(r, j, key, "SPECULAR", 0.0f, 1.0f, pbr, pbr_types, m.specular);
  if (j.contains("SPECULAR_COLOR")) {
    m.specular_color = r.vec3(j["SPECULAR_COLOR"], key + ".SPECULAR_COLOR");
    if (glm::any(glm::lessThan(m.specular_color, glm::vec3(0.0f))))
      r.fail(key + ".SPECULAR_COLOR", "expected non-negative components");
    if (!pbr)
      r.warn(key + ".SPECULAR_COLOR",
             "only " + pbr_types + " materials have SPECULAR_COLOR; ignored");
  }
  m.metallic_texture = texture("METALLIC_TEXTURE", true, pbr, pbr_types);
  m.roughness_texture = texture("ROUGHNESS_TEXTURE", true, pbr, pbr_types);
  m.specular_texture = texture("SPECULAR_TEXTURE", true, pbr, pbr_types);
  m.specular_color_texture = texture("SPECULAR_COLOR_TEXTURE", false, pbr, pbr_types);
  read_bounded(r, j, key, "TRANSMISSION", 0.0f, 1.0f, pbr, pbr_types, m.transmission);
  m.transmission_texture = texture("TRANSMISSION_TEXTURE", true, pbr, pbr_types);
  read_bounded(r, j, key, "CLEARCOAT", 0.0f, 1.0f, pbr, pbr_types, m.clearcoat);
  m.clearcoat_texture = texture("CLEARCOAT_TEXTURE", true, pbr, pbr_types);
  read_bounded(r, j, key, "CLEARCOAT_ROUGHNESS", 0.0f, 1.0f, pbr, pbr_types,
               m.clearcoat_roughness);
  m.clearcoat_roughness_texture = texture("CLEARCOAT_ROUGHNESS_TEXTURE", true, pbr, pbr_types);
  m.emission_texture = texture("EMISSION_TEXTURE", false, reflects, reflecting);
  if (m.emission_texture.present() && !emits(m))
    r.warn(key + ".EMISSION_TEXTURE",
           "EMISSION is black: the texture scales it; nothing is emitted");
  m.normal_texture = texture("NORMAL_TEXTURE", false, reflects, reflecting);
  if (j.contains("NORMAL_SCALE")) {
    m.normal_scale = r.real(j["NORMAL_SCALE"], key + ".NORMAL_SCALE");
    if (!m.normal_texture.present())
      r.warn(key + ".NORMAL_SCALE",
             "scales NORMAL_TEXTURE, which the material does not have; ignored");
  }
  read_bounded(r, j, key, "OPACITY", 0.0f, 1.0f, reflects, reflecting, m.opacity);
  m.opacity_texture = texture("OPACITY_TEXTURE", true, reflects, reflecting);
  // Without ALPHA_MODE: an opacity texture cuts (MASK), a uniform opacity below 1 blends.
  if (m.opacity_texture.present()) {
    m.alpha_mode = AlphaMode::mask;
  } else if (m.opacity < 1.0f) {
    m.alpha_mode = AlphaMode::blend;
  }
  if (j.contains("ALPHA_MODE")) {
    const std::string mode_key = key + ".ALPHA_MODE";
    const std::string mode = r.string(j["ALPHA_MODE"], mode_key);
    if (mode == "OPAQUE") {
      m.alpha_mode = AlphaMode::opaque;
    } else if (mode == "MASK") {
      m.alpha_mode = AlphaMode::mask;
    } else if (mode == "BLEND") {
      m.alpha_mode = AlphaMode::blend;
    } else {
      r.fail(mode_key, "expected \"OPAQUE\", \"MASK\" or \"BLEND\", got \"" + excerpt(mode) + "\"");
    }
    if (!reflects) r.warn(mode_key, "only " + reflecting + " materials have ALPHA_MODE; ignored");
  }
  read_bounded(r, j, key, "ALPHA_CUTOFF", 0.0f, 1.0f, reflects, reflecting, m.alpha_cutoff);
}

// `path`: the scene file (TEXTURE is relative to its folder); textures read go to scene.textures.
Material read_material(JsonReader& r, const std::string& name, const Json& j,
                       const std::string& key, const std::string& path, Scene& scene,
                       TextureIds& textures) {
  r.object(j, key);
  r.check_keys(j, key,
               {"TYPE",
                "RGB",
                "EMITTANCE",
                "IOR",
                "ROUGHNESS",
                "EMISSION",
                "TWO_SIDED",
                "TEXTURE",
                "METALLIC",
                "SPECULAR",
                "SPECULAR_COLOR",
                "OPACITY",
                "ALPHA_MODE",
                "ALPHA_CUTOFF",
                "METALLIC_TEXTURE",
                "ROUGHNESS_TEXTURE",
                "EMISSION_TEXTURE",
                "NORMAL_TEXTURE",
                "NORMAL_SCALE",
                "OPACITY_TEXTURE",
                "SPECULAR_TEXTURE",
                "SPECULAR_COLOR_TEXTURE",
                "TRANSMISSION",
                "TRANSMISSION_TEXTURE",
                "CLEARCOAT",
                "CLEARCOAT_TEXTURE",
                "CLEARCOAT_ROUGHNESS",
                "CLEARCOAT_ROUGHNESS_TEXTURE"},
               {"SPECRGB", "SPECEX"});
  Material m;
  m.name = name;
  m.type = read_material_type(r, j, key);
  if (m.type == MaterialType::plastic) m.roughness = 0.3f;  // a plastic's default coat
  if (m.type == MaterialType::pbr) m.roughness = 0.5f;
  const unsigned traits = material_type_traits(m.type);
  read_color_and_emittance(r, j, key, m);
  read_surface_properties(r, j, key, traits, m);
  read_textured_parameters(r, j, key, path, traits, scene, textures, m);
  return m;
}

}  // namespace

void read_materials(SceneContext& c, const Json& doc, const std::vector<std::string>& order) {
  // A scene of glTF objects alone (or OBJ meshes with their MTL) needs none: an object that
  // names a material then fails naming it.
  if (!doc.contains("Materials")) return;
  const Json& materials = c.r.object(doc["Materials"], "Materials");
  if (materials.size() > static_cast<std::size_t>(kMaxMaterials)) {
    c.r.fail("Materials", std::to_string(materials.size()) + " materials are too many (at most " +
                              std::to_string(kMaxMaterials) + ")");
  }
  // In the file's order (material ids follow it).
  for (const std::string& name : order) {
    const auto it = materials.find(name);
    if (it == materials.end()) continue;  // cannot happen: each key is recorded once
    c.material_ids[name] = static_cast<int>(c.scene.materials.size());
    c.scene.materials.push_back(
        read_material(c.r, name, *it, "Materials." + excerpt(name), c.path, c.scene, c.textures));
  }
}

int material_id(SceneContext& c, const Json& j, const std::string& key) {
  const std::string name = c.r.string(j, key);
  const auto it = c.material_ids.find(name);
  if (it == c.material_ids.end()) {
    // The scene's own materials (not those of OBJ files), the first few of them.
    std::string known;
    std::size_t listed = 0, more = 0;
    for (const Material& m : c.scene.materials) {
      if (m.name.find(':') != std::string::npos) continue;
      if (listed == 8) {
        ++more;
        continue;
      }
      known += (known.empty() ? "" : ", ") + excerpt(m.name, 32);
      ++listed;
    }
    if (more > 0) known += " and " + std::to_string(more) + " more";
    c.r.fail(key, "unknown material \"" + excerpt(name) + "\" (" +
                      (known.empty() ? std::string("the file defines no Materials")
                                     : "defined: " + known) +
                      ")");
  }
  return it->second;
}

namespace {

// An MTL map's image as a slot of `channel`, read into scene.textures on first use; errors name
// the MTL line.
TextureSlot mtl_slot(const KdMap& map, int channel, Scene& scene, TextureIds& textures) {
  TextureSlot slot;
  if (map.path.empty()) return slot;
  try {
    slot.texture = texture_id(scene, textures, map.path);
  } catch (const SceneError& e) {
    throw SceneError(map.origin + ": " + e.what());
  }
  slot.channel = channel;
  return slot;
}

// A bump map's normal map, made once per image and scale.
TextureSlot bump_slot(const KdMap& map, float scale, Scene& scene, TextureIds& textures) {
  const TextureSlot heights = mtl_slot(map, 0, scene, textures);
  if (!heights.present()) return heights;
  char tag[48];
  std::snprintf(tag, sizeof tag, "\n-bm %.9g", double(scale));
  const std::string key = map.path + tag;
  TextureSlot slot;
  const auto found = textures.find(key);
  if (found != textures.end()) {
    slot.texture = found->second;
    return slot;
  }
  scene.textures.push_back(
      normal_map_from_heights(scene.textures[std::size_t(heights.texture)], scale));
  slot.texture = static_cast<int>(scene.textures.size()) - 1;
  textures.emplace(key, slot.texture);
  return slot;
}

// map_d's channel: -imfchan's, else A where the image has any alpha below 1, else R (a grey
// matte).
int opacity_channel(const MaterialMaps& maps, const TextureSlot& slot, const Scene& scene) {
  if (maps.opacity_channel >= 0) return maps.opacity_channel;
  const TextureImage& image = scene.textures[std::size_t(slot.texture)];
  const bool alpha = std::any_of(image.texels.begin(), image.texels.end(),
                                 [](const glm::vec4& t) { return t.w < 1.0f; });
  return alpha ? 3 : 0;
}

}  // namespace

std::vector<int> add_mtl_materials(const ObjMesh& mesh, const std::string& stem, Scene& scene,
                                   TextureIds& textures) {
  std::vector<int> ids;
  for (std::size_t i = 0; i < mesh.materials.size(); ++i) {
    ids.push_back(static_cast<int>(scene.materials.size()));
    scene.materials.push_back(mesh.materials[i]);
    Material& m = scene.materials.back();
    m.name = stem + ":" + mesh.materials[i].name;
    // The images are read here, so that an error can name the scene key too.
    const KdMap* kd_map = i < mesh.kd_maps.size() ? &mesh.kd_maps[i] : nullptr;
    if (kd_map != nullptr) m.texture = mtl_slot(*kd_map, 0, scene, textures);
    if (i >= mesh.maps.size()) continue;
    const MaterialMaps& maps = mesh.maps[i];
    const bool pbr = m.type == MaterialType::pbr;
    const auto channel = [](int given) { return given >= 0 ? given : 0; };
    if (pbr) {
      m.roughness_texture =
          mtl_slot(maps.roughness, channel(maps.roughness_channel), scene, textures);
      m.metallic_texture = mtl_slot(maps.metallic, channel(maps.metallic_channel), scene, textures);
    }
    m.emission_texture = mtl_slot(maps.emission, 0, scene, textures);
    m.normal_texture = mtl_slot(maps.normal, 0, scene, textures);
    if (!m.normal_texture.present())
      m.normal_texture = bump_slot(maps.bump, maps.bump_scale, scene, textures);
    m.opacity_texture = mtl_slot(maps.opacity, 0, scene, textures);
    if (m.opacity_texture.present()) {
      m.opacity_texture.channel = opacity_channel(maps, m.opacity_texture, scene);
      m.alpha_mode = AlphaMode::mask;
      m.alpha_cutoff = 0.5f;
    }
  }
  return ids;
}

int add_default_material(const std::string& stem, Scene& scene) {
  Material grey;
  grey.name = stem + ":default";
  grey.type = MaterialType::diffuse;
  grey.color = glm::vec3(0.8f);
  scene.materials.push_back(grey);
  return static_cast<int>(scene.materials.size()) - 1;
}

}  // namespace raystream
