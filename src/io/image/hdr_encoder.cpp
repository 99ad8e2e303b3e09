#include "io/image/hdr_encoder.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace raystream {
namespace {

constexpr int kBandRows = 16;
constexpr int kMinRun = 4;  // shorter runs cost more as runs than as literals

// The most bytes a scanline takes: the RLE start, and per component its bytes plus one count
// per 128 literals.
std::size_t scanline_bound(int width) {
  return 4 + 4 * (std::size_t(width) + std::size_t(width) / 128 + 1);
}

// Ward's RGBE: the largest channel's binary exponent e (largest = m 2^e, m in [0.5, 1)) and the
// channels scaled by 2^(8 - e), below 256. The scale is exact, so no channel rounds up to 256;
// both come from the float's bits (the values, clamped, are finite; from 1e-32 on, normal
// floats).
void to_rgbe(const float* linear, unsigned char* out) {
  float rgb[3];
  for (int c = 0; c < 3; ++c)
    rgb[c] = linear[c] > 0.0f ? std::min(linear[c], kLargestHdrValue) : 0.0f;  // NaN: 0
  const float largest = std::max(rgb[0], std::max(rgb[1], rgb[2]));
  if (!(largest >= 1e-32f)) {
    out[0] = out[1] = out[2] = out[3] = 0;
    return;
  }
  std::uint32_t bits;
  std::memcpy(&bits, &largest, sizeof bits);
  const int exponent = int(bits >> 23) - 126;
  const std::uint32_t scale_bits = std::uint32_t(127 + 8 - exponent) << 23;
  float scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  for (int c = 0; c < 3; ++c) out[c] = static_cast<unsigned char>(rgb[c] * scale);
  out[3] = static_cast<unsigned char>(exponent + 128);
}

// One component of a scanline (`n` bytes `stride` apart) at `out`: runs of at least kMinRun
// equal bytes as (128 + count, byte), counts up to 127; the bytes between as (count, bytes...),
// counts up to 128. Returns the end of what it wrote.
unsigned char* write_rle(const unsigned char* data, int n, int stride, unsigned char* out) {
  const auto at = [&](int i) { return data[std::size_t(i) * std::size_t(stride)]; };
  int i = 0;
  while (i < n) {
    // The next run worth its two bytes, from i on.
    int j = i, run = 0;
    while (j < n) {
      run = 1;
      while (j + run < n && run < 127 && at(j + run) == at(j)) ++run;
      if (run >= kMinRun) break;
      j += run;
    }
    while (i < j) {
      const int count = std::min(128, j - i);
      *out++ = static_cast<unsigned char>(count);
      for (int k = 0; k < count; ++k) *out++ = at(i + k);
      i += count;
    }
    if (j < n) {
      *out++ = static_cast<unsigned char>(128 + run);
      *out++ = at(j);
      i = j + run;
    }
  }
  return out;
}

// One scanline at `out` (room for scanline_bound(width) bytes); returns the end.
unsigned char* write_scanline(const float* rgb, int width, std::vector<unsigned char>& pixels,
                              unsigned char* out) {
  pixels.resize(std::size_t(width) * 4);
  for (int x = 0; x < width; ++x) to_rgbe(rgb + 3 * std::size_t(x), &pixels[4 * std::size_t(x)]);
  if (width < 8 || width > 32767) {  // outside what the RLE's start can say: flat
    std::memcpy(out, pixels.data(), pixels.size());
    return out + pixels.size();
  }
  *out++ = 2;
  *out++ = 2;
  *out++ = static_cast<unsigned char>(width >> 8);
  *out++ = static_cast<unsigned char>(width & 255);
  for (int c = 0; c < 4; ++c) out = write_rle(pixels.data() + c, width, 4, out);
  return out;
}

}  // namespace

std::vector<unsigned char> encode_hdr_bands(int width, int height, const float* rgb,
                                            std::size_t size) {
  if (width <= 0 || height <= 0 || rgb == nullptr ||
      size < std::size_t(width) * std::size_t(height) * 3)
    throw std::invalid_argument("encode_hdr: " + std::to_string(size) + " values for " +
                                std::to_string(width) + " x " + std::to_string(height) + " RGB");
  const std::string header = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " + std::to_string(height) +
                             " +X " + std::to_string(width) + "\n";
  const int bands = (height + kBandRows - 1) / kBandRows;
  std::vector<std::vector<unsigned char>> parts(static_cast<std::size_t>(bands));
  std::atomic<bool> out_of_memory{false};
#pragma omp parallel for schedule(dynamic, 1)
  for (int b = 0; b < bands; ++b) {
    try {  // nothing may leave an OpenMP loop by an exception
      std::vector<unsigned char> pixels;
      std::vector<unsigned char>& out = parts[std::size_t(b)];
      const int y0 = b * kBandRows, y1 = std::min(height, y0 + kBandRows);
      out.resize(std::size_t(y1 - y0) * scanline_bound(width));
      unsigned char* end = out.data();
      for (int y = y0; y < y1; ++y)
        end = write_scanline(rgb + std::size_t(y) * std::size_t(width) * 3, width, pixels, end);
      out.resize(std::size_t(end - out.data()));
    } catch (const std::bad_alloc&) {
      out_of_memory = true;
    }
  }
  if (out_of_memory) throw std::bad_alloc();
  std::vector<std::size_t> offset(parts.size() + 1, header.size());
  for (std::size_t b = 0; b < parts.size(); ++b) offset[b + 1] = offset[b] + parts[b].size();
  std::vector<unsigned char> bytes(offset.back());
  std::memcpy(bytes.data(), header.data(), header.size());
#pragma omp parallel for schedule(static)
  for (int b = 0; b < bands; ++b)
    std::memcpy(bytes.data() + offset[std::size_t(b)], parts[std::size_t(b)].data(),
                parts[std::size_t(b)].size());
  return bytes;
}

}  // namespace raystream
