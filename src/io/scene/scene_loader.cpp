// The scene loader's driver: it reads the document, checks its top level and calls the parts that
// read each key (scene_context.h names them), then judges whether anything lights the scene. A
// glTF asset or an OBJ file given as the scene is rendered whole instead (model_scene.h).
#include "io/scene/scene_loader.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "core/stopwatch.h"
#include "io/files/input_file.h"
#include "io/scene/gltf_loader.h"
#include "io/scene/model_scene.h"
#include "io/scene/scene_context.h"

namespace raystream {
namespace {

// Warns when nothing lights the scene: no object emits, no mesh triangle emits
// (`lit_triangles`) and no environment that is not black.
void check_lit(SceneContext& c, bool lit_triangles) {
  const Scene& scene = c.scene;
  const bool sky = environment_is_lit(scene.environment);
  const bool lit =
      sky ||
      std::any_of(scene.objects.begin(), scene.objects.end(),
                  [&](const Object& o) {
                    return emits(scene.materials[static_cast<std::size_t>(o.material)]);
                  }) ||
      lit_triangles;
  if (scene.objects.empty() && scene.triangles.empty()) {
    if (!sky) c.r.warn("Objects", "the scene has no objects; the image will be black");
  } else if (!lit) {
    c.r.warn("", std::string("no emitter: no object has an Emitting material with EMITTANCE > 0 "
                             "and a non-zero RGB") +
                     (scene.environment.present ? ", and the Environment is black" : "") +
                     "; the image will be black");
  }
}

Scene parse_scene_timed(const std::string& text, const std::string& path,
                        std::vector<std::string>& warnings, LoadTimes* times) {
  std::vector<std::string> material_order;  // the materials' ids follow the file's order
  const Json doc = parse_json(text, path, "Materials", material_order);

  JsonReader r(path, warnings);
  r.object(doc, "the top level");
  r.check_keys(doc, "", {"Materials", "Camera", "Objects", "Environment"});

  Scene scene;
  scene.path = path;
  SceneContext c(r, path, warnings, scene);
  c.times = times;
  read_materials(c, doc, material_order);
  read_camera(c, doc);
  const bool lit_triangles = read_objects(c, doc);
  read_environment(c, doc);
  check_lit(c, lit_triangles);
  return scene;
}

}  // namespace

std::string beside_scene(const std::string& scene_path, const std::string& file) {
  return (std::filesystem::path(scene_path).parent_path() / std::filesystem::path(file))
      .lexically_normal()
      .string();
}

Scene parse_scene(const std::string& text, const std::string& path,
                  std::vector<std::string>& warnings) {
  return parse_scene_timed(text, path, warnings, nullptr);
}

Scene load_scene(const std::string& path, std::vector<std::string>& warnings) {
  LoadReport report;
  return load_scene(path, warnings, report);
}

Scene load_scene(const std::string& path, std::vector<std::string>& warnings, LoadReport& report) {
  const auto start = std::chrono::steady_clock::now();
  report = LoadReport();
  LoadTimes& times = report.times;
  InputFileLog inputs;  // every file the load reads, so that no output replaces one
  // A glTF asset or an OBJ file is a scene of its own (a glTF camera, or one that frames the
  // model, and a default sky).
  Scene scene;
  if (is_gltf_path(path)) {
    scene = gltf_scene(path, warnings);
  } else if (is_obj_path(path)) {
    scene = obj_scene(path, warnings, times);
    report.notices.push_back(obj_scene_notice(path));
  } else {
    scene = parse_scene_timed(read_input_file(path, kSceneFile), path, warnings, &times);
  }
  scene.inputs = inputs.files();
  times.total_ms = milliseconds_since(start);
  return scene;
}

Scene load_scene(const std::string& path) {
  std::vector<std::string> warnings;
  Scene scene = load_scene(path, warnings);
  for (const std::string& w : warnings) std::cerr << "warning: " << w << '\n';
  return scene;
}

}  // namespace raystream
