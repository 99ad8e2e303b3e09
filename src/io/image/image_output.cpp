#include "io/image/image_output.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "io/files/atomic_file.h"
#include "io/image/exr_image.h"
#include "io/image/hdr_encoder.h"
#include "io/image/png_encoder.h"

namespace raystream {
namespace {

void check_image(const Image& image) {
  if (image.width <= 0 || image.height <= 0 ||
      image.rgb.size() != static_cast<std::size_t>(image.width) * image.height * 3) {
    throw std::invalid_argument("write_image: image is " + std::to_string(image.width) + " x " +
                                std::to_string(image.height) + " but holds " +
                                std::to_string(image.rgb.size()) + " floats");
  }
}

bool ends_with(const std::string& path, const char* suffix) {
  const std::string s(suffix);
  if (path.size() < s.size()) return false;
  return std::equal(s.begin(), s.end(), path.end() - static_cast<std::ptrdiff_t>(s.size()),
                    [](char a, char b) {
                      return std::tolower(static_cast<unsigned char>(a)) ==
                             std::tolower(static_cast<unsigned char>(b));
                    });
}

}  // namespace

std::uint8_t tone_map_srgb8(float linear) {
  if (!(linear > 0.0f)) return 0;  // also NaN
  if (linear >= 1.0f) return 255;
  const float srgb =
      linear <= 0.0031308f ? 12.92f * linear : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
  return static_cast<std::uint8_t>(std::lround(std::clamp(srgb, 0.0f, 1.0f) * 255.0f));
}

namespace {

std::uint32_t float_bits(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  return bits;
}

float bits_float(std::uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

// tone_map_srgb8 without a pow per value, and exactly equal to it: for the values below 1 (as
// positive floats, ordered as their bits are), the smallest float that maps to each code, and
// per bucket of 2^15 consecutive floats the code of its first one. A value then takes its
// bucket's code and steps past the thresholds it reaches (at most one or two: a bucket spans
// 1/256 of its octave, a code step of the curve more). Built once from the function itself.
class ToneMapTable {
 public:
  static constexpr std::uint32_t kOne = 0x3f800000u;  // 1.0f
  static constexpr int kShift = 15;

  ToneMapTable() {
    threshold_[0] = 0;
    for (int code = 1; code < 256; ++code) {
      std::uint32_t lo = threshold_[code - 1], hi = kOne;  // tone_map_srgb8(1) == 255
      while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (tone_map_srgb8(bits_float(mid)) >= code)
          hi = mid;
        else
          lo = mid + 1;
      }
      threshold_[code] = lo;
    }
    int code = 0;
    for (std::uint32_t b = 0; b < bucket_.size(); ++b) {
      while (code < 255 && (b << kShift) >= threshold_[code + 1]) ++code;
      bucket_[b] = static_cast<std::uint8_t>(code);
    }
  }

  std::uint8_t operator()(float linear) const {
    const std::uint32_t bits = float_bits(linear);
    if (bits >= kOne) return bits <= 0x7f800000u ? 255 : 0;  // 1 .. infinity; negative or NaN
    int code = bucket_[bits >> kShift];
    while (code < 255 && bits >= threshold_[code + 1]) ++code;
    return static_cast<std::uint8_t>(code);
  }

 private:
  std::array<std::uint32_t, 256> threshold_{};
  std::array<std::uint8_t, (kOne >> kShift)> bucket_{};
};

const ToneMapTable& tone_map_table() {
  static const ToneMapTable table;
  return table;
}

void tone_map_into(const Image& image, std::uint8_t* out) {
  const ToneMapTable& table = tone_map_table();
  const long n = long(image.rgb.size());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) out[i] = table(image.rgb[std::size_t(i)]);
}

}  // namespace

std::vector<std::uint8_t> tone_map_srgb8(const Image& image) {
  std::vector<std::uint8_t> out(image.rgb.size());
  tone_map_into(image, out.data());
  return out;
}

std::vector<unsigned char> encode_png(const Image& image) {
  check_image(image);
  // Left uninitialized until the threads write it: its pages are first touched in parallel.
  const std::unique_ptr<std::uint8_t[]> pixels(new std::uint8_t[image.rgb.size()]);
  tone_map_into(image, pixels.get());
  return encode_png_rgb8(image.width, image.height, pixels.get(), image.rgb.size());
}

std::vector<unsigned char> encode_hdr(const Image& image) {
  check_image(image);
  return encode_hdr_bands(image.width, image.height, image.rgb.data(), image.rgb.size());
}

std::vector<unsigned char> encode_pfm(const Image& image) {
  check_image(image);
  const std::string header =
      "PF\n" + std::to_string(image.width) + " " + std::to_string(image.height) + "\n-1.0\n";
  const std::size_t row = static_cast<std::size_t>(image.width) * 3 * sizeof(float);
  std::vector<unsigned char> bytes(header.size() + row * std::size_t(image.height));
  std::memcpy(bytes.data(), header.data(), header.size());
  // The host is little-endian (x86-64, Arm): the floats go as they are, rows bottom to top.
#pragma omp parallel for schedule(static)
  for (int y = 0; y < image.height; ++y)
    std::memcpy(bytes.data() + header.size() + std::size_t(image.height - 1 - y) * row,
                image.rgb.data() + std::size_t(y) * std::size_t(image.width) * 3, row);
  return bytes;
}

std::vector<unsigned char> encode_exr(const Image& image) {
  check_image(image);
  return encode_exr(image.width, image.height,
                    std::vector<ExrLayerView>{{"", {"R", "G", "B"}, image.rgb.data(), false}});
}

const char* image_format_name(ImageFormat format) {
  return enum_name(format, kImageFormatNames);
}

std::optional<ImageFormat> image_format_named(const std::string& name) {
  return enum_named<ImageFormat>(name, kImageFormatNames);
}

std::optional<ImageFormat> image_format_of_path(const std::string& path) {
  for (std::size_t k = 0; k < std::size(kImageFormatNames); ++k)
    if (ends_with(path, (std::string(".") + kImageFormatNames[k]).c_str()))
      return static_cast<ImageFormat>(k);
  return std::nullopt;
}

std::vector<unsigned char> encode_image(const Image& image, ImageFormat format) {
  switch (format) {
    case ImageFormat::hdr:
      return encode_hdr(image);
    case ImageFormat::pfm:
      return encode_pfm(image);
    case ImageFormat::exr:
      return encode_exr(image);
    case ImageFormat::png:
      break;
  }
  return encode_png(image);
}

void write_image(const Image& image, const std::string& path) {
  write_file_atomically(path,
                        encode_image(image, image_format_of_path(path).value_or(ImageFormat::png)));
}

}  // namespace raystream
