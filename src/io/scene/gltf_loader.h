// glTF 2.0 assets (tinygltf): .gltf with external or embedded (data URI) buffers and images, and
// .glb. The default scene's node hierarchy is applied; triangle primitives, indexed or not, are
// read with every accessor checked against its buffer; metallic-roughness materials are mapped
// onto the renderer's materials; the first perspective camera is kept. docs/scene-format.md
// ("glTF scenes") gives the mapping and what is ignored, with a warning. Host only.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "io/scene/model_scene.h"
#include "io/scene/scene_loader.h"
#include "scene/scene.h"

namespace raystream {

// An asset as the renderer takes it: materials named "<file name>:<material name>" ("#<index>"
// for an unnamed one); the triangles in the asset's world space (its nodes' transforms applied);
// the camera the first perspective camera that a node of the scene places (FOVY half its yfov;
// RES 800 pixels wide at its aspect ratio, 800 x 600 without one).
using GltfModel = Model;

// Caps beyond the renderer's own (the fuzz target lowers them to stay within its memory limit).
struct GltfLimits {
  std::uint64_t max_triangles = static_cast<std::uint64_t>(kMaxTriangles);
};

// True for a path named .gltf or .glb (any case).
bool is_gltf_path(const std::string& path);

// Reads the asset at `path` (its buffers and images relative to its folder). Warnings (features
// ignored) are appended, each naming the file. Throws SceneError naming the file, and the
// object (e.g. "meshes[2].primitives[0]") where there is one: the file or one it names cannot be
// read (read_input_file), malformed JSON or GLB, a property of the wrong type (the glTF schema's
// types are checked for every property the renderer reads and for every extension object), an
// index out of range, an accessor that does not fit its buffer view or buffer, a vertex index
// beyond the vertices, a non-finite vertex, a primitive that is not triangles (mode 4), a node
// that is its own ancestor or has two parents, a compressed-geometry extension required (Draco,
// meshopt), an image that cannot be decoded, or no triangle at all.
GltfModel load_gltf(const std::string& path, std::vector<std::string>& warnings,
                    const GltfLimits& limits = {});

// As load_gltf, from the file's bytes; `path` names it in messages and its folder is where
// external buffers and images are looked for.
GltfModel parse_gltf(const std::string& bytes, const std::string& path,
                     std::vector<std::string>& warnings, const GltfLimits& limits = {});

}  // namespace raystream
