// raystream's Radiance HDR writer in parallel bands: its run-length encoding decoded by stb_image
// to RGBE's exact values, flat and run-length scanlines alike.
#include "io/image/hdr_encoder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

namespace raystream {
namespace {

using Bytes = std::vector<unsigned char>;

// What a reader of RGBE gives back for a linear value: each channel truncated to 8 bits of the
// pixel's largest channel's power of two (negative and NaN as 0, beyond RGBE's range as its
// largest value), as Ward's format defines.
std::vector<float> rgbe_round_trip(const std::vector<float>& rgb) {
  std::vector<float> out(rgb.size());
  for (std::size_t p = 0; p < rgb.size(); p += 3) {
    float v[3];
    for (int c = 0; c < 3; ++c)
      v[c] = rgb[p + c] > 0.0f ? std::min(rgb[p + c], kLargestHdrValue) : 0.0f;
    const float largest = std::max({v[0], v[1], v[2]});
    int e = 0;
    std::frexp(largest, &e);
    for (int c = 0; c < 3; ++c)
      out[p + c] = largest < 1e-32f ? 0.0f : std::ldexp(std::floor(std::ldexp(v[c], 8 - e)), e - 8);
  }
  return out;
}

TEST(HdrEncoder, RunLengthScanlinesDecodeToRgbeExactly) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  // Widths below 8 and above 32767 are written flat, the others run-length encoded.
  for (const int w : {1, 7, 8, 9, 130, 1000, 40000}) {
    const int h = w > 1000 ? 2 : 37;
    SCOPED_TRACE(std::to_string(w) + " x " + std::to_string(h));
    std::vector<float> rgb(std::size_t(w) * std::size_t(h) * 3);
    for (std::size_t i = 0; i < rgb.size(); ++i) {
      const std::size_t x = (i / 3) % std::size_t(w), y = i / 3 / std::size_t(w);
      // Long flat runs (beyond 127), short runs, noise over many magnitudes, and values RGBE
      // clamps.
      const int kind = int((x / 50 + y) % 4);
      rgb[i] = kind == 0   ? 0.25f
               : kind == 1 ? float((x / 3) % 5) * 0.1f
               : kind == 2 ? std::ldexp(unit(rng), int(rng() % 40) - 20)
                           : (i % 7 == 0    ? -1.0f
                              : i % 11 == 0 ? std::numeric_limits<float>::infinity()
                              : i % 13 == 0 ? std::numeric_limits<float>::quiet_NaN()
                                            : 1e38f * unit(rng) + 3e38f);
    }
    const Bytes hdr = encode_hdr_bands(w, h, rgb.data(), rgb.size());
    const std::string header = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " + std::to_string(h) +
                               " +X " + std::to_string(w) + "\n";
    ASSERT_GE(hdr.size(), header.size());
    EXPECT_EQ(std::string(hdr.begin(), hdr.begin() + long(header.size())), header);
    int dw = 0, dh = 0, channels = 0;
    float* data = stbi_loadf_from_memory(hdr.data(), int(hdr.size()), &dw, &dh, &channels, 3);
    ASSERT_NE(data, nullptr) << stbi_failure_reason();
    ASSERT_EQ(dw, w);
    ASSERT_EQ(dh, h);
    const std::vector<float> expected = rgbe_round_trip(rgb);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (data[i] != expected[i] && ++wrong < 5)
        ADD_FAILURE() << "value " << i << ": " << data[i] << ", expected " << expected[i];
    }
    EXPECT_EQ(wrong, 0u);
    stbi_image_free(data);
  }
  // A flat image takes two bytes per run of 127, not four per pixel: 20 scanlines of 4 + 4 x 8 x 2.
  const std::vector<float> grey(1000 * 20 * 3, 0.5f);
  EXPECT_LT(encode_hdr_bands(1000, 20, grey.data(), grey.size()).size(), 20u * 68 + 64);
  EXPECT_THROW(encode_hdr_bands(4, 4, grey.data(), 47), std::invalid_argument);
}

}  // namespace
}  // namespace raystream
