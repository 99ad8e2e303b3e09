#include "io/image_output.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "io/atomic_file.h"
#include "io/exr_image.h"

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

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

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<unsigned char>*>(context);
  const auto* bytes = static_cast<const unsigned char*>(data);
  out->insert(out->end(), bytes, bytes + size);
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

constexpr ImageFormat kImageFormats[] = {ImageFormat::png, ImageFormat::hdr, ImageFormat::pfm,
                                         ImageFormat::exr};

}  // namespace

std::uint8_t tone_map_srgb8(float linear) {
  if (!(linear > 0.0f)) return 0;  // also NaN
  if (linear >= 1.0f) return 255;
  const float srgb =
      linear <= 0.0031308f ? 12.92f * linear : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
  return static_cast<std::uint8_t>(std::lround(std::clamp(srgb, 0.0f, 1.0f) * 255.0f));
}

std::vector<std::uint8_t> tone_map_srgb8(const Image& image) {
  std::vector<std::uint8_t> out(image.rgb.size());
  std::transform(image.rgb.begin(), image.rgb.end(), out.begin(),
                 [](float v) { return tone_map_srgb8(v); });
  return out;
}

std::vector<unsigned char> encode_png(const Image& image) {
  check_image(image);
  const std::vector<std::uint8_t> pixels = tone_map_srgb8(image);
  std::vector<unsigned char> bytes;
  if (!stbi_write_png_to_func(append_bytes, &bytes, image.width, image.height, 3, pixels.data(),
                              image.width * 3)) {
    throw std::runtime_error("encode_png: PNG encoding failed");
  }
  return bytes;
}

std::vector<unsigned char> encode_hdr(const Image& image) {
  check_image(image);
  // RGBE holds no negative, NaN or infinite value, and nothing from 2^127 up (the exponent byte
  // would wrap around): write 0 for the first two, and the largest value it holds, just below
  // 2^127 (1.7e38), for the others.
  std::vector<float> linear(image.rgb.size());
  std::transform(image.rgb.begin(), image.rgb.end(), linear.begin(), [](float v) {
    if (!(v > 0.0f)) return 0.0f;
    return std::min(v, kLargestHdrValue);
  });
  std::vector<unsigned char> bytes;
  if (!stbi_write_hdr_to_func(append_bytes, &bytes, image.width, image.height, 3, linear.data())) {
    throw std::runtime_error("encode_hdr: HDR encoding failed");
  }
  return bytes;
}

std::vector<unsigned char> encode_pfm(const Image& image) {
  check_image(image);
  const std::string header =
      "PF\n" + std::to_string(image.width) + " " + std::to_string(image.height) + "\n-1.0\n";
  std::vector<unsigned char> bytes(header.begin(), header.end());
  const std::size_t row = static_cast<std::size_t>(image.width) * 3;
  bytes.reserve(bytes.size() + image.rgb.size() * sizeof(float));
  for (int y = image.height - 1; y >= 0; --y) {
    for (std::size_t k = 0; k < row; ++k) {
      const float v = image.rgb[static_cast<std::size_t>(y) * row + k];
      unsigned char b[sizeof(float)];
      std::memcpy(b, &v, sizeof v);
      bytes.insert(bytes.end(), b, b + sizeof b);  // the host is little-endian (x86-64, Arm)
    }
  }
  return bytes;
}

std::vector<unsigned char> encode_exr(const Image& image) {
  check_image(image);
  return encode_exr(image.width, image.height, {ExrLayer{"", {"R", "G", "B"}, image.rgb}});
}

const char* image_format_name(ImageFormat format) {
  switch (format) {
    case ImageFormat::hdr:
      return "hdr";
    case ImageFormat::pfm:
      return "pfm";
    case ImageFormat::exr:
      return "exr";
    case ImageFormat::png:
      break;
  }
  return "png";
}

std::optional<ImageFormat> image_format_named(const std::string& name) {
  for (const ImageFormat f : kImageFormats)
    if (name == image_format_name(f)) return f;
  return std::nullopt;
}

std::optional<ImageFormat> image_format_of_path(const std::string& path) {
  for (const ImageFormat f : kImageFormats)
    if (ends_with(path, (std::string(".") + image_format_name(f)).c_str())) return f;
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
