// Loads a scene in the JSON format of the common CUDA path tracer course (Materials by name,
// Camera, Objects) into a validated raystream::Scene. The README documents the format.
#pragma once

#include <string>
#include <vector>

#include "scene/scene.h"
#include "scene/scene_error.h"

namespace raystream {

// Reads and validates the scene at `path`. Warnings (unknown keys, no emitter) are appended to
// `warnings`, each a full line naming the file. The image textures that materials name (TEXTURE,
// MTL map_Kd) are read into Scene::textures, once per file; Scene::inputs lists every file
// read. Throws SceneError, and StopRequested when a stop is asked for (core/stop_request.h).
Scene load_scene(const std::string& path, std::vector<std::string>& warnings);

// As above, with each warning printed to stderr as "warning: <message>".
Scene load_scene(const std::string& path);

// Where a load's time went, in milliseconds of wall time.
struct LoadTimes {
  double total_ms = 0;   // the whole load_scene
  double obj_ms = 0;     // reading and parsing OBJ and MTL files
  double meshes_ms = 0;  // mesh triangles carried to world space (vertices and normals)
};

// As load_scene(path, warnings), also timing the load.
Scene load_scene(const std::string& path, std::vector<std::string>& warnings, LoadTimes& times);

// Parses scene text that came from `path` (used for messages only). Throws SceneError.
Scene parse_scene(const std::string& text, const std::string& path,
                  std::vector<std::string>& warnings);

// Largest accepted values; larger ones are rejected as absurd rather than tried.
inline constexpr int kMaxImageSide = 16384;
inline constexpr long long kMaxImagePixels = 8192LL * 8192LL;
inline constexpr int kMaxIterations = 1000000;
inline constexpr int kMaxDepth = 1024;
inline constexpr int kMaxMaterials = 65534;  // material ids are 16-bit sort keys on the device
inline constexpr long long kMaxTriangles = 0x7FFFFFFFLL - 65536;  // BVH references are int32
// The smoothest Plastic coat (materials/plastic.h: kMinPlasticAlpha = ROUGHNESS^2): a smaller
// ROUGHNESS is rendered as this one, with a warning.
inline constexpr float kMinPlasticRoughness = 0.1f;
// Largest coordinate of the camera and of any object or triangle after its transform: beyond it
// the renderer's single-precision arithmetic (box areas, distances along rays) overflows.
inline constexpr float kMaxCoordinate = 1.0e18f;

}  // namespace raystream
