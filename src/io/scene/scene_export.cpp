#include "io/scene/scene_export.h"

#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <system_error>

#include "core/scene_enums.h"
#include "film/image.h"
#include "io/files/file_identity.h"
#include "io/image/image_output.h"

namespace raystream {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// A float as the shortest decimal that reads back as it: 0.8f as 0.8 (not 0.800000011920929).
double decimal(float value) {
  char text[64] = {};
  std::to_chars(text, text + sizeof text - 1, value);
  return std::strtod(text, nullptr);
}

// Three numbers: a point, a direction or a colour.
Json triple(const glm::vec3& v) {
  return Json::array({decimal(v.x), decimal(v.y), decimal(v.z)});
}

// The enumerator's name of core/scene_enums.h: diffuse, emitting, specular, refractive, plastic.
const char* material_type_name(MaterialType type) {
#define RAYSTREAM_MATERIAL_TYPE_NAME(name, scene_name, traits) \
  if (type == MaterialType::name) return #name;
  RAYSTREAM_MATERIAL_TYPES(RAYSTREAM_MATERIAL_TYPE_NAME)
#undef RAYSTREAM_MATERIAL_TYPE_NAME
  throw std::logic_error("material_type_name: an unlisted material type");
}

std::string texture_file(int texture) {
  return "textures/" + std::to_string(texture) + ".pfm";
}
// A texture's alpha as grey RGB, for the slots that read channel A (PFM has no alpha).
std::string alpha_file(int texture) {
  return "textures/" + std::to_string(texture) + "_alpha.pfm";
}

const char* wrap_name(TextureWrap wrap) {
  return wrap == TextureWrap::clamp ? "clamp" : wrap == TextureWrap::mirror ? "mirror" : "repeat";
}

const char* alpha_mode_name(AlphaMode mode) {
  return mode == AlphaMode::mask ? "mask" : mode == AlphaMode::blend ? "blend" : "opaque";
}

// A texture slot: its file (and, reading A, the alpha's), channel, coordinate set, lookup
// (uv' = offset + R(rotation) (scale * uv), in the renderer's uv: v up the image), wrap and
// filter.
Json slot_json(const TextureSlot& slot) {
  static const char* kChannels[] = {"R", "G", "B", "A"};
  Json j;
  j["file"] = texture_file(slot.texture);
  j["alpha_file"] = slot.channel == 3 ? Json(alpha_file(slot.texture)) : Json(nullptr);
  j["channel"] = kChannels[slot.channel >= 0 && slot.channel < 4 ? slot.channel : 0];
  j["texcoord"] = slot.texcoord;
  j["offset"] = Json::array({decimal(slot.offset.x), decimal(slot.offset.y)});
  j["rotation"] = decimal(slot.rotation);
  j["scale"] = Json::array({decimal(slot.scale.x), decimal(slot.scale.y)});
  j["wrap_u"] = wrap_name(slot.wrap_u);
  j["wrap_v"] = wrap_name(slot.wrap_v);
  j["filter"] = slot.nearest ? "nearest" : "bilinear";
  return j;
}
std::string mesh_file(int material) {
  return "meshes/material_" + std::to_string(material) + ".ply";
}
const char* kEnvironmentFile = "textures/environment.pfm";

Json camera_json(const Camera& c) {
  Json j;
  j["width"] = c.width;
  j["height"] = c.height;
  j["eye"] = triple(c.eye);
  j["lookat"] = triple(c.lookat);
  j["up"] = triple(c.up);
  j["fovy_degrees"] = decimal(c.fovy_degrees);
  j["lens_radius"] = decimal(c.lens_radius);
  j["focal_distance"] = decimal(c.focal_distance);
  j["near_distance"] = decimal(c.near_distance);
  return j;
}

Json material_json(const Material& m) {
  Json j;
  j["name"] = m.name;
  j["type"] = material_type_name(m.type);
  j["color"] = triple(m.color);
  j["emittance"] = decimal(m.emittance);
  j["ior"] = decimal(m.ior);
  j["roughness"] = decimal(m.roughness);
  j["emission"] = triple(m.emission);
  j["two_sided"] = m.two_sided;
  j["texture"] = m.texture.present() ? Json(texture_file(m.texture.texture)) : Json(nullptr);
  j["metallic"] = decimal(m.metallic);
  j["specular"] = decimal(m.specular);
  j["specular_color"] = triple(m.specular_color);
  j["transmission"] = decimal(m.transmission);
  j["clearcoat"] = decimal(m.clearcoat);
  j["clearcoat_roughness"] = decimal(m.clearcoat_roughness);
  j["normal_scale"] = decimal(m.normal_scale);
  j["opacity"] = decimal(m.opacity);
  j["alpha_mode"] = alpha_mode_name(m.alpha_mode);
  j["alpha_cutoff"] = decimal(m.alpha_cutoff);
  // Every slot with a texture, by its field's name (base colour: "texture").
  Json slots = Json::object();
  const std::pair<const char*, const TextureSlot*> named[] = {
      {"texture", &m.texture},
      {"metallic_texture", &m.metallic_texture},
      {"roughness_texture", &m.roughness_texture},
      {"specular_texture", &m.specular_texture},
      {"specular_color_texture", &m.specular_color_texture},
      {"transmission_texture", &m.transmission_texture},
      {"clearcoat_texture", &m.clearcoat_texture},
      {"clearcoat_roughness_texture", &m.clearcoat_roughness_texture},
      {"emission_texture", &m.emission_texture},
      {"normal_texture", &m.normal_texture},
      {"opacity_texture", &m.opacity_texture}};
  for (const auto& [name, slot] : named)
    if (slot->present()) slots[name] = slot_json(*slot);
  j["slots"] = slots;
  return j;
}

// The object's transform, row by row (glm stores it column by column).
Json to_world_json(const Object& object) {
  const glm::mat4 m = object_to_world(object);
  Json j = Json::array();
  for (int row = 0; row < 4; ++row)
    for (int column = 0; column < 4; ++column) j.push_back(decimal(m[column][row]));
  return j;
}

Json environment_json(const Environment& e) {
  Json j;
  j["kind"] = !e.present ? "none" : e.texels.empty() ? "constant" : "map";
  j["color"] = triple(e.present ? e.constant : glm::vec3(0.0f));
  j["file"] = e.present && !e.texels.empty() ? Json(kEnvironmentFile) : Json(nullptr);
  j["rotate_degrees"] = decimal(e.rotate_degrees);
  return j;
}

// The triangles of each material: their count, indexed by material.
std::vector<std::size_t> triangles_per_material(const Scene& scene) {
  std::vector<std::size_t> count(scene.materials.size(), 0);
  for (const Triangle& t : scene.triangles)
    if (t.material >= 0 && std::size_t(t.material) < count.size()) ++count[t.material];
  return count;
}

std::string scene_json(const Scene& scene, const std::vector<std::size_t>& per_material) {
  Json j;
  j["format"] = "raystream-scene-export";
  j["version"] = 1;
  j["camera"] = camera_json(scene.camera);
  j["spp"] = scene.iterations;
  j["depth"] = scene.depth;
  j["materials"] = Json::array();
  for (const Material& m : scene.materials) j["materials"].push_back(material_json(m));
  j["objects"] = Json::array();
  for (const Object& o : scene.objects)
    j["objects"].push_back({{"shape", o.shape == ShapeType::sphere ? "sphere" : "cube"},
                            {"material", o.material},
                            {"to_world", to_world_json(o)}});
  j["meshes"] = Json::array();
  for (std::size_t m = 0; m < per_material.size(); ++m)
    if (per_material[m] > 0) j["meshes"].push_back({{"material", m}, {"file", mesh_file(int(m))}});
  j["environment"] = environment_json(scene.environment);
  return j.dump(1) + "\n";
}

void append(std::vector<unsigned char>& bytes, const std::string& text) {
  bytes.insert(bytes.end(), text.begin(), text.end());
}

// Little-endian, as the host stores it (x86-64, Arm; io/image/image_output.cpp's PFM likewise).
template <class T>
void append_raw(std::vector<unsigned char>& bytes, T value) {
  unsigned char raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  bytes.insert(bytes.end(), raw, raw + sizeof(T));
}

// Texels of `stride` floats (RGB first), row 0 at the top, as a PFM of their RGB.
std::vector<unsigned char> encode_texels_pfm(int width, int height, const float* texels,
                                             int stride) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgb.resize(std::size_t(width) * std::size_t(height) * 3);
  for (std::size_t i = 0; i < std::size_t(width) * std::size_t(height); ++i)
    for (int c = 0; c < 3; ++c) image.rgb[3 * i + c] = texels[i * std::size_t(stride) + c];
  return encode_pfm(image);
}

// The folders from `folder` down that do not exist yet, outermost first.
std::vector<fs::path> missing_folders(const fs::path& folder) {
  std::vector<fs::path> missing;
  std::error_code ec;
  for (fs::path p = folder; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    missing.insert(missing.begin(), p);
    if (p == p.parent_path()) break;
  }
  return missing;
}

// Removes the folders this export created, innermost first; a folder that is not empty stays.
void remove_folders(const std::vector<fs::path>& created) {
  std::error_code ec;
  for (auto it = created.rbegin(); it != created.rend(); ++it) fs::remove(*it, ec);
}

}  // namespace

std::vector<unsigned char> encode_material_ply(const Scene& scene, int material) {
  std::size_t count = 0;
  for (const Triangle& t : scene.triangles) count += t.material == material;
  std::vector<unsigned char> bytes;
  append(bytes, "ply\nformat binary_little_endian 1.0\n");
  append(bytes, "comment raystream scene export: the world-space triangles of material " +
                    std::to_string(material) + "\n");
  append(bytes, "element vertex " + std::to_string(3 * count) + "\n");
  for (const char* p : {"x", "y", "z", "nx", "ny", "nz", "u", "v"})
    append(bytes, std::string("property float ") + p + "\n");
  append(bytes, "element face " + std::to_string(count) +
                    "\nproperty list uchar int vertex_indices\nend_header\n");
  bytes.reserve(bytes.size() + count * (3 * 8 * sizeof(float) + 1 + 3 * sizeof(std::int32_t)));
  for (const Triangle& t : scene.triangles) {
    if (t.material != material) continue;
    for (int k = 0; k < 3; ++k) {
      for (float f :
           {t.v[k].x, t.v[k].y, t.v[k].z, t.n[k].x, t.n[k].y, t.n[k].z, t.uv[k].x, t.uv[k].y})
        append_raw(bytes, f);
    }
  }
  for (std::size_t face = 0; face < count; ++face) {
    append_raw(bytes, std::uint8_t(3));
    for (int k = 0; k < 3; ++k) append_raw(bytes, std::int32_t(3 * face + std::size_t(k)));
  }
  return bytes;
}

std::vector<OutputFile> scene_export_files(const Scene& scene, const std::string& folder) {
  const fs::path base(folder);
  const std::vector<std::size_t> per_material = triangles_per_material(scene);
  const std::string json = scene_json(scene, per_material);
  std::vector<OutputFile> files;
  files.push_back({(base / "scene.json").string(), {json.begin(), json.end()}});
  for (std::size_t m = 0; m < per_material.size(); ++m)
    if (per_material[m] > 0)
      files.push_back({(base / mesh_file(int(m))).string(), encode_material_ply(scene, int(m))});
  for (std::size_t k = 0; k < scene.textures.size(); ++k) {
    const TextureImage& t = scene.textures[k];
    files.push_back(
        {(base / texture_file(int(k))).string(),
         encode_texels_pfm(t.width, t.height, reinterpret_cast<const float*>(t.texels.data()), 4)});
  }
  // The alpha of the textures a slot reads A from.
  std::vector<char> alpha(scene.textures.size(), 0);
  for (const Material& m : scene.materials)
    for (const TextureSlot* slot :
         {&m.texture, &m.metallic_texture, &m.roughness_texture, &m.specular_texture,
          &m.specular_color_texture, &m.emission_texture, &m.normal_texture, &m.opacity_texture})
      if (slot->present() && slot->channel == 3 && std::size_t(slot->texture) < alpha.size())
        alpha[std::size_t(slot->texture)] = 1;
  for (std::size_t k = 0; k < scene.textures.size(); ++k) {
    if (!alpha[k]) continue;
    const TextureImage& t = scene.textures[k];
    std::vector<float> grey(t.texels.size() * 3);
    for (std::size_t i = 0; i < t.texels.size(); ++i)
      grey[3 * i] = grey[3 * i + 1] = grey[3 * i + 2] = t.texels[i].w;
    files.push_back({(base / alpha_file(int(k))).string(),
                     encode_texels_pfm(t.width, t.height, grey.data(), 3)});
  }
  const Environment& e = scene.environment;
  if (e.present && !e.texels.empty())
    files.push_back(
        {(base / kEnvironmentFile).string(),
         encode_texels_pfm(e.width, e.height, reinterpret_cast<const float*>(e.texels.data()), 3)});
  return files;
}

std::string write_scene_export(const Scene& scene, const std::string& folder) {
  if (folder.empty()) throw OutputError("--export-scene: name a folder");
  std::vector<OutputFile> files = scene_export_files(scene, folder);
  std::vector<RenderOutput> outputs;
  for (const OutputFile& f : files) outputs.push_back({f.path, "--export-scene"});
  try {
    check_outputs_are_not_inputs(outputs, scene.inputs);
  } catch (const std::invalid_argument& e) {
    throw OutputError(e.what());
  }
  std::vector<fs::path> wanted = {fs::path(folder)};
  std::size_t meshes = 0, textures = 0;
  for (const OutputFile& f : files) {
    meshes += f.path.size() >= 4 && f.path.compare(f.path.size() - 4, 4, ".ply") == 0;
    textures += f.path.size() >= 4 && f.path.compare(f.path.size() - 4, 4, ".pfm") == 0;
  }
  if (meshes) wanted.push_back(fs::path(folder) / "meshes");
  if (textures) wanted.push_back(fs::path(folder) / "textures");
  std::vector<fs::path> created;
  try {
    for (const fs::path& w : wanted) {
      for (const fs::path& p : missing_folders(w)) {
        std::error_code ec;
        if (!fs::create_directory(p, ec) && ec)
          throw OutputError(p.string() + ": cannot create the folder: " + ec.message());
        created.push_back(p);
      }
      std::error_code ec;
      if (!fs::is_directory(w, ec))
        throw OutputError(w.string() + ": cannot write the export there: not a folder");
    }
    write_files_atomically(files);
  } catch (...) {
    remove_folders(created);
    throw;
  }
  const std::size_t triangles = scene.triangles.size();
  const bool map = scene.environment.present && !scene.environment.texels.empty();
  return scene.path + ": exported to " + folder + ": scene.json, " + std::to_string(meshes) +
         (meshes == 1 ? " mesh" : " meshes") + " (" + std::to_string(triangles) + " triangles), " +
         std::to_string(scene.textures.size()) +
         (scene.textures.size() == 1 ? " texture" : " textures") +
         (map ? ", the environment map" : "");
}

}  // namespace raystream
