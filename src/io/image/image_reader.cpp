#include "io/image/image_reader.h"

#include <stb/stb_image.h>

#include <array>
#include <cmath>
#include <memory>

#include "io/files/input_file.h"
#include "io/image/image_file.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

// "cannot decode the image" with stb_image's reason for the last failure (a short code such as
// "bad png sig"; for a chunk it does not know, only the chunk's name).
std::string cannot_decode(const std::string& path) {
  const char* reason = stbi_failure_reason();
  return path + ": cannot decode the image: " +
         (reason != nullptr && reason[0] != '\0' ? excerpt(reason) : "unknown reason") +
         " (corrupt, truncated, or not a PNG, JPEG, BMP, TGA or Radiance HDR file)";
}

const std::array<float, 256>& srgb8_table() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int i = 0; i < 256; ++i) {
      const double c = i / 255.0;
      t[static_cast<std::size_t>(i)] =
          static_cast<float>(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
    }
    return t;
  }();
  return table;
}

struct StbFree {
  void operator()(void* p) const { stbi_image_free(p); }
};

}  // namespace

float srgb_to_linear(float encoded) {
  const double c = encoded;
  return static_cast<float>(c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4));
}

float srgb8_to_linear(std::uint8_t value) {
  return srgb8_table()[value];
}

TextureImage load_texture_image(const std::string& path) {
  return decode_texture_image(read_input_file(path, kImageFile), path);
}

TextureImage decode_texture_image(const std::string& file, const std::string& path) {
  if (file.empty()) throw SceneError(path + ": the image file is empty");
  const auto* bytes = reinterpret_cast<const stbi_uc*>(file.data());
  const int length = static_cast<int>(file.size());

  // The size from the header first: absurd sizes are refused before anything is decoded.
  int width = 0, height = 0, channels = 0;
  if (!stbi_info_from_memory(bytes, length, &width, &height, &channels)) {
    // The header check alone says only "unknown image type" where a decoder could say more
    // (a PNG whose first chunk is not IHDR): ask the decoder for its reason.
    int w = 0, h = 0, c = 0;
    std::unique_ptr<stbi_uc, StbFree> probe(stbi_load_from_memory(bytes, length, &w, &h, &c, 4));
    throw SceneError(cannot_decode(path));
  }
  if (width <= 0 || height <= 0 || width > kMaxTextureSide || height > kMaxTextureSide ||
      static_cast<long long>(width) * height > kMaxTextureTexels) {
    throw SceneError(path + ": the image is " + std::to_string(width) + " x " +
                     std::to_string(height) + " texels, too large for a texture (at most " +
                     std::to_string(kMaxTextureSide) + " on a side and " +
                     std::to_string(kMaxTextureTexels) + " texels)");
  }

  // The file walked to its end before it is decoded: a truncated or damaged one is refused.
  check_image_file(file, path);

  TextureImage image;
  image.path = path;
  int w = 0, h = 0, c = 0;
  if (stbi_is_hdr_from_memory(bytes, length)) {
    std::unique_ptr<float, StbFree> data(stbi_loadf_from_memory(bytes, length, &w, &h, &c, 4));
    if (!data) throw SceneError(cannot_decode(path));
    if (w != width || h != height) {
      throw SceneError(path + ": cannot decode the image: its size changed while decoding");
    }
    image.texels.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    const float* p = data.get();
    for (glm::vec4& texel : image.texels) {
      // Radiance HDR holds no alpha (stb_image writes 1); non-finite values cannot be stored in
      // RGBE, but a texture must never hand NaN to the shading code.
      texel = glm::vec4(p[0], p[1], p[2], 1.0f);
      for (int k = 0; k < 3; ++k) {
        if (!std::isfinite(texel[k]) || texel[k] < 0.0f) texel[k] = 0.0f;
      }
      p += 4;
    }
  } else {
    std::unique_ptr<stbi_uc, StbFree> data(stbi_load_from_memory(bytes, length, &w, &h, &c, 4));
    if (!data) throw SceneError(cannot_decode(path));
    if (w != width || h != height) {
      throw SceneError(path + ": cannot decode the image: its size changed while decoding");
    }
    image.texels.resize(static_cast<std::size_t>(w) * static_cast<std::size_t>(h));
    const stbi_uc* p = data.get();
    for (glm::vec4& texel : image.texels) {
      texel = glm::vec4(srgb8_to_linear(p[0]), srgb8_to_linear(p[1]), srgb8_to_linear(p[2]),
                        static_cast<float>(p[3]) / 255.0f);
      p += 4;
    }
  }
  image.width = w;
  image.height = h;
  return image;
}

}  // namespace raystream
