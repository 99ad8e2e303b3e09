#include "materials/texture_storage.h"

#include <algorithm>
#include <cmath>

namespace raystream {
namespace {

std::uint32_t to_byte(float v) {
  return static_cast<std::uint32_t>(std::lround(std::min(std::max(v, 0.0f), 1.0f) * 255.0f));
}

// The sRGB bytes' linear values and the linear values halfway between neighbours' encodings: a
// byte is found by search, not by a power per channel (tens of millions of texels at load).
struct SrgbTable {
  static constexpr int kCells = 4096;
  float decoded[256];
  float threshold[256];      // linear value of the encoding (b + 0.5) / 255; the last above 1
  std::uint8_t first[kCells + 1];  // the byte of the cell's lowest value
  SrgbTable() {
    for (int b = 0; b < 256; ++b) decoded[b] = srgb_to_linear(float(b) / 255.0f);
    for (int b = 0; b < 255; ++b) threshold[b] = srgb_to_linear((float(b) + 0.5f) / 255.0f);
    threshold[255] = 2.0f;
    int b = 0;
    for (int c = 0; c <= kCells; ++c) {
      while (threshold[b] <= float(c) / kCells) ++b;
      first[c] = static_cast<std::uint8_t>(b);
    }
  }
  // round(255 linear_to_srgb(v)) for v in [0, 1]: the cell's first byte, then the few steps
  // within it.
  std::uint32_t encode(float v) const {
    v = std::min(std::max(v, 0.0f), 1.0f);
    std::uint32_t b = first[static_cast<int>(v * kCells)];
    while (threshold[b] <= v) ++b;
    return b;
  }
};

const SrgbTable& srgb_table() {
  static const SrgbTable table;
  return table;
}

// Whether every texel is what an 8-bit file decodes to: alpha and the sRGB encoding of RGB at
// whole steps of 1/255.
bool fits_8_bits(const TextureImage& image) {
  const SrgbTable& table = srgb_table();
  for (const glm::vec4& t : image.texels) {
    for (int c = 0; c < 3; ++c)
      if (!(t[c] >= 0.0f && t[c] <= 1.0f) || std::fabs(table.decoded[table.encode(t[c])] - t[c]) >
                                                  1.0e-4f)
        return false;
    if (!(t.w >= 0.0f && t.w <= 1.0f) || std::fabs(float(to_byte(t.w)) / 255.0f - t.w) > 1.0e-4f)
      return false;
  }
  return true;
}

// `in` (w x h) resampled to `n` texels along x (`along_x`) or y by a box filter: new texel k
// covers [k w / n, (k + 1) w / n) of the old ones, each weighted by its overlap.
std::vector<glm::vec4> downsample(const std::vector<glm::vec4>& in, int w, int h, int n,
                                  bool along_x) {
  const int old_side = along_x ? w : h;
  const int ow = along_x ? n : w, oh = along_x ? h : n;
  std::vector<glm::vec4> out(std::size_t(ow) * oh, glm::vec4(0.0f));
  const double scale = double(old_side) / double(n);
  // Rows outer for both directions, so that the texels are read in memory order.
  for (int k = 0; k < n; ++k) {
    const double lo = k * scale, hi = (k + 1) * scale;
    for (int j = int(lo); j < old_side && j < hi; ++j) {
      const float weight = float((std::min(hi, double(j + 1)) - std::max(lo, double(j))) / scale);
      if (!(weight > 0.0f)) continue;
      if (along_x) continue;
      const glm::vec4* src = &in[std::size_t(j) * w];
      glm::vec4* dst = &out[std::size_t(k) * ow];
      for (int i = 0; i < w; ++i) dst[i] += weight * src[i];
    }
  }
  if (along_x) {
    for (int y = 0; y < h; ++y) {
      const glm::vec4* src = &in[std::size_t(y) * w];
      glm::vec4* dst = &out[std::size_t(y) * ow];
      for (int k = 0; k < n; ++k) {
        const double lo = k * scale, hi = (k + 1) * scale;
        glm::vec4 sum(0.0f);
        for (int j = int(lo); j < old_side && j < hi; ++j)
          sum += float((std::min(hi, double(j + 1)) - std::max(lo, double(j))) / scale) * src[j];
        dst[k] = sum;
      }
    }
  }
  return out;
}

int level_side(int side, int level) {
  return std::max(1, side >> level);
}

}  // namespace

TextureView TextureStorage::view(const void* texels) const {
  TextureView v;
  v.texels = width > 0 && height > 0 ? texels : nullptr;
  v.width = width;
  v.height = height;
  v.levels = levels;
  v.format = format;
  std::copy(offset, offset + kMaxTextureLevels, v.offset);
  return v;
}

TextureStorage make_texture_storage(const TextureImage& image, bool colour) {
  TextureStorage s;
  s.width = image.width;
  s.height = image.height;
  if (image.width <= 0 || image.height <= 0 || image.texels.empty()) return s;
  s.format = fits_8_bits(image) ? 0 : 1;
  // The values a lookup blends, per level: 8-bit colours decoded (linear), 8-bit data as stored;
  // float images as they are.
  const bool stored_values = s.format == 0 && !colour;
  const SrgbTable& table = srgb_table();
  std::vector<glm::vec4> level;
  level.reserve(image.texels.size());
  for (const glm::vec4& t : image.texels)
    level.push_back(stored_values ? glm::vec4(float(table.encode(t.x)) / 255.0f,
                                              float(table.encode(t.y)) / 255.0f,
                                              float(table.encode(t.z)) / 255.0f, t.w)
                                  : t);
  std::vector<glm::vec4> all;
  int w = image.width, h = image.height;
  const int side = std::max(w, h);
  s.levels = 1;
  while ((side >> s.levels) > 0 && s.levels < kMaxTextureLevels) ++s.levels;
  for (int l = 0; l < s.levels; ++l) {
    s.offset[l] = static_cast<std::uint32_t>(all.size());
    all.insert(all.end(), level.begin(), level.end());
    if (l + 1 == s.levels) break;
    // The next level: a box filter over the texels each new texel covers (for an odd side,
    // parts of texels, weighted by how much of them it covers), so every level keeps the mean.
    const int nw = level_side(image.width, l + 1), nh = level_side(image.height, l + 1);
    const std::vector<glm::vec4> wide = downsample(level, w, h, nw, true);
    std::vector<glm::vec4> next = downsample(wide, nw, h, nh, false);
    level.swap(next);
    w = nw;
    h = nh;
  }
  if (s.format == 1) {
    s.rgba32f = std::move(all);
    return s;
  }
  s.rgba8.resize(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    const glm::vec4& v = all[k];
    const std::uint32_t r = stored_values ? to_byte(v.x) : table.encode(v.x);
    const std::uint32_t g = stored_values ? to_byte(v.y) : table.encode(v.y);
    const std::uint32_t b = stored_values ? to_byte(v.z) : table.encode(v.z);
    s.rgba8[k] = r | g << 8 | b << 16 | to_byte(v.w) << 24;
  }
  return s;
}

}  // namespace raystream
