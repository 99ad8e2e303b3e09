// The built-in denoiser on the GPU (skipped without a CUDA device) against the CPU: the same
// per-pixel functions, so the same image up to the rounding of exp and of fused multiply-adds,
// on an image with steps in every guide, background, noise and a few bright pixels, in both
// modes, at a size that is not a multiple of the GPU's 16 x 16 tiles.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "film/denoiser.h"

namespace raystream {
namespace {

struct Input {
  int width = 203, height = 117;
  std::vector<float> rgb, first_hits;
};

Input make_input() {
  Input in;
  const std::size_t n = std::size_t(in.width) * in.height;
  in.rgb.resize(3 * n);
  in.first_hits.assign(8 * n, 0.0f);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      const std::size_t p = std::size_t(y) * in.width + x;
      float* f = &in.first_hits[8 * p];
      const bool background = x + y < 40;
      const float hits = background ? 0.0f : 1.0f + float(x % 4);
      if (!background) {
        const glm::vec3 albedo =
            (x / 17 + y / 13) % 2 ? glm::vec3(0.8f, 0.3f, 0.2f) : glm::vec3(0.2f, 0.7f, 0.005f);
        const glm::vec3 normal = x < 120 ? glm::vec3(0, 0, 1) : glm::vec3(0.6f, 0, 0.8f);
        const float depth = y < 60 ? 3.0f + 0.01f * x : 6.0f;
        for (int c = 0; c < 3; ++c) f[c] = albedo[c] * hits, f[3 + c] = normal[c] * hits;
        f[6] = depth * hits;
        f[7] = hits;
      }
      const float light = (x > 120 ? 0.2f : 1.0f) * (unit(rng) < 0.01f ? 50.0f : 1.0f);
      for (int c = 0; c < 3; ++c)
        in.rgb[3 * p + c] = light * unit(rng) * (background ? 0.3f : 1.0f);
    }
  return in;
}

TEST(DenoiseGpuTest, MatchesTheCpu) {
  const Input in = make_input();
  for (bool demodulate : {true, false}) {
    AtrousSettings settings;
    settings.demodulate = demodulate;
    std::vector<float> cpu(in.rgb.size()), gpu(in.rgb.size());
    denoise_cpu(in.width, in.height, in.rgb.data(), in.first_hits.data(), cpu.data(), settings);
    const DenoiseTimes times =
        denoise_gpu(in.width, in.height, in.rgb.data(), in.first_hits.data(), gpu.data(), settings);
    EXPECT_GT(times.filter_ms, 0.0);
    EXPECT_GT(times.upload_ms, 0.0);
    EXPECT_GT(times.download_ms, 0.0);
    double worst = 0.0;
    for (std::size_t k = 0; k < cpu.size(); ++k) {
      ASSERT_TRUE(std::isfinite(gpu[k])) << k;
      worst = std::max(worst, std::abs(double(gpu[k]) - cpu[k]) / (std::abs(cpu[k]) + 1e-3));
    }
    EXPECT_LT(worst, 1e-3) << (demodulate ? "irradiance" : "radiance");
    // The filter did something: the output is not the input.
    EXPECT_NE(cpu, in.rgb);
  }
}

TEST(DenoiseGpuTest, FiltersInPlaceAndAtFullHd) {
  // 1920 x 1080 from one buffer into itself, as raystream --denoise calls it.
  const int w = 1920, h = 1080;
  const std::size_t n = std::size_t(w) * h;
  std::vector<float> rgb(3 * n, 0.25f), first_hits(8 * n, 0.0f);
  for (std::size_t p = 0; p < n; ++p) {
    first_hits[8 * p] = first_hits[8 * p + 1] = first_hits[8 * p + 2] = 0.5f;
    first_hits[8 * p + 5] = 1.0f;
    first_hits[8 * p + 6] = 4.0f;
    first_hits[8 * p + 7] = 1.0f;
  }
  denoise_gpu(w, h, rgb.data(), first_hits.data(), rgb.data(), AtrousSettings{});
  for (std::size_t k = 0; k < rgb.size(); ++k) ASSERT_NEAR(rgb[k], 0.25f, 1e-6f) << k;
}

// Bright and infinite pixels as on the CPU: the scale taken from the host's image, the pixels
// that are not finite kept as they are (in place, as raystream calls it).
TEST(DenoiseGpuTest, BrightAndInfinitePixelsAsOnTheCpu) {
  Input in = make_input();
  for (float& v : in.rgb) v *= 5e19f;
  in.rgb[3 * 500 + 1] = INFINITY;
  std::vector<float> cpu(in.rgb.size()), gpu = in.rgb;
  denoise_cpu(in.width, in.height, in.rgb.data(), in.first_hits.data(), cpu.data(),
              AtrousSettings{});
  denoise_gpu(in.width, in.height, gpu.data(), in.first_hits.data(), gpu.data(), AtrousSettings{});
  EXPECT_EQ(gpu[3 * 500 + 1], INFINITY);
  for (std::size_t k = 0; k < cpu.size(); ++k) {
    if (k / 3 == 500) continue;
    ASSERT_TRUE(std::isfinite(gpu[k])) << k;
    ASSERT_NEAR(gpu[k], cpu[k], 1e-3 * (std::abs(cpu[k]) + 5e16f)) << k;
  }
}

TEST(DenoiseGpuTest, AStopLeavesTheOutputUntouched) {
  const Input in = make_input();
  std::vector<float> out(in.rgb.size(), -7.0f);
  const DenoiseTimes times = denoise_gpu(in.width, in.height, in.rgb.data(), in.first_hits.data(),
                                         out.data(), AtrousSettings{}, [] { return true; });
  EXPECT_TRUE(times.stopped);
  for (float v : out) ASSERT_EQ(v, -7.0f);
}

}  // namespace
}  // namespace raystream
