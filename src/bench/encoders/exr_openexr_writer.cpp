// EXR files written by OpenEXR's own writer, for encoding_bench's comparison with the renderer's
// (io/image/exr_encoder.cpp): one scanline part, every layer's channels, the blocks compressed
// on the library's thread pool at the zlib level asked for, into memory.
#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfIO.h>
#include <OpenEXR/ImfOutputFile.h>
#include <OpenEXR/ImfThreading.h>
#if defined(_OPENMP)
#include <omp.h>
#endif

#include <cstdint>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>

#include "bench/encoders/exr_openexr_writer.h"

namespace raystream {
namespace {

// The library writes its blocks through this stream; the offset table it writes first and
// seeks back to fill in at the end.
class MemoryOut : public Imf::OStream {
 public:
  explicit MemoryOut(std::size_t expected) : Imf::OStream("memory") { bytes.reserve(expected); }
  void write(const char c[], int n) override {
    if (n <= 0) return;
    if (bytes.size() < position_ + std::size_t(n)) bytes.resize(position_ + std::size_t(n));
    std::memcpy(bytes.data() + position_, c, std::size_t(n));
    position_ += std::size_t(n);
  }
  std::uint64_t tellp() override { return position_; }
  void seekp(std::uint64_t position) override { position_ = position; }
  std::vector<unsigned char> bytes;

 private:
  std::size_t position_ = 0;
};

Imf::Compression library_compression(ExrCompression compression) {
  switch (compression) {
    case ExrCompression::none:
      return Imf::NO_COMPRESSION;
    case ExrCompression::zip:
      return Imf::ZIP_COMPRESSION;
    case ExrCompression::zips:
      break;
  }
  return Imf::ZIPS_COMPRESSION;
}

// The library's thread pool sized to the host's cores (OpenMP's count, which OMP_NUM_THREADS
// sets, as for every other encoder), resized only when that count changed.
int pool_threads() {
#if defined(_OPENMP)
  const int threads = omp_get_max_threads();
#else
  const int threads = 1;
#endif
  if (Imf::globalThreadCount() != threads) Imf::setGlobalThreadCount(threads);
  return threads;
}

// `n` values rounded to the nearest half (Imath::half), on OpenMP's threads.
std::vector<Imath::half> to_half(const float* values, std::size_t n) {
  std::vector<Imath::half> out(n);
  const long count = long(n);
#pragma omp parallel for schedule(static)
  for (long i = 0; i < count; ++i) out[std::size_t(i)] = Imath::half(values[i]);
  return out;
}

}  // namespace

int exr_library_zip_level() {
  return Imf::Header().zipCompressionLevel();
}

std::vector<unsigned char> encode_exr_openexr(int width, int height,
                                              const std::vector<ExrLayerView>& layers,
                                              ExrCompression compression, int zip_level) {
  if (width <= 0 || height <= 0) throw std::invalid_argument("encode_exr_openexr: empty image");
  const std::size_t pixels = std::size_t(width) * std::size_t(height);
  if (zip_level < -1 || zip_level > 9)
    throw std::invalid_argument("encode_exr_openexr: zip level " + std::to_string(zip_level));
  Imf::Header header(width, height);
  header.compression() = library_compression(compression);
  if (zip_level >= 0) header.zipCompressionLevel() = zip_level;
  // Each channel a slice of its layer's interleaved values; a half layer's values converted to
  // half first (the library writes a slice of the channel's own type).
  Imf::FrameBuffer frame;
  std::set<std::string> names;
  std::vector<std::vector<Imath::half>> halves;
  std::size_t pixel_bytes = 0;
  for (const ExrLayerView& layer : layers) {
    const std::size_t n = layer.channels.size();
    if (n == 0 || layer.values == nullptr)
      throw std::invalid_argument("encode_exr_openexr: layer '" + layer.name + "' has no values");
    const std::vector<Imath::half>* half =
        layer.half ? &halves.emplace_back(to_half(layer.values, pixels * n)) : nullptr;
    for (std::size_t c = 0; c < n; ++c) {
      const std::string name =
          layer.name.empty() ? layer.channels[c] : layer.name + "." + layer.channels[c];
      if (name.empty() || name.size() > 255)
        throw std::invalid_argument("encode_exr_openexr: a channel name of " +
                                    std::to_string(name.size()) + " characters");
      if (!names.insert(name).second)
        throw std::invalid_argument("encode_exr_openexr: channel '" + name + "' twice");
      const Imf::PixelType type = half ? Imf::HALF : Imf::FLOAT;
      const std::size_t size = half ? sizeof(Imath::half) : sizeof(float);
      const char* base = half ? reinterpret_cast<const char*>(half->data() + c)
                              : reinterpret_cast<const char*>(layer.values + c);
      header.channels().insert(name, Imf::Channel(type));
      frame.insert(
          name, Imf::Slice(type, const_cast<char*>(base), size * n, size * n * std::size_t(width)));
      pixel_bytes += size;
    }
  }
  if (names.empty()) throw std::invalid_argument("encode_exr_openexr: no channels");
  const int threads = pool_threads();
  // Room for the blocks uncompressed, so that the stream rarely grows while the library writes.
  MemoryOut out(pixel_bytes * pixels + 4096 + 16 * std::size_t(height));
  try {
    Imf::OutputFile file(out, header, threads);
    file.setFrameBuffer(frame);
    file.writePixels(height);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("EXR encoding failed: ") + e.what());
  }
  return std::move(out.bytes);
}

}  // namespace raystream
