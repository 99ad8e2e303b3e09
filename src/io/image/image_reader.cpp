#include "io/image/image_reader.h"

#include <stb/stb_image.h>

#include <array>
#include <cmath>
#include <memory>

#include "io/files/input_file.h"
#include "io/image/image_decoders.h"
#include "io/image/stb_checks.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

// "cannot decode the image" with stb_image's reason for the last failure (a short code such as
// "bad format").
std::string cannot_decode(const std::string& path) {
  const char* reason = stbi_failure_reason();
  return path + ": cannot decode the image: " +
         (reason != nullptr && reason[0] != '\0' ? excerpt(reason) : "unknown reason");
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

const std::string kPngSignature("\x89PNG\r\n\x1a\n", 8);
const std::string kJpegStart("\xFF\xD8\xFF", 3);

// Refuses absurd sizes (from the file's header, before anything is decoded).
void check_texture_size(long long width, long long height, const std::string& path) {
  if (width <= 0 || height <= 0 || width > kMaxTextureSide || height > kMaxTextureSide ||
      width * height > kMaxTextureTexels) {
    throw SceneError(path + ": the image is " + std::to_string(width) + " x " +
                     std::to_string(height) + " texels, too large for a texture (at most " +
                     std::to_string(kMaxTextureSide) + " on a side and " +
                     std::to_string(kMaxTextureTexels) + " texels)");
  }
}

// 8-bit RGBA decoded from sRGB; alpha over 255.
void fill_srgb8(TextureImage& image, const Rgba8Image& decoded) {
  image.width = decoded.width;
  image.height = decoded.height;
  image.texels.resize(std::size_t(decoded.width) * std::size_t(decoded.height));
  const std::uint8_t* p = decoded.rgba.data();
  for (glm::vec4& texel : image.texels) {
    texel = glm::vec4(srgb8_to_linear(p[0]), srgb8_to_linear(p[1]), srgb8_to_linear(p[2]),
                      static_cast<float>(p[3]) / 255.0f);
    p += 4;
  }
}

// A TGA by stb_image, after its size and its extent are checked.
void fill_tga(TextureImage& image, const std::string& file, const std::string& path) {
  const auto* bytes = reinterpret_cast<const stbi_uc*>(file.data());
  const int length = static_cast<int>(file.size());
  int width = 0, height = 0, channels = 0;
  if (!stbi_info_from_memory(bytes, length, &width, &height, &channels))
    throw SceneError(cannot_decode(path));
  check_texture_size(width, height, path);
  check_tga(file, path);
  int w = 0, h = 0, c = 0;
  std::unique_ptr<stbi_uc, StbFree> data(stbi_load_from_memory(bytes, length, &w, &h, &c, 4));
  if (!data) throw SceneError(cannot_decode(path));
  if (w != width || h != height)
    throw SceneError(path + ": cannot decode the image: its size changed while decoding");
  Rgba8Image decoded;
  decoded.width = w;
  decoded.height = h;
  decoded.rgba.assign(data.get(), data.get() + std::size_t(w) * std::size_t(h) * 4);
  fill_srgb8(image, decoded);
}

// A Radiance HDR by stb_image (its header and pixels checked): linear values as stored, alpha 1.
void fill_hdr(TextureImage& image, const std::string& file, const std::string& path) {
  const auto* bytes = reinterpret_cast<const stbi_uc*>(file.data());
  int w = 0, h = 0, c = 0;
  std::unique_ptr<float, StbFree> data(
      stbi_loadf_from_memory(bytes, static_cast<int>(file.size()), &w, &h, &c, 4));
  if (!data) throw SceneError(cannot_decode(path));
  image.width = w;
  image.height = h;
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
}

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
  const ImageSizeCheck check_size = [&](long long width, long long height) {
    check_texture_size(width, height, path);
  };
  TextureImage image;
  image.path = path;
  if (file.rfind(kPngSignature, 0) == 0) {
    fill_srgb8(image, decode_png_rgba8(file, path, check_size));
  } else if (file.rfind(kJpegStart, 0) == 0) {
    fill_srgb8(image, decode_jpeg_rgba8(file, path, check_size));
  } else if (is_radiance_hdr(file)) {
    // The header, the size, then the pixels walked to their end, before stb_image decodes them.
    const HdrLayout layout = read_hdr_header(file, path);
    check_texture_size(layout.width, layout.height, path);
    check_hdr_pixels(file, path, layout);
    fill_hdr(image, file, path);
  } else if (plausible_tga(file)) {
    fill_tga(image, file, path);
  } else {
    throw SceneError(path + ": cannot decode the image: not a PNG, JPEG, TGA or Radiance HDR file");
  }
  return image;
}

}  // namespace raystream
