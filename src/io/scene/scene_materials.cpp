// The scene file's Materials: each material's TYPE and the keys its type reads (RGB, EMITTANCE,
// IOR, ROUGHNESS, EMISSION, TWO_SIDED, TEXTURE), checked, and ignored with a warning by the types
// without them; the materials an OBJ file's MTL library adds; material names looked up.
#include <algorithm>
#include <cmath>

#include "core/stop_request.h"
#include "io/image/image_reader.h"
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
             "surfaces that also reflect (Diffuse, Specular, Refractive, Plastic)");
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

// TEXTURE, relative to the scene file's folder (`path`), read into scene.textures on first use.
void read_material_texture(JsonReader& r, const Json& j, const std::string& key,
                           const std::string& path, unsigned traits, Scene& scene,
                           TextureIds& textures, Material& m) {
  if (!j.contains("TEXTURE")) return;
  const std::string texture_key = key + ".TEXTURE";
  const std::string file = r.path(j["TEXTURE"], texture_key, "image file path");
  if (!(traits & kTypeTextured)) {
    r.warn(texture_key, "only " + types_with(kTypeTextured) + " materials are textured; ignored");
    return;
  }
  try {
    m.texture.texture = texture_id(scene, textures, beside_scene(path, file));
  } catch (const SceneError& e) {
    r.fail(texture_key, e.what());
  }
}

// `path`: the scene file (TEXTURE is relative to its folder); textures read go to scene.textures.
Material read_material(JsonReader& r, const std::string& name, const Json& j,
                       const std::string& key, const std::string& path, Scene& scene,
                       TextureIds& textures) {
  r.object(j, key);
  r.check_keys(j, key,
               {"TYPE", "RGB", "EMITTANCE", "IOR", "ROUGHNESS", "EMISSION", "TWO_SIDED", "TEXTURE"},
               {"SPECRGB", "SPECEX"});
  Material m;
  m.name = name;
  m.type = read_material_type(r, j, key);
  if (m.type == MaterialType::plastic) m.roughness = 0.3f;  // a plastic's default coat
  const unsigned traits = material_type_traits(m.type);
  read_color_and_emittance(r, j, key, m);
  read_surface_properties(r, j, key, traits, m);
  read_material_texture(r, j, key, path, traits, scene, textures, m);
  return m;
}

}  // namespace

void read_materials(SceneContext& c, const Json& doc, const std::vector<std::string>& order) {
  const Json& materials = c.r.object(c.r.require(doc, "", "Materials"), "Materials");
  if (materials.empty()) c.r.fail("Materials", "expected at least one material");
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
    c.r.fail(key, "unknown material \"" + excerpt(name) + "\" (defined: " + known + ")");
  }
  return it->second;
}

std::vector<int> add_mtl_materials(const ObjMesh& mesh, const std::string& stem, Scene& scene,
                                   TextureIds& textures) {
  std::vector<int> ids;
  for (std::size_t i = 0; i < mesh.materials.size(); ++i) {
    ids.push_back(static_cast<int>(scene.materials.size()));
    scene.materials.push_back(mesh.materials[i]);
    scene.materials.back().name = stem + ":" + mesh.materials[i].name;
    // map_Kd: the image is read here, so that the error can name the scene key too.
    const KdMap* kd_map = i < mesh.kd_maps.size() ? &mesh.kd_maps[i] : nullptr;
    if (kd_map != nullptr && !kd_map->path.empty()) {
      try {
        scene.materials.back().texture.texture = texture_id(scene, textures, kd_map->path);
      } catch (const SceneError& e) {
        throw SceneError(kd_map->origin + ": " + e.what());
      }
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
