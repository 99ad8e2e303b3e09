// The built-in denoiser's math on the CPU (film/atrous.h through denoise_cpu): a constant image
// stays constant, steps in the guides (albedo, normal, depth, hit or miss) are not blurred
// across, noise on a flat region drops, bad values do not spread; and the EXR of a denoised film
// keeps the noisy image as a layer.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "film/denoiser.h"
#include "integrator/api/render.h"
#include "io/image/film_output.h"

namespace raystream {
namespace {

static_assert(kFirstHitValues == kDenoiseGuideSums, "the film's first-hit sums guide the filter");

// An image and its first-hit sums, as the film keeps them (sums over `samples` hits per pixel).
struct TestImage {
  int width, height;
  std::vector<float> rgb, first_hits;
  TestImage(int w, int h)
      : width(w), height(h), rgb(3 * std::size_t(w) * h), first_hits(8 * std::size_t(w) * h) {}
  std::size_t index(int x, int y) const { return std::size_t(y) * width + x; }
  void set_guide(int x, int y, glm::vec3 albedo, glm::vec3 normal, float depth, float hits = 4) {
    float* f = &first_hits[8 * index(x, y)];
    for (int c = 0; c < 3; ++c) f[c] = albedo[c] * hits, f[3 + c] = normal[c] * hits;
    f[6] = depth * hits;
    f[7] = hits;
  }
  void set_miss(int x, int y) {
    for (int k = 0; k < 8; ++k) first_hits[8 * index(x, y) + k] = 0.0f;
  }
  void set_rgb(int x, int y, glm::vec3 c) {
    for (int k = 0; k < 3; ++k) rgb[3 * index(x, y) + k] = c[k];
  }
  glm::vec3 at(const std::vector<float>& image, int x, int y) const {
    const std::size_t p = 3 * index(x, y);
    return {image[p], image[p + 1], image[p + 2]};
  }
};

AtrousSettings mode(bool demodulate) {
  AtrousSettings s;
  s.demodulate = demodulate;
  return s;
}

std::vector<float> denoised(const TestImage& image, const AtrousSettings& settings) {
  std::vector<float> out(image.rgb.size());
  denoise_cpu(image.width, image.height, image.rgb.data(), image.first_hits.data(), out.data(),
              settings);
  return out;
}

// A flat surface facing the camera, with noise of the given deviation on a constant value.
TestImage flat_noisy(int w, int h, glm::vec3 value, float deviation, unsigned seed) {
  TestImage image(w, h);
  std::mt19937 rng(seed);
  std::normal_distribution<float> noise(0.0f, deviation);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      image.set_guide(x, y, glm::vec3(0.6f), glm::vec3(0, 0, 1), 3.0f);
      image.set_rgb(x, y, value * (1.0f + noise(rng)));
    }
  return image;
}

TEST(DenoiseTest, ConstantImageStaysConstant) {
  for (bool demodulate : {true, false}) {
    TestImage image = flat_noisy(37, 23, glm::vec3(0.5f, 0.3f, 0.2f), 0.0f, 1);
    const std::vector<float> out = denoised(image, mode(demodulate));
    for (std::size_t k = 0; k < out.size(); ++k)
      ASSERT_NEAR(out[k], image.rgb[k], 1e-6f * image.rgb[k]) << "value " << k;
  }
}

TEST(DenoiseTest, ConstantIrradianceOverAnAlbedoTextureIsKept) {
  // Radiance = albedo x 1 over a checkerboard of albedos: demodulated, the filter sees a
  // constant and gives the image back.
  TestImage image(32, 32);
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x) {
      const glm::vec3 albedo =
          ((x / 3 + y / 3) % 2) ? glm::vec3(0.8f, 0.2f, 0.1f) : glm::vec3(0.1f, 0.5f, 0.9f);
      image.set_guide(x, y, albedo, glm::vec3(0, 1, 0), 2.0f);
      image.set_rgb(x, y, albedo);
    }
  const std::vector<float> out = denoised(image, mode(true));
  for (std::size_t k = 0; k < out.size(); ++k) ASSERT_NEAR(out[k], image.rgb[k], 1e-6f);
}

TEST(DenoiseTest, NoiseOnAFlatRegionDrops) {
  for (bool demodulate : {true, false}) {
    const glm::vec3 value(0.4f, 0.5f, 0.6f);
    TestImage image = flat_noisy(96, 96, value, 0.3f, 7);
    const std::vector<float> out = denoised(image, mode(demodulate));
    // Away from the border: the error's variance against the true value, before and after.
    double before = 0, after = 0, mean = 0;
    int n = 0;
    for (int y = 16; y < 80; ++y)
      for (int x = 16; x < 80; ++x) {
        const float truth = value.y;
        before += std::pow(image.at(image.rgb, x, y).y - truth, 2);
        after += std::pow(image.at(out, x, y).y - truth, 2);
        mean += image.at(out, x, y).y;
        ++n;
      }
    EXPECT_LT(after, before / 20) << (demodulate ? "irradiance" : "radiance");
    EXPECT_NEAR(mean / n, value.y, 0.02 * value.y);
  }
}

// Two halves whose guides differ, each with its own brightness and noise: the filtered pixels
// next to the step keep their own side's value.
void expect_step_kept(TestImage& image, glm::vec3 left, glm::vec3 right, bool demodulate,
                      const char* what) {
  std::mt19937 rng(3);
  std::normal_distribution<float> noise(0.0f, 0.15f);
  const int mid = image.width / 2;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      image.set_rgb(x, y, (x < mid ? left : right) * (1.0f + noise(rng)));
  const std::vector<float> out = denoised(image, mode(demodulate));
  for (int side = 0; side < 2; ++side) {
    const int x = side == 0 ? mid - 1 : mid;
    const glm::vec3 truth = side == 0 ? left : right;
    double sum = 0;
    for (int y = 8; y < image.height - 8; ++y) sum += image.at(out, x, y).y;
    const double mean = sum / (image.height - 16);
    EXPECT_NEAR(mean, truth.y, 0.05 * truth.y)
        << what << (demodulate ? " (irradiance)" : " (radiance)") << ": the column at x = " << x
        << " drifted toward the other side";
  }
}

TEST(DenoiseTest, AlbedoStepIsKept) {
  for (bool demodulate : {true, false}) {
    TestImage image(64, 48);
    const glm::vec3 dark(0.1f), bright(0.8f);
    for (int y = 0; y < 48; ++y)
      for (int x = 0; x < 64; ++x)
        image.set_guide(x, y, x < 32 ? dark : bright, glm::vec3(0, 0, 1), 3.0f);
    // The same light on both: the radiance follows the albedo.
    expect_step_kept(image, dark, bright, demodulate, "albedo step");
  }
}

TEST(DenoiseTest, NormalStepIsKept) {
  for (bool demodulate : {true, false}) {
    TestImage image(64, 48);
    for (int y = 0; y < 48; ++y)
      for (int x = 0; x < 64; ++x)
        image.set_guide(x, y, glm::vec3(0.5f), x < 32 ? glm::vec3(0, 0, 1) : glm::vec3(1, 0, 0),
                        3.0f);
    // One albedo, two irradiances: a lit face beside a face in shadow.
    expect_step_kept(image, glm::vec3(0.05f), glm::vec3(0.6f), demodulate, "normal step");
  }
}

TEST(DenoiseTest, DepthStepIsKept) {
  TestImage image(64, 48);
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 64; ++x)
      image.set_guide(x, y, glm::vec3(0.5f), glm::vec3(0, 0, 1), x < 32 ? 2.0f : 4.0f);
  expect_step_kept(image, glm::vec3(0.05f), glm::vec3(0.6f), true, "depth step");
}

TEST(DenoiseTest, HitsAndMissesDoNotMix) {
  // A surface beside the background (no sample hit anything there: sums of 0).
  TestImage image(40, 40);
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 40; ++x) {
      if (x < 20) {
        image.set_guide(x, y, glm::vec3(0.7f), glm::vec3(0, 0, 1), 5.0f);
        image.set_rgb(x, y, glm::vec3(1.0f));
      } else {
        image.set_miss(x, y);
        image.set_rgb(x, y, glm::vec3(0.0f));
      }
    }
  const std::vector<float> out = denoised(image, mode(true));
  for (int y = 0; y < 40; ++y) {
    EXPECT_NEAR(image.at(out, 19, y).x, 1.0f, 1e-6f);
    EXPECT_EQ(image.at(out, 20, y).x, 0.0f);
  }
}

TEST(DenoiseTest, NonFiniteValuesDoNotSpread) {
  TestImage image = flat_noisy(24, 24, glm::vec3(0.5f), 0.1f, 5);
  image.set_rgb(12, 12,
                glm::vec3(std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::infinity(), -1e38f * 10.0f));
  // Guides that are not finite count as no hit.
  image.set_guide(3, 4, glm::vec3(0.6f), glm::vec3(std::numeric_limits<float>::quiet_NaN()), 3.0f);
  image.set_guide(20, 7, glm::vec3(0.6f), glm::vec3(0, 0, 1),
                  std::numeric_limits<float>::infinity());
  for (bool demodulate : {true, false}) {
    const std::vector<float> out = denoised(image, mode(demodulate));
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (k / 3 == image.index(12, 12)) continue;
      ASSERT_TRUE(std::isfinite(out[k])) << "value " << k;
    }
    // The pixel that is not finite keeps its values: an overflowed sum is not made 0.
    EXPECT_TRUE(std::isnan(image.at(out, 12, 12).x));
    EXPECT_EQ(image.at(out, 12, 12).y, std::numeric_limits<float>::infinity());
    EXPECT_EQ(image.at(out, 12, 12).z, -std::numeric_limits<float>::infinity());
  }
}

// A lamp of radiance 5e19 and more: the filter works at a power-of-two scale, so the luminance
// squares of its noise estimate do not overflow (they made 43% of the image NaN), and the result
// is the same image as at an ordinary scale.
TEST(DenoiseTest, BrightImagesFilterAsDimOnes) {
  for (bool demodulate : {true, false}) {
    const TestImage dim = flat_noisy(40, 40, glm::vec3(0.5f, 0.25f, 0.75f), 0.3f, 11);
    const std::vector<float> reference = denoised(dim, mode(demodulate));
    for (float factor : {1e20f, 6e37f}) {
      TestImage bright = dim;
      for (float& v : bright.rgb) v *= factor;
      const std::vector<float> out = denoised(bright, mode(demodulate));
      for (std::size_t k = 0; k < out.size(); ++k) {
        ASSERT_TRUE(std::isfinite(out[k])) << factor << ": value " << k;
        ASSERT_NEAR(out[k] / factor, reference[k], 1e-4f * reference[k]) << factor << ": " << k;
      }
    }
  }
}

TEST(DenoiseTest, DenoiseScaleIsAPowerOfTwoAboveTwoTo32) {
  EXPECT_EQ(denoise_scale(0.0f), 1.0f);
  EXPECT_EQ(denoise_scale(1e9f), 1.0f);
  const float s = denoise_scale(5e19f);
  EXPECT_LE(5e19f * s, 4294967296.0f);
  EXPECT_GT(5e19f * s, 2147483648.0f);
  int exponent = 0;
  EXPECT_EQ(std::frexp(s, &exponent), 0.5f);  // a power of two
  EXPECT_EQ(largest_finite(std::vector<float>{1.0f, -7.0f, INFINITY, NAN}.data(), 4), 7.0f);
}

// A stop signal abandons the filter between its passes: the output is left as it was.
TEST(DenoiseTest, AStopLeavesTheOutputUntouched) {
  const TestImage image = flat_noisy(20, 10, glm::vec3(0.5f), 0.2f, 4);
  for (int passes : {0, 1, 3}) {
    std::vector<float> out(image.rgb.size(), -7.0f);
    int polls = 0;
    const DenoiseTimes times =
        denoise_cpu(image.width, image.height, image.rgb.data(), image.first_hits.data(),
                    out.data(), AtrousSettings(), [&] { return polls++ >= passes; });
    EXPECT_TRUE(times.stopped) << passes;
    for (float v : out) ASSERT_EQ(v, -7.0f) << passes;
  }
  std::vector<float> out(image.rgb.size(), -7.0f);
  const DenoiseTimes times =
      denoise_cpu(image.width, image.height, image.rgb.data(), image.first_hits.data(), out.data(),
                  AtrousSettings(), [] { return false; });
  EXPECT_FALSE(times.stopped);
  EXPECT_NE(out[0], -7.0f);
}

TEST(DenoiseTest, ZeroIterationsOnlyDemodulateAndMultiplyBack) {
  TestImage image = flat_noisy(16, 9, glm::vec3(0.3f, 0.6f, 0.9f), 0.2f, 9);
  AtrousSettings settings;
  settings.iterations = 0;
  const std::vector<float> out = denoised(image, settings);
  for (std::size_t k = 0; k < out.size(); ++k) ASSERT_NEAR(out[k], image.rgb[k], 1e-6f);
}

TEST(DenoiseTest, BadArgumentsAreRefused) {
  std::vector<float> rgb(3), hits(8), out(3);
  EXPECT_THROW(denoise_cpu(0, 1, rgb.data(), hits.data(), out.data(), AtrousSettings{}),
               std::invalid_argument);
  AtrousSettings many;
  many.iterations = 17;
  EXPECT_THROW(denoise_cpu(1, 1, rgb.data(), hits.data(), out.data(), many), std::invalid_argument);
}

TEST(DenoiseTest, DescriptionNamesTheMode) {
  EXPECT_EQ(denoiser_description(mode(true)), "a-trous, 4 steps, irradiance");
  EXPECT_EQ(denoiser_description(mode(false)), "a-trous, 4 steps, radiance");
}

TEST(DenoiseTest, DenoisedExrKeepsTheNoisyImage) {
  FilmState film;
  film.width = 2;
  film.height = 1;
  film.sums = {2, 4, 6, 8, 10, 12};
  film.counts = {2, 2};
  film.first_hits.assign(16, 1.0f);
  Image denoised;
  denoised.width = 2;
  denoised.height = 1;
  denoised.rgb = {9, 9, 9, 9, 9, 9};
  AovSet aovs;
  aovs.albedo = true;
  const std::vector<ExrLayer> plain = film_exr_layers(film, aovs);
  const std::vector<unsigned char> bytes = encode_denoised_film_exr(film, aovs, denoised);
  const std::string text(bytes.begin(), bytes.end());
  const std::vector<std::string> names = exr_channel_names(text, "denoised.exr");
  EXPECT_EQ(names, (std::vector<std::string>{"B", "G", "R", "albedo.B", "albedo.G", "albedo.R",
                                             "noisy.B", "noisy.G", "noisy.R"}));
  // The beauty is the denoised image; decode_exr_rgb reads R, G, B.
  const ExrRgb beauty = decode_exr_rgb(text, "denoised.exr", 16, 16);
  EXPECT_EQ(beauty.rgb, denoised.rgb);
  Image wrong = denoised;
  wrong.width = 1;
  EXPECT_THROW(encode_denoised_film_exr(film, aovs, wrong), std::invalid_argument);
  EXPECT_EQ(plain.size(), 2u);
}

}  // namespace
}  // namespace raystream
