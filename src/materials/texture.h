// Image textures as the shading code reads them: a view of linear RGBA texels and a bilinear
// lookup that repeats the image in both directions. Host and device; the texels are loaded and
// decoded on the host (scene/texture_image.h).
#pragma once

#include <cmath>
#include <glm/glm.hpp>

#include "core/host_device.h"

namespace raystream {

// Linear RGBA texels, row by row, row 0 = the top of the image. An empty view (no texels) is
// white: it leaves the albedo it multiplies unchanged.
struct TextureView {
  const glm::vec4* texels = nullptr;
  int width = 0, height = 0;
};

// The RGB of the texture at (u, v), bilinear over the four nearest texels, the image repeated
// in both directions (u = 0 and u = 1 are the same place; around it the first and the last
// column blend, and so do the top and bottom rows around v = 0). v = 0 is the BOTTOM of the
// image (the OBJ convention): row = (1 - v) * height. Texel (x, y) has its centre at
// u = (x + 0.5) / width, v = 1 - (y + 0.5) / height. A non-finite u or v gives texel (0, 0).
RAYSTREAM_HD inline glm::vec3 texture_lookup(const TextureView& t, glm::vec2 uv) {
  if (t.texels == nullptr || t.width <= 0 || t.height <= 0) return glm::vec3(1.0f);
  // Also false for NaN and infinity: never index with them.
  const float kLargest = 3.402823466e38f;
  if (!(fabsf(uv.x) <= kLargest) || !(fabsf(uv.y) <= kLargest)) return glm::vec3(t.texels[0]);
  // Wrapped into [0, 1] (1 where rounding lands there, the same place as 0); huge values, whose
  // fraction single precision no longer holds, land on 0.
  const float u = uv.x - floorf(uv.x);
  const float v = uv.y - floorf(uv.y);
  // Continuous texel coordinates with texel centres at integers: x in [-0.5, width - 0.5].
  const float x = u * static_cast<float>(t.width) - 0.5f;
  const float y = (1.0f - v) * static_cast<float>(t.height) - 0.5f;
  const float fx = floorf(x);
  const float fy = floorf(y);
  const float ax = x - fx;
  const float ay = y - fy;
  // fx in [-1, width - 1], fy in [-1, height - 1]: one wrap each way is enough.
  int x0 = static_cast<int>(fx);
  int y0 = static_cast<int>(fy);
  int x1 = x0 + 1;
  int y1 = y0 + 1;
  if (x0 < 0) x0 += t.width;
  if (y0 < 0) y0 += t.height;
  if (x1 >= t.width) x1 -= t.width;
  if (y1 >= t.height) y1 -= t.height;
  // Rounding cannot step further out than that, but a corrupt view must not read outside.
  if (x0 < 0 || x0 >= t.width || y0 < 0 || y0 >= t.height || x1 < 0 || y1 < 0) {
    return glm::vec3(t.texels[0]);
  }
  const glm::vec4* row0 = t.texels + static_cast<long long>(y0) * t.width;
  const glm::vec4* row1 = t.texels + static_cast<long long>(y1) * t.width;
  const glm::vec3 top = (1.0f - ax) * glm::vec3(row0[x0]) + ax * glm::vec3(row0[x1]);
  const glm::vec3 bottom = (1.0f - ax) * glm::vec3(row1[x0]) + ax * glm::vec3(row1[x1]);
  return (1.0f - ay) * top + ay * bottom;
}

}  // namespace raystream
