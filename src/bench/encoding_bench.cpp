// The image encoders in one table: each format as the renderer writes it beside the encoders
// it was weighed against, timed in the same run on the same film. Not a test: it prints figures
// (renders/encoding/RESULTS.md).
//
//   encoding_bench [--size WxH]... [--reps N] [--film FILE.checkpoint]
//
// Per row: ms, the median of --reps runs (wall clock), and that run's CPU time (all threads,
// CLOCK_PROCESS_CPUTIME_ID); the file's bytes; and "x renderer", ms over the renderer's own
// encoder's ms for that format (the row marked "renderer"). OpenMP's thread count
// (OMP_NUM_THREADS) sets the threads of every parallel encoder, OpenEXR's pool included. The film
// is synthetic (a sky, a checkered floor, spheres, one of them a lamp; 16 samples per pixel of
// noise, every AOV layer) unless --film gives a checkpoint of a real render (raystream
// --checkpoint with --aov albedo,normal,depth,variance; its size then replaces --size).
//
// The rows: PNG by the renderer's parallel bands (zlib level 1, Z_RLE, the Sub filter) against
// libspng writing one stream at the same settings; Radiance HDR by the renderer's parallel bands
// against stb_image_write (bench/encoders/hdr_stb_writer.h); PFM; EXR, the beauty alone and with
// the four AOVs, by the renderer's own writer (ZIPS, libdeflate at level 1, parallel blocks)
// against OpenEXR's (bench/encoders/exr_openexr_writer.h: on the library's thread pool, ZIPS and
// ZIP at level 1 and at the library's default level, and no compression).
#include <omp.h>
#include <spng.h>
#include <time.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/encoders/exr_openexr_writer.h"
#include "bench/encoders/hdr_stb_writer.h"
#include "io/checkpoint/checkpoint_file.h"
#include "io/image/exr_image.h"
#include "io/image/film_output.h"
#include "io/image/image_output.h"
#include "io/image/png_encoder.h"

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

struct Timing {
  double ms = 0.0, cpu = 0.0;
  std::size_t bytes = 0;
};

// The median run of `reps` (by wall clock), with its CPU time and the bytes it wrote.
Timing median_of(int reps, const std::function<Bytes()>& encode) {
  std::vector<Timing> runs;
  for (int r = 0; r < reps; ++r) {
    const double cpu0 = cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    const Bytes bytes = encode();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    runs.push_back({ms, cpu_ms() - cpu0, bytes.size()});
  }
  std::sort(runs.begin(), runs.end(), [](const Timing& a, const Timing& b) { return a.ms < b.ms; });
  return runs[runs.size() / 2];
}

// Prints the rows of one format as they are timed: the renderer's first, the others with their
// time over the renderer's.
class FormatRows {
 public:
  FormatRows(const char* format, int reps) : format_(format), reps_(reps) {}
  void add(const std::string& encoder, const std::function<Bytes()>& encode) {
    const Timing t = median_of(reps_, encode);
    if (renderer_ms_ == 0.0) renderer_ms_ = t.ms;
    std::printf("| %s | %s | %.1f | %.1f | %zu | %.2f |\n", format_, encoder.c_str(), t.ms, t.cpu,
                t.bytes, t.ms / renderer_ms_);
    std::fflush(stdout);
  }

 private:
  const char* format_;
  int reps_;
  double renderer_ms_ = 0.0;
};

// One stream of zlib level 1, Z_RLE, the Sub filter: the renderer's PNG settings, written by
// libspng.
Bytes libspng_png(const Image& image) {
  const std::vector<std::uint8_t> rgb = tone_map_srgb8(image);
  std::unique_ptr<spng_ctx, void (*)(spng_ctx*)> ctx(spng_ctx_new(SPNG_CTX_ENCODER), spng_ctx_free);
  spng_ihdr ihdr{};
  ihdr.width = std::uint32_t(image.width);
  ihdr.height = std::uint32_t(image.height);
  ihdr.bit_depth = 8;
  ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR;
  int err = spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1);
  if (!err) err = spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_LEVEL, 1);
  if (!err) err = spng_set_option(ctx.get(), SPNG_IMG_COMPRESSION_STRATEGY, Z_RLE);
  if (!err) err = spng_set_option(ctx.get(), SPNG_FILTER_CHOICE, SPNG_FILTER_CHOICE_SUB);
  if (!err) err = spng_set_ihdr(ctx.get(), &ihdr);
  if (!err)
    err = spng_encode_image(ctx.get(), rgb.data(), rgb.size(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
  std::size_t size = 0;
  void* png = err ? nullptr : spng_get_png_buffer(ctx.get(), &size, &err);
  if (png == nullptr) throw std::runtime_error(std::string("libspng: ") + spng_strerror(err));
  Bytes out(static_cast<unsigned char*>(png), static_cast<unsigned char*>(png) + size);
  std::free(png);
  return out;
}

void bench_exr(const FilmState& film, const AovSet& aovs, int reps) {
  FormatRows rows(aovs.any() ? "exr + 4 AOVs" : "exr", reps);
  const FilmPlanes planes = film_planes(film, aovs);
  const auto openexr = [&](ExrCompression compression, int level) {
    return encode_exr_openexr(film.width, film.height, planes.views, compression, level);
  };
  const std::string library = "OpenEXR, ";
  const std::string level = std::to_string(exr_library_zip_level());
  rows.add("own writer, zips level 1, libdeflate, parallel blocks (renderer)",
           [&] { return encode_film_exr(film, aovs); });
  rows.add(library + "zips level 1, thread pool", [&] { return openexr(ExrCompression::zips, 1); });
  rows.add(library + "zips level " + level + " (its default), thread pool",
           [&] { return openexr(ExrCompression::zips, -1); });
  rows.add(library + "zip level 1, thread pool", [&] { return openexr(ExrCompression::zip, 1); });
  rows.add(library + "zip level " + level + " (its default), thread pool",
           [&] { return openexr(ExrCompression::zip, -1); });
  rows.add(library + "none, thread pool", [&] { return openexr(ExrCompression::none, 1); });
}

void bench_film(const FilmState& film, int reps) {
  const Image image = film_image(film);
  std::printf("\n%d x %d, %d threads, median of %d runs\n\n", film.width, film.height,
              omp_get_max_threads(), reps);
  std::printf("| format | encoder | ms | CPU ms | bytes | x renderer |\n");
  std::printf("| --- | --- | ---: | ---: | ---: | ---: |\n");
  FormatRows png("png", reps);
  png.add("zlib 1 RLE, sub, parallel bands (renderer)", [&] { return encode_png(image); });
  png.add("libspng, zlib 1 RLE, sub, one stream", [&] { return libspng_png(image); });
  FormatRows hdr("hdr", reps);
  hdr.add("own RGBE and RLE, parallel bands (renderer)", [&] { return encode_hdr(image); });
  hdr.add("stb_image_write", [&] { return encode_hdr_stb(image); });
  FormatRows("pfm", reps).add("raystream (renderer)", [&] { return encode_pfm(image); });
  bench_exr(film, AovSet{}, reps);
  bench_exr(film, parse_aovs("albedo,normal,depth,variance"), reps);
}

int run(int argc, char** argv) {
  std::vector<std::pair<int, int>> sizes;
  int reps = 5;
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
    } else {
      throw std::invalid_argument("unknown argument " + a + " (--size WxH, --reps N, --film FILE)");
    }
  }
  if (!film_path.empty()) {
    FilmState film = read_checkpoint(film_path).film;
    if (film.first_hits.empty() || film.squares.empty())
      throw std::invalid_argument(film_path +
                                  ": the film keeps no AOV layers (render with --aov "
                                  "albedo,normal,depth,variance)");
    std::printf("film: %s\n", film_path.c_str());
    bench_film(film, reps);
    return 0;
  }
  if (sizes.empty()) sizes = {{1920, 1080}, {3840, 2160}};
  std::printf("film: synthetic, 16 samples per pixel\n");
  for (const auto& [w, h] : sizes) bench_film(synthetic_film(w, h, 16), reps);
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
