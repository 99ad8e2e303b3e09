// Image textures as the shading code reads them: a view of an image's texels, a binding (which
// image, which channel, which texture coordinates, the sampler's wrap modes and filter, the uv
// transform, colour or data) and the lookup. The CPU executor filters the texels in software; the
// GPU reads the same levels through texture objects whose hardware filters them the same way
// (integrator/texture_arrays.h). The texels are loaded and decoded on the host
// (scene/texture_image.h).
#pragma once

#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"

namespace raystream {

// The most mip levels a texture has (kMaxTextureSide 16384 = 2^14: 15 levels).
inline constexpr int kMaxTextureLevels = 15;

// A texture as the lookups read it: its levels (the image, then each half the size down to
// 1 x 1), in one array, texels row by row, row 0 = the top of the image. RGBA8: the bytes an
// 8-bit image file holds (colours sRGB-encoded, decoded per texel at lookup by a colour binding;
// data read as they are, / 255). Float: linear RGBA (images of a wider range than 8 bits hold).
// An empty view (no texels) is white: it leaves the factor it multiplies unchanged.
struct TextureView {
  const void* texels = nullptr;
  int width = 0, height = 0;  // of level 0
  int levels = 1;
  int format = 0;                                // 0 RGBA8, 1 float RGBA
  std::uint32_t offset[kMaxTextureLevels] = {};  // texel index of each level's first texel
};

// How a material parameter reads a texture (built at upload from scene/scene.h's TextureSlot).
struct TextureBinding {
  std::int32_t texture = -1;            // index into the views
  std::int32_t channel = 0;             // the channel a scalar parameter reads
  std::int32_t texcoord = 0;            // 0 or 1
  std::int32_t wrap_u = 0, wrap_v = 0;  // TextureWrap: 0 repeat, 1 clamp, 2 mirror
  std::int32_t nearest = 0;             // 1: the nearest texel, 0: bilinear
  std::int32_t srgb = 1;                // 1: a colour (the texels as decoded); 0: data
  // GPU: the texture object that reads this binding (its sampler state the fields above;
  // integrator/texture_arrays.h). 0 on the CPU executor, which filters in software.
  std::uint64_t object = 0;
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
  if (x >= 0 && x < size) return x;  // every mode; most lookups (no integer division)
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

// The linear value of an sRGB-encoded one in [0, 1]. The power as exp2(2.4 log2 x): x lies in
// (0.05, 1], where that is within a few units in the last place of powf, at a fraction of its
// instructions (a bilinear lookup of a colour texture decodes twelve channels).
RAYSTREAM_HD inline float srgb_to_linear(float c) {
  return c <= 0.04045f ? c * (1.0f / 12.92f) : exp2f(2.4f * log2f((c + 0.055f) * (1.0f / 1.055f)));
}

// Texel (x, y) of level `level` (wrapped into it), as the binding reads it: a colour decoded to
// linear, data as stored.
RAYSTREAM_HD inline glm::vec4 texel_at(const TextureView& t, const TextureBinding& b, int level,
                                       int x, int y) {
  const int w = t.width >> level > 0 ? t.width >> level : 1;
  const int h = t.height >> level > 0 ? t.height >> level : 1;
  x = wrap_texel(x, w, b.wrap_u);
  y = wrap_texel(y, h, b.wrap_v);
  const std::size_t k = t.offset[level] + static_cast<std::size_t>(y) * w + x;
  if (t.format == 1) return static_cast<const glm::vec4*>(t.texels)[k];
  const std::uint32_t v = static_cast<const std::uint32_t*>(t.texels)[k];
  const float s = 1.0f / 255.0f;
  glm::vec4 c(float(v & 0xffu) * s, float((v >> 8) & 0xffu) * s, float((v >> 16) & 0xffu) * s,
              float(v >> 24) * s);
  if (b.srgb) c = glm::vec4(srgb_to_linear(c.x), srgb_to_linear(c.y), srgb_to_linear(c.z), c.w);
  return c;
}

// Level `level` at (u, v), wrapped as the binding says: bilinear over the four nearest texels, or
// the nearest one. Continuous texel coordinates with texel centres at integers.
RAYSTREAM_HD inline glm::vec4 sample_level(const TextureView& t, const TextureBinding& b, int level,
                                           const glm::vec2& uv) {
  const int w = t.width >> level > 0 ? t.width >> level : 1;
  const int h = t.height >> level > 0 ? t.height >> level : 1;
  const float x = fminf(fmaxf(uv.x * static_cast<float>(w) - 0.5f, -1.0e8f), 1.0e8f);
  const float y = fminf(fmaxf((1.0f - uv.y) * static_cast<float>(h) - 0.5f, -1.0e8f), 1.0e8f);
  if (b.nearest)
    return texel_at(t, b, level, static_cast<int>(floorf(x + 0.5f)),
                    static_cast<int>(floorf(y + 0.5f)));
  const float fx = floorf(x), fy = floorf(y);
  const int x0 = static_cast<int>(fx), y0 = static_cast<int>(fy);
  const float ax = x - fx, ay = y - fy;
  const glm::vec4 top =
      (1.0f - ax) * texel_at(t, b, level, x0, y0) + ax * texel_at(t, b, level, x0 + 1, y0);
  const glm::vec4 bottom =
      (1.0f - ax) * texel_at(t, b, level, x0, y0 + 1) + ax * texel_at(t, b, level, x0 + 1, y0 + 1);
  return (1.0f - ay) * top + ay * bottom;
}

#if defined(__CUDA_ARCH__)
// sample_texture on the GPU: the binding's texture object, which filters as sample_texture does
// (bilinear in a level, linear between two, a colour decoded before it is filtered, wrapped as the
// binding says) in texture hardware, whose weights have 8 fractional bits: a lookup differs from
// the software filter's by a fraction of the span of the texels it blends (texture_gpu_test).
// The texture's row 0 is at t = 0.
__device__ inline glm::vec4 sample_texture_object(const TextureView& t, const TextureBinding& b,
                                                  glm::vec2 uv, float lod) {
  const float kLargest = 3.402823466e38f;
  float level = 0.0f;
  if (!(fabsf(uv.x) <= kLargest) || !(fabsf(uv.y) <= kLargest)) {
    uv = glm::vec2(0.5f / static_cast<float>(t.width), 1.0f - 0.5f / static_cast<float>(t.height));
  } else {
    if (b.wrap_u == 0) uv.x -= floorf(uv.x);
    if (b.wrap_v == 0) uv.y -= floorf(uv.y);
    const int side = t.width > t.height ? t.width : t.height;
    level = lod + log2f(static_cast<float>(side));
    level = level > 0.0f ? level : 0.0f;  // also NaN; the object clamps at its coarsest level
  }
  const float4 c = tex2DLod<float4>(b.object, uv.x, 1.0f - uv.y, level);
  return glm::vec4(c.x, c.y, c.z, c.w);
}
#endif

// The texture's RGBA at (u, v) (already through binding_uv), wrapped as the binding says. v = 0
// is the BOTTOM of the image (the OBJ convention): row = (1 - v) * height; texel (x, y) of level
// 0 has its centre at u = (x + 0.5) / width, v = 1 - (y + 0.5) / height. `lod` is log2 of the
// footprint's side in uv units (0: the whole texture; very negative: the finest level): the level
// is lod + log2 of the larger side, blended between the two nearest levels (trilinear; the
// nearest level for a NEAREST sampler). A non-finite u or v gives level 0's texel (0, 0).
RAYSTREAM_HD inline glm::vec4 sample_texture(const TextureView& t, const TextureBinding& b,
                                             glm::vec2 uv, float lod) {
#if defined(__CUDA_ARCH__)
  if (b.object != 0) return sample_texture_object(t, b, uv, lod);
#endif
  if (t.texels == nullptr || t.width <= 0 || t.height <= 0) return glm::vec4(1.0f);
  const float kLargest = 3.402823466e38f;
  if (!(fabsf(uv.x) <= kLargest) || !(fabsf(uv.y) <= kLargest)) return texel_at(t, b, 0, 0, 0);
  // Repeat folds huge coordinates first (their fraction is what single precision still holds);
  // clamp and mirror see them as they are (clamped to a range that int holds).
  if (b.wrap_u == 0) uv.x -= floorf(uv.x);
  if (b.wrap_v == 0) uv.y -= floorf(uv.y);
  const int side = t.width > t.height ? t.width : t.height;
  float level = lod + log2f(static_cast<float>(side));
  if (!(level > 0.0f) || t.levels <= 1) return sample_level(t, b, 0, uv);  // also NaN
  const float top = static_cast<float>(t.levels - 1);
  if (level >= top) return sample_level(t, b, t.levels - 1, uv);
  if (b.nearest) return sample_level(t, b, static_cast<int>(level + 0.5f), uv);
  const int l0 = static_cast<int>(level);
  const float f = level - static_cast<float>(l0);
  return (1.0f - f) * sample_level(t, b, l0, uv) + f * sample_level(t, b, l0 + 1, uv);
}

// The RGB of a colour texture at (u, v), repeated, bilinear, level 0 (no binding: the defaults).
RAYSTREAM_HD inline glm::vec3 texture_lookup(const TextureView& t, glm::vec2 uv) {
  return glm::vec3(sample_texture(t, TextureBinding{}, uv, -100.0f));
}

}  // namespace raystream
