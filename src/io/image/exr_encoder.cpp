// raystream's EXR writer: a single-part scanline file (OpenEXR's "file layout": the magic and
// version, the header's attributes, the offset table, then the blocks), its blocks compressed by
// libdeflate at level 1 on OpenMP's threads, each on its own (the same bytes on any number of
// threads). OpenEXR's own writer, on its thread pool at level 1, took 1.4 to 1.9x its time on the
// device host (renders/encoding/RESULTS.md); exr_io_test reads every file back with OpenEXR.
#include <Imath/half.h>
#include <libdeflate.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/image/exr_image.h"

namespace raystream {
namespace {

// The file's compression codes (OpenEXR's Imf::Compression) and scanlines per block.
int compression_code(ExrCompression compression) {
  switch (compression) {
    case ExrCompression::none:
      return 0;
    case ExrCompression::zip:
      return 3;
    case ExrCompression::zips:
      break;
  }
  return 2;
}

int lines_per_block(ExrCompression compression) {
  return compression == ExrCompression::zip ? 16 : 1;
}

// libdeflate's fastest level: on a render's floats (noise in the low mantissa bits) the higher
// levels save little and take much longer (renders/encoding/RESULTS.md).
constexpr int kDeflateLevel = 1;

class Bytes {
 public:
  explicit Bytes(std::vector<unsigned char>& out) : out_(out) {}
  void raw(const void* p, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  void i32(std::int32_t v) { raw(&v, 4); }  // the format is little-endian, as is every target
  void f32(float v) { raw(&v, 4); }
  void u8(unsigned char v) { out_.push_back(v); }
  void text(const std::string& s) { raw(s.c_str(), s.size() + 1); }
  // An attribute: name, type, the value's size, then the value that `value` writes.
  template <class F>
  void attribute(const char* name, const char* type, std::int32_t size, F value) {
    text(name);
    text(type);
    i32(size);
    const std::size_t start = out_.size();
    value();
    if (out_.size() - start != std::size_t(size))
      throw std::logic_error(std::string("EXR attribute ") + name + " has the wrong size");
  }

 private:
  std::vector<unsigned char>& out_;
};

// One channel as the file holds it: its values are layer.values[p * stride + offset].
struct Channel {
  const float* values;
  std::size_t stride;
  bool half;
};
using Channels = std::map<std::string, Channel>;

// The header: the channels (sorted by name, as the file requires), the compression, the windows,
// the line order, and the three attributes every file must have.
void write_header(std::vector<unsigned char>& out, int width, int height, const Channels& channels,
                  ExrCompression compression) {
  bool long_names = false;
  std::int32_t list_size = 1;
  for (const auto& [name, channel] : channels) {
    long_names = long_names || name.size() > 31;
    list_size += std::int32_t(name.size()) + 1 + 16;
  }
  Bytes b(out);
  b.raw("\x76\x2f\x31\x01", 4);
  b.i32(2 | (long_names ? 0x400 : 0));
  b.attribute("channels", "chlist", list_size, [&] {
    for (const auto& [name, channel] : channels) {
      b.text(name);
      b.i32(channel.half ? 1 : 2);  // HALF, FLOAT
      b.i32(0);                     // pLinear and three reserved bytes
      b.i32(1);                     // x sampling
      b.i32(1);                     // y sampling
    }
    b.u8(0);
  });
  b.attribute("compression", "compression", 1,
              [&] { b.u8(static_cast<unsigned char>(compression_code(compression))); });
  for (const char* window : {"dataWindow", "displayWindow"}) {
    b.attribute(window, "box2i", 16, [&] {
      b.i32(0);
      b.i32(0);
      b.i32(width - 1);
      b.i32(height - 1);
    });
  }
  b.attribute("lineOrder", "lineOrder", 1, [&] { b.u8(0); });  // increasing y
  b.attribute("pixelAspectRatio", "float", 4, [&] { b.f32(1.0f); });
  b.attribute("screenWindowCenter", "v2f", 8, [&] {
    b.f32(0.0f);
    b.f32(0.0f);
  });
  b.attribute("screenWindowWidth", "float", 4, [&] { b.f32(1.0f); });
  b.u8(0);  // the header's end
}

// One block's pixels as the file stores them uncompressed: each scanline, each channel in name
// order, its values from left to right.
void gather_block(const Channels& channels, int width, int y0, int y1, unsigned char* out) {
  for (int y = y0; y < y1; ++y) {
    for (const auto& [name, c] : channels) {
      const std::size_t row = std::size_t(y) * std::size_t(width);
      if (c.half) {
        auto* h = reinterpret_cast<std::uint16_t*>(out);
        for (int x = 0; x < width; ++x) h[x] = Imath::half(c.values[(row + x) * c.stride]).bits();
        out += 2 * std::size_t(width);
      } else {
        for (int x = 0; x < width; ++x)
          std::memcpy(out + 4 * std::size_t(x), &c.values[(row + x) * c.stride], 4);
        out += 4 * std::size_t(width);
      }
    }
  }
}

// ZIP and ZIPS before deflate: the bytes split into the even and the odd ones, then each byte
// replaced by its difference from the one before (OpenEXR's ImfZip).
void predict(const unsigned char* raw, std::size_t n, unsigned char* out) {
  unsigned char* t1 = out;
  unsigned char* t2 = out + (n + 1) / 2;
  for (std::size_t i = 0; i < n; i += 2) {
    *t1++ = raw[i];
    if (i + 1 < n) *t2++ = raw[i + 1];
  }
  int previous = out[0];
  for (std::size_t i = 1; i < n; ++i) {
    const int d = int(out[i]) - previous + (128 + 256);
    previous = out[i];
    out[i] = static_cast<unsigned char>(d);
  }
}

struct FreeCompressor {
  void operator()(libdeflate_compressor* c) const { libdeflate_free_compressor(c); }
};

// The channels of the layers by name (the file's order), checked.
Channels channels_of(const std::vector<ExrLayerView>& layers) {
  Channels channels;
  for (const ExrLayerView& layer : layers) {
    const std::size_t n = layer.channels.size();
    if (n == 0 || layer.values == nullptr)
      throw std::invalid_argument("encode_exr: layer '" + layer.name + "' has no values");
    for (std::size_t c = 0; c < n; ++c) {
      const std::string name =
          layer.name.empty() ? layer.channels[c] : layer.name + "." + layer.channels[c];
      if (name.empty() || name.size() > 255)
        throw std::invalid_argument("encode_exr: a channel name of " + std::to_string(name.size()) +
                                    " characters");
      if (!channels.emplace(name, Channel{layer.values + c, n, layer.half}).second)
        throw std::invalid_argument("encode_exr: channel '" + name + "' twice");
    }
  }
  if (channels.empty()) throw std::invalid_argument("encode_exr: no channels");
  return channels;
}

// One block as the file holds it (its first scanline, its size, its data) from scanlines
// [y0, y1): deflated, or as it is where deflate would not shrink it (the reader knows by the
// size). `compressor` is null for no compression. The thread's scratch: `raw` and `predicted` of
// `bytes`, `deflated` of at least `bytes` (deflate that would not fit saves nothing), so that a
// block holds only its own bytes.
std::vector<unsigned char> encode_block(const Channels& channels, int width, int y0, int y1,
                                        std::size_t bytes, libdeflate_compressor* compressor,
                                        unsigned char* raw, unsigned char* predicted,
                                        unsigned char* deflated) {
  gather_block(channels, width, y0, y1, raw);
  std::size_t size = 0;
  if (compressor) {
    predict(raw, bytes, predicted);
    size = libdeflate_zlib_compress(compressor, predicted, bytes, deflated, bytes);
  }
  const unsigned char* data = size > 0 && size < bytes ? deflated : raw;
  if (data == raw) size = bytes;
  std::vector<unsigned char> block(8 + size);
  const std::int32_t head[2] = {y0, std::int32_t(size)};
  std::memcpy(block.data(), head, 8);
  std::memcpy(block.data() + 8, data, size);
  return block;
}

// Every block, each encoded on its own (the same bytes on any number of threads). Memory that
// runs out inside the threads is an exception here, not a crash.
std::vector<std::vector<unsigned char>> encode_blocks(const Channels& channels, int width,
                                                      int height, std::size_t line_bytes,
                                                      ExrCompression compression) {
  const int per_block = lines_per_block(compression);
  const int count = (height + per_block - 1) / per_block;
  std::vector<std::vector<unsigned char>> blocks(static_cast<std::size_t>(count));
  bool failed = false;
#pragma omp parallel
  {
    std::unique_ptr<libdeflate_compressor, FreeCompressor> compressor;
    std::vector<unsigned char> raw, predicted, deflated;
    bool ready = true;
    try {
      if (compression != ExrCompression::none) {
        compressor.reset(libdeflate_alloc_compressor(kDeflateLevel));
        ready = compressor != nullptr;
      }
      raw.resize(line_bytes * std::size_t(per_block));
      predicted.resize(raw.size());
      deflated.resize(raw.size());
    } catch (const std::bad_alloc&) {
      ready = false;
    }
#pragma omp for schedule(dynamic, 4)
    for (int k = 0; k < count; ++k) {
      const int y0 = k * per_block, y1 = std::min(height, y0 + per_block);
      try {
        if (!ready) throw std::bad_alloc();
        blocks[std::size_t(k)] =
            encode_block(channels, width, y0, y1, line_bytes * std::size_t(y1 - y0),
                         compressor.get(), raw.data(), predicted.data(), deflated.data());
      } catch (const std::bad_alloc&) {
#pragma omp atomic write
        failed = true;
      }
    }
  }
  if (failed) throw std::runtime_error("EXR encoding failed: out of memory");
  return blocks;
}

}  // namespace

const char* exr_compression_name(ExrCompression compression) {
  switch (compression) {
    case ExrCompression::none:
      return "none";
    case ExrCompression::zip:
      return "zip";
    case ExrCompression::zips:
      break;
  }
  return "zips";
}

std::vector<unsigned char> encode_exr(int width, int height, const std::vector<ExrLayer>& layers,
                                      ExrCompression compression) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("encode_exr: empty image");
  const std::size_t pixels = std::size_t(width) * std::size_t(height);
  std::vector<ExrLayerView> views;
  for (const ExrLayer& layer : layers) {
    const std::size_t n = layer.channels.size();
    if (n == 0 || layer.values.size() != pixels * n)
      throw std::invalid_argument("encode_exr: layer '" + layer.name + "' holds " +
                                  std::to_string(layer.values.size()) + " values for " +
                                  std::to_string(pixels) + " pixels of " + std::to_string(n) +
                                  " channels");
    views.push_back({layer.name, layer.channels, layer.values.data(), layer.half});
  }
  return encode_exr(width, height, views, compression);
}

std::vector<unsigned char> encode_exr(int width, int height,
                                      const std::vector<ExrLayerView>& layers,
                                      ExrCompression compression) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("encode_exr: empty image");
  const Channels channels = channels_of(layers);
  std::size_t line_bytes = 0;
  for (const auto& [name, channel] : channels)
    line_bytes += (channel.half ? 2 : 4) * std::size_t(width);

  std::vector<unsigned char> out;
  write_header(out, width, height, channels, compression);
  const std::vector<std::vector<unsigned char>> blocks =
      encode_blocks(channels, width, height, line_bytes, compression);
  // The offset table, then the blocks in their places.
  const std::size_t table = out.size();
  std::vector<std::size_t> offsets(blocks.size());
  std::size_t end = table + 8 * blocks.size();
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    offsets[k] = end;
    end += blocks[k].size();
  }
  out.resize(end);
  for (std::size_t k = 0; k < blocks.size(); ++k) {
    const std::uint64_t offset = offsets[k];
    std::memcpy(out.data() + table + 8 * k, &offset, 8);
  }
  const long count = long(blocks.size());
#pragma omp parallel for schedule(dynamic, 16)
  for (long k = 0; k < count; ++k)
    std::memcpy(out.data() + offsets[std::size_t(k)], blocks[std::size_t(k)].data(),
                blocks[std::size_t(k)].size());
  return out;
}

}  // namespace raystream
