// Fuzz target: the OBJ/MTL loader. The input is an OBJ file's text, optionally followed by a line
// "#--mtl--" and the text of the MTL library that every `mtllib` line of the OBJ then names.
// Every input must either load or throw SceneError; the triangles loaded are finite with unit
// normals and valid material indices.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/scene/obj_loader.h"
#include "io/scene/scene_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string marker = "#--mtl--\n";
  const std::size_t split = input.find(marker);
  const std::string obj = input.substr(0, split);
  const bool has_mtl = split != std::string::npos;
  const std::string mtl = has_mtl ? input.substr(split + marker.size()) : std::string();
  const raystream::MtlLookup lookup = [&](const std::string&, std::string& text,
                                          std::string& path) {
    if (!has_mtl) return false;
    text = mtl;
    path = "fuzz.mtl";
    return true;
  };
  std::vector<std::string> warnings;
  try {
    const raystream::ObjMesh mesh = raystream::parse_obj(obj, "fuzz.obj", lookup, warnings);
    for (const raystream::Triangle& t : mesh.triangles) {
      for (int c = 0; c < 3; ++c) {
        if (!std::isfinite(t.v[c].x + t.v[c].y + t.v[c].z)) __builtin_trap();
        if (std::fabs(glm::length(t.n[c]) - 1.0f) > 1e-3f) __builtin_trap();
      }
      if (t.material < -1 || t.material >= static_cast<int>(mesh.materials.size()))
        __builtin_trap();
    }
    for (const raystream::Material& m : mesh.materials) {
      if (!std::isfinite(m.color.x + m.color.y + m.color.z + m.emittance + m.ior)) __builtin_trap();
    }
  } catch (const raystream::SceneError& e) {
    const std::string what = e.what();
    if (what.size() > raystream::kMaxMessage || what.find('\n') != std::string::npos)
      __builtin_trap();
  }
  return 0;
}
