// The film's output: tone mapping to 8-bit sRGB; PNG, Radiance HDR and PFM files written
// atomically.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "core/enum_names.h"
#include "film/image.h"

namespace raystream {

// Linear radiance -> 8-bit sRGB: each channel is clamped to [0, 1] (values above 1 clip to
// white, NaN becomes 0), encoded with the sRGB transfer curve and rounded to 0..255.
std::uint8_t tone_map_srgb8(float linear);

// The whole image through tone_map_srgb8 (exactly: through a table made from it, in parallel),
// RGB interleaved, rows from the top.
std::vector<std::uint8_t> tone_map_srgb8(const Image& image);

// The largest value a Radiance HDR (RGBE) file holds: the float just below 2^127 (2^127 - 2^103).
// encode_hdr writes larger values, and infinity, as this one; negative and NaN values as 0.
inline constexpr float kLargestHdrValue = 1.70141173e38f;

// The image formats written: PNG (8-bit sRGB, tone mapped; io/image/png_encoder.h, in parallel
// bands), Radiance HDR (linear, RGBE: 8 bits of mantissa shared by the three channels;
// io/image/hdr_encoder.h, in parallel bands), PFM (linear, 32-bit float per channel, lossless: for
// measurements, since RGBE rounds a channel far below the pixel's brightest to a few steps) and
// OpenEXR (linear, 32-bit float channels, compressed losslessly, its blocks in parallel:
// io/image/exr_image.h; the only one with room for AOV layers beside the beauty,
// io/image/film_output.h).
enum class ImageFormat { png, hdr, pfm, exr };
// Their names in the enum's order (core/enum_names.h); the file name extension is the same with a
// dot.
inline constexpr const char* kImageFormatNames[] = {"png", "hdr", "pfm", "exr"};
static_assert(std::size(kImageFormatNames) == std::size_t(ImageFormat::exr) + 1);

// "png", "hdr", "pfm", "exr".
const char* image_format_name(ImageFormat format);

// The format a path's extension names (.png, .hdr, .pfm, .exr, any case), or none.
std::optional<ImageFormat> image_format_of_path(const std::string& path);

// The format named "png", "hdr", "pfm" or "exr", or none.
std::optional<ImageFormat> image_format_named(const std::string& name);

// Encodes the image in memory.
std::vector<unsigned char> encode_png(const Image& image);
std::vector<unsigned char> encode_hdr(const Image& image);
// PFM as written: "PF", the size, -1 (little-endian floats), then the rows bottom to top, RGB
// interleaved; values as the film holds them (finite: the film drops non-finite samples).
std::vector<unsigned char> encode_pfm(const Image& image);
// EXR as written: R, G, B as 32-bit floats, compressed as io/image/exr_image.h's default.
std::vector<unsigned char> encode_exr(const Image& image);
std::vector<unsigned char> encode_image(const Image& image, ImageFormat format);

// Writes the image to `path` atomically in the format its extension names (PNG when none does).
// Throws OutputError naming the file when it cannot be written (no partial file is left) and
// std::invalid_argument when the image's size and data disagree.
void write_image(const Image& image, const std::string& path);

}  // namespace raystream
