#include "bench/encoders/hdr_stb_writer.h"

#include <algorithm>
#include <stdexcept>

#include "io/image/image_output.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace raystream {
namespace {

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<unsigned char>*>(context);
  const auto* bytes = static_cast<const unsigned char*>(data);
  if (size > 0) out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

std::vector<unsigned char> encode_hdr_stb(const Image& image) {
  // What RGBE holds: stb_image_write's exponent byte would wrap around from 2^127 up (and is
  // undefined for infinity and NaN).
  std::vector<float> linear(image.rgb.size());
  std::transform(image.rgb.begin(), image.rgb.end(), linear.begin(),
                 [](float v) { return v > 0.0f ? std::min(v, kLargestHdrValue) : 0.0f; });
  std::vector<unsigned char> out;
  out.reserve(linear.size() * 4 / 3 + 128);
  if (!stbi_write_hdr_to_func(append_bytes, &out, image.width, image.height, 3, linear.data()))
    throw std::runtime_error("encode_hdr_stb: stb_image_write failed");
  return out;
}

}  // namespace raystream
