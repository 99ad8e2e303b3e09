#include "io/image/environment_reader.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "io/files/input_file.h"
#include "io/image/exr_image.h"
#include "io/image/stb_checks.h"
#include "scene/scene_error.h"

// stb_image's Radiance HDR reader: the one the textures use (io/image/stb_image_impl.cpp).
#include <stb/stb_image.h>

namespace raystream {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw SceneError(path + ": " + message);
}

std::string number_text(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
  return text;
}

}  // namespace

Environment load_environment_map(const std::string& path, float scale, float rotate_degrees) {
  if (!(scale >= 0.0f) || !std::isfinite(scale)) {
    throw std::invalid_argument("load_environment_map: scale must be finite and >= 0");
  }
  const std::string file = read_input_file(path, kEnvironmentFile);
  int width = 0, height = 0;
  std::vector<float> decoded;
  const float* pixels = nullptr;
  struct Free {
    float* p = nullptr;
    ~Free() {
      if (p) stbi_image_free(p);
    }
  } owner;
  if (is_exr(file)) {
    ExrRgb exr = decode_exr_rgb(file, path, kMaxEnvironmentWidth, kMaxEnvironmentHeight);
    width = exr.width;
    height = exr.height;
    decoded = std::move(exr.rgb);
    pixels = decoded.data();
  } else {
    const auto* bytes = reinterpret_cast<const unsigned char*>(file.data());
    const int length = static_cast<int>(file.size());
    if (file.empty() || !stbi_is_hdr_from_memory(bytes, length)) {
      fail(path, "not a Radiance HDR (.hdr) or OpenEXR (.exr) image");
    }
    // The header, the size, then the pixels walked to their end, before stb_image decodes them
    // (io/image/stb_checks.h).
    const HdrLayout layout = read_hdr_header(file, path);
    if (layout.width > kMaxEnvironmentWidth || layout.height > kMaxEnvironmentHeight) {
      fail(path, excerpt(layout.width_digits, 24) + " x " + excerpt(layout.height_digits, 24) +
                     " texels is too large for an environment map (at most " +
                     std::to_string(kMaxEnvironmentWidth) + " x " +
                     std::to_string(kMaxEnvironmentHeight) + ")");
    }
    check_hdr_pixels(file, path, layout);
    int channels = 0;
    owner.p = stbi_loadf_from_memory(bytes, length, &width, &height, &channels, 3);
    if (!owner.p) {
      const char* reason = stbi_failure_reason();
      fail(path, std::string("corrupt HDR: ") + (reason ? reason : "unreadable"));
    }
    pixels = owner.p;
    if (width != layout.width || height != layout.height) {
      fail(path, "corrupt HDR: the image size could not be read consistently");
    }
  }

  Environment env;
  env.file = path;
  env.scale = scale;
  env.rotate_degrees = rotate_degrees;
  env.present = true;
  env.width = width;
  env.height = height;
  env.texels.resize(static_cast<std::size_t>(width) * height);
  for (std::size_t t = 0; t < env.texels.size(); ++t) {
    const glm::vec3 value(pixels[3 * t], pixels[3 * t + 1], pixels[3 * t + 2]);
    const glm::vec3 scaled = value * scale;
    const std::string where =
        "texel (" + std::to_string(t % width) + ", " + std::to_string(t / width) + ")";
    for (int c = 0; c < 3; ++c) {
      if (!std::isfinite(value[c])) fail(path, where + " is not a finite number");
      if (value[c] < 0.0f) fail(path, where + " is negative");
      if (!std::isfinite(scaled[c])) {
        fail(path, where + " times SCALE " + number_text(scale) + " overflows a float");
      }
    }
    env.texels[t] = scaled;
  }
  return env;
}

}  // namespace raystream
