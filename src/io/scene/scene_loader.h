// Loads a scene in the JSON format of the common CUDA path tracer course (Materials by name,
// Camera, Objects) into a validated raystream::Scene. The README documents the format.
#pragma once

#include <string>
#include <vector>

#include "scene/scene.h"
#include "scene/scene_error.h"
#include "scene/scene_limits.h"

namespace raystream {

// Reads and validates the scene at `path`: a JSON scene file, or a model rendered whole (a glTF
// asset, .gltf or .glb; an OBJ file, .obj: model_scene.h). Warnings (unknown keys, no emitter)
// are appended to `warnings`, each a full line naming the file. The image textures that materials
// name (TEXTURE, MTL map_Kd) are read into Scene::textures, once per file; Scene::inputs lists
// every file read. Throws SceneError, and StopRequested when a stop is asked for
// (core/stop_request.h).
Scene load_scene(const std::string& path, std::vector<std::string>& warnings);

// As above, with each warning printed to stderr as "warning: <message>".
Scene load_scene(const std::string& path);

// Where a load's time went, in milliseconds of wall time.
struct LoadTimes {
  double total_ms = 0;   // the whole load_scene
  double obj_ms = 0;     // reading and parsing OBJ and MTL files
  double meshes_ms = 0;  // mesh triangles carried to world space (vertices and normals)
};

// What a load says beside the scene and its warnings.
struct LoadReport {
  LoadTimes times;
  // How a file that is not a scene file is rendered (an OBJ model alone), one line each: notices
  // on stderr.
  std::vector<std::string> notices;
};

// As load_scene(path, warnings), also timing the load and giving its notices.
Scene load_scene(const std::string& path, std::vector<std::string>& warnings, LoadReport& report);

// Parses scene text that came from `path` (used for messages only). Throws SceneError.
Scene parse_scene(const std::string& text, const std::string& path,
                  std::vector<std::string>& warnings);

}  // namespace raystream
