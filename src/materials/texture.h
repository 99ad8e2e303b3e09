// Image textures as the shading code reads them: a view of an image's texels, a binding (which
// image, which channel, which texture coordinates, the sampler's wrap modes and filter, the uv
// transform, colour or data) and the lookup. Host and device: the CPU executor and the GPU read
// the same texels through the same code. The texels are loaded and decoded on the host
// (scene/texture_image.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"

namespace raystream {

// Linear RGBA texels, row by row, row 0 = the top of the image. An empty view (no texels) is
// white: it leaves the factor it multiplies unchanged.
struct TextureView {
  const glm::vec4* texels = nullptr;
  int width = 0, height = 0;
};

// How a material parameter reads a texture (built at upload from scene/scene.h's TextureSlot).
struct TextureBinding {
  std::int32_t texture = -1;  // index into the views
  std::int32_t channel = 0;   // the channel a scalar parameter reads
  std::int32_t texcoord = 0;  // 0 or 1
  std::int32_t wrap_u = 0, wrap_v = 0;  // TextureWrap: 0 repeat, 1 clamp, 2 mirror
  std::int32_t nearest = 0;             // 1: the nearest texel, 0: bilinear
  std::int32_t srgb = 1;                // 1: a colour (the texels as decoded); 0: data
  std::int32_t pad = 0;
  // uv' = (m[0] u + m[1] v + m[2], m[3] u + m[4] v + m[5]): KHR_texture_transform.
  float m[6] = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};
};

// The texture coordinates a binding reads, its transform applied.
RAYSTREAM_HD inline glm::vec2 binding_uv(const TextureBinding& b, const glm::vec2& uv0,
                                         const glm::vec2& uv1) {
  const glm::vec2 uv = b.texcoord == 1 ? uv1 : uv0;
  return glm::vec2(b.m[0] * uv.x + b.m[1] * uv.y + b.m[2], b.m[3] * uv.x + b.m[4] * uv.y + b.m[5]);
}

// A texel coordinate (continuous or integer) wrapped into [0, size).
RAYSTREAM_HD inline int wrap_texel(int x, int size, std::int32_t mode) {
  if (mode == 1) return x < 0 ? 0 : (x >= size ? size - 1 : x);
  if (mode == 2) {
    const int period = 2 * size;
    int r = x % period;
    if (r < 0) r += period;
    return r < size ? r : period - 1 - r;
  }
  int r = x % size;
  return r < 0 ? r + size : r;
}

// The sRGB encoding of a linear value (the inverse of the decoding of 8-bit colour images).
RAYSTREAM_HD inline float linear_to_srgb(float c) {
  c = fminf(fmaxf(c, 0.0f), 1.0f);
  return c <= 0.0031308f ? 12.92f * c : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

// The texel (x, y), wrapped.
RAYSTREAM_HD inline glm::vec4 texel_at(const TextureView& t, const TextureBinding& b, int x, int y) {
  x = wrap_texel(x, t.width, b.wrap_u);
  y = wrap_texel(y, t.height, b.wrap_v);
  return t.texels[static_cast<long long>(y) * t.width + x];
}

// The texture's RGBA at (u, v) (already through binding_uv), bilinear over the four nearest
// texels (or the nearest one), wrapped as the binding says. v = 0 is the BOTTOM of the image (the
// OBJ convention): row = (1 - v) * height. Texel (x, y) has its centre at u = (x + 0.5) / width,
// v = 1 - (y + 0.5) / height. A non-finite u or v gives texel (0, 0). `lod` is the level of
// detail the footprint asks for (log2 of texels per footprint; unused by a texture without
// mips).
RAYSTREAM_HD inline glm::vec4 sample_texture(const TextureView& t, const TextureBinding& b,
                                             glm::vec2 uv, float lod) {
  (void)lod;
  if (t.texels == nullptr || t.width <= 0 || t.height <= 0) return glm::vec4(1.0f);
  const float kLargest = 3.402823466e38f;
  glm::vec4 value;
  if (!(fabsf(uv.x) <= kLargest) || !(fabsf(uv.y) <= kLargest)) {
    value = t.texels[0];
  } else {
    // Repeat folds huge coordinates first (their fraction is what single precision still holds);
    // clamp and mirror see them as they are (clamped to a range that int holds).
    if (b.wrap_u == 0) uv.x -= floorf(uv.x);
    if (b.wrap_v == 0) uv.y -= floorf(uv.y);
    const float x = fminf(fmaxf(uv.x * static_cast<float>(t.width) - 0.5f, -1.0e8f), 1.0e8f);
    const float y =
        fminf(fmaxf((1.0f - uv.y) * static_cast<float>(t.height) - 0.5f, -1.0e8f), 1.0e8f);
    const float fx = floorf(x), fy = floorf(y);
    const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
    if (b.nearest) {
      value = texel_at(t, b, static_cast<int>(floorf(x + 0.5f)), static_cast<int>(floorf(y + 0.5f)));
    } else {
      const float ax = x - fx, ay = y - fy;
      const glm::vec4 top = (1.0f - ax) * texel_at(t, b, x0, y0) + ax * texel_at(t, b, x0 + 1, y0);
      const glm::vec4 bottom =
          (1.0f - ax) * texel_at(t, b, x0, y0 + 1) + ax * texel_at(t, b, x0 + 1, y0 + 1);
      value = (1.0f - ay) * top + ay * bottom;
    }
  }
  if (!b.srgb)
    value = glm::vec4(linear_to_srgb(value.x), linear_to_srgb(value.y), linear_to_srgb(value.z),
                      value.w);
  return value;
}

// The RGB of a colour texture at (u, v), repeated, bilinear (no binding: the defaults).
RAYSTREAM_HD inline glm::vec3 texture_lookup(const TextureView& t, glm::vec2 uv) {
  return glm::vec3(sample_texture(t, TextureBinding{}, uv, 0.0f));
}

}  // namespace raystream
