// The scene file's Objects: spheres and cubes, meshes from OBJ files (their MTL materials added
// once per file) and glTF assets (their materials added once per file), each with its transform.
// The meshes' triangles are queued and carried to world space together (scene_instancing.cpp).
#include <algorithm>
#include <chrono>
#include <filesystem>

#include "core/stop_request.h"
#include "core/stopwatch.h"
#include "io/scene/gltf_loader.h"
#include "io/scene/scene_context.h"

namespace raystream {
namespace {

// TYPE sphere or cube.
Object read_object(SceneContext& c, const Json& j, const std::string& key) {
  JsonReader& r = c.r;
  r.object(j, key);
  r.check_keys(j, key, {"TYPE", "MATERIAL", "TRANS", "ROTAT", "SCALE"});
  Object o;
  const std::string type = lower(r.string(r.require(j, key, "TYPE"), key + ".TYPE"));
  if (type == "sphere") {
    o.shape = ShapeType::sphere;
  } else if (type == "cube") {
    o.shape = ShapeType::cube;
  } else {
    r.fail(key + ".TYPE", "unknown object TYPE \"" + excerpt(j["TYPE"].get<std::string>()) +
                              "\" (expected sphere, cube, mesh or gltf)");
  }
  o.material = material_id(c, r.require(j, key, "MATERIAL"), key + ".MATERIAL");
  read_transform(r, j, key, o);
  check_object_transform(r, key, o);
  return o;
}

// Mesh objects: OBJ files read once each, their MTL materials added to the scene once per file.

// An OBJ file as read once: its mesh, or why it could not be read. Its error and warnings wait
// for the first object that names the file, so they come in the scene file's order.
struct LoadedMesh {
  ObjMesh mesh;
  std::string error;
  std::vector<std::string> warnings;
  bool warned = false;
};

struct MeshCache {
  std::unordered_map<std::string, LoadedMesh> meshes;           // by resolved path
  std::unordered_map<std::string, std::vector<int>> materials;  // scene ids of a file's MTL
  std::unordered_map<std::string, int> fallback;                // a file's default material
  LoadTimes* times = nullptr;

  LoadedMesh& load(const std::string& resolved) {
    const auto found = meshes.find(resolved);
    if (found != meshes.end()) return found->second;
    const auto start = std::chrono::steady_clock::now();
    LoadedMesh loaded;
    try {
      loaded.mesh = load_obj(resolved, loaded.warnings);
    } catch (const SceneError& e) {
      loaded.error = e.what();
    }
    if (times) times->obj_ms += milliseconds_since(start);
    return meshes.emplace(resolved, std::move(loaded)).first->second;
  }
};

// TYPE gltf: glTF files read once each, their materials added to the scene once per file.
struct GltfCache {
  std::unordered_map<std::string, GltfModel> models;            // by resolved path
  std::unordered_map<std::string, std::vector<int>> materials;  // scene ids of a file's materials
};

// Everything the objects share while they are read.
struct ObjectsContext {
  MeshCache meshes;
  GltfCache gltf;
  // The mesh objects' triangles are queued in the objects' order and carried to world space
  // together once every object is read (place_meshes).
  MeshPlacements placements;
};

// The scene ids of the materials of a mesh object's faces (those of its OBJ file's MTL, added
// once per file, named "<file name>:<name>"), and in `fallback` the id for faces without one:
// `missing` (MISSING_MATERIAL) where it is >= 0, else the file's grey default (added once).
const std::vector<int>& mesh_material_ids(SceneContext& c, MeshCache& cache, const std::string& key,
                                          const std::string& file, const std::string& resolved,
                                          const ObjMesh& mesh, int missing, int& fallback) {
  const std::string stem = std::filesystem::path(file).filename().string();
  auto added = cache.materials.find(resolved);
  if (added == cache.materials.end()) {
    added = cache.materials.emplace(resolved, std::vector<int>()).first;
    c.warnings.insert(c.warnings.end(), mesh.material_warnings.begin(),
                      mesh.material_warnings.end());
    // With MISSING_MATERIAL, faces of undefined usemtl names are taken care of: no warning.
    if (missing < 0 && !mesh.undefined_materials_warning.empty())
      c.warnings.push_back(mesh.undefined_materials_warning);
    try {
      added->second = add_mtl_materials(mesh, stem, c.scene, c.textures);
    } catch (const SceneError& e) {
      c.r.fail(key + ".FILE", e.what());
    }
  }
  const bool needs_default = std::any_of(mesh.triangles.begin(), mesh.triangles.end(),
                                         [](const Triangle& t) { return t.material < 0; });
  if (needs_default && missing >= 0) {
    fallback = missing;
  } else if (needs_default) {
    auto it = cache.fallback.find(resolved);
    if (it == cache.fallback.end())
      it = cache.fallback.emplace(resolved, add_default_material(stem, c.scene)).first;
    fallback = it->second;
  }
  if (c.scene.materials.size() > static_cast<std::size_t>(kMaxMaterials)) {
    c.r.fail(key + ".FILE",
             "the scene's materials and the OBJ files' materials are too many "
             "(at most " +
                 std::to_string(kMaxMaterials) + ")");
  }
  return added->second;
}

// TYPE mesh: the OBJ at FILE (relative to the scene file), MATERIAL optional (else the MTL's),
// queued to be transformed to world space and appended to scene.triangles.
void read_mesh_object(SceneContext& c, ObjectsContext& objects, const Json& j,
                      const std::string& key) {
  JsonReader& r = c.r;
  r.check_keys(j, key, {"TYPE", "FILE", "MATERIAL", "MISSING_MATERIAL", "TRANS", "ROTAT", "SCALE"});
  const std::string file = r.path(r.require(j, key, "FILE"), key + ".FILE", "OBJ file path");
  int named = -1;
  if (j.contains("MATERIAL")) named = material_id(c, j["MATERIAL"], key + ".MATERIAL");
  // MISSING_MATERIAL: the scene material of faces whose usemtl the MTL does not define (instead
  // of the grey default), e.g. the Cornell Box files that use an undefined "light".
  int missing = -1;
  if (j.contains("MISSING_MATERIAL")) {
    missing = material_id(c, j["MISSING_MATERIAL"], key + ".MISSING_MATERIAL");
    if (named >= 0)
      r.warn(key + ".MISSING_MATERIAL", "MATERIAL gives every face its material; ignored");
  }
  Object transform;
  read_transform(r, j, key, transform);

  const std::string resolved = beside_scene(c.path, file);
  LoadedMesh& loaded = objects.meshes.load(resolved);
  if (!loaded.error.empty()) r.fail(key + ".FILE", loaded.error);
  if (!loaded.warned) {
    c.warnings.insert(c.warnings.end(), loaded.warnings.begin(), loaded.warnings.end());
    loaded.warned = true;
  }
  const ObjMesh& mesh = loaded.mesh;
  // Scene material ids of this file's faces: MTL materials, or a default for faces without one.
  const std::vector<int>* ids = nullptr;
  int fallback = named;
  if (named < 0)
    ids = &mesh_material_ids(c, objects.meshes, key, file, resolved, mesh, missing, fallback);
  add_triangles(r, key, transform, mesh.triangles, file, named, ids, fallback, objects.placements,
                c.warnings);
}

// The scene ids of a glTF file's materials: its materials and textures join the scene's, once.
const std::vector<int>& gltf_material_ids(SceneContext& c, GltfCache& cache, const std::string& key,
                                          const std::string& resolved, const GltfModel& model) {
  auto added = cache.materials.find(resolved);
  if (added != cache.materials.end()) return added->second;
  added = cache.materials.emplace(resolved, std::vector<int>()).first;
  const int first_texture = static_cast<int>(c.scene.textures.size());
  c.scene.textures.insert(c.scene.textures.end(), model.textures.begin(), model.textures.end());
  for (Material m : model.materials) {
    for (TextureSlot* slot : texture_slots(m))
      if (slot->present()) slot->texture += first_texture;
    added->second.push_back(static_cast<int>(c.scene.materials.size()));
    c.scene.materials.push_back(m);
  }
  if (c.scene.materials.size() > static_cast<std::size_t>(kMaxMaterials))
    c.r.fail(key + ".FILE",
             "the scene's materials and the glTF files' materials are too many "
             "(at most " +
                 std::to_string(kMaxMaterials) + ")");
  return added->second;
}

// TYPE gltf: the default scene of a glTF 2.0 asset at FILE (relative to the scene file), its
// materials (added once per file, named "<file name>:<name>") or MATERIAL for every triangle,
// transformed by TRANS, ROTAT and SCALE.
void read_gltf_object(SceneContext& c, ObjectsContext& objects, const Json& j,
                      const std::string& key) {
  JsonReader& r = c.r;
  r.check_keys(j, key, {"TYPE", "FILE", "MATERIAL", "TRANS", "ROTAT", "SCALE"});
  const std::string file = r.path(r.require(j, key, "FILE"), key + ".FILE", "glTF file path");
  int named = -1;
  if (j.contains("MATERIAL")) named = material_id(c, j["MATERIAL"], key + ".MATERIAL");
  Object transform;
  read_transform(r, j, key, transform);
  const std::string resolved = beside_scene(c.path, file);
  auto found = objects.gltf.models.find(resolved);
  if (found == objects.gltf.models.end()) {
    try {
      found = objects.gltf.models.emplace(resolved, load_gltf(resolved, c.warnings)).first;
    } catch (const SceneError& e) {
      r.fail(key + ".FILE", e.what());
    }
  }
  const GltfModel& model = found->second;
  const std::vector<int>* ids =
      named < 0 ? &gltf_material_ids(c, objects.gltf, key, resolved, model) : nullptr;
  add_triangles(r, key, transform, model.triangles, file, named, ids, -1, objects.placements,
                c.warnings);
}

}  // namespace

bool read_objects(SceneContext& c, const Json& doc) {
  const Json& objects = c.r.require(doc, "", "Objects");
  if (!objects.is_array()) c.r.fail("Objects", "expected an array, got " + json_type_name(objects));
  ObjectsContext context;
  context.meshes.times = c.times;
  context.placements.times = c.times;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if ((i & 1023u) == 0) poll_stop();
    const std::string key = "Objects[" + std::to_string(i) + "]";
    const Json& j = c.r.object(objects[i], key);
    const std::string type =
        j.contains("TYPE") && j["TYPE"].is_string() ? lower(j["TYPE"].get<std::string>()) : "";
    if (type == "mesh") {
      read_mesh_object(c, context, j, key);
    } else if (type == "gltf") {
      read_gltf_object(c, context, j, key);
    } else {
      c.scene.objects.push_back(read_object(c, j, key));
    }
  }
  return place_meshes(c.r, context.placements, c.scene, c.warnings);
}

}  // namespace raystream
