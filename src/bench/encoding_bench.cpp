// The image encoders' speed: each format as raystream writes it, at each size asked for, with the
// time (the best of --reps runs, wall clock), the CPU time of all threads in that run, the
// throughput and the file size. Not a test: it prints figures (renders/encoding/RESULTS.md).
//
//   encoding_bench [--size WxH]... [--reps N] [--film FILE.checkpoint] [--variants]
//
// The film is synthetic (a sky, a checkered floor, spheres, one of them a lamp; 16 samples per
// pixel of noise, every AOV layer) unless --film gives a checkpoint of a real render (raystream
// --checkpoint; its size then replaces --size). MB/s counts the linear float values that go in
// (4 bytes each: 3 per pixel for the beauty, 13 with the four AOVs), the same basis for every
// format. The "before" rows are the encoders raystream used first: stb_image_write for PNG and
// HDR, OpenEXR with ZIP at its default level on one thread, every layer 32-bit float; the
// "OpenEXR writer" rows the EXR writer it used before its own (OpenEXR 3.1, ZIPS at zlib level 1
// on the library's thread pool).
// --variants adds the tone mapping alone and the other settings that were weighed (PNG filters
// and zlib levels, the EXR compressions).
#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfCompression.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfIO.h>
#include <OpenEXR/ImfOutputFile.h>
#include <OpenEXR/ImfThreading.h>
#include <omp.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "io/checkpoint/checkpoint_file.h"
#include "io/image/exr_image.h"
#include "io/image/film_output.h"
#include "io/image/image_output.h"
#include "io/image/png_encoder.h"

#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

namespace raystream {
namespace {

using Bytes = std::vector<unsigned char>;

double cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

// A film of `spp` samples per pixel: sums, counts, squares and first hits as a render leaves
// them, of a scene with flat, smooth and noisy regions.
FilmState synthetic_film(int width, int height, int spp) {
  FilmState film = empty_film(width, height, FilmLayers{true, true});
  struct Sphere {
    float x, y, r;  // centre and radius in units of the image height
    float albedo[3];
    float emission;
  };
  const float aspect = float(width) / float(height);
  const Sphere spheres[] = {{0.30f * aspect, 0.62f, 0.16f, {0.8f, 0.25f, 0.2f}, 0.0f},
                            {0.55f * aspect, 0.58f, 0.12f, {0.9f, 0.9f, 0.9f}, 0.0f},
                            {0.75f * aspect, 0.66f, 0.09f, {0.2f, 0.4f, 0.8f}, 0.0f},
                            {0.62f * aspect, 0.25f, 0.05f, {1.0f, 0.9f, 0.7f}, 20.0f}};
#pragma omp parallel for schedule(dynamic, 8)
  for (int y = 0; y < height; ++y) {
    std::mt19937 rng(std::uint32_t(y) * 2654435761u + 1u);
    std::normal_distribution<float> gauss(0.0f, 1.0f);
    for (int x = 0; x < width; ++x) {
      const std::size_t p = std::size_t(y) * std::size_t(width) + std::size_t(x);
      const float u = (float(x) + 0.5f) / float(height), v = (float(y) + 0.5f) / float(height);
      float radiance[3], albedo[3] = {0, 0, 0}, normal[3] = {0, 0, 0}, depth = 0.0f;
      bool hit = false, noisy = true;
      const Sphere* on = nullptr;
      float nz = 0.0f;
      for (const Sphere& s : spheres) {
        const float dx = (u - s.x) / s.r, dy = (v - s.y) / s.r;
        if (dx * dx + dy * dy < 1.0f) {
          on = &s, nz = std::sqrt(1.0f - dx * dx - dy * dy);
          normal[0] = dx, normal[1] = -dy, normal[2] = nz;
          depth = 6.0f - 2.0f * s.r * nz;
        }
      }
      if (on != nullptr) {
        hit = true;
        const float light = on->emission > 0.0f ? on->emission : 0.15f + 0.85f * nz;
        for (int c = 0; c < 3; ++c) albedo[c] = on->albedo[c], radiance[c] = albedo[c] * light;
        noisy = on->emission == 0.0f;
      } else if (v > 0.45f) {
        hit = true;
        const float z = 0.02f / (v - 0.44f);  // the floor's distance grows toward the horizon
        const bool dark = (int(std::floor(u * z * 40.0f)) + int(std::floor(z * 12.0f))) & 1;
        for (int c = 0; c < 3; ++c) albedo[c] = dark ? 0.15f : 0.7f;
        normal[1] = 1.0f;
        depth = 2.0f + 30.0f * z;
        for (int c = 0; c < 3; ++c) radiance[c] = albedo[c] * (0.3f + 0.6f * v);
      } else {
        radiance[0] = 0.35f + 0.4f * v, radiance[1] = 0.5f + 0.3f * v, radiance[2] = 0.9f;
        noisy = false;
      }
      film.counts[p] = std::uint32_t(spp);
      const float n = float(spp);
      const float g = noisy ? gauss(rng) : 0.0f;
      for (int c = 0; c < 3; ++c) {
        // Samples of relative spread 1 (a path tracer's), their mean off by 1/sqrt(spp).
        const float mean =
            radiance[c] * std::max(0.0f, 1.0f + (g + 0.2f * gauss(rng)) / std::sqrt(n));
        film.sums[3 * p + c] = mean * n;
        const float spread = noisy ? 1.0f : 0.0f;
        film.squares[3 * p + c] = n * mean * mean * (1.0f + spread * spread);
      }
      float* first = &film.first_hits[kFirstHitValues * p];
      if (hit) {
        for (int c = 0; c < 3; ++c) first[c] = albedo[c] * n, first[3 + c] = normal[c] * n;
        first[6] = depth * n;
        first[7] = n;
      }
    }
  }
  return film;
}

struct Row {
  std::string format, encoder;
  double ms, cpu, input_mb;
  std::size_t bytes;
};

Row measure(const std::string& format, const std::string& encoder, double input_mb, int reps,
            const std::function<Bytes()>& encode) {
  Row row{format, encoder, 1e300, 0.0, input_mb, 0};
  for (int r = 0; r < reps; ++r) {
    const double cpu0 = cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    const Bytes bytes = encode();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = cpu_ms() - cpu0;
    if (ms < row.ms) row.ms = ms, row.cpu = cpu, row.bytes = bytes.size();
  }
  std::printf("| %s | %s | %.1f | %.1f | %.0f | %.2f | %.2f |\n", row.format.c_str(),
              row.encoder.c_str(), row.ms, row.cpu, row.input_mb / (row.ms / 1e3),
              double(row.bytes) / 1e6, double(row.bytes) / (row.input_mb * 1e6));
  std::fflush(stdout);
  return row;
}

void append(void* context, void* data, int size) {
  auto* out = static_cast<Bytes*>(context);
  const auto* bytes = static_cast<const unsigned char*>(data);
  if (size > 0) out->insert(out->end(), bytes, bytes + size);
}

Bytes stb_png(const Image& image) {
  const std::vector<std::uint8_t> pixels = tone_map_srgb8(image);
  Bytes out;
  stbi_write_png_to_func(append, &out, image.width, image.height, 3, pixels.data(),
                         image.width * 3);
  return out;
}

Bytes stb_hdr(const Image& image) {
  std::vector<float> linear(image.rgb.size());
  std::transform(image.rgb.begin(), image.rgb.end(), linear.begin(),
                 [](float v) { return v > 0.0f ? std::min(v, kLargestHdrValue) : 0.0f; });
  Bytes out;
  stbi_write_hdr_to_func(append, &out, image.width, image.height, 3, linear.data());
  return out;
}

class MemoryOut : public Imf::OStream {
 public:
  MemoryOut() : Imf::OStream("memory") {}
  void write(const char c[], int n) override {
    if (bytes.size() < position + std::size_t(n)) bytes.resize(position + std::size_t(n));
    std::memcpy(bytes.data() + position, c, std::size_t(n));
    position += std::size_t(n);
  }
  std::uint64_t tellp() override { return position; }
  void seekp(std::uint64_t p) override { position = p; }
  Bytes bytes;
  std::size_t position = 0;
};

// The EXR as raystream wrote it before: every channel 32-bit float, ZIP at the library's default
// level, the calling thread alone.
// OpenEXR 3.1's own writer: `compression` at zlib `level` (-1: the library's default) on
// `threads` (0: the calling thread), the half layers half (else every layer float). The rows
// "before" (ZIP, one thread, float) and "OpenEXR writer" (ZIPS at level 1 on its thread pool,
// albedo and normal half: raystream's writer until the own encoder replaced it).
Bytes exr_openexr(const FilmState& film, const AovSet& aovs, Imf::Compression compression,
                  int level, int threads, bool halves) {
  const std::vector<ExrLayer> layers = film_exr_layers(film, aovs);
  const std::size_t pixels = film.pixels();
  Imf::Header header(film.width, film.height);
  header.compression() = compression;
  if (level >= 0) header.zipCompressionLevel() = level;
  Imf::FrameBuffer frame;
  std::vector<std::vector<Imath::half>> planes;
  planes.reserve(16);
  for (const ExrLayer& layer : layers) {
    const std::size_t n = layer.channels.size();
    for (std::size_t c = 0; c < n; ++c) {
      const std::string name =
          layer.name.empty() ? layer.channels[c] : layer.name + "." + layer.channels[c];
      if (halves && layer.half) {
        planes.emplace_back(pixels);
        std::vector<Imath::half>& plane = planes.back();
#pragma omp parallel for
        for (long p = 0; p < long(pixels); ++p) plane[p] = Imath::half(layer.values[p * n + c]);
        header.channels().insert(name, Imf::Channel(Imf::HALF));
        frame.insert(name, Imf::Slice(Imf::HALF, (char*)plane.data(), sizeof(Imath::half),
                                      sizeof(Imath::half) * std::size_t(film.width)));
      } else {
        header.channels().insert(name, Imf::Channel(Imf::FLOAT));
        frame.insert(name,
                     Imf::Slice(Imf::FLOAT, (char*)(layer.values.data() + c), sizeof(float) * n,
                                sizeof(float) * n * std::size_t(film.width)));
      }
    }
  }
  if (threads > 0) Imf::setGlobalThreadCount(threads);
  MemoryOut out;
  Imf::OutputFile file(out, header, threads);
  file.setFrameBuffer(frame);
  file.writePixels(film.height);
  return out.bytes;
}

std::string png_name(const PngSettings& s) {
  const char* filters[] = {"none", "sub", "up", "average", "paeth", "adaptive"};
  return "zlib " + std::to_string(s.level) + (s.rle ? " RLE" : "") + ", " + filters[int(s.filter)];
}

void bench_film(const FilmState& film, int reps, bool variants) {
  const Image image = film_image(film);
  const AovSet all = parse_aovs("albedo,normal,depth,variance");
  const double pixels = double(film.pixels());
  const double rgb_mb = pixels * 3 * 4 / 1e6, aov_mb = pixels * 13 * 4 / 1e6;
  std::printf("\n%d x %d, %d threads\n\n", film.width, film.height, omp_get_max_threads());
  std::printf("| format | encoder | ms | CPU ms | MB/s | file MB | file / input |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: | ---: |\n");
  measure("png", "raystream (" + png_name(PngSettings{}) + ", parallel bands)", rgb_mb, reps,
          [&] { return encode_png(image); });
  measure("hdr", "raystream (RGBE, RLE, parallel bands)", rgb_mb, reps,
          [&] { return encode_hdr(image); });
  measure("pfm", "raystream", rgb_mb, reps, [&] { return encode_pfm(image); });
  const std::string exr_name = std::string("raystream (") +
                               exr_compression_name(kDefaultExrCompression) +
                               " level 1, libdeflate, parallel blocks)";
  measure("exr", exr_name, rgb_mb, reps, [&] { return encode_film_exr(film, AovSet{}); });
  measure("exr + 4 AOVs", exr_name, aov_mb, reps, [&] { return encode_film_exr(film, all); });
  measure("png", "before: stb_image_write", rgb_mb, reps, [&] { return stb_png(image); });
  measure("hdr", "before: stb_image_write", rgb_mb, reps, [&] { return stb_hdr(image); });
  const int threads = omp_get_max_threads();
  for (const AovSet& aovs : {AovSet{}, all}) {
    const char* format = aovs.any() ? "exr + 4 AOVs" : "exr";
    const double mb = aovs.any() ? aov_mb : rgb_mb;
    measure(format, "OpenEXR writer (ZIPS level 1, thread pool)", mb, reps,
            [&] { return exr_openexr(film, aovs, Imf::ZIPS_COMPRESSION, 1, threads, true); });
    measure(format, "before: OpenEXR ZIP, 1 thread, float", mb, reps,
            [&] { return exr_openexr(film, aovs, Imf::ZIP_COMPRESSION, -1, 0, false); });
  }
  if (!variants) return;
  const std::vector<std::uint8_t> pixels8 = tone_map_srgb8(image);
  measure("png", "tone mapping alone", rgb_mb, reps, [&] {
    const std::vector<std::uint8_t> p = tone_map_srgb8(image);
    return Bytes(p.begin(), p.begin() + 1);
  });
  for (const PngSettings s :
       {PngSettings{1, false, PngFilter::none}, PngSettings{1, false, PngFilter::sub},
        PngSettings{1, false, PngFilter::paeth}, PngSettings{1, false, PngFilter::adaptive},
        PngSettings{2, false, PngFilter::up}, PngSettings{6, false, PngFilter::up},
        PngSettings{1, true, PngFilter::up}, PngSettings{1, true, PngFilter::sub},
        PngSettings{1, true, PngFilter::paeth}, PngSettings{1, true, PngFilter::none},
        PngSettings{1, true, PngFilter::adaptive}, PngSettings{1, false, PngFilter::up}}) {
    measure("png", png_name(s), rgb_mb, reps, [&] {
      return encode_png_rgb8(image.width, image.height, pixels8.data(), pixels8.size(), s);
    });
  }
  for (const ExrCompression c : {ExrCompression::none, ExrCompression::zips, ExrCompression::zip}) {
    const std::string name = std::string(exr_compression_name(c)) + ", parallel blocks";
    measure("exr", name, rgb_mb, reps, [&] { return encode_film_exr(film, AovSet{}, c); });
    measure("exr + 4 AOVs", name, aov_mb, reps, [&] { return encode_film_exr(film, all, c); });
  }
}

int run(int argc, char** argv) {
  std::vector<std::pair<int, int>> sizes;
  int reps = 5;
  bool variants = false;
  std::string film_path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--size") {
      int w = 0, h = 0;
      const std::string v = value();
      if (std::sscanf(v.c_str(), "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0)
        throw std::invalid_argument("--size " + v + ": expected WxH");
      sizes.push_back({w, h});
    } else if (a == "--reps") {
      reps = std::max(1, std::atoi(value().c_str()));
    } else if (a == "--film") {
      film_path = value();
    } else if (a == "--variants") {
      variants = true;
    } else {
      throw std::invalid_argument("unknown argument " + a +
                                  " (--size WxH, --reps N, --film FILE, --variants)");
    }
  }
  if (!film_path.empty()) {
    FilmState film = read_checkpoint(film_path).film;
    if (film.first_hits.empty() || film.squares.empty())
      throw std::invalid_argument(film_path +
                                  ": the film keeps no AOV layers (render with --aov "
                                  "albedo,normal,depth,variance)");
    std::printf("film: %s\n", film_path.c_str());
    bench_film(film, reps, variants);
    return 0;
  }
  if (sizes.empty()) sizes = {{1920, 1080}, {3840, 2160}};
  std::printf("film: synthetic, 16 samples per pixel\n");
  for (const auto& [w, h] : sizes) bench_film(synthetic_film(w, h, 16), reps, variants);
  return 0;
}

}  // namespace
}  // namespace raystream

int main(int argc, char** argv) {
  try {
    return raystream::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "encoding_bench: %s\n", e.what());
    return 2;
  }
}
