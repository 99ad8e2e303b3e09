// The film's output: tone mapping to 8-bit sRGB, PNG and Radiance HDR files written atomically.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "integrator/render.h"

namespace raystream {

// Linear radiance -> 8-bit sRGB: each channel is clamped to [0, 1] (values above 1 clip to
// white, NaN becomes 0), encoded with the sRGB transfer curve and rounded to 0..255.
std::uint8_t tone_map_srgb8(float linear);

// The whole image through tone_map_srgb8, RGB interleaved, rows from the top.
std::vector<std::uint8_t> tone_map_srgb8(const Image& image);

// The largest value a Radiance HDR (RGBE) file holds: the float just below 2^127. encode_hdr
// writes larger values, and infinity, as this one; negative and NaN values as 0.
inline constexpr float kLargestHdrValue = 1.70141173e38f;  // 2^127 - 2^103

// Encodes the image as PNG (tone mapped) or as Radiance HDR (linear) in memory.
std::vector<unsigned char> encode_png(const Image& image);
std::vector<unsigned char> encode_hdr(const Image& image);

// True when `path` ends in ".hdr" (any case): write_image writes the linear Radiance HDR image.
bool is_hdr_path(const std::string& path);

// encode_hdr or encode_png.
std::vector<unsigned char> encode_image(const Image& image, bool hdr);

// Writes the image to `path` atomically: Radiance HDR when the path ends in .hdr, PNG otherwise.
// Throws OutputError naming the file when it cannot be written (no partial file is left) and
// std::invalid_argument when the image's size and data disagree.
void write_image(const Image& image, const std::string& path);

}  // namespace raystream
