#include "io/scene/bump_map.h"

#include <algorithm>
#include <cmath>

namespace raystream {
namespace {

// The inverse of the sRGB decoding (IEC 61966-2-1) the image reader applied.
float srgb_encoded(float linear) {
  const float c = std::min(std::max(linear, 0.0f), 1.0f);
  return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
}

}  // namespace

TextureImage normal_map_from_heights(const TextureImage& heights, float scale) {
  TextureImage out;
  out.path = heights.path + "#normals";
  out.width = heights.width;
  out.height = heights.height;
  const int w = heights.width, h = heights.height;
  std::vector<float> level(heights.texels.size());
  for (std::size_t i = 0; i < level.size(); ++i) {
    const glm::vec4& t = heights.texels[i];
    level[i] = (srgb_encoded(t.x) + srgb_encoded(t.y) + srgb_encoded(t.z)) / 3.0f;
  }
  out.texels.resize(heights.texels.size());
  const auto at = [&](int x, int y) {
    x = (x % w + w) % w;
    y = (y % h + h) % h;
    return level[std::size_t(y) * std::size_t(w) + std::size_t(x)];
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float dx = 0.5f * (at(x + 1, y) - at(x - 1, y));
      const float dy = 0.5f * (at(x, y - 1) - at(x, y + 1));  // row 0 is the top: +v is up
      glm::vec3 n(-scale * dx, -scale * dy, 1.0f);
      const float length = glm::length(n);
      n = length > 0.0f && std::isfinite(length) ? n / length : glm::vec3(0.0f, 0.0f, 1.0f);
      out.texels[std::size_t(y) * std::size_t(w) + std::size_t(x)] =
          glm::vec4(0.5f * n + 0.5f, 1.0f);
    }
  return out;
}

}  // namespace raystream
