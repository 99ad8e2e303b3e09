// A model file given as the scene, rendered whole: `raystream model.glb` (a glTF asset) and
// `raystream model.obj` (an OBJ file with its MTL materials) go through one path, model_scene().
// docs/scene-format.md ("glTF scenes", "Meshes") gives the defaults.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "io/scene/scene_loader.h"
#include "scene/scene.h"

namespace raystream {

// A model as the renderer takes it, from a glTF asset or an OBJ file.
struct Model {
  // In the model's world space; material: index into materials.
  std::vector<Triangle> triangles;
  // Named "<file name>:<material name>"; texture: index into textures.
  std::vector<Material> materials;
  std::vector<TextureImage> textures;
  bool has_camera = false;  // the model's own camera (a glTF asset's)
  Camera camera;
  glm::vec3 lower{0.0f}, upper{0.0f};  // the triangles' bounds
};

// The scene of a model read from `path`, rendered whole: its triangles, materials and textures,
// its camera or else framing_camera(), a uniform white environment of radiance 1, ITERATIONS 256,
// DEPTH 8, the output named after the file.
Scene model_scene(const std::string& path, Model model);

// A camera that frames the box [lower, upper]: it looks at the centre from above, right and in
// front (direction (0.5, 0.4, 1)), FOVY 20, far enough for the bounding sphere to fill the view,
// 800 x 600 pixels.
Camera framing_camera(const glm::vec3& lower, const glm::vec3& upper);

// `raystream model.glb`: the asset's default scene (gltf_loader.h), with a warning where it has no
// perspective camera.
Scene gltf_scene(const std::string& path, std::vector<std::string>& warnings);

// True for a path named .obj (any case).
bool is_obj_path(const std::string& path);

// `raystream model.obj`: the OBJ file's triangles (obj_loader.h) with its MTL materials, named
// "<file name>:<name>", their map_Kd textures, and a grey diffuse "<file name>:default" for faces
// without a material. Warnings: the file's, its materials' included. Its reading time is added to
// times.obj_ms. Throws SceneError naming the file: the errors of load_obj, a map_Kd image that
// cannot be read (naming the MTL line), too many materials or triangles, or a vertex beyond the
// renderer's coordinates.
Scene obj_scene(const std::string& path, std::vector<std::string>& warnings, LoadTimes& times);

// The notice that says how obj_scene renders the file at `path`.
std::string obj_scene_notice(const std::string& path);

}  // namespace raystream
