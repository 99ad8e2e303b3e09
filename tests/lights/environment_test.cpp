// The environment light: importance sampling of a map against its luminance x sin(theta), its
// pdf against quadrature and against the sampler, the mapping and ROTATE, the uniform
// environment, the HDR loader's errors and the scene file's Environment key.
#include "lights/environment.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <string>
#include <vector>

#include "io/image/environment_reader.h"
#include "io/scene/scene_loader.h"
#include "lights/environment_map.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;
constexpr double kPiD = 3.14159265358979323846;

#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "expected \"" << (needle) << "\" in \"" << (haystack) << "\""

// Uniform floats in [0, 1) from a fixed seed (24 random bits: never 1).
class Uniform {
 public:
  explicit Uniform(std::uint32_t seed) : rng_(seed) {}
  float operator()() { return static_cast<float>(rng_() >> 8) * 0x1p-24f; }

 private:
  std::mt19937 rng_;
};

// A map of width x height texels from a function of (column, row), with its CDFs.
// A map with the tables its light builds.
struct Map : Environment, EnvironmentTables {};

Map make_map(int width, int height, const std::function<glm::vec3(int, int)>& texel,
             float rotate_degrees = 0.0f) {
  Map env;
  env.present = true;
  env.width = width;
  env.height = height;
  env.rotate_degrees = rotate_degrees;
  for (int row = 0; row < height; ++row) {
    for (int column = 0; column < width; ++column) env.texels.push_back(texel(column, row));
  }
  static_cast<EnvironmentTables&>(env) = build_environment_tables(env);
  return env;
}

Map with_tables(const Environment& environment) {
  Map env;
  static_cast<Environment&>(env) = environment;
  static_cast<EnvironmentTables&>(env) = build_environment_tables(env);
  return env;
}

EnvironmentView view_of(const Map& env) {
  return environment_view(env, env.texels.data(), env.marginal_cdf.data(),
                          env.conditional_cdf.data());
}

// The documented mapping, written out independently of lights/environment.h: the direction of
// map coordinates (u, v) and back, without rotation.
glm::vec3 map_direction(double u, double v) {
  const double theta = v * kPiD, phi = (u - 0.5) * 2.0 * kPiD;
  return glm::vec3(static_cast<float>(std::sin(theta) * std::sin(phi)),
                   static_cast<float>(std::cos(theta)),
                   static_cast<float>(-std::sin(theta) * std::cos(phi)));
}
void map_coordinates(const glm::vec3& d, double& u, double& v) {
  v = std::acos(std::clamp(static_cast<double>(d.y), -1.0, 1.0)) / kPiD;
  u = 0.5 + std::atan2(static_cast<double>(d.x), -static_cast<double>(d.z)) / (2.0 * kPiD);
}

// The direction R(degrees) d, a right-handed turn about +y, with glm as the reference.
glm::vec3 turn(const glm::vec3& d, float degrees) {
  const glm::mat4 m = glm::rotate(glm::mat4(1.0f), glm::radians(degrees), glm::vec3(0, 1, 0));
  return glm::vec3(m * glm::vec4(d, 0.0f));
}

// A map with structure: a bright spot, a dim gradient, coloured texels and zero texels.
glm::vec3 test_texel(int column, int row) {
  if (column == 3 && row == 2) return glm::vec3(40.0f, 30.0f, 20.0f);  // a "sun"
  if ((column + row) % 7 == 0) return glm::vec3(0.0f);                 // black texels
  if (column % 5 == 1) return glm::vec3(2.0f, 0.1f, 0.1f);             // red texels
  return glm::vec3(0.2f + 0.05f * column, 0.3f + 0.1f * row, 0.5f);    // a gradient
}

// The integral over the sphere of f(direction), by the midpoint rule on n x n cells per texel of
// a width x height grid (sin theta dtheta dphi).
double sphere_integral(int width, int height, int n, const std::function<double(glm::vec3)>& f) {
  double sum = 0.0;
  const double du = 1.0 / (width * n), dv = 1.0 / (height * n);
  for (int j = 0; j < height * n; ++j) {
    const double v = (j + 0.5) * dv;
    const double weight = std::sin(v * kPiD) * (kPiD * dv) * (2.0 * kPiD * du);
    for (int i = 0; i < width * n; ++i) sum += f(map_direction((i + 0.5) * du, v)) * weight;
  }
  return sum;
}

// ---- Sampling ------------------------------------------------------------------------------

TEST(EnvironmentSampling, HistogramMatchesLuminanceTimesSinTheta) {
  const int w = 16, h = 8;
  const Map env = make_map(w, h, test_texel);
  const EnvironmentView view = view_of(env);

  // Expected share of each texel: luminance x sin(theta at the row centre), normalised.
  std::vector<double> expected(w * h);
  double total = 0.0;
  for (int row = 0; row < h; ++row) {
    for (int column = 0; column < w; ++column) {
      const double weight =
          environment_luminance(test_texel(column, row)) * std::sin(kPiD * (row + 0.5) / h);
      expected[row * w + column] = weight;
      total += weight;
    }
  }
  const int samples = 400000;
  std::vector<long> observed(w * h, 0);
  Uniform uniform(12345);
  for (int s = 0; s < samples; ++s) {
    const EnvironmentSample e = sample_environment(view, uniform(), uniform());
    ASSERT_GT(e.pdf, 0.0f);
    double u, v;
    map_coordinates(e.direction, u, v);  // the texel by the documented mapping
    const int column = std::min(w - 1, static_cast<int>(u * w));
    const int row = std::min(h - 1, static_cast<int>(v * h));
    ++observed[row * w + column];
  }
  double chi2 = 0.0;
  int bins = 0;
  for (int t = 0; t < w * h; ++t) {
    if (expected[t] == 0.0) {
      EXPECT_EQ(observed[t], 0) << "texel " << t << " is black but was sampled";
      continue;
    }
    const double e = samples * expected[t] / total;
    chi2 += (observed[t] - e) * (observed[t] - e) / e;
    ++bins;
  }
  // Chi-square with bins - 1 degrees of freedom: mean dof, standard deviation sqrt(2 dof).
  // Six standard deviations above the mean: p well below 1e-6 for a correct sampler.
  const double dof = bins - 1;
  EXPECT_LT(chi2, dof + 6.0 * std::sqrt(2.0 * dof)) << "bins " << bins;
  EXPECT_GT(bins, 100);
}

TEST(EnvironmentSampling, PdfIntegratesToOne) {
  const int w = 16, h = 8;
  for (const float rotate : {0.0f, 37.0f, -120.0f}) {
    const Map env = make_map(w, h, test_texel, rotate);
    const EnvironmentView view = view_of(env);
    // Without rotation the cells fall inside texels, where pdf x sin(theta) is constant: the
    // rule is exact up to rounding. Rotated, texel edges cut cells: a finer grid.
    const int n = rotate == 0.0f ? 4 : 24;
    const double integral = sphere_integral(
        w, h, n, [&](glm::vec3 d) { return static_cast<double>(environment_pdf(view, d)); });
    EXPECT_NEAR(integral, 1.0, rotate == 0.0f ? 1e-4 : 5e-3) << "ROTATE " << rotate;
  }
}

TEST(EnvironmentSampling, SamplesAgreeWithPdfAndRadiance) {
  const Map env = make_map(16, 8, test_texel, 37.0f);
  const EnvironmentView view = view_of(env);
  Uniform uniform(7);
  for (int s = 0; s < 20000; ++s) {
    const EnvironmentSample e = sample_environment(view, uniform(), uniform());
    ASSERT_NEAR(glm::length(e.direction), 1.0f, 1e-5f);
    ASSERT_GT(e.pdf, 0.0f);
    const float pdf = environment_pdf(view, e.direction);
    ASSERT_NEAR(pdf, e.pdf, 1e-3f * e.pdf) << "sample " << s;
    const glm::vec3 radiance = environment_radiance(view, e.direction);
    ASSERT_EQ(radiance, e.radiance) << "sample " << s;
    // The sampler never picks a black texel: luminance > 0 wherever it lands.
    ASSERT_GT(environment_luminance(e.radiance), 0.0f) << "sample " << s;
  }
}

TEST(EnvironmentSampling, MonteCarloIntegralMatchesQuadrature) {
  const int w = 16, h = 8;
  const Map env = make_map(w, h, test_texel, 15.0f);
  const EnvironmentView view = view_of(env);
  // The exact integral of each channel: texel value x texel solid angle (rotation changes
  // nothing).
  glm::dvec3 exact(0.0);
  for (int row = 0; row < h; ++row) {
    const double solid_angle =
        2.0 * kPiD / w * (std::cos(kPiD * row / h) - std::cos(kPiD * (row + 1) / h));
    for (int column = 0; column < w; ++column) {
      exact += glm::dvec3(test_texel(column, row)) * solid_angle;
    }
  }
  const int samples = 200000;
  glm::dvec3 sum(0.0), sum2(0.0);
  Uniform uniform(99);
  for (int s = 0; s < samples; ++s) {
    const EnvironmentSample e = sample_environment(view, uniform(), uniform());
    ASSERT_GT(e.pdf, 0.0f);
    const glm::dvec3 x = glm::dvec3(e.radiance) / static_cast<double>(e.pdf);
    sum += x;
    sum2 += x * x;
  }
  for (int c = 0; c < 3; ++c) {
    const double mean = sum[c] / samples;
    const double variance = sum2[c] / samples - mean * mean;
    const double standard_error = std::sqrt(std::max(variance, 0.0) / samples);
    EXPECT_NEAR(mean, exact[c], 4.0 * standard_error + 1e-6 * exact[c]) << "channel " << c;
    EXPECT_GT(exact[c], 0.0);
  }
  // The power estimate is the luminance integral.
  const double luminance = 0.2126 * exact.x + 0.7152 * exact.y + 0.0722 * exact.z;
  EXPECT_NEAR(environment_power_estimate(env), luminance, 1e-4 * luminance);
}

TEST(EnvironmentSampling, ImportanceSamplingBeatsUniformOnABrightSpot) {
  // One texel 10^4 times brighter than the rest: the variance of radiance / pdf must be far
  // below that of uniform sphere sampling (what importance sampling is for).
  const Map env = make_map(32, 16, [](int column, int row) {
    return column == 20 && row == 5 ? glm::vec3(1e4f) : glm::vec3(1.0f);
  });
  const EnvironmentView view = view_of(env);
  Uniform uniform(3);
  double sum = 0.0, sum2 = 0.0, usum = 0.0, usum2 = 0.0;
  const int samples = 50000;
  for (int s = 0; s < samples; ++s) {
    const EnvironmentSample e = sample_environment(view, uniform(), uniform());
    const double x = e.radiance.x / e.pdf;
    sum += x;
    sum2 += x * x;
    // Uniform on the sphere, for comparison.
    const float y = 1.0f - 2.0f * uniform(), phi = 2.0f * kPi * uniform();
    const float r = std::sqrt(std::max(0.0f, 1.0f - y * y));
    const double ux =
        environment_radiance(view, glm::vec3(r * std::cos(phi), y, r * std::sin(phi))).x * 4.0 *
        kPiD;
    usum += ux;
    usum2 += ux * ux;
  }
  const double variance = sum2 / samples - (sum / samples) * (sum / samples);
  const double uniform_variance = usum2 / samples - (usum / samples) * (usum / samples);
  EXPECT_LT(variance * 100.0, uniform_variance);
}

TEST(EnvironmentSampling, MappingConvention) {
  // One bright texel at a time: the direction of its centre, by the documented mapping, sees it.
  const int w = 8, h = 4;
  for (int row = 0; row < h; ++row) {
    for (int column = 0; column < w; ++column) {
      const Map env = make_map(w, h, [&](int c, int r) {
        return c == column && r == row ? glm::vec3(1.0f) : glm::vec3(0.0f);
      });
      const EnvironmentView view = view_of(env);
      const glm::vec3 centre = map_direction((column + 0.5) / w, (row + 0.5) / h);
      EXPECT_EQ(environment_radiance(view, centre), glm::vec3(1.0f)) << column << ", " << row;
      EXPECT_GT(environment_pdf(view, centre), 0.0f);
      // Every sample lands in that texel.
      Uniform uniform(static_cast<std::uint32_t>(row * w + column));
      for (int s = 0; s < 50; ++s) {
        const EnvironmentSample e = sample_environment(view, uniform(), uniform());
        ASSERT_EQ(e.radiance, glm::vec3(1.0f)) << column << ", " << row;
      }
    }
  }
  // The named directions: the image centre is -z, u = 0.75 is +x, row 0 is +y.
  const Map env = make_map(w, h, [](int c, int r) {
    return glm::vec3(static_cast<float>(c), static_cast<float>(r), 1.0f);
  });
  const EnvironmentView view = view_of(env);
  const float a = 0.3f;  // a little off the texel edges
  EXPECT_EQ(environment_radiance(view, glm::normalize(glm::vec3(a, -a, -1))), glm::vec3(4, 2, 1));
  EXPECT_EQ(environment_radiance(view, glm::normalize(glm::vec3(-a, a, -1))), glm::vec3(3, 1, 1));
  EXPECT_EQ(environment_radiance(view, glm::normalize(glm::vec3(1, a, a))), glm::vec3(6, 1, 1));
  EXPECT_EQ(environment_radiance(view, glm::normalize(glm::vec3(-1, a, a))), glm::vec3(1, 1, 1));
  EXPECT_EQ(environment_radiance(view, glm::vec3(0, 1, 0)).y, 0.0f);
  EXPECT_EQ(environment_radiance(view, glm::vec3(0, -1, 0)).y, 3.0f);
  // Straight up and down: sin theta = 0, density 0.
  EXPECT_EQ(environment_pdf(view, glm::vec3(0, 1, 0)), 0.0f);
  EXPECT_EQ(environment_pdf(view, glm::vec3(0, -1, 0)), 0.0f);
}

TEST(EnvironmentSampling, RotateTurnsTheMapCounterClockwiseSeenFromAbove) {
  // One bright texel just right of the image centre, above the horizon (towards -z, a little +x).
  const int w = 8, h = 4;
  const auto bright = [](int column, int row) {
    return column == 4 && row == 1 ? glm::vec3(100.0f) : glm::vec3(0.0f);
  };
  const glm::vec3 centre = map_direction(4.5 / w, 1.5 / h);
  ASSERT_LT(centre.z, -0.5f);
  for (const float rotate : {90.0f, -90.0f, 33.0f, 450.0f}) {
    const Map env = make_map(w, h, bright, rotate);
    const EnvironmentView view = view_of(env);
    const glm::vec3 moved = turn(centre, rotate);
    EXPECT_EQ(environment_radiance(view, moved), glm::vec3(100.0f)) << "ROTATE " << rotate;
    EXPECT_EQ(environment_radiance(view, centre), glm::vec3(0.0f)) << "ROTATE " << rotate;
    EXPECT_GT(environment_pdf(view, moved), 0.0f);
    EXPECT_EQ(environment_pdf(view, centre), 0.0f);
    // Samples come from the turned texel.
    Uniform uniform(5);
    for (int s = 0; s < 100; ++s) {
      const EnvironmentSample e = sample_environment(view, uniform(), uniform());
      const glm::vec3 back = turn(e.direction, -rotate);  // into the map
      double u, v;
      map_coordinates(back, u, v);
      ASSERT_EQ(static_cast<int>(u * w), 4) << "ROTATE " << rotate;
      ASSERT_EQ(static_cast<int>(v * h), 1) << "ROTATE " << rotate;
    }
  }
  // +90: the map's -z (the image centre) is seen at -x; -90: at +x.
  const Map centre_map = make_map(w, h, [](int column, int row) {
    return (column == 3 || column == 4) && (row == 1 || row == 2) ? glm::vec3(1.0f)
                                                                  : glm::vec3(0.0f);
  });
  Map turned = centre_map;
  turned.rotate_degrees = 90.0f;
  EXPECT_EQ(environment_radiance(view_of(turned), glm::vec3(-1, 0, 0)), glm::vec3(1.0f));
  EXPECT_EQ(environment_radiance(view_of(turned), glm::vec3(0, 0, -1)), glm::vec3(0.0f));
  turned.rotate_degrees = -90.0f;
  EXPECT_EQ(environment_radiance(view_of(turned), glm::vec3(1, 0, 0)), glm::vec3(1.0f));
  EXPECT_EQ(environment_radiance(view_of(centre_map), glm::vec3(0, 0, -1)), glm::vec3(1.0f));
}

TEST(EnvironmentSampling, UniformEnvironment) {
  Map env;
  env.present = true;
  env.constant = glm::vec3(0.5f, 1.0f, 2.0f);
  const EnvironmentView view = view_of(env);
  EXPECT_EQ(view.width, 0);
  Uniform uniform(11);
  glm::dvec3 mean(0.0);
  double y2 = 0.0;
  const int samples = 100000;
  for (int s = 0; s < samples; ++s) {
    const EnvironmentSample e = sample_environment(view, uniform(), uniform());
    ASSERT_NEAR(glm::length(e.direction), 1.0f, 1e-5f);
    ASSERT_FLOAT_EQ(e.pdf, 1.0f / (4.0f * kPi));
    ASSERT_EQ(e.radiance, env.constant);
    ASSERT_FLOAT_EQ(environment_pdf(view, e.direction), 1.0f / (4.0f * kPi));
    ASSERT_EQ(environment_radiance(view, e.direction), env.constant);
    mean += glm::dvec3(e.direction);
    y2 += static_cast<double>(e.direction.y) * e.direction.y;
  }
  // Uniform over the sphere: mean direction 0, E[y^2] = 1/3 (standard errors about 0.002).
  mean /= samples;
  EXPECT_LT(glm::length(mean), 0.01);
  EXPECT_NEAR(y2 / samples, 1.0 / 3.0, 0.005);
  EXPECT_NEAR(environment_power_estimate(env), 4.0 * kPiD * environment_luminance(env.constant),
              1e-4);

  // No environment: black, density 0.
  const EnvironmentView none = view_of(Map());
  EXPECT_FALSE(none.present);
  EXPECT_EQ(environment_radiance(none, glm::vec3(0, 1, 0)), glm::vec3(0.0f));
  EXPECT_EQ(environment_pdf(none, glm::vec3(0, 1, 0)), 0.0f);
  EXPECT_EQ(sample_environment(none, 0.5f, 0.5f).pdf, 0.0f);
  EXPECT_EQ(environment_power_estimate(Environment()), 0.0f);
}

TEST(EnvironmentSampling, BlackMapsAndRowsDoNotDivideByZero) {
  // All black: uniform CDFs, every density finite and integrating to 1, radiance black.
  const Map black = make_map(8, 4, [](int, int) { return glm::vec3(0.0f); });
  for (int j = 0; j <= 4; ++j) EXPECT_FLOAT_EQ(black.marginal_cdf[j], j / 4.0f);
  for (int i = 0; i <= 8; ++i) EXPECT_FLOAT_EQ(black.conditional_cdf[9 + i], i / 8.0f);
  const EnvironmentView view = view_of(black);
  Uniform uniform(17);
  for (int s = 0; s < 1000; ++s) {
    const EnvironmentSample e = sample_environment(view, uniform(), uniform());
    ASSERT_TRUE(std::isfinite(e.pdf));
    ASSERT_GT(e.pdf, 0.0f);
    ASSERT_EQ(e.radiance, glm::vec3(0.0f));
  }
  EXPECT_NEAR(sphere_integral(8, 4, 4, [&](glm::vec3 d) { return environment_pdf(view, d); }), 1.0,
              1e-4);
  EXPECT_EQ(environment_power_estimate(black), 0.0f);

  // The bottom half black: rows 2 and 3 get no probability, their own CDFs are uniform, and
  // u1 at the top of [0, 1) still lands in a lit row.
  const Map half = make_map(8, 4, [](int column, int row) {
    return row < 2 ? glm::vec3(1.0f + column) : glm::vec3(0.0f);
  });
  EXPECT_FLOAT_EQ(half.marginal_cdf[2], 1.0f);
  EXPECT_FLOAT_EQ(half.marginal_cdf[4], 1.0f);
  EXPECT_FLOAT_EQ(half.conditional_cdf[3 * 9 + 4], 0.5f);
  const EnvironmentView half_view = view_of(half);
  for (const float u : {0.0f, 0x1.fffffep-1f, 1.0f, -0.5f, 2.0f, std::nanf("")}) {
    for (const float u2 : {0.0f, 0.5f, 0x1.fffffep-1f, 1.0f}) {
      const EnvironmentSample e = sample_environment(half_view, u, u2);
      EXPECT_NEAR(glm::length(e.direction), 1.0f, 1e-5f) << u << ", " << u2;
      EXPECT_TRUE(std::isfinite(e.pdf)) << u << ", " << u2;
      EXPECT_GT(e.direction.y, -1e-6f) << u << ", " << u2;  // the top half
      if (e.pdf > 0.0f) {
        EXPECT_GT(environment_luminance(e.radiance), 0.0f) << u << ", " << u2;
      }
    }
  }
}

TEST(EnvironmentSampling, CdfsAreNormalisedAndMonotonic) {
  const Map env = make_map(16, 8, test_texel);
  ASSERT_EQ(env.marginal_cdf.size(), 9u);
  ASSERT_EQ(env.conditional_cdf.size(), 8u * 17u);
  EXPECT_EQ(env.marginal_cdf.front(), 0.0f);
  EXPECT_EQ(env.marginal_cdf.back(), 1.0f);
  EXPECT_TRUE(std::is_sorted(env.marginal_cdf.begin(), env.marginal_cdf.end()));
  for (int row = 0; row < 8; ++row) {
    const auto begin = env.conditional_cdf.begin() + row * 17;
    EXPECT_EQ(*begin, 0.0f);
    EXPECT_EQ(*(begin + 16), 1.0f);
    EXPECT_TRUE(std::is_sorted(begin, begin + 17));
  }
  Environment wrong = env;
  wrong.texels.pop_back();
  EXPECT_THROW(build_environment_tables(wrong), std::invalid_argument);
}

// ---- Loading HDR files ----------------------------------------------------------------------

// A temporary folder for the files a test writes, removed afterwards.
class EnvironmentFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("raystream-environment-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static void write(const std::string& file, const std::string& bytes) {
    std::ofstream out(file, std::ios::binary);
    out << bytes;
    ASSERT_TRUE(out.good()) << file;
  }

  // The SceneError message of loading `file`; fails the test when loading succeeds.
  static std::string error_of(const std::string& file, float scale = 1.0f) {
    try {
      load_environment_map(file, scale, 0.0f);
    } catch (const SceneError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no SceneError for " << file;
    return "";
  }

  fs::path dir_;
};

std::string rgbe(const glm::vec3& rgb) {
  const float v = std::max(rgb.x, std::max(rgb.y, rgb.z));
  if (v < 1e-32f) return std::string(4, '\0');
  int exponent;
  const float mantissa = std::frexp(v, &exponent);
  const float scale = mantissa * 256.0f / v;
  std::string out(4, '\0');
  out[0] = static_cast<char>(static_cast<unsigned char>(rgb.x * scale));
  out[1] = static_cast<char>(static_cast<unsigned char>(rgb.y * scale));
  out[2] = static_cast<char>(static_cast<unsigned char>(rgb.z * scale));
  out[3] = static_cast<char>(exponent + 128);
  return out;
}

std::string hdr_header(int width, int height) {
  return "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y " + std::to_string(height) + " +X " +
         std::to_string(width) + "\n";
}

// Texel values exactly representable in RGBE: (column + 1, row + 1, 0.5) x 2^k.
glm::vec3 hdr_texel(int column, int row) {
  return glm::vec3(static_cast<float>(column + 1), static_cast<float>(row + 1), 0.5f);
}

std::string flat_hdr(int width, int height) {
  std::string out = hdr_header(width, height);
  for (int row = 0; row < height; ++row) {
    for (int column = 0; column < width; ++column) out += rgbe(hdr_texel(column, row));
  }
  return out;
}

// Run-length-encoded rows (widths 8 to 32767): per row 2, 2, width (16 bits), then each of the
// four components as runs (128 + n, value) of repeated bytes and dumps (n, n bytes).
std::string rle_hdr(int width, int height) {
  std::string out = hdr_header(width, height);
  for (int row = 0; row < height; ++row) {
    std::string pixels;
    for (int column = 0; column < width; ++column) pixels += rgbe(hdr_texel(column, row));
    out += static_cast<char>(2);
    out += static_cast<char>(2);
    out += static_cast<char>(width >> 8);
    out += static_cast<char>(width & 0xFF);
    for (int k = 0; k < 4; ++k) {
      int i = 0;
      while (i < width) {
        int run = 1;
        while (i + run < width && run < 127 && pixels[4 * (i + run) + k] == pixels[4 * i + k]) {
          ++run;
        }
        if (run >= 3) {
          out += static_cast<char>(128 + run);
          out += pixels[4 * i + k];
          i += run;
        } else {
          const int n = std::min(width - i, 2);
          out += static_cast<char>(n);
          for (int z = 0; z < n; ++z) out += pixels[4 * (i + z) + k];
          i += n;
        }
      }
    }
  }
  return out;
}

void expect_hdr_texels(const Environment& env, int width, int height, float scale) {
  ASSERT_EQ(env.width, width);
  ASSERT_EQ(env.height, height);
  ASSERT_EQ(env.texels.size(), static_cast<std::size_t>(width * height));
  for (int row = 0; row < height; ++row) {
    for (int column = 0; column < width; ++column) {
      const glm::vec3 expected = hdr_texel(column, row) * scale;
      const glm::vec3 got = env.texels[row * width + column];
      for (int c = 0; c < 3; ++c) {
        // RGBE keeps 8 bits of mantissa of the largest component.
        ASSERT_NEAR(got[c], expected[c], 0.02f * std::max(expected.x, expected.y))
            << column << ", " << row << " [" << c << "]";
      }
    }
  }
}

TEST_F(EnvironmentFiles, ShippedSkyLoads) {
  const Map env = with_tables(load_environment_map("scenes/sky.hdr", 1.0f, 0.0f));
  EXPECT_TRUE(env.present);
  EXPECT_EQ(env.file, "scenes/sky.hdr");
  ASSERT_EQ(env.width, 512);
  ASSERT_EQ(env.height, 256);
  ASSERT_EQ(env.texels.size(), 512u * 256u);
  EXPECT_EQ(env.marginal_cdf.size(), 257u);
  EXPECT_EQ(env.conditional_cdf.size(), 256u * 513u);
  std::size_t brightest = 0;
  for (std::size_t t = 0; t < env.texels.size(); ++t) {
    for (int c = 0; c < 3; ++c) {
      ASSERT_TRUE(std::isfinite(env.texels[t][c])) << t;
      ASSERT_GE(env.texels[t][c], 0.0f) << t;
    }
    if (environment_luminance(env.texels[t]) > environment_luminance(env.texels[brightest])) {
      brightest = t;
    }
  }
  // The sun: elevation 30 degrees, 40 degrees from -z towards +x (scripts/make_sky.py), far
  // brighter than the sky.
  const int column = static_cast<int>(brightest % 512), row = static_cast<int>(brightest / 512);
  const glm::vec3 sun(std::cos(glm::radians(30.0f)) * std::sin(glm::radians(40.0f)),
                      std::sin(glm::radians(30.0f)),
                      -std::cos(glm::radians(30.0f)) * std::cos(glm::radians(40.0f)));
  const glm::vec3 at = map_direction((column + 0.5) / 512, (row + 0.5) / 256);
  EXPECT_GT(glm::dot(at, sun), std::cos(glm::radians(2.0f))) << column << ", " << row;
  EXPECT_GT(environment_luminance(env.texels[brightest]), 1000.0f);
  const glm::vec3 zenith = env.texels[256];  // row 0
  EXPECT_GT(zenith.z, zenith.x);             // blue
  const glm::vec3 ground = env.texels[255 * 512];
  EXPECT_LT(environment_luminance(ground), 0.2f);
  // Most of the power is the sun's, so importance sampling draws it most of the time.
  const EnvironmentView view = view_of(env);
  Uniform uniform(2024);
  int near_sun = 0;
  for (int s = 0; s < 2000; ++s) {
    if (glm::dot(sample_environment(view, uniform(), uniform()).direction, sun) >
        std::cos(glm::radians(3.0f))) {
      ++near_sun;
    }
  }
  EXPECT_GT(near_sun, 1000);
  EXPECT_GT(environment_power_estimate(env), 5.0f);

  // SCALE multiplies every texel; ROTATE is recorded.
  const Environment scaled = load_environment_map("scenes/sky.hdr", 0.5f, 30.0f);
  EXPECT_EQ(scaled.texels[brightest], env.texels[brightest] * 0.5f);
  EXPECT_FLOAT_EQ(scaled.rotate_degrees, 30.0f);
}

TEST_F(EnvironmentFiles, FlatAndRunLengthEncodedFilesLoad) {
  write(path("flat.hdr"), flat_hdr(16, 4));
  expect_hdr_texels(load_environment_map(path("flat.hdr"), 1.0f, 0.0f), 16, 4, 1.0f);
  write(path("rle.hdr"), rle_hdr(16, 4));
  expect_hdr_texels(load_environment_map(path("rle.hdr"), 2.0f, 0.0f), 16, 4, 2.0f);
  write(path("narrow.hdr"), flat_hdr(3, 2));  // narrower than 8: always flat
  expect_hdr_texels(load_environment_map(path("narrow.hdr"), 1.0f, 0.0f), 3, 2, 1.0f);
}

TEST_F(EnvironmentFiles, MissingFileNamesTheFile) {
  const std::string e = error_of(path("no_such_sky.hdr"));
  EXPECT_CONTAINS(e, path("no_such_sky.hdr") + ": cannot open the environment map");
  EXPECT_CONTAINS(error_of(dir_.string()), dir_.string() + ": is a directory");
  if (fs::exists("/dev/null")) {
    EXPECT_CONTAINS(error_of("/dev/null"), "/dev/null: is not a regular file");
  }
}

TEST_F(EnvironmentFiles, OtherImagesAndTextAreNotHdr) {
  // A PNG signature followed by garbage, a text file, an empty file.
  write(path("sky.png"), std::string("\x89PNG\r\n\x1a\n", 8) + "garbage that is no IHDR");
  EXPECT_CONTAINS(error_of(path("sky.png")),
                  path("sky.png") + ": not a Radiance HDR (.hdr) or OpenEXR (.exr) image");
  write(path("notes.txt"), "a sky, but in words\n");
  EXPECT_CONTAINS(error_of(path("notes.txt")),
                  path("notes.txt") + ": not a Radiance HDR (.hdr) or OpenEXR (.exr) image");
  write(path("empty.hdr"), "");
  EXPECT_CONTAINS(error_of(path("empty.hdr")),
                  path("empty.hdr") + ": not a Radiance HDR (.hdr) or OpenEXR (.exr) image");
}

TEST_F(EnvironmentFiles, TruncatedAndCorruptHdrAreErrors) {
  // Flat pixels cut short (stb_image alone would read past them).
  std::string flat = flat_hdr(16, 4);
  write(path("cut_flat.hdr"), flat.substr(0, flat.size() - 10));
  std::string e = error_of(path("cut_flat.hdr"));
  EXPECT_CONTAINS(e, path("cut_flat.hdr") + ": corrupt HDR: truncated");
  EXPECT_CONTAINS(e, "row 3 of 4");
  // Run-length-encoded rows cut short (stb_image alone would loop forever), at every length
  // within the pixel data.
  const std::string rle = rle_hdr(16, 4);
  const std::size_t data = hdr_header(16, 4).size();
  for (std::size_t size = data; size < rle.size(); ++size) {
    write(path("cut_rle.hdr"), rle.substr(0, size));
    EXPECT_CONTAINS(error_of(path("cut_rle.hdr")), path("cut_rle.hdr") + ": corrupt HDR: ");
  }
  // A run longer than the row.
  std::string bad_run = hdr_header(8, 1) + std::string("\x02\x02\x00\x08", 4);
  bad_run += static_cast<char>(128 + 9);
  bad_run += 'x';
  bad_run += std::string(64, '\0');
  write(path("bad_run.hdr"), bad_run);
  EXPECT_CONTAINS(error_of(path("bad_run.hdr")),
                  path("bad_run.hdr") + ": corrupt HDR: bad run-length data in row 0");
  // A row whose run-length width is not the image's.
  std::string bad_width = rle_hdr(16, 2);
  bad_width[data + 3] = 15;
  write(path("bad_width.hdr"), bad_width);
  EXPECT_CONTAINS(error_of(path("bad_width.hdr")), "run-length width of 15, not 16");
  // The header alone, and a header without its size line.
  write(path("header_only.hdr"), hdr_header(16, 4));
  EXPECT_CONTAINS(error_of(path("header_only.hdr")), path("header_only.hdr") + ": corrupt HDR");
  write(path("no_size.hdr"), "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n");
  EXPECT_CONTAINS(error_of(path("no_size.hdr")), path("no_size.hdr") + ": corrupt HDR");
  // Another pixel format, another layout, a zero size.
  write(path("xyz.hdr"), "#?RADIANCE\nFORMAT=32-bit_rle_xyze\n\n-Y 1 +X 1\nabcd");
  EXPECT_CONTAINS(error_of(path("xyz.hdr")), path("xyz.hdr") + ": unsupported HDR format");
  write(path("flipped.hdr"), "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n+Y 1 +X 1\nabcd");
  EXPECT_CONTAINS(error_of(path("flipped.hdr")), path("flipped.hdr") + ": unsupported HDR layout");
  write(path("zero.hdr"), hdr_header(0, 4));
  EXPECT_CONTAINS(error_of(path("zero.hdr")), path("zero.hdr") + ": corrupt HDR: the image is");
}

TEST_F(EnvironmentFiles, AbsurdSizesAreRefusedBeforeDecoding) {
  write(path("wide.hdr"), hdr_header(20000, 10) + "abcd");
  EXPECT_CONTAINS(error_of(path("wide.hdr")),
                  path("wide.hdr") + ": 20000 x 10 texels is too large for an environment map");
  write(path("tall.hdr"), hdr_header(16, 9000) + "abcd");
  EXPECT_CONTAINS(error_of(path("tall.hdr")), "16 x 9000 texels is too large");
  write(path("huge.hdr"), "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 99999999999 +X 1\nabcd");
  EXPECT_CONTAINS(error_of(path("huge.hdr")),
                  path("huge.hdr") + ": 1 x 99999999999 texels is too large");
}

TEST_F(EnvironmentFiles, ScaledTexelsMustStayFinite) {
  // The largest RGBE value (exponent 255) times a large SCALE overflows a float.
  std::string bright = hdr_header(2, 1) + std::string("\xff\x10\x10\xff", 4) + rgbe(glm::vec3(1));
  write(path("bright.hdr"), bright);
  EXPECT_NO_THROW(load_environment_map(path("bright.hdr"), 1.0f, 0.0f));
  const std::string e = error_of(path("bright.hdr"), 1e30f);
  EXPECT_CONTAINS(e, path("bright.hdr") + ": texel (0, 0) times SCALE 1e+30 overflows a float");
}

// ---- The scene file's Environment key -------------------------------------------------------

std::string scene_with(const std::string& environment) {
  return R"({
  "Materials": {"white": {"TYPE": "Diffuse", "RGB": [0.5, 0.5, 0.5]}},
  "Camera": {"RES": [8, 8], "FOVY": 45, "ITERATIONS": 1, "DEPTH": 2, "FILE": "t",
             "EYE": [0, 1, 5], "LOOKAT": [0, 1, 0], "UP": [0, 1, 0]},
  "Objects": [{"TYPE": "sphere", "MATERIAL": "white"}])" +
         (environment.empty() ? "" : ",\n  \"Environment\": " + environment) + "\n}\n";
}

std::string scene_error(const std::string& environment, const std::string& path = "s.json") {
  std::vector<std::string> warnings;
  try {
    parse_scene(scene_with(environment), path, warnings);
  } catch (const SceneError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no SceneError for " << environment;
  return "";
}

TEST(EnvironmentScene, UniformRgbLoads) {
  std::vector<std::string> warnings;
  const Scene s =
      parse_scene(scene_with(R"({"RGB": [0.5, 1, 2], "SCALE": 2})"), "s.json", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();  // lit by the environment: no warning
  EXPECT_TRUE(s.environment.present);
  EXPECT_EQ(s.environment.constant, glm::vec3(1.0f, 2.0f, 4.0f));
  EXPECT_EQ(s.environment.width, 0);
  EXPECT_TRUE(s.environment.file.empty());

  // Nothing but the sky: it is what the camera sees, no warning.
  std::string sky_only = scene_with(R"({"RGB": [1, 1, 1]})");
  const std::string sphere = R"({"TYPE": "sphere", "MATERIAL": "white"})";
  sky_only.erase(sky_only.find(sphere), sphere.size());
  parse_scene(sky_only, "s.json", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();

  // The test scene: a diffuse sphere on the ground under a uniform sky.
  const Scene t = load_scene("tests/data/environment_uniform.json", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_TRUE(t.environment.present);
  EXPECT_EQ(t.environment.constant, glm::vec3(0.9f, 0.95f, 1.0f));
}

TEST(EnvironmentScene, WithoutTheKeyThereIsNoEnvironment) {
  std::vector<std::string> warnings;
  const Scene s = parse_scene(scene_with(""), "s.json", warnings);
  EXPECT_FALSE(s.environment.present);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_CONTAINS(warnings[0], "s.json: no emitter");
  // A black environment lights nothing either.
  warnings.clear();
  parse_scene(scene_with(R"({"RGB": [1, 1, 1], "SCALE": 0})"), "s.json", warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_CONTAINS(warnings[0], "no emitter");
  EXPECT_CONTAINS(warnings[0], "the Environment is black");
}

TEST(EnvironmentScene, FileIsRelativeToTheSceneFile) {
  std::vector<std::string> warnings;
  const Scene s = load_scene("tests/data/environment_sky.json", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_TRUE(s.environment.present);
  EXPECT_EQ(s.environment.file, "scenes/sky.hdr");
  EXPECT_EQ(s.environment.width, 512);
  EXPECT_EQ(s.environment.height, 256);

  const Scene r = parse_scene(
      scene_with(R"({"FILE": "../../scenes/sky.hdr", "SCALE": 0.25, "ROTATE": -45})"),
      "tests/data/inline.json", warnings);
  EXPECT_EQ(r.environment.file, "scenes/sky.hdr");
  EXPECT_FLOAT_EQ(r.environment.rotate_degrees, -45.0f);
  EXPECT_FLOAT_EQ(r.environment.scale, 0.25f);
  EXPECT_EQ(r.environment.texels[1000], s.environment.texels[1000] * 0.25f);

  // Relative to the scene's folder, not the working directory: the same text elsewhere fails,
  // naming the key and the resolved path.
  const std::string e = scene_error(R"({"FILE": "../../scenes/sky.hdr"})", "other/s.json");
  EXPECT_CONTAINS(e, "other/s.json: Environment.FILE: ../scenes/sky.hdr: cannot open");
}

TEST(EnvironmentScene, BadEnvironmentsAreErrors) {
  EXPECT_CONTAINS(scene_error(R"({"FILE": "sky.hdr", "RGB": [1, 1, 1]})"),
                  "s.json: Environment: FILE and RGB exclude each other");
  EXPECT_CONTAINS(scene_error(R"({"SCALE": 1})"),
                  "s.json: Environment: expected FILE (an HDR or EXR map) or RGB");
  EXPECT_CONTAINS(scene_error(R"([1, 1, 1])"),
                  "s.json: Environment: expected an object, got an array");
  EXPECT_CONTAINS(scene_error(R"({"RGB": [1, 1, 1], "SCALE": -1})"),
                  "s.json: Environment.SCALE: expected a non-negative number");
  EXPECT_CONTAINS(scene_error(R"({"RGB": [1, 1, 1], "SCALE": 1e39})"),
                  "s.json: Environment.SCALE: value 1e+39 is too large");
  EXPECT_CONTAINS(scene_error(R"({"RGB": [1, 1, 1], "SCALE": "bright"})"),
                  "s.json: Environment.SCALE: expected a number, got a string");
  // JSON has no NaN: such a SCALE is malformed JSON.
  EXPECT_CONTAINS(scene_error(R"({"RGB": [1, 1, 1], "SCALE": NaN})"), "malformed JSON");
  EXPECT_CONTAINS(scene_error(R"({"RGB": [10, 1, 1], "SCALE": 1e38})"),
                  "s.json: Environment.SCALE: RGB x SCALE overflows a float");
  EXPECT_CONTAINS(scene_error(R"({"FILE": "sky.hdr", "ROTATE": 1e39})"),
                  "s.json: Environment.ROTATE: value 1e+39 is too large");
  EXPECT_CONTAINS(scene_error(R"({"RGB": [1, -1, 1]})"),
                  "s.json: Environment.RGB: expected non-negative components");
  EXPECT_CONTAINS(scene_error(R"({"RGB": [1, 1]})"),
                  "s.json: Environment.RGB: expected an array of 3 numbers");
  EXPECT_CONTAINS(scene_error(R"({"FILE": ""})"), "s.json: Environment.FILE: expected a non-empty");
  EXPECT_CONTAINS(scene_error(R"({"FILE": 3})"),
                  "s.json: Environment.FILE: expected a string, got an integer");
  // The loader's errors name the key and the file.
  EXPECT_CONTAINS(scene_error(R"({"FILE": "no_sky.hdr"})", "tests/data/s.json"),
                  "tests/data/s.json: Environment.FILE: tests/data/no_sky.hdr: "
                  "cannot open the environment map");
  EXPECT_CONTAINS(scene_error(R"({"FILE": "tiny.json"})", "tests/data/s.json"),
                  "Environment.FILE: tests/data/tiny.json: not a Radiance HDR (.hdr) or "
                  "OpenEXR (.exr) image");
}

TEST(EnvironmentScene, UnknownKeysAndUselessRotateAreWarnings) {
  std::vector<std::string> warnings;
  parse_scene(scene_with(R"({"RGB": [1, 1, 1], "ROTATE": 30, "BLUR": 2})"), "s.json", warnings);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], "s.json: Environment.BLUR: unknown key, ignored");
  EXPECT_CONTAINS(warnings[1], "s.json: Environment.ROTATE: a uniform environment");
}

}  // namespace
}  // namespace raystream
