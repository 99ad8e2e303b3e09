// Textures in texture hardware (integrator/texture_arrays.h) against the software filter the CPU
// executor runs (materials/texture.h): every wrap mode, bilinear and nearest, colour and data,
// 8-bit and float texels, odd sizes, every level and between levels, on the GPU (skipped without
// a CUDA device).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "execution/buffer.h"
#include "execution/parallel_for.cuh"
#include "integrator/texture_arrays.h"
#include "materials/texture.h"
#include "materials/texture_storage.h"

namespace raystream {
namespace {

struct Lookup {
  glm::vec2 uv;
  float lod;
};

struct SampleOnGpu {
  TextureView view;
  const TextureBinding* bindings;
  const Lookup* lookups;
  glm::vec4* out;
  std::size_t count;  // lookups per binding
  RAYSTREAM_HD void operator()(std::size_t i) const {
    const Lookup l = lookups[i % count];
    out[i] = sample_texture(view, bindings[i / count], l.uv, l.lod);
  }
};

// A w x h image of random texels: what an 8-bit file decodes to, or (float) values up to 4.
TextureImage random_image(int w, int h, bool wide, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_real_distribution<float> value(0.0f, 4.0f);
  TextureImage image;
  image.path = "random.png";
  image.width = w;
  image.height = h;
  for (int k = 0; k < w * h; ++k) {
    glm::vec4 t;
    for (int c = 0; c < 3; ++c)
      t[c] = wide ? value(rng) : srgb_to_linear(static_cast<float>(byte(rng)) / 255.0f);
    t.w = static_cast<float>(byte(rng)) / 255.0f;
    image.texels.push_back(t);
  }
  return image;
}

// Every binding of the texture: 3 x 3 wrap modes x bilinear/nearest x colour/data.
std::vector<TextureBinding> every_binding() {
  std::vector<TextureBinding> bindings;
  for (int wu = 0; wu < 3; ++wu)
    for (int wv = 0; wv < 3; ++wv)
      for (int nearest = 0; nearest < 2; ++nearest)
        for (int srgb = 0; srgb < 2; ++srgb) {
          TextureBinding b;
          b.texture = 0;
          b.wrap_u = wu;
          b.wrap_v = wv;
          b.nearest = nearest;
          b.srgb = srgb;
          bindings.push_back(b);
        }
  return bindings;
}

std::vector<Lookup> random_lookups(std::size_t n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coordinate(-2.5f, 3.5f);
  std::uniform_real_distribution<float> lod(-12.0f, 1.0f);
  std::vector<Lookup> lookups;
  for (std::size_t k = 0; k < n; ++k)
    lookups.push_back({{coordinate(rng), coordinate(rng)}, lod(rng)});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  lookups.push_back({{nan, 0.5f}, -100.0f});
  lookups.push_back({{0.25f, 0.5f}, nan});
  lookups.push_back({{1.0e30f, -3.0e38f}, 0.0f});
  return lookups;
}

// The GPU's lookups of every binding of `image` against the software filter's: a bilinear one
// within 1/64 of the span of the texels (the hardware's weights have 8 fractional bits), a
// nearest one the same texel but where a coordinate or level lies within the hardware's rounding
// of a boundary (at most 1 lookup in 50); the mean difference the rounding's alone. The last
// lookup (coordinates beyond what the hardware's fixed point holds) only finite.
void expect_hardware_matches_software(const TextureImage& image, bool colour) {
  const TextureStorage storage = make_texture_storage(image, colour);
  const std::vector<TextureBinding> software = every_binding();
  std::vector<TextureBinding> hardware = software;
  Executor gpu;
  gpu.kind = ExecutorKind::gpu;
  MemoryTally tally;
  const TextureArrays arrays(std::vector<TextureStorage>{storage}, hardware, &tally);
  EXPECT_EQ(tally.bytes, storage.bytes());
  for (const TextureBinding& b : hardware) ASSERT_NE(b.object, 0u);

  const std::vector<Lookup> lookups = random_lookups(4000);
  Buffer<TextureBinding> bindings(gpu, "bindings", hardware.size(), nullptr);
  Buffer<Lookup> where(gpu, "lookups", lookups.size(), nullptr);
  Buffer<glm::vec4> out(gpu, "results", hardware.size() * lookups.size(), nullptr);
  copy_from_host(gpu, bindings.data(), hardware.data(), bindings.bytes());
  copy_from_host(gpu, where.data(), lookups.data(), where.bytes());
  parallel_for(gpu, "texture lookups", out.size(),
               SampleOnGpu{storage.view(nullptr), bindings.data(), where.data(), out.data(),
                           lookups.size()});
  std::vector<glm::vec4> got(out.size());
  copy_to_host(gpu, got.data(), out.data(), out.bytes());

  const float span = storage.format == 0 ? 1.0f : 4.0f;
  const TextureView view = storage.view(storage.data());
  for (std::size_t b = 0; b < software.size(); ++b) {
    const TextureBinding& s = software[b];
    SCOPED_TRACE("wrap " + std::to_string(s.wrap_u) + "/" + std::to_string(s.wrap_v) +
                 (s.nearest ? " nearest" : " bilinear") + (s.srgb ? " colour" : " data"));
    int off = 0;
    double error = 0.0;
    for (std::size_t k = 0; k < lookups.size(); ++k) {
      const glm::vec4 want = sample_texture(view, s, lookups[k].uv, lookups[k].lod);
      const glm::vec4 have = got[b * lookups.size() + k];
      for (int c = 0; c < 4; ++c) {
        ASSERT_TRUE(std::isfinite(have[c])) << k;
        if (k + 1 == lookups.size()) continue;
        const float d = std::fabs(have[c] - want[c]) / span;
        error += d;
        if (d > 1.0f / 64.0f) {
          ++off;
          break;
        }
      }
    }
    EXPECT_LE(off, s.nearest ? int(lookups.size() / 50) : 0);
    // No bias: the mean difference is the rounding's.
    EXPECT_LT(error / (4.0 * lookups.size()), s.nearest ? 1.0e-2 : 1.0e-3);
  }
}

TEST(TextureHardware, EightBitColourAndDataMatchTheSoftwareFilter) {
  expect_hardware_matches_software(random_image(37, 20, false, 1), true);
  expect_hardware_matches_software(random_image(16, 64, false, 2), false);
}

TEST(TextureHardware, FloatTexelsMatchTheSoftwareFilter) {
  expect_hardware_matches_software(random_image(9, 13, true, 3), true);
}

// The device memory a 2048 x 2048 8-bit texture takes with its mips, as the GPU's free memory
// falls (the driver's layout of the levels included): at most 5.4 bytes a texel, as the report's
// textures.bytes counts them (4/3 of 4 bytes).
TEST(TextureHardware, ADeviceTextureTakesAtMostItsCountedBytes) {
  const int side = 2048;
  TextureImage image;
  image.path = "grey.png";
  image.width = image.height = side;
  image.texels.assign(std::size_t(side) * side,
                      glm::vec4(srgb_to_linear(128.0f / 255.0f), 0.0f, 1.0f, 1.0f));
  const TextureStorage storage = make_texture_storage(image, true);
  ASSERT_EQ(storage.format, 0);
  std::vector<TextureBinding> bindings(1);
  bindings[0].texture = 0;
  ASSERT_EQ(cudaFree(nullptr), cudaSuccess);  // the context exists before the first measurement
  std::size_t before = 0, after = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&before, &total), cudaSuccess);
  const TextureArrays arrays(std::vector<TextureStorage>{storage}, bindings, nullptr);
  ASSERT_EQ(cudaMemGetInfo(&after, &total), cudaSuccess);
  const double texels = double(side) * side;
  const double taken = double(before) - double(after);
  std::printf(
      "a %d x %d texture with mips: %.0f bytes of device memory, %.3f a texel (counted %.3f)\n",
      side, side, taken, taken / texels, double(storage.bytes()) / texels);
  EXPECT_LE(double(storage.bytes()) / texels, 5.4);
  EXPECT_LE(taken, 5.4 * texels + double(2 << 20));  // the allocation granularity: 2 MiB
}

TEST(TextureHardware, AnEmptyTextureHasNoObjectAndReadsWhite) {
  std::vector<TextureBinding> bindings(1);
  bindings[0].texture = 0;
  const TextureArrays arrays(std::vector<TextureStorage>{TextureStorage{}}, bindings, nullptr);
  EXPECT_EQ(bindings[0].object, 0u);
}

}  // namespace
}  // namespace raystream
