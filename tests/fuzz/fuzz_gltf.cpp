// Fuzz target: the glTF 2.0 loader. The input is a .gltf file's text or a .glb file's bytes; the
// buffers and images it names are looked up in the folder of Debian's BoxTextured test asset
// (BoxTextured0.bin, CesiumLogoFlat.png). Every input must either load or throw SceneError, as
// one line of bounded length; what loads is finite, with unit normals and valid material and
// texture indices. The triangle cap is lowered to stay within libFuzzer's memory limit.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/scene/gltf_loader.h"

namespace {

bool one_line(const std::string& text) {
  return text.size() <= raystream::kMaxMessage && text.find('\n') == std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> warnings;
  raystream::GltfLimits limits;
  limits.max_triangles = 1u << 18;
  try {
    const raystream::GltfModel model =
        raystream::parse_gltf(bytes, RAYSTREAM_FUZZ_GLTF "/fuzz.gltf", warnings, limits);
    const int materials = static_cast<int>(model.materials.size());
    for (const raystream::Triangle& t : model.triangles) {
      for (int c = 0; c < 3; ++c) {
        if (!std::isfinite(t.v[c].x + t.v[c].y + t.v[c].z)) __builtin_trap();
        if (!std::isfinite(t.uv[c].x + t.uv[c].y + t.uv1[c].x + t.uv1[c].y)) __builtin_trap();
        if (!std::isfinite(t.t[c].x + t.t[c].y + t.t[c].z + t.t[c].w)) __builtin_trap();
        if (std::fabs(glm::length(t.n[c]) - 1.0f) > 1e-3f) __builtin_trap();
      }
      if (t.material < 0 || t.material >= materials) __builtin_trap();
    }
    for (const raystream::Material& m : model.materials) {
      for (const raystream::TextureSlot* slot :
           {&m.texture, &m.metallic_texture, &m.roughness_texture, &m.specular_texture,
            &m.specular_color_texture, &m.transmission_texture, &m.clearcoat_texture,
            &m.clearcoat_roughness_texture, &m.emission_texture, &m.normal_texture,
            &m.opacity_texture})
        if (slot->texture >= static_cast<int>(model.textures.size()) || slot->channel < 0 ||
            slot->channel > 3 || slot->texcoord < 0 || slot->texcoord > 1)
          __builtin_trap();
      if (!std::isfinite(m.color.x + m.color.y + m.color.z + m.ior + m.roughness)) __builtin_trap();
      if (!std::isfinite(m.emission.x + m.emission.y + m.emission.z)) __builtin_trap();
    }
  } catch (const raystream::SceneError& e) {
    if (!one_line(e.what())) __builtin_trap();
  }
  for (const std::string& w : warnings)
    if (!one_line(w)) __builtin_trap();
  return 0;
}
