// Random numbers, warps and BSDF sampling, on the CPU: the cosine distribution by a chi-square
// test, the rough mirror's lobe and its weights against its BRDF, the Fresnel equations
// (reflectance + transmittance = 1, total internal reflection), the dielectric's choice between
// reflection and refraction, and Russian roulette's expectation.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/rng.h"
#include "core/sampling.h"
#include "integrator/roulette.h"
#include "materials/bsdf.h"

namespace raystream {
namespace {

// Upper critical value of chi-square with k degrees of freedom at p = 0.001 (Wilson-Hilferty).
double chi_square_critical(int k) {
  const double z = 3.0902;  // standard normal quantile of 0.999
  const double a = 2.0 / (9.0 * k);
  return k * std::pow(1.0 - a + z * std::sqrt(a), 3.0);
}

double chi_square(const std::vector<double>& observed, double expected_each) {
  double chi = 0.0;
  for (double o : observed) chi += (o - expected_each) * (o - expected_each) / expected_each;
  return chi;
}

TEST(Rng, DeterministicAndDistinctStreams) {
  Rng a(7, 1, 2, 42), b(7, 1, 2, 42), c(8, 1, 2, 42), d(7, 1, 3, 42), e(7, 1, 2, 43);
  int differ_c = 0, differ_d = 0, differ_e = 0;
  for (int k = 0; k < 16; ++k) {
    const std::uint32_t x = a.next_u32();
    EXPECT_EQ(x, b.next_u32());
    differ_c += x != c.next_u32();
    differ_d += x != d.next_u32();
    differ_e += x != e.next_u32();
  }
  EXPECT_GE(differ_c, 15);
  EXPECT_GE(differ_d, 15);
  EXPECT_GE(differ_e, 15);
}

TEST(Rng, UniformFloatsChiSquare) {
  // Many short streams, as the renderer uses them: the first four numbers of each pixel.
  const int bins = 64;
  std::vector<double> histogram(bins, 0.0);
  double sum = 0.0;
  int count = 0;
  for (std::uint32_t pixel = 0; pixel < 50000; ++pixel) {
    Rng rng(pixel, 3, 1, 0);
    for (int k = 0; k < 4; ++k) {
      const float u = rng.next_float();
      ASSERT_GE(u, 0.0f);
      ASSERT_LT(u, 1.0f);
      histogram[static_cast<int>(u * bins)] += 1.0;
      sum += u;
      ++count;
    }
  }
  EXPECT_NEAR(sum / count, 0.5, 0.005);
  EXPECT_LT(chi_square(histogram, double(count) / bins), chi_square_critical(bins - 1));
}

TEST(Sampling, ConcentricDiskIsUniformOnTheDisk) {
  Rng rng(1, 0, 0, 5);
  double r2_sum = 0.0;
  const int n = 100000;
  std::vector<double> quadrants(4, 0.0);
  for (int k = 0; k < n; ++k) {
    const glm::vec2 p = sample_concentric_disk(rng.next_float(), rng.next_float());
    const float r2 = glm::dot(p, p);
    ASSERT_LE(r2, 1.0f + 1e-5f);
    r2_sum += r2;
    quadrants[(p.x >= 0.0f ? 1 : 0) + (p.y >= 0.0f ? 2 : 0)] += 1.0;
  }
  EXPECT_NEAR(r2_sum / n, 0.5, 0.01);  // E[r^2] = 1/2 for a uniform disk
  EXPECT_LT(chi_square(quadrants, n / 4.0), chi_square_critical(3));
}

// Cosine-weighted sampling: with pdf cos(theta) / pi, cos^2(theta) and phi are independent and
// uniform. A 2D histogram of (cos^2 theta, phi / 2 pi) must be flat.
void check_cosine_distribution(const glm::vec3& n) {
  const int bins = 12;
  std::vector<double> histogram(bins * bins, 0.0);
  glm::vec3 t = glm::normalize(
      glm::cross(n, std::fabs(n.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0)));
  glm::vec3 b = glm::cross(n, t);
  Rng rng(11, 0, 0, 99);
  const int samples = 200000;
  for (int k = 0; k < samples; ++k) {
    const glm::vec3 w = sample_cosine_hemisphere(n, rng.next_float(), rng.next_float());
    ASSERT_NEAR(glm::length(w), 1.0f, 1e-4f);
    const float c = glm::dot(w, n);
    ASSERT_GE(c, -1e-6f);
    const double u = std::fmin(0.999999, double(c) * c);
    double phi = std::atan2(double(glm::dot(w, b)), double(glm::dot(w, t))) / (2.0 * kPi);
    if (phi < 0.0) phi += 1.0;
    const int i = static_cast<int>(u * bins);
    const int j = std::min(bins - 1, static_cast<int>(phi * bins));
    histogram[i * bins + j] += 1.0;
  }
  const double chi = chi_square(histogram, double(samples) / (bins * bins));
  EXPECT_LT(chi, chi_square_critical(bins * bins - 1))
      << "normal " << n.x << " " << n.y << " " << n.z;
}

TEST(Sampling, CosineHemisphereChiSquare) {
  check_cosine_distribution(glm::vec3(0.0f, 0.0f, 1.0f));
  check_cosine_distribution(glm::vec3(0.0f, 0.0f, -1.0f));
  check_cosine_distribution(glm::normalize(glm::vec3(0.3f, -0.8f, 0.2f)));
}

TEST(Sampling, UniformHemisphereFailsTheCosineTest) {
  // The test above can fail: directions uniform on the hemisphere (cos theta uniform) give a
  // histogram of cos^2 theta that is far from flat.
  const int bins = 12;
  std::vector<double> histogram(bins, 0.0);
  Rng rng(2, 0, 0, 1);
  const int samples = 50000;
  for (int k = 0; k < samples; ++k) {
    const double c = rng.next_float();
    histogram[std::min(bins - 1, static_cast<int>(c * c * bins))] += 1.0;
  }
  EXPECT_GT(chi_square(histogram, double(samples) / bins), chi_square_critical(bins - 1));
}

TEST(Fresnel, ReflectancePlusTransmittanceIsOne) {
  const float pairs[][2] = {{1.0f, 1.5f}, {1.5f, 1.0f}, {1.0f, 2.42f}, {1.33f, 1.0f}, {1.2f, 1.7f}};
  for (const auto& p : pairs) {
    for (int k = 0; k <= 100; ++k) {
      const float cos_i = k / 100.0f;
      const float r = fresnel_reflectance(cos_i, p[0], p[1]);
      const float t = fresnel_transmittance(cos_i, p[0], p[1]);
      ASSERT_GE(r, 0.0f);
      ASSERT_LE(r, 1.0f);
      ASSERT_GE(t, 0.0f);
      if (refracted_cos(cos_i, p[0], p[1]) < 0.0f) {
        EXPECT_EQ(r, 1.0f);  // total internal reflection
        EXPECT_EQ(t, 0.0f);
      } else if (cos_i > 0.0f) {
        EXPECT_NEAR(r + t, 1.0f, 2e-4f) << p[0] << " -> " << p[1] << ", cos_i " << cos_i;
      }
    }
  }
}

TEST(Fresnel, KnownValues) {
  // Normal incidence: ((n1 - n2) / (n1 + n2))^2 = 0.04 for glass.
  EXPECT_NEAR(fresnel_reflectance(1.0f, 1.0f, 1.5f), 0.04f, 1e-5f);
  EXPECT_NEAR(fresnel_reflectance(1.0f, 1.5f, 1.0f), 0.04f, 1e-5f);
  // Grazing incidence reflects everything.
  EXPECT_NEAR(fresnel_reflectance(0.0f, 1.0f, 1.5f), 1.0f, 1e-5f);
  // Brewster's angle: tan(theta_B) = n2 / n1, r_p = 0, so R = r_s^2 / 2.
  const float theta_b = std::atan(1.5f);
  const float cos_b = std::cos(theta_b), cos_t = std::sin(theta_b);
  const float r_s = (cos_b - 1.5f * cos_t) / (cos_b + 1.5f * cos_t);
  EXPECT_NEAR(fresnel_reflectance(cos_b, 1.0f, 1.5f), 0.5f * r_s * r_s, 1e-5f);
  // Total internal reflection past the critical angle, sin(theta_c) = 1 / 1.5.
  const float cos_c = std::sqrt(1.0f - 1.0f / (1.5f * 1.5f));
  EXPECT_LT(fresnel_reflectance(cos_c + 0.01f, 1.5f, 1.0f), 1.0f);
  EXPECT_EQ(fresnel_reflectance(cos_c - 0.01f, 1.5f, 1.0f), 1.0f);
}

MaterialData material(MaterialType type, glm::vec3 color = glm::vec3(1.0f), float ior = 1.5f) {
  MaterialData m;
  m.type = static_cast<std::int32_t>(type);
  m.color = color;
  m.ior = ior;
  return m;
}

TEST(Bsdf, MirrorReflects) {
  const glm::vec3 n(0.0f, 1.0f, 0.0f);
  const glm::vec3 d = glm::normalize(glm::vec3(1.0f, -1.0f, 0.5f));
  Rng rng(0, 0, 0, 0);
  const BsdfSample s =
      sample_bsdf(material(MaterialType::specular, glm::vec3(0.9f, 0.8f, 0.7f)), d, n, rng);
  EXPECT_NEAR(s.direction.x, d.x, 1e-5f);
  EXPECT_NEAR(s.direction.y, -d.y, 1e-5f);
  EXPECT_NEAR(s.direction.z, d.z, 1e-5f);
  EXPECT_EQ(s.weight, glm::vec3(0.9f, 0.8f, 0.7f));
  EXPECT_EQ(s.side, n);
  // From behind the surface the mirror reflects on that side.
  const BsdfSample back = sample_bsdf(material(MaterialType::specular), -d, n, rng);
  EXPECT_NEAR(back.direction.y, d.y, 1e-5f);
  EXPECT_EQ(back.side, -n);
}

MaterialData rough_mirror(float roughness, glm::vec3 color = glm::vec3(1.0f)) {
  MaterialData m = material(MaterialType::specular, color);
  m.alpha = ggx_alpha(roughness);
  return m;
}

// A rough mirror samples around the mirror direction, wider as ROUGHNESS grows, never below the
// surface (a sample that would leave below it ends the path with weight 0), with the colour times
// one scalar as weight. Its mean weight is the directional albedo, which single scattering makes
// fall with roughness; the references are a quadrature of D G / (4 cos_o) over the hemisphere
// (3000 x 6000 points) at this angle of incidence.
TEST(Bsdf, RoughMirrorLobeWidensWithRoughness) {
  const glm::vec3 n(0.0f, 0.0f, 1.0f);
  const glm::vec3 d = glm::normalize(glm::vec3(0.6f, 0.0f, -0.8f));  // 37 degrees off the normal
  const glm::vec3 mirror = reflect_about(d, n);
  const glm::vec3 color(0.5f, 0.75f, 1.0f);
  const int samples = 20000;
  double previous_cos = 1.0;
  const struct {
    float roughness;
    double albedo;
  } cases[] = {{0.05f, 1.0}, {0.2f, 0.99778}, {0.4f, 0.95803}, {0.7f, 0.68828}};
  for (const auto [roughness, expected_albedo] : cases) {
    SCOPED_TRACE("ROUGHNESS " + std::to_string(roughness));
    double cos_sum = 0.0, weight_sum = 0.0, weight_sq = 0.0;
    int kept = 0;
    for (int k = 0; k < samples; ++k) {
      Rng rng(static_cast<std::uint32_t>(k), 0, 1, 5);
      const BsdfSample s = sample_bsdf(rough_mirror(roughness, color), d, n, rng);
      ASSERT_NEAR(glm::length(s.direction), 1.0f, 1e-4f);
      ASSERT_EQ(s.side, n);
      ASSERT_NEAR(s.weight.x, 0.5f * s.weight.z, 1e-6f);
      ASSERT_NEAR(s.weight.y, 0.75f * s.weight.z, 1e-6f);
      ASSERT_GE(s.weight.z, 0.0f);
      weight_sum += s.weight.z;
      weight_sq += double(s.weight.z) * s.weight.z;
      if (s.weight.z == 0.0f) continue;
      ASSERT_GT(s.direction.z, 0.0f) << "a kept sample below the surface";
      cos_sum += glm::dot(s.direction, mirror);
      ++kept;
    }
    const double mean_cos = cos_sum / kept;
    EXPECT_LT(mean_cos, previous_cos) << "the lobe must widen";
    previous_cos = mean_cos;
    if (roughness < 0.1f) {
      EXPECT_GT(mean_cos, 0.995);
    }
    const double albedo = weight_sum / samples;
    const double sigma = std::sqrt((weight_sq / samples - albedo * albedo) / samples);
    EXPECT_NEAR(albedo, expected_albedo, 5.0 * sigma + 1e-4);
  }
}

// The sampler's weights against the BRDF they claim to sample: one integral of
// f cos g over the hemisphere, estimated by sample_bsdf and by cosine-weighted sampling of
// ggx_brdf, must agree within their statistical error.
TEST(Bsdf, RoughMirrorWeightsMatchTheBrdf) {
  const glm::vec3 n(0.0f, 0.0f, 1.0f);
  const glm::vec3 d = glm::normalize(glm::vec3(0.5f, 0.2f, -0.84f));
  auto g = [](const glm::vec3& w) { return double(1.0f + 2.0f * w.x) * (1.0f + 2.0f * w.x); };
  const int samples = 200000;
  for (float roughness : {0.3f, 0.6f, 1.0f}) {
    SCOPED_TRACE("ROUGHNESS " + std::to_string(roughness));
    const MaterialData m = rough_mirror(roughness);
    double a_sum = 0.0, a_sq = 0.0, b_sum = 0.0, b_sq = 0.0;
    for (int k = 0; k < samples; ++k) {
      Rng rng(static_cast<std::uint32_t>(k), 0, 2, 9);
      const BsdfSample s = sample_bsdf(m, d, n, rng);
      const double a = s.weight.x * g(s.direction);
      a_sum += a;
      a_sq += a * a;
      const float u1 = rng.next_float(), u2 = rng.next_float();
      const glm::vec3 wi = sample_cosine_hemisphere(n, u1, u2);
      const double b = ggx_brdf(m.alpha, n, -d, wi) * kPi * g(wi);  // f cos / (cos / pi)
      b_sum += b;
      b_sq += b * b;
    }
    const double a_mean = a_sum / samples, b_mean = b_sum / samples;
    const double error = std::sqrt((a_sq / samples - a_mean * a_mean) / samples +
                                   (b_sq / samples - b_mean * b_mean) / samples);
    EXPECT_NEAR(a_mean, b_mean, 5.0 * error)
        << "by sample_bsdf " << a_mean << ", by the BRDF " << b_mean;
    EXPECT_LT(error, 0.02 * b_mean) << "too noisy to tell";
  }
}

TEST(Bsdf, DiffuseStaysOnTheIncomingSide) {
  const glm::vec3 n = glm::normalize(glm::vec3(0.2f, 1.0f, -0.1f));
  Rng rng(4, 0, 0, 0);
  const glm::vec3 albedo(0.5f, 0.25f, 0.75f);
  for (int k = 0; k < 1000; ++k) {
    const glm::vec3 d_front = glm::normalize(glm::vec3(0.3f, -1.0f, 0.1f));
    const BsdfSample s = sample_bsdf(material(MaterialType::diffuse, albedo), d_front, n, rng);
    EXPECT_GT(glm::dot(s.direction, n), 0.0f);
    EXPECT_EQ(s.weight, albedo);
    const BsdfSample back = sample_bsdf(material(MaterialType::diffuse, albedo), -d_front, n, rng);
    EXPECT_LT(glm::dot(back.direction, n), 0.0f);
    EXPECT_EQ(back.side, -n);
  }
}

// Samples a dielectric many times at one angle: the reflected fraction must match the Fresnel
// reflectance, reflections must mirror and refractions obey Snell's law.
void check_dielectric(float cos_i, bool from_inside, float ior) {
  const glm::vec3 n(0.0f, 0.0f, 1.0f);
  const float sin_i = std::sqrt(1.0f - cos_i * cos_i);
  const glm::vec3 d = from_inside ? glm::vec3(sin_i, 0.0f, cos_i) : glm::vec3(sin_i, 0.0f, -cos_i);
  const float eta_i = from_inside ? ior : 1.0f, eta_t = from_inside ? 1.0f : ior;
  const float expected_r = fresnel_reflectance(cos_i, eta_i, eta_t);
  const MaterialData glass = material(MaterialType::refractive, glm::vec3(0.9f, 1.0f, 0.8f), ior);
  const int samples = 40000;
  int reflected = 0;
  for (int k = 0; k < samples; ++k) {
    Rng rng(static_cast<std::uint32_t>(k), 0, 1, 17);
    const BsdfSample s = sample_bsdf(glass, d, n, rng);
    EXPECT_EQ(s.weight, glass.color);
    ASSERT_NEAR(glm::length(s.direction), 1.0f, 1e-4f);
    const bool same_side = (s.direction.z > 0.0f) == (d.z < 0.0f);
    if (same_side) {
      ++reflected;
      EXPECT_NEAR(s.direction.x, d.x, 1e-5f);
      EXPECT_NEAR(s.direction.z, -d.z, 1e-5f);
    } else {
      // Snell: eta_i sin_i = eta_t sin_t, in the plane of incidence.
      const float sin_t = std::sqrt(s.direction.x * s.direction.x + s.direction.y * s.direction.y);
      EXPECT_NEAR(eta_i * sin_i, eta_t * sin_t, 1e-4f);
      EXPECT_NEAR(s.direction.y, 0.0f, 1e-6f);
      EXPECT_GE(s.direction.x, 0.0f);
    }
    EXPECT_EQ(s.side.z, (same_side == (d.z < 0.0f)) ? 1.0f : -1.0f);
  }
  const double fraction = double(reflected) / samples;
  const double sigma = std::sqrt(std::fmax(expected_r * (1.0 - expected_r), 1e-6) / samples);
  EXPECT_NEAR(fraction, expected_r, 5.0 * sigma + 1e-9)
      << "cos_i " << cos_i << (from_inside ? " inside" : " outside") << " ior " << ior;
}

TEST(Bsdf, DielectricChoosesByFresnel) {
  for (float cos_i : {1.0f, 0.8f, 0.5f, 0.2f, 0.05f}) {
    check_dielectric(cos_i, false, 1.5f);
    check_dielectric(cos_i, false, 2.4f);
  }
  for (float cos_i : {1.0f, 0.9f, 0.8f}) check_dielectric(cos_i, true, 1.5f);
}

TEST(Bsdf, DielectricTotalInternalReflection) {
  // Inside glass past the critical angle (cos_i < 0.745): every sample reflects.
  for (float cos_i : {0.7f, 0.4f, 0.1f}) check_dielectric(cos_i, true, 1.5f);
  EXPECT_EQ(fresnel_reflectance(0.4f, 1.5f, 1.0f), 1.0f);
}

TEST(Roulette, KeepsTheExpectedThroughput) {
  for (int bounce = 0; bounce < kRouletteFirstBounce; ++bounce) {
    glm::vec3 t(0.01f, 0.02f, 0.03f);
    EXPECT_TRUE(survive_roulette(t, bounce, 0.999f));
    EXPECT_EQ(t, glm::vec3(0.01f, 0.02f, 0.03f));
  }
  for (const glm::vec3 start :
       {glm::vec3(0.3f, 0.1f, 0.2f), glm::vec3(1.0f), glm::vec3(2.0f, 0.5f, 0.1f)}) {
    Rng rng(5, 5, 5, 5);
    glm::dvec3 sum(0.0);
    const int n = 400000;
    int survived = 0;
    for (int k = 0; k < n; ++k) {
      glm::vec3 t = start;
      if (survive_roulette(t, kRouletteFirstBounce + 2, rng.next_float())) {
        sum += glm::dvec3(t);
        ++survived;
      }
    }
    const double p = survival_probability(start, kRouletteFirstBounce);
    EXPECT_NEAR(double(survived) / n, p, 0.005);
    EXPECT_NEAR(sum.x / n, start.x, 0.01 * start.x + 1e-3);
    EXPECT_NEAR(sum.y / n, start.y, 0.01 * start.y + 1e-3);
    EXPECT_NEAR(sum.z / n, start.z, 0.01 * start.z + 1e-3);
  }
  glm::vec3 black(0.0f);
  EXPECT_FALSE(survive_roulette(black, kRouletteFirstBounce, 0.0f));
}

}  // namespace
}  // namespace raystream
