// A model file given as the scene, rendered whole (model_scene.h): a glTF asset or an OBJ file.
#include "io/scene/model_scene.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>

#include "core/stopwatch.h"
#include "io/scene/gltf_loader.h"
#include "io/scene/obj_loader.h"
#include "io/scene/scene_context.h"

namespace raystream {

namespace fs = std::filesystem;

Scene model_scene(const std::string& path, Model model) {
  Scene s;
  s.path = path;
  s.materials = std::move(model.materials);
  s.triangles = std::move(model.triangles);
  s.textures = std::move(model.textures);
  s.iterations = 256;
  s.depth = 8;
  const std::string stem = fs::path(path).stem().string();
  s.output_name = stem.empty() ? "render" : stem;
  s.environment.present = true;
  s.environment.constant = glm::vec3(1.0f);
  s.camera = model.has_camera ? model.camera : framing_camera(model.lower, model.upper);
  return s;
}

Camera framing_camera(const glm::vec3& lower, const glm::vec3& upper) {
  const glm::vec3 centre = 0.5f * (lower + upper);
  const float radius = std::max(0.5f * glm::length(upper - lower), 1e-3f);
  Camera c;
  c.width = 800;
  c.height = 600;
  c.fovy_degrees = 20.0f;
  const float distance = 1.1f * radius / std::sin(glm::radians(c.fovy_degrees));
  c.eye = centre + distance * glm::normalize(glm::vec3(0.5f, 0.4f, 1.0f));
  c.lookat = centre;
  c.up = glm::vec3(0.0f, 1.0f, 0.0f);
  return c;
}

Scene gltf_scene(const std::string& path, std::vector<std::string>& warnings) {
  GltfModel model = load_gltf(path, warnings);
  if (!model.has_camera)
    warnings.push_back(path + ": no perspective camera; rendered with one that frames the model");
  return model_scene(path, std::move(model));
}

bool is_obj_path(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".obj";
}

namespace {

// The OBJ file's materials as a model's: its MTL materials and a default for faces without one;
// the triangles' material ids made the model's.
void add_obj_materials(const std::string& path, ObjMesh& mesh, Model& model) {
  const std::string stem = fs::path(path).filename().string();
  Scene materials;  // what the scene loader's helpers add to
  TextureIds textures;
  std::vector<int> ids;
  try {
    ids = add_mtl_materials(mesh, stem, materials, textures);
  } catch (const SceneError& e) {
    throw SceneError(path + ": " + e.what());
  }
  const bool needs_default = std::any_of(mesh.triangles.begin(), mesh.triangles.end(),
                                         [](const Triangle& t) { return t.material < 0; });
  const int fallback = needs_default ? add_default_material(stem, materials) : -1;
  if (materials.materials.size() > static_cast<std::size_t>(kMaxMaterials))
    throw SceneError(path + ": the OBJ file's materials are too many (at most " +
                     std::to_string(kMaxMaterials) + ")");
  for (Triangle& t : mesh.triangles)
    t.material = t.material >= 0 ? ids[static_cast<std::size_t>(t.material)] : fallback;
  model.materials = std::move(materials.materials);
  model.textures = std::move(materials.textures);
}

}  // namespace

Scene obj_scene(const std::string& path, std::vector<std::string>& warnings, LoadTimes& times) {
  const auto start = std::chrono::steady_clock::now();
  ObjMesh mesh = load_obj(path, warnings);
  times.obj_ms += milliseconds_since(start);
  // The mesh takes its materials from the MTL: what is said about them matters.
  warnings.insert(warnings.end(), mesh.material_warnings.begin(), mesh.material_warnings.end());
  if (!mesh.undefined_materials_warning.empty())
    warnings.push_back(mesh.undefined_materials_warning);
  if (mesh.triangles.size() > static_cast<std::size_t>(kMaxTriangles))
    throw SceneError(path + ": too many triangles (at most " + std::to_string(kMaxTriangles) + ")");
  Model model;
  add_obj_materials(path, mesh, model);
  model.lower = model.upper = mesh.triangles.front().v[0];
  for (const Triangle& t : mesh.triangles)
    for (const glm::vec3& p : t.v) {
      if (!in_bounds(p))
        throw SceneError(path + ": a vertex lies beyond +-" + limit_text() +
                         ", the renderer's coordinates");
      model.lower = glm::min(model.lower, p);
      model.upper = glm::max(model.upper, p);
    }
  model.triangles = std::move(mesh.triangles);
  return model_scene(path, std::move(model));
}

std::string obj_scene_notice(const std::string& path) {
  return path +
         ": an OBJ model alone, rendered whole as a glTF asset is: a camera that frames it, a "
         "uniform white sky, 256 samples per pixel, depth 8 (a scene file with a mesh object "
         "chooses these)";
}

}  // namespace raystream
