#include "io/image/exr_image.h"

#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfCompression.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfIO.h>
#include <OpenEXR/ImfInputFile.h>
#include <OpenEXR/ImfOutputFile.h>
#include <OpenEXR/ImfThreading.h>
#include <OpenEXR/ImfVersion.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>

#include "scene/scene_error.h"

namespace raystream {
namespace {

// The library writes through this into memory: the bytes then go to the atomic writer.
class MemoryOut : public Imf::OStream {
 public:
  explicit MemoryOut(std::size_t expected) : Imf::OStream("memory") { bytes_.reserve(expected); }
  void write(const char c[], int n) override {
    const std::size_t end = position_ + std::size_t(n);
    if (position_ == bytes_.size()) {
      bytes_.insert(bytes_.end(), c, c + n);  // the common case: appending
    } else {
      if (bytes_.size() < end) bytes_.resize(end);
      std::memcpy(bytes_.data() + position_, c, std::size_t(n));
    }
    position_ = end;
  }
  std::uint64_t tellp() override { return position_; }
  void seekp(std::uint64_t pos) override { position_ = pos; }
  std::vector<unsigned char> take() { return std::move(bytes_); }

 private:
  std::vector<unsigned char> bytes_;
  std::size_t position_ = 0;
};

// The library reads from the file's bytes, already read under the input file cap.
class MemoryIn : public Imf::IStream {
 public:
  MemoryIn(const std::string& bytes, const std::string& path)
      : Imf::IStream(path.c_str()), bytes_(bytes) {}
  bool read(char c[], int n) override {
    if (n < 0 || position_ > bytes_.size() || bytes_.size() - position_ < std::size_t(n))
      throw std::runtime_error("unexpected end of file");
    std::memcpy(c, bytes_.data() + position_, std::size_t(n));
    position_ += std::size_t(n);
    return position_ < bytes_.size();
  }
  std::uint64_t tellg() override { return position_; }
  void seekg(std::uint64_t pos) override { position_ = pos; }

 private:
  const std::string& bytes_;
  std::size_t position_ = 0;
};

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw SceneError(path + ": " + message);
}

std::string channel_name(const std::string& layer, const std::string& channel) {
  return layer.empty() ? channel : layer + "." + channel;
}

Imf::Compression library_compression(ExrCompression compression) {
  switch (compression) {
    case ExrCompression::none:
      return Imf::NO_COMPRESSION;
    case ExrCompression::zip:
      return Imf::ZIP_COMPRESSION;
    case ExrCompression::piz:
      return Imf::PIZ_COMPRESSION;
    case ExrCompression::zips:
      break;
  }
  return Imf::ZIPS_COMPRESSION;
}

// OpenEXR compresses the blocks of a file on its global thread pool, which starts empty.
int exr_threads() {
  static std::once_flag once;
  static int threads = 1;
  std::call_once(once, [] {
#if defined(_OPENMP)
    threads = std::max(1, omp_get_max_threads());
#endif
    Imf::setGlobalThreadCount(threads);
  });
  return threads;
}

}  // namespace

const char* exr_compression_name(ExrCompression compression) {
  switch (compression) {
    case ExrCompression::none:
      return "none";
    case ExrCompression::zip:
      return "zip";
    case ExrCompression::piz:
      return "piz";
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
  const std::size_t pixels = std::size_t(width) * std::size_t(height);
  const long count = long(pixels);
  Imf::Header header(width, height);
  header.compression() = library_compression(compression);
  // zlib's fastest level: on a render's floats (noise in the low mantissa bits) the higher
  // levels save little and take much longer (renders/encoding/RESULTS.md).
  header.zipCompressionLevel() = 1;
  Imf::FrameBuffer frame;
  // The half layers' values converted, one plane per channel (the library writes a slice's own
  // type only); left uninitialized until the threads write them.
  std::vector<std::unique_ptr<Imath::half[]>> halves;
  std::size_t bytes = 0;
  for (const ExrLayerView& layer : layers) {
    const std::size_t n = layer.channels.size();
    if (n == 0 || layer.values == nullptr)
      throw std::invalid_argument("encode_exr: layer '" + layer.name + "' has no values");
    std::vector<Imath::half*> planes;
    for (std::size_t c = 0; c < n; ++c) {
      const std::string name = channel_name(layer.name, layer.channels[c]);
      header.channels().insert(name, Imf::Channel(layer.half ? Imf::HALF : Imf::FLOAT));
      if (layer.half) {
        halves.emplace_back(new Imath::half[pixels]);
        planes.push_back(halves.back().get());
        frame.insert(
            name, Imf::Slice(Imf::HALF, reinterpret_cast<char*>(planes.back()), sizeof(Imath::half),
                             sizeof(Imath::half) * std::size_t(width)));
        bytes += pixels * sizeof(Imath::half);
      } else {
        // The library only reads through the pointer when writing.
        char* base = reinterpret_cast<char*>(const_cast<float*>(layer.values + c));
        frame.insert(name, Imf::Slice(Imf::FLOAT, base, sizeof(float) * n,
                                      sizeof(float) * n * std::size_t(width)));
        bytes += pixels * sizeof(float);
      }
    }
    if (layer.half) {
#pragma omp parallel for schedule(static)
      for (long p = 0; p < count; ++p)
        for (std::size_t c = 0; c < n; ++c)
          planes[c][p] = Imath::half(layer.values[std::size_t(p) * n + c]);
    }
  }
  // Room for the pixels uncompressed, the header and the offset table: no reallocation.
  MemoryOut out(bytes + 8 * std::size_t(height) + 64 * 1024);
  try {
    Imf::OutputFile file(out, header, exr_threads());
    file.setFrameBuffer(frame);
    file.writePixels(height);
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("EXR encoding failed: ") + e.what());
  }
  return out.take();
}

bool is_exr(const std::string& bytes) {
  return bytes.size() >= 4 && Imf::isImfMagic(bytes.data());
}

namespace {

// The header's data window, checked: its size within the limits (and an int's range).
struct Window {
  int x0 = 0, y0 = 0, width = 0, height = 0;
};

Window checked_window(const Imf::Header& header, const std::string& path, int max_width,
                      int max_height) {
  const Imath::Box2i& box = header.dataWindow();
  const std::int64_t w = std::int64_t(box.max.x) - box.min.x + 1;
  const std::int64_t h = std::int64_t(box.max.y) - box.min.y + 1;
  if (w <= 0 || h <= 0) fail(path, "corrupt EXR: an empty data window");
  if (w > max_width || h > max_height)
    fail(path, std::to_string(w) + " x " + std::to_string(h) + " pixels is too large (at most " +
                   std::to_string(max_width) + " x " + std::to_string(max_height) + ")");
  return {box.min.x, box.min.y, int(w), int(h)};
}

}  // namespace

ExrRgb decode_exr_rgb(const std::string& bytes, const std::string& path, int max_width,
                      int max_height) {
  if (!is_exr(bytes)) fail(path, "not an OpenEXR (.exr) image");
  ExrRgb image;
  try {
    MemoryIn in(bytes, path);
    Imf::InputFile file(in, 1);
    const Imf::Header& header = file.header();
    const Window window = checked_window(header, path, max_width, max_height);
    const Imf::ChannelList& channels = header.channels();
    const auto has = [&](const char* name) { return channels.findChannel(name) != nullptr; };
    const bool rgb = has("R") && has("G") && has("B");
    if (!rgb && !has("Y"))
      fail(path, "no R, G and B (or Y) channels: the EXR's colour is not in its unnamed layer");
    for (auto it = channels.begin(); it != channels.end(); ++it)
      if (it.channel().xSampling != 1 || it.channel().ySampling != 1)
        fail(path, std::string("channel ") + it.name() + " is subsampled (not read here)");
    image.width = window.width;
    image.height = window.height;
    image.rgb.assign(std::size_t(window.width) * std::size_t(window.height) * 3, 0.0f);
    Imf::FrameBuffer frame;
    const Imath::V2i origin(window.x0, window.y0);
    const char* names[3] = {"R", "G", "B"};
    for (int c = 0; c < 3; ++c) {
      frame.insert(
          rgb ? names[c] : "Y",
          Imf::Slice::Make(Imf::FLOAT, image.rgb.data() + c, origin, window.width, window.height,
                           3 * sizeof(float), 3 * sizeof(float) * std::size_t(window.width)));
      if (!rgb) break;  // Y: one slice, copied to G and B below
    }
    file.setFrameBuffer(frame);
    file.readPixels(header.dataWindow().min.y, header.dataWindow().max.y);
    if (!rgb)
      for (std::size_t p = 0; p < image.rgb.size(); p += 3)
        image.rgb[p + 1] = image.rgb[p + 2] = image.rgb[p];
  } catch (const SceneError&) {
    throw;
  } catch (const std::exception& e) {
    fail(path, std::string("corrupt EXR: ") + e.what());
  }
  return image;
}

std::vector<std::string> exr_channel_names(const std::string& bytes, const std::string& path) {
  if (!is_exr(bytes)) fail(path, "not an OpenEXR (.exr) image");
  std::vector<std::string> names;
  try {
    MemoryIn in(bytes, path);
    Imf::InputFile file(in, 1);
    const Imf::ChannelList& channels = file.header().channels();
    for (auto it = channels.begin(); it != channels.end(); ++it) names.push_back(it.name());
  } catch (const std::exception& e) {
    fail(path, std::string("corrupt EXR: ") + e.what());
  }
  return names;
}

}  // namespace raystream
