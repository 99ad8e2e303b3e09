// Random numbers, warps and the BSDFs, on the CPU.
//
// Warps: the cosine distribution by a chi-square test, the concentric disk. Fresnel equations
// (reflectance + transmittance = 1, total internal reflection). Russian roulette's expectation.
//
// Every BSDF family (Lambertian; GGX conductor at ROUGHNESS 0.2, 0.5, 1.0; rough GGX dielectric at
// ROUGHNESS 0.3 and 0.7, ior 1.5, seen from outside and from inside) at several angles:
//   a. pdf_bsdf integrates over the sphere to the fraction of sample_bsdf's samples that are kept
//      (1 where none is lost), and eval_bsdf to the mean sample weight;
//   b. sample_bsdf's directions follow pdf_bsdf (chi-square over a (cos theta, phi) grid), with
//      negative controls that the test rejects;
//   c. a sample's pdf is pdf_bsdf of its direction and its weight eval_bsdf / pdf;
//   d. reciprocity (and the transmission's generalized form);
//   e. energy conservation (directional albedo at most 1);
//   f. emission and the translation of scene materials.
// The smooth lobes: mirror reflection, the dielectric's Fresnel choice, total internal reflection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include "core/rng.h"
#include "core/sampling.h"
#include "integrator/path/roulette.h"
#include "materials/bsdf.h"
#include "scene/scene.h"
#include "statistics.h"

namespace raystream {
namespace {

constexpr double kPiD = 3.14159265358979323846;

using test::chi_square;
using test::chi_square_critical;

// ---- Random numbers and warps -------------------------------------------------------------------

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

// ---- Fresnel ----------------------------------------------------------------------------------

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

TEST(Fresnel, DielectricSideBySignOfCosine) {
  // fresnel_dielectric: cos_o >= 0 is the outside (index 1) looking at eta, < 0 the inside.
  for (float c : {1.0f, 0.9f, 0.5f, 0.2f}) {
    EXPECT_EQ(fresnel_dielectric(c, 1.5f), fresnel_reflectance(c, 1.0f, 1.5f));
    EXPECT_EQ(fresnel_dielectric(-c, 1.5f), fresnel_reflectance(c, 1.5f, 1.0f));
  }
}

// ---- Materials --------------------------------------------------------------------------------

BsdfParams lambertian_material(glm::vec3 albedo = glm::vec3(1.0f)) {
  BsdfParams m;
  m.kind = static_cast<std::int32_t>(BsdfKind::kLambertian);
  m.albedo = albedo;
  return m;
}

BsdfParams conductor_material(float roughness, glm::vec3 color = glm::vec3(1.0f)) {
  BsdfParams m;
  m.kind = static_cast<std::int32_t>(BsdfKind::kConductor);
  m.albedo = color;
  m.alpha = ggx_alpha(roughness);
  return m;
}

BsdfParams dielectric_material(float roughness, float ior = 1.5f,
                               glm::vec3 tint = glm::vec3(1.0f)) {
  BsdfParams m;
  m.kind = static_cast<std::int32_t>(BsdfKind::kDielectric);
  m.albedo = tint;
  m.ior = ior;
  m.alpha = ggx_alpha(roughness);
  return m;
}

// glTF's metallic-roughness model (KHR_materials_specular's factors too).
BsdfParams metallic_roughness_material(float roughness, float metallic,
                                       glm::vec3 base = glm::vec3(0.8f, 0.5f, 0.3f),
                                       float specular = 1.0f,
                                       glm::vec3 specular_color = glm::vec3(1.0f)) {
  BsdfParams m;
  m.kind = static_cast<std::int32_t>(BsdfKind::kMetallicRoughness);
  m.albedo = base;
  m.ior = 1.5f;
  m.alpha = MetallicRoughness::alpha_of(roughness);
  m.metallic = metallic;
  m.specular = specular;
  m.specular_color = specular_color;
  return m;
}

BsdfParams plastic_material(float roughness, glm::vec3 base = glm::vec3(0.8f, 0.5f, 0.3f)) {
  BsdfParams m;
  m.kind = static_cast<std::int32_t>(BsdfKind::kPlastic);
  m.albedo = base;
  m.ior = 1.5f;
  m.alpha = plastic_alpha(ggx_alpha(roughness));
  return m;
}

BsdfSample sample(const BsdfParams& m, const glm::vec3& wo, const glm::vec3& n, Rng& rng) {
  const float uc = rng.next_float(), u1 = rng.next_float(), u2 = rng.next_float();
  return sample_bsdf(m, wo, n, uc, u1, u2);
}

// A sample the path goes on with.
bool kept(const BsdfSample& s) {
  return s.pdf > 0.0f && (s.weight.x > 0.0f || s.weight.y > 0.0f || s.weight.z > 0.0f);
}

// The cases every property below is checked for: each family, several angles, both sides. The
// shading normal is tilted so that the world <-> local frame is exercised too.
const glm::vec3 kNormal = glm::normalize(glm::vec3(0.3f, -0.5f, 0.81f));

struct BsdfCase {
  std::string name;
  BsdfParams m;
  float cos_o;  // signed: below zero, wo is below the surface (inside the dielectric)
  glm::vec3 wo() const {
    const float s = std::sqrt(std::max(0.0f, 1.0f - cos_o * cos_o));
    const ShadingFrame frame(kNormal);
    return glm::normalize(frame.to_world(glm::vec3(s * std::cos(0.7f), s * std::sin(0.7f), cos_o)));
  }
  bool dielectric() const { return m.kind == static_cast<std::int32_t>(BsdfKind::kDielectric); }
  // Whether light may pass to wi on the other side (refraction, a thin wall's transmission).
  bool transmits() const { return dielectric() || m.transmission > 0.0f; }
};

std::vector<BsdfCase> bsdf_cases() {
  std::vector<BsdfCase> cases;
  auto name = [](const char* family, float roughness, float cos_o) {
    char text[96];
    std::snprintf(text, sizeof text, "%s roughness %.1f cos_o %+.2f", family, roughness, cos_o);
    return std::string(text);
  };
  for (float c : {0.9f, 0.5f, 0.15f, -0.5f})
    cases.push_back({name("lambertian", 0.0f, c), lambertian_material(), c});
  for (float r : {0.2f, 0.5f, 1.0f})
    for (float c : {0.9f, 0.5f, 0.15f})
      cases.push_back({name("conductor", r, c), conductor_material(r), c});
  cases.push_back({name("conductor", 0.5f, -0.5f), conductor_material(0.5f), -0.5f});
  for (float r : {0.3f, 0.7f})
    for (float c : {0.9f, 0.5f, 0.15f, -0.9f, -0.5f, -0.15f})
      cases.push_back({name("dielectric", r, c), dielectric_material(r), c});
  // (ROUGHNESS 0.1, the narrowest coat, peaks too sharply for the 40 x 80 grid's quadrature.)
  for (float r : {0.2f, 0.5f})
    for (float c : {0.9f, 0.5f, 0.15f, -0.5f})
      cases.push_back({name("plastic", r, c), plastic_material(r), c});
  cases.push_back(
      {name("plastic white", 0.4f, 0.5f), plastic_material(0.4f, glm::vec3(1.0f)), 0.5f});
  // The metallic-roughness mixture: dielectric, metal, mixed, and KHR_materials_specular's
  // coloured, weaker layer.
  for (float r : {0.3f, 0.7f})
    for (float metal : {0.0f, 0.5f, 1.0f})
      for (float c : {0.9f, 0.3f, -0.5f})
        cases.push_back({name(metal == 0.0f ? "metallic-roughness dielectric"
                                            : (metal == 1.0f ? "metallic-roughness metal"
                                                             : "metallic-roughness half metal"),
                              r, c),
                         metallic_roughness_material(r, metal), c});
  // KHR_materials_transmission (a thin wall) and KHR_materials_clearcoat.
  for (float c : {0.8f, 0.3f, -0.6f}) {
    BsdfParams thin = metallic_roughness_material(0.4f, 0.0f, glm::vec3(0.9f, 0.8f, 0.6f));
    thin.transmission = 0.7f;
    cases.push_back({name("metallic-roughness transmission 0.7", 0.4f, c), thin, c});
    BsdfParams coated = metallic_roughness_material(0.6f, 0.3f);
    coated.clearcoat = 0.8f;
    coated.clearcoat_alpha = ggx_alpha(0.2f);
    cases.push_back({name("metallic-roughness clearcoat 0.8", 0.6f, c), coated, c});
  }
  cases.push_back({name("metallic-roughness specular 0.5 tinted", 0.4f, 0.6f),
                   metallic_roughness_material(0.4f, 0.2f, glm::vec3(0.3f, 0.6f, 0.9f), 0.5f,
                                               glm::vec3(1.0f, 0.5f, 0.2f)),
                   0.6f});
  return cases;
}

// Direction of the local spherical coordinates (theta, phi) around kNormal, in world space.
glm::vec3 world_direction(const ShadingFrame& frame, double cos_t, double phi) {
  const double sin_t = std::sqrt(std::max(0.0, 1.0 - cos_t * cos_t));
  return frame.to_world(glm::vec3(static_cast<float>(sin_t * std::cos(phi)),
                                  static_cast<float>(sin_t * std::sin(phi)),
                                  static_cast<float>(cos_t)));
}

// Midpoint quadrature over the sphere in (theta, phi) of pdf_bsdf and of eval_bsdf (its first
// channel), split by the side of the surface wi is on (the same as wo: reflection; the other:
// transmission). pdf must integrate to the probability that a sample is kept on that side, eval to
// the mean weight the samples on that side contribute.
struct SideIntegrals {
  double pdf[2] = {0.0, 0.0}, eval[2] = {0.0, 0.0};  // [0] wo's side, [1] the other
};

SideIntegrals integrate_over_sphere(const BsdfParams& m, const glm::vec3& wo, int n_theta,
                                    int n_phi) {
  const ShadingFrame frame(kNormal);
  const bool wo_up = glm::dot(wo, kNormal) > 0.0f;
  std::vector<double> cos_phi(n_phi), sin_phi(n_phi);
  for (int j = 0; j < n_phi; ++j) {
    const double phi = (j + 0.5) * 2.0 * kPiD / n_phi;
    cos_phi[j] = std::cos(phi);
    sin_phi[j] = std::sin(phi);
  }
  SideIntegrals total;
  const double d_theta = kPiD / n_theta, d_phi = 2.0 * kPiD / n_phi;
  for (int i = 0; i < n_theta; ++i) {
    const double theta = (i + 0.5) * d_theta;
    const double st = std::sin(theta), ct = std::cos(theta);
    const int side = (ct > 0.0) == wo_up ? 0 : 1;
    double pdf = 0.0, eval = 0.0;
    for (int j = 0; j < n_phi; ++j) {
      const glm::vec3 wi =
          frame.to_world(glm::vec3(static_cast<float>(st * cos_phi[j]),
                                   static_cast<float>(st * sin_phi[j]), static_cast<float>(ct)));
      pdf += pdf_bsdf(m, wo, wi, kNormal);
      eval += eval_bsdf(m, wo, wi, kNormal).x;
    }
    total.pdf[side] += pdf * st * d_theta * d_phi;
    total.eval[side] += eval * st * d_theta * d_phi;
  }
  return total;
}

// Monte Carlo statistics of sample_bsdf at one wo, in all and by side as above.
struct SampleStats {
  int samples = 0, kept = 0, kept_side[2] = {0, 0};
  double weight_sum = 0.0, weight_sq = 0.0;  // first channel
  double side_sum[2] = {0.0, 0.0}, side_sq[2] = {0.0, 0.0};
  static double fraction_error(double p, int n) {
    return std::sqrt(std::max(p * (1.0 - p), 0.25 / n) / n);
  }
  double kept_fraction() const { return double(kept) / samples; }
  double kept_error() const { return fraction_error(kept_fraction(), samples); }
  double side_fraction(int s) const { return double(kept_side[s]) / samples; }
  double side_error(int s) const { return fraction_error(side_fraction(s), samples); }
  static double mean_error(double sum, double sq, int n) {
    const double m = sum / n;
    return std::sqrt(std::max(sq / n - m * m, 0.0) / n);
  }
  double mean_weight() const { return weight_sum / samples; }
  double weight_error() const { return mean_error(weight_sum, weight_sq, samples); }
  double side_weight(int s) const { return side_sum[s] / samples; }
  double side_weight_error(int s) const { return mean_error(side_sum[s], side_sq[s], samples); }
};

SampleStats sample_stats(const BsdfParams& m, const glm::vec3& wo, const glm::vec3& n, int samples,
                         std::uint32_t stream) {
  SampleStats st;
  Rng rng(stream, 0, 0, 20240611);
  st.samples = samples;
  for (int k = 0; k < samples; ++k) {
    const BsdfSample s = sample(m, wo, n, rng);
    if (!kept(s)) continue;
    const int side = glm::dot(s.wi, n) * glm::dot(wo, n) > 0.0f ? 0 : 1;
    const double w = s.weight.x;
    ++st.kept;
    ++st.kept_side[side];
    st.weight_sum += w;
    st.weight_sq += w * w;
    st.side_sum[side] += w;
    st.side_sq[side] += w * w;
  }
  return st;
}

// a. pdf_bsdf integrates to the probability that sample_bsdf keeps a sample: at most 1, exactly 1
// for the Lambertian, whose samples are never lost. The microfacet lobes lose the samples whose
// reflection or refraction about the sampled normal lands on the wrong side of the surface: for
// the GGX conductor at alpha = 1 (D = 1 / pi) exactly 1 / (1 + cos theta_o) is kept. eval_bsdf
// integrates to the mean sample weight (the directional albedo). Both hold for reflection and
// transmission separately.
TEST(BsdfProperties, PdfIntegratesToTheKeptFraction) {
  const std::vector<BsdfCase> cases = bsdf_cases();
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const BsdfCase& k = cases[c];
    SCOPED_TRACE(k.name);
    const glm::vec3 wo = k.wo();
    const SideIntegrals in = integrate_over_sphere(k.m, wo, 1200, 2400);
    const SampleStats st = sample_stats(k.m, wo, kNormal, 200000, static_cast<std::uint32_t>(c));
    const double pdf = in.pdf[0] + in.pdf[1], eval = in.eval[0] + in.eval[1];
    std::printf(
        "  %-40s  integral of pdf %.5f, kept %.5f +- %.5f; integral of eval %.5f, "
        "mean weight %.5f +- %.5f\n",
        k.name.c_str(), pdf, st.kept_fraction(), st.kept_error(), eval, st.mean_weight(),
        st.weight_error());
    EXPECT_LE(pdf, 1.0 + 2e-3);
    EXPECT_NEAR(pdf, st.kept_fraction(), 4.0 * st.kept_error() + 2e-3);
    EXPECT_NEAR(eval, st.mean_weight(), 4.0 * st.weight_error() + 2e-3);
    for (int side = 0; side < 2; ++side) {
      SCOPED_TRACE(side == 0 ? "reflection" : "transmission");
      EXPECT_NEAR(in.pdf[side], st.side_fraction(side), 4.0 * st.side_error(side) + 2e-3);
      EXPECT_NEAR(in.eval[side], st.side_weight(side), 4.0 * st.side_weight_error(side) + 2e-3);
    }
    if (!k.transmits()) {
      EXPECT_EQ(in.pdf[1], 0.0);
      EXPECT_EQ(in.eval[1], 0.0);
      EXPECT_EQ(st.kept_side[1], 0);
    }
    if (k.m.kind == static_cast<std::int32_t>(BsdfKind::kLambertian)) {
      EXPECT_NEAR(pdf, 1.0, 1e-2);
      EXPECT_EQ(st.kept, st.samples);
    }
    if (!k.dielectric() && k.m.alpha == 1.0f) {
      EXPECT_NEAR(pdf, 1.0 / (1.0 + std::fabs(k.cos_o)), 2e-3);
    }
    if (k.dielectric() && k.m.alpha < 0.1f && std::fabs(k.cos_o) >= 0.9f) {
      EXPECT_NEAR(pdf, 1.0, 1e-2);  // moderately rough, near the normal: hardly a sample is lost
    }
  }
}

// ---- b. Chi-square of the sampled directions against pdf_bsdf
// ------------------------------------

// Bins on (cos theta, phi) in the frame of kNormal, over the whole sphere (equal solid angle).
constexpr int kCosBins = 40, kPhiBins = 80;

int direction_bin(const glm::vec3& wi_world) {
  const ShadingFrame frame(kNormal);
  const glm::vec3 w = frame.to_local(wi_world);
  const double c = std::max(-1.0, std::min(1.0, double(w.z)));
  int i = static_cast<int>((c + 1.0) * 0.5 * kCosBins);
  i = std::max(0, std::min(kCosBins - 1, i));
  double phi = std::atan2(double(w.y), double(w.x));
  if (phi < 0.0) phi += 2.0 * kPiD;
  int j = static_cast<int>(phi / (2.0 * kPiD) * kPhiBins);
  j = std::max(0, std::min(kPhiBins - 1, j));
  return i * kPhiBins + j;
}

// The integral of `pdf` over every bin, by sub x sub midpoints per bin.
std::vector<double> bin_integrals(const std::function<double(const glm::vec3&)>& pdf, int sub) {
  const ShadingFrame frame(kNormal);
  std::vector<double> out(kCosBins * kPhiBins, 0.0);
  const double d_cos = 2.0 / kCosBins, d_phi = 2.0 * kPiD / kPhiBins;
  const double cell = (d_cos / sub) * (d_phi / sub);
  for (int i = 0; i < kCosBins; ++i)
    for (int j = 0; j < kPhiBins; ++j) {
      double sum = 0.0;
      for (int a = 0; a < sub; ++a)
        for (int b = 0; b < sub; ++b) {
          const double c = -1.0 + (i + (a + 0.5) / sub) * d_cos;
          const double phi = (j + (b + 0.5) / sub) * d_phi;
          sum += pdf(world_direction(frame, c, phi));
        }
      out[i * kPhiBins + j] = sum * cell;
    }
  return out;
}

struct ChiSquareResult {
  double chi2 = 0.0;
  int dof = 0;
  double stray = 0.0;  // samples in bins where the pdf is zero
  double critical() const { return chi_square_critical(std::max(dof, 1)); }
};

// Pearson's statistic with the bins of expected count below 5 pooled (as in Nori's and pbrt's
// tests): sorted by expected count, small bins are gathered into one until it reaches 5.
ChiSquareResult pooled_chi_square(const std::vector<double>& observed,
                                  const std::vector<double>& expected) {
  std::vector<std::size_t> order(observed.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return expected[a] < expected[b]; });
  ChiSquareResult r;
  double pooled_observed = 0.0, pooled_expected = 0.0;
  int cells = 0;
  for (std::size_t idx : order) {
    const double o = observed[idx], e = expected[idx];
    if (e <= 0.0) {
      r.stray += o;
    } else if (e < 5.0 || (pooled_expected > 0.0 && pooled_expected < 5.0)) {
      pooled_observed += o;
      pooled_expected += e;
    } else {
      r.chi2 += (o - e) * (o - e) / e;
      ++cells;
    }
  }
  if (pooled_expected > 0.0) {
    r.chi2 +=
        (pooled_observed - pooled_expected) * (pooled_observed - pooled_expected) / pooled_expected;
    ++cells;
  }
  r.dof = cells - 1;
  return r;
}

// Histograms the kept directions of `sampler` and compares them with `pdf`, normalized over the
// kept samples (whether their number is right is checked by PdfIntegratesToTheKeptFraction).
// sampler returns false for a sample that is not kept.
ChiSquareResult chi_square_of_sampler(const std::function<bool(Rng&, glm::vec3&)>& sampler,
                                      const std::function<double(const glm::vec3&)>& pdf,
                                      int samples, std::uint32_t stream) {
  std::vector<double> observed(kCosBins * kPhiBins, 0.0);
  Rng rng(stream, 1, 0, 777);
  int kept_count = 0;
  for (int k = 0; k < samples; ++k) {
    glm::vec3 wi;
    if (!sampler(rng, wi)) continue;
    observed[direction_bin(wi)] += 1.0;
    ++kept_count;
  }
  std::vector<double> expected = bin_integrals(pdf, 12);
  const double total = std::accumulate(expected.begin(), expected.end(), 0.0);
  for (double& e : expected) e *= kept_count / total;
  return pooled_chi_square(observed, expected);
}

TEST(BsdfProperties, SampledDirectionsFollowThePdf) {
  const std::vector<BsdfCase> cases = bsdf_cases();
  const int samples = 200000;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const BsdfCase& k = cases[c];
    SCOPED_TRACE(k.name);
    const glm::vec3 wo = k.wo();
    const BsdfParams m = k.m;
    const ChiSquareResult r = chi_square_of_sampler(
        [&](Rng& rng, glm::vec3& wi) {
          const BsdfSample s = sample(m, wo, kNormal, rng);
          wi = s.wi;
          return kept(s);
        },
        [&](const glm::vec3& wi) { return double(pdf_bsdf(m, wo, wi, kNormal)); }, samples,
        static_cast<std::uint32_t>(c));
    std::printf("  %-40s  chi2 %8.1f, %3d dof, critical %6.1f\n", k.name.c_str(), r.chi2, r.dof,
                r.critical());
    EXPECT_LT(r.chi2, r.critical());
    EXPECT_LE(r.stray, 1e-5 * samples) << "samples where pdf_bsdf is zero";
    EXPECT_GE(r.dof, 5) << "too few bins to test anything";
  }
}

// The test above can fail: cosine-weighted directions against the rough conductor's pdf, and the
// rough conductor's samples against the pdf of a lobe 10% wider.
TEST(BsdfProperties, ChiSquareRejectsAWrongPdf) {
  const glm::vec3 wo = BsdfCase{"", BsdfParams{}, 0.7f}.wo();
  const BsdfParams rough = conductor_material(0.5f);
  BsdfParams wider = rough;
  wider.alpha *= 1.1f;
  const BsdfParams diffuse = lambertian_material();
  const ChiSquareResult cosine_vs_rough = chi_square_of_sampler(
      [&](Rng& rng, glm::vec3& wi) {
        const BsdfSample s = sample(diffuse, wo, kNormal, rng);
        wi = s.wi;
        return kept(s);
      },
      [&](const glm::vec3& wi) { return double(pdf_bsdf(rough, wo, wi, kNormal)); }, 200000, 1);
  const ChiSquareResult rough_vs_wider = chi_square_of_sampler(
      [&](Rng& rng, glm::vec3& wi) {
        const BsdfSample s = sample(rough, wo, kNormal, rng);
        wi = s.wi;
        return kept(s);
      },
      [&](const glm::vec3& wi) { return double(pdf_bsdf(wider, wo, wi, kNormal)); }, 200000, 2);
  std::printf(
      "  cosine vs rough conductor: chi2 %.1f (critical %.1f); alpha vs 1.1 alpha: chi2 "
      "%.1f (critical %.1f)\n",
      cosine_vs_rough.chi2, cosine_vs_rough.critical(), rough_vs_wider.chi2,
      rough_vs_wider.critical());
  EXPECT_GT(cosine_vs_rough.chi2, cosine_vs_rough.critical());
  EXPECT_GT(rough_vs_wider.chi2, rough_vs_wider.critical());
}

// ---- c. A sample's pdf and weight against pdf_bsdf and eval_bsdf
// ---------------------------------

TEST(BsdfProperties, SamplePdfAndWeightMatchPdfAndEval) {
  const std::vector<BsdfCase> cases = bsdf_cases();
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const BsdfCase& k = cases[c];
    SCOPED_TRACE(k.name);
    const glm::vec3 wo = k.wo();
    Rng rng(static_cast<std::uint32_t>(c), 2, 0, 4242);
    int compared = 0;
    for (int j = 0; j < 20000; ++j) {
      const BsdfSample s = sample(k.m, wo, kNormal, rng);
      ASSERT_FALSE(s.delta);
      ASSERT_TRUE(std::isfinite(s.weight.x) && std::isfinite(s.pdf));
      ASSERT_GE(s.weight.x, 0.0f);
      if (!kept(s)) continue;
      ASSERT_NEAR(glm::length(s.wi), 1.0f, 1e-5f);
      const float cos_i = glm::dot(s.wi, kNormal);
      if (std::fabs(cos_i) < 1e-3f || s.pdf < 1e-3f) continue;  // grazing: rounding dominates
      const float pdf = pdf_bsdf(k.m, wo, s.wi, kNormal);
      const glm::vec3 f = eval_bsdf(k.m, wo, s.wi, kNormal);
      ASSERT_NEAR(pdf, s.pdf, 1e-3f * s.pdf) << "wi.z " << cos_i;
      ASSERT_NEAR(s.weight.x, f.x / s.pdf, 1e-3f * s.weight.x + 1e-6f) << "wi.z " << cos_i;
      ++compared;
    }
    EXPECT_GT(compared, 10000);
  }
}

// ---- d. Reciprocity --------------------------------------------------------------------------

glm::vec3 uniform_sphere(Rng& rng) {
  const float z = 1.0f - 2.0f * rng.next_float();
  const float r = std::sqrt(std::max(0.0f, 1.0f - z * z));
  const float phi = 2.0f * kPi * rng.next_float();
  return glm::vec3(r * std::cos(phi), r * std::sin(phi), z);
}

// f(wo, wi) = eval_bsdf / |cos theta_i|.
double bsdf_value(const BsdfParams& m, const glm::vec3& wo, const glm::vec3& wi) {
  return eval_bsdf(m, wo, wi, kNormal).x / std::fabs(glm::dot(wi, kNormal));
}

// Reflection: f(wo, wi) = f(wi, wo) for the Lambertian, the conductor and the dielectric.
//
// Transmission: the implemented BTDF is Walter's without the radiance scaling (eta_i / eta_o)^2,
// f(wo, wi) = eta_i^2 S(wo, wi) with S symmetric, where eta_i and eta_o are the indices on the
// sides of wi and wo. So it satisfies
//     f(wo, wi) / eta_i^2 = f(wi, wo) / eta_o^2,
// i.e. f(wo, wi) / f(wi, wo) = (eta_i / eta_o)^2: 2.25 when wo is outside glass (eta 1.5) and wi
// inside, 1 / 2.25 the other way. (The radiance-scaled BTDF, eta_o^2 S, satisfies the mirrored
// relation f(wo, wi) / eta_o^2 = f(wi, wo) / eta_i^2 instead.) This is the adjoint BTDF, which
// carries radiance / eta^2: the scaling cancels for paths that start and end outside.
TEST(BsdfProperties, Reciprocity) {
  const BsdfParams materials[] = {lambertian_material(glm::vec3(0.7f)),
                                  conductor_material(0.2f),
                                  conductor_material(0.5f),
                                  conductor_material(1.0f),
                                  dielectric_material(0.3f),
                                  dielectric_material(0.7f)};
  const ShadingFrame frame(kNormal);
  for (const BsdfParams& m : materials) {
    SCOPED_TRACE("kind " + std::to_string(m.kind) + " alpha " + std::to_string(m.alpha));
    Rng rng(static_cast<std::uint32_t>(m.kind), 3, 0, 99);
    int reflections = 0, transmissions = 0;
    for (int k = 0; k < 20000; ++k) {
      const glm::vec3 wo = frame.to_world(uniform_sphere(rng));
      const glm::vec3 wi = frame.to_world(uniform_sphere(rng));
      const float cos_o = glm::dot(wo, kNormal), cos_i = glm::dot(wi, kNormal);
      if (std::fabs(cos_o) < 1e-2f || std::fabs(cos_i) < 1e-2f) continue;
      if (cos_o * cos_i < 0.0f) {
        // Skip pairs grazing their (generalized) half vector: there one side sits at the critical
        // angle, where 1 - F is steep and float rounding of the angle shows (about 1%).
        const float eta_o = cos_o > 0.0f ? 1.0f : m.ior, eta_i = cos_i > 0.0f ? 1.0f : m.ior;
        const glm::vec3 h = glm::normalize(eta_o * wo + eta_i * wi);
        if (std::fabs(glm::dot(h, wo)) < 0.02f || std::fabs(glm::dot(h, wi)) < 0.02f) continue;
      }
      const double a = bsdf_value(m, wo, wi), b = bsdf_value(m, wi, wo);
      ASSERT_TRUE(std::isfinite(a) && std::isfinite(b));
      ASSERT_GE(a, 0.0);
      ASSERT_GE(b, 0.0);
      if (cos_o * cos_i > 0.0f) {
        ASSERT_NEAR(a, b, 1e-3 * std::max(a, b) + 1e-7)
            << "reflection, cos_o " << cos_o << " cos_i " << cos_i;
        reflections += a > 0.0;
      } else {
        const double eta_o = cos_o > 0.0f ? 1.0 : m.ior, eta_i = cos_i > 0.0f ? 1.0 : m.ior;
        ASSERT_NEAR(a / (eta_i * eta_i), b / (eta_o * eta_o), 1e-3 * std::max(a, b) + 1e-7)
            << "transmission, cos_o " << cos_o << " cos_i " << cos_i;
        if (m.kind != static_cast<std::int32_t>(BsdfKind::kDielectric)) {
          ASSERT_EQ(a, 0.0);
        }
        transmissions += a > 0.0;
      }
    }
    EXPECT_GT(reflections, 1000);
    if (m.kind == static_cast<std::int32_t>(BsdfKind::kDielectric)) {
      EXPECT_GT(transmissions, 1000);
    }
  }
  // The plain reciprocity does not hold for the transmission: one pair, out of and into glass.
  const BsdfParams glass = dielectric_material(0.5f);
  const glm::vec3 wo = frame.to_world(glm::normalize(glm::vec3(0.3f, 0.1f, 0.9f)));
  const glm::vec3 wi = frame.to_world(glm::normalize(glm::vec3(-0.2f, -0.05f, -0.95f)));
  const double a = bsdf_value(glass, wo, wi), b = bsdf_value(glass, wi, wo);
  ASSERT_GT(b, 0.0);
  EXPECT_NEAR(a / b, 2.25, 2.25e-3);
}

// ---- e. Energy conservation ------------------------------------------------------------------

// The directional albedo (mean weight with albedo 1) is at most 1 everywhere; the Lambertian's is
// its albedo; the smooth dielectric loses nothing (R + T = 1); the rough lobes lose what single
// scattering drops.
TEST(BsdfProperties, DirectionalAlbedoAtMostOne) {
  const std::vector<BsdfCase> cases = bsdf_cases();
  for (std::size_t c = 0; c < cases.size(); ++c) {
    const BsdfCase& k = cases[c];
    SCOPED_TRACE(k.name);
    const SampleStats st = sample_stats(k.m, k.wo(), kNormal, 200000, 1000 + std::uint32_t(c));
    EXPECT_LE(st.mean_weight(), 1.0 + 3.0 * st.weight_error());
    if (k.m.kind == static_cast<std::int32_t>(BsdfKind::kLambertian)) {
      EXPECT_EQ(st.mean_weight(), 1.0);
    }
    if (k.dielectric()) {
      std::printf("  %-40s  directional albedo %.4f +- %.4f\n", k.name.c_str(), st.mean_weight(),
                  st.weight_error());
      EXPECT_GT(st.mean_weight(), k.m.alpha < 0.1f && std::fabs(k.cos_o) >= 0.5f ? 0.95 : 0.6);
    }
  }
  // Lambertian, coloured: every weight is the albedo.
  const glm::vec3 albedo(0.5f, 0.25f, 0.75f);
  Rng rng(3, 3, 3, 3);
  for (int k = 0; k < 1000; ++k) {
    const BsdfSample s =
        sample(lambertian_material(albedo), BsdfCase{"", {}, 0.4f}.wo(), kNormal, rng);
    ASSERT_EQ(s.weight, albedo);
  }
  // The smooth dielectric, from either side, at any angle: R + T = 1 exactly.
  for (float cos_o : {1.0f, 0.8f, 0.3f, 0.05f, -1.0f, -0.8f, -0.6f, -0.3f}) {
    const SampleStats st =
        sample_stats(dielectric_material(0.0f), BsdfCase{"", {}, cos_o}.wo(), kNormal, 20000, 7);
    EXPECT_EQ(st.kept, st.samples) << "cos_o " << cos_o;
    EXPECT_DOUBLE_EQ(st.mean_weight(), 1.0) << "cos_o " << cos_o;
  }
}

// The GGX conductor's directional albedo with R = 1 at normal incidence, by a 1D quadrature
// written out here (D, Lambda and the height-correlated G2 with Lambda(wo) = 0): wi at theta_i
// reflects about the normal at theta_i / 2, so E = int D(theta_i / 2) G2 / 4 dw_i. At alpha = 1,
// D = 1 / pi and G2 = 2 cos_i / (1 + cos_i): E = 1 - ln 2 exactly.
double ggx_albedo_at_normal_incidence(double alpha) {
  const int steps = 200000;
  const double a2 = alpha * alpha, d_theta = 0.5 * kPiD / steps;
  double e = 0.0;
  for (int k = 0; k < steps; ++k) {
    const double theta_i = (k + 0.5) * d_theta;
    const double cos_m = std::cos(0.5 * theta_i);
    const double t = cos_m * cos_m * (a2 - 1.0) + 1.0;
    const double d = a2 / (kPiD * t * t);
    const double tan_i = std::tan(theta_i);
    const double lambda_i = 0.5 * (-1.0 + std::sqrt(1.0 + a2 * tan_i * tan_i));
    e += d / (1.0 + lambda_i) / 4.0 * 2.0 * kPiD * std::sin(theta_i) * d_theta;
  }
  return e;
}

// The rough conductor with R = 1 at normal incidence: single scattering loses more as ROUGHNESS
// grows (a lot at ROUGHNESS 1, where half the microfacet normals reflect below the horizon).
TEST(BsdfProperties, RoughConductorAlbedoAtNormalIncidence) {
  EXPECT_NEAR(ggx_albedo_at_normal_incidence(1.0), 1.0 - std::log(2.0), 1e-6);
  const glm::vec3 n(0.0f, 0.0f, 1.0f);
  double previous = 1.0 + 1e-9;
  for (float roughness : {0.3f, 0.6f, 1.0f}) {
    SCOPED_TRACE("ROUGHNESS " + std::to_string(roughness));
    const SampleStats st = sample_stats(conductor_material(roughness), n, n, 1000000, 5);
    const double reference = ggx_albedo_at_normal_incidence(double(roughness) * roughness);
    std::printf(
        "  conductor ROUGHNESS %.1f, R = 1, cos_o = 1: directional albedo %.4f +- %.4f "
        "(quadrature %.4f)\n",
        roughness, st.mean_weight(), st.weight_error(), reference);
    EXPECT_NEAR(st.mean_weight(), reference, 4.0 * st.weight_error() + 1e-4);
    EXPECT_LE(st.mean_weight(), 1.0);
    EXPECT_LT(st.mean_weight(), previous);
    if (roughness < 0.7f) {
      EXPECT_GT(st.mean_weight(), 0.7);
    } else {
      EXPECT_GT(st.mean_weight(), 0.25);
    }
    previous = st.mean_weight();
  }
}

// ---- The smooth lobes --------------------------------------------------------------------------

TEST(Bsdf, MirrorReflects) {
  const glm::vec3 n(0.0f, 1.0f, 0.0f);
  const glm::vec3 d = glm::normalize(glm::vec3(1.0f, -1.0f, 0.5f));  // the arriving ray
  const BsdfParams mirror = conductor_material(0.0f, glm::vec3(0.9f, 0.8f, 0.7f));
  ASSERT_TRUE(is_specular(mirror));
  const BsdfSample s = sample_bsdf(mirror, -d, n, 0.3f, 0.6f, 0.1f);
  EXPECT_NEAR(s.wi.x, d.x, 1e-5f);
  EXPECT_NEAR(s.wi.y, -d.y, 1e-5f);
  EXPECT_NEAR(s.wi.z, d.z, 1e-5f);
  EXPECT_EQ(s.weight, glm::vec3(0.9f, 0.8f, 0.7f));
  EXPECT_TRUE(s.delta);
  EXPECT_EQ(s.pdf, 1.0f);
  // A delta lobe has no density and no value for any given pair.
  EXPECT_EQ(pdf_bsdf(mirror, -d, s.wi, n), 0.0f);
  EXPECT_EQ(eval_bsdf(mirror, -d, s.wi, n), glm::vec3(0.0f));
  // From behind the surface the mirror reflects on that side.
  const BsdfSample back = sample_bsdf(mirror, d, n, 0.3f, 0.6f, 0.1f);
  EXPECT_NEAR(back.wi.x, -d.x, 1e-5f);
  EXPECT_NEAR(back.wi.y, d.y, 1e-5f);
  EXPECT_NEAR(back.wi.z, -d.z, 1e-5f);
  EXPECT_TRUE(back.delta);
}

TEST(Bsdf, NoneScattersNothing) {
  BsdfParams black;
  black.kind = static_cast<std::int32_t>(BsdfKind::none);
  const glm::vec3 n(0.0f, 0.0f, 1.0f), wo = glm::normalize(glm::vec3(0.2f, 0.1f, 0.9f));
  EXPECT_TRUE(is_specular(black));
  const BsdfSample s = sample_bsdf(black, wo, n, 0.5f, 0.5f, 0.5f);
  EXPECT_EQ(s.weight, glm::vec3(0.0f));
  EXPECT_EQ(s.pdf, 0.0f);
  EXPECT_EQ(eval_bsdf(black, wo, glm::vec3(0.0f, 0.0f, 1.0f), n), glm::vec3(0.0f));
  EXPECT_EQ(pdf_bsdf(black, wo, glm::vec3(0.0f, 0.0f, 1.0f), n), 0.0f);
  EXPECT_FALSE(is_specular(lambertian_material()));
  EXPECT_FALSE(is_specular(conductor_material(0.2f)));
  EXPECT_FALSE(is_specular(dielectric_material(0.3f)));
  EXPECT_TRUE(is_specular(dielectric_material(0.0f)));
}

TEST(Bsdf, DiffuseStaysOnTheIncomingSide) {
  const glm::vec3 n = glm::normalize(glm::vec3(0.2f, 1.0f, -0.1f));
  Rng rng(4, 0, 0, 0);
  const glm::vec3 albedo(0.5f, 0.25f, 0.75f);
  const BsdfParams diffuse = lambertian_material(albedo);
  const glm::vec3 wo = -glm::normalize(glm::vec3(0.3f, -1.0f, 0.1f));  // towards the viewer
  for (int k = 0; k < 1000; ++k) {
    const BsdfSample s = sample(diffuse, wo, n, rng);
    EXPECT_GT(glm::dot(s.wi, n), 0.0f);
    EXPECT_EQ(s.weight, albedo);
    EXPECT_FALSE(s.delta);
    const BsdfSample back = sample(diffuse, -wo, n, rng);
    EXPECT_LT(glm::dot(back.wi, n), 0.0f);
    EXPECT_EQ(back.weight, albedo);
  }
}

// A rough mirror samples around the mirror direction, wider as ROUGHNESS grows, never below the
// surface, with the colour times one scalar as weight.
TEST(Bsdf, RoughMirrorLobeWidensWithRoughness) {
  const glm::vec3 n(0.0f, 0.0f, 1.0f);
  const glm::vec3 wo = glm::normalize(glm::vec3(-0.6f, 0.0f, 0.8f));  // 37 degrees off the normal
  const glm::vec3 mirror(-wo.x, -wo.y, wo.z);
  const glm::vec3 color(0.5f, 0.75f, 1.0f);
  double previous_cos = 1.0;
  for (float roughness : {0.05f, 0.2f, 0.4f, 0.7f}) {
    SCOPED_TRACE("ROUGHNESS " + std::to_string(roughness));
    const BsdfParams m = conductor_material(roughness, color);
    Rng rng(1, 0, 1, 5);
    double cos_sum = 0.0;
    int kept_count = 0;
    for (int k = 0; k < 20000; ++k) {
      const BsdfSample s = sample(m, wo, n, rng);
      ASSERT_NEAR(s.weight.x, 0.5f * s.weight.z, 1e-6f);
      ASSERT_NEAR(s.weight.y, 0.75f * s.weight.z, 1e-6f);
      ASSERT_GE(s.weight.z, 0.0f);
      if (!kept(s)) continue;
      ASSERT_GT(s.wi.z, 0.0f) << "a kept sample below the surface";
      cos_sum += glm::dot(s.wi, mirror);
      ++kept_count;
    }
    const double mean_cos = cos_sum / kept_count;
    EXPECT_LT(mean_cos, previous_cos) << "the lobe must widen";
    previous_cos = mean_cos;
    if (roughness < 0.1f) {
      EXPECT_GT(mean_cos, 0.995);
    }
  }
}

// The sampler's weights against the BSDF they claim to sample: one integral of f |cos| g over the
// hemisphere, estimated by sample_bsdf and by cosine-weighted sampling of eval_bsdf, must agree
// within their statistical error.
TEST(Bsdf, RoughMirrorWeightsMatchEval) {
  const glm::vec3 n(0.0f, 0.0f, 1.0f);
  const glm::vec3 wo = glm::normalize(glm::vec3(-0.5f, -0.2f, 0.84f));
  auto g = [](const glm::vec3& w) { return double(1.0f + 2.0f * w.x) * (1.0f + 2.0f * w.x); };
  const int samples = 200000;
  for (float roughness : {0.3f, 0.6f, 1.0f}) {
    SCOPED_TRACE("ROUGHNESS " + std::to_string(roughness));
    const BsdfParams m = conductor_material(roughness);
    double a_sum = 0.0, a_sq = 0.0, b_sum = 0.0, b_sq = 0.0;
    Rng rng(2, 0, 2, 9);
    for (int k = 0; k < samples; ++k) {
      const BsdfSample s = sample(m, wo, n, rng);
      const double a = kept(s) ? s.weight.x * g(s.wi) : 0.0;
      a_sum += a;
      a_sq += a * a;
      const float u1 = rng.next_float(), u2 = rng.next_float();
      const glm::vec3 wi = sample_cosine_hemisphere(n, u1, u2);
      const double b = eval_bsdf(m, wo, wi, n).x / (wi.z / kPi) * g(wi);
      b_sum += b;
      b_sq += b * b;
    }
    const double a_mean = a_sum / samples, b_mean = b_sum / samples;
    const double error = std::sqrt((a_sq / samples - a_mean * a_mean) / samples +
                                   (b_sq / samples - b_mean * b_mean) / samples);
    EXPECT_NEAR(a_mean, b_mean, 5.0 * error)
        << "by sample_bsdf " << a_mean << ", by eval_bsdf " << b_mean;
    EXPECT_LT(error, 0.02 * b_mean) << "too noisy to tell";
  }
}

// Samples a smooth dielectric many times at one angle: the reflected fraction must match the
// Fresnel reflectance, reflections must mirror and refractions obey Snell's law.
void check_dielectric(float cos_i, bool from_inside, float ior) {
  const glm::vec3 n(0.0f, 0.0f, 1.0f);
  const float sin_i = std::sqrt(1.0f - cos_i * cos_i);
  // wo points away from the surface, towards the viewer, on the outside (+z) or the inside.
  const glm::vec3 wo =
      from_inside ? glm::vec3(-sin_i, 0.0f, -cos_i) : glm::vec3(-sin_i, 0.0f, cos_i);
  const float eta_i = from_inside ? ior : 1.0f, eta_t = from_inside ? 1.0f : ior;
  const float expected_r = fresnel_reflectance(cos_i, eta_i, eta_t);
  const BsdfParams glass = dielectric_material(0.0f, ior, glm::vec3(0.9f, 1.0f, 0.8f));
  const int samples = 40000;
  int reflected = 0;
  Rng rng(static_cast<std::uint32_t>(cos_i * 1000), from_inside ? 1 : 0, 1, 17);
  for (int k = 0; k < samples; ++k) {
    const BsdfSample s = sample(glass, wo, n, rng);
    EXPECT_EQ(s.weight, glass.albedo);
    EXPECT_TRUE(s.delta);
    ASSERT_NEAR(glm::length(s.wi), 1.0f, 1e-4f);
    const bool same_side = (s.wi.z > 0.0f) == (wo.z > 0.0f);
    if (same_side) {
      ++reflected;
      EXPECT_NEAR(s.wi.x, -wo.x, 1e-5f);
      EXPECT_NEAR(s.wi.z, wo.z, 1e-5f);
      EXPECT_NEAR(s.pdf, expected_r, 1e-5f);
    } else {
      // Snell: eta_i sin_i = eta_t sin_t, in the plane of incidence, on the far side.
      const float sin_t = std::sqrt(s.wi.x * s.wi.x + s.wi.y * s.wi.y);
      EXPECT_NEAR(eta_i * sin_i, eta_t * sin_t, 1e-4f);
      EXPECT_NEAR(s.wi.y, 0.0f, 1e-6f);
      EXPECT_GE(s.wi.x, 0.0f);
      EXPECT_NEAR(s.pdf, 1.0f - expected_r, 1e-5f);
    }
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

// The rough dielectric from inside, well past the critical angle: nearly everything reflects, so
// transmission's share of the pdf is small; from outside at the same angle it is large.
TEST(Bsdf, RoughDielectricMostlyReflectsPastTheCriticalAngle) {
  const BsdfParams glass = dielectric_material(0.3f);
  for (const float cos_o : {-0.3f, 0.3f}) {
    const glm::vec3 wo = BsdfCase{"", {}, cos_o}.wo();
    Rng rng(6, 6, 6, 6);
    int transmitted = 0, kept_count = 0;
    for (int k = 0; k < 20000; ++k) {
      const BsdfSample s = sample(glass, wo, kNormal, rng);
      if (!kept(s)) continue;
      ++kept_count;
      transmitted += glm::dot(s.wi, kNormal) * glm::dot(wo, kNormal) < 0.0f;
    }
    const double fraction = double(transmitted) / kept_count;
    if (cos_o < 0.0f) {
      EXPECT_LT(fraction, 0.05) << "from inside";
    } else {
      EXPECT_GT(fraction, 0.7) << "from outside";
    }
  }
}

// ---- f. Emission and scene materials -----------------------------------------------------------

// The parameters of a material without textures (what the lobes see of it).
BsdfParams params_of(const MaterialData& m) {
  return bsdf_params<false>(m, MaterialTextures{}, TexCoords{});
}

TEST(Bsdf, EmittedRadianceBySide) {
  MaterialData m;
  m.emission = glm::vec3(2.0f, 1.0f, 0.5f);
  const glm::vec3 n = glm::normalize(glm::vec3(0.1f, 0.9f, -0.2f));
  const glm::vec3 front = glm::normalize(n + glm::vec3(0.3f, 0.0f, 0.1f)), back = -front;
  ASSERT_GT(glm::dot(front, n), 0.0f);
  m.two_sided = 1;
  EXPECT_TRUE(is_emissive(m));
  EXPECT_EQ(emitted_radiance(m, m.emission, front, n), m.emission);
  EXPECT_EQ(emitted_radiance(m, m.emission, back, n), m.emission);
  m.two_sided = 0;
  EXPECT_EQ(emitted_radiance(m, m.emission, front, n), m.emission);
  EXPECT_EQ(emitted_radiance(m, m.emission, back, n), glm::vec3(0.0f));
  const MaterialData dark;
  EXPECT_FALSE(is_emissive(dark));
  EXPECT_EQ(emitted_radiance(dark, dark.emission, front, n), glm::vec3(0.0f));
}

Material scene_material(MaterialType type, glm::vec3 color) {
  Material m;
  m.type = type;
  m.color = color;
  return m;
}

TEST(Bsdf, MaterialDataFromSceneMaterials) {
  std::vector<TextureBinding> bindings;
  // Emitting: black, radiance RGB x EMITTANCE.
  Material lamp = scene_material(MaterialType::emitting, glm::vec3(1.0f, 0.5f, 0.25f));
  lamp.emittance = 4.0f;
  lamp.emission = glm::vec3(9.0f);  // not used by the Emitting type
  lamp.two_sided = false;
  const MaterialData a = make_material_data(lamp, bindings);
  EXPECT_EQ(a.kind, static_cast<std::int32_t>(BsdfKind::none));
  EXPECT_EQ(a.emission, glm::vec3(4.0f, 2.0f, 1.0f));
  EXPECT_EQ(a.albedo, glm::vec3(0.0f));
  EXPECT_EQ(a.two_sided, 0);
  EXPECT_TRUE(is_emissive(a));
  EXPECT_TRUE(is_specular(params_of(a)));
  // Diffuse with EMISSION: a Lambertian that also emits.
  Material glow = scene_material(MaterialType::diffuse, glm::vec3(0.3f, 0.6f, 0.9f));
  glow.emission = glm::vec3(1.5f, 0.0f, 0.25f);
  const MaterialData b = make_material_data(glow, bindings);
  EXPECT_EQ(b.kind, static_cast<std::int32_t>(BsdfKind::kLambertian));
  EXPECT_EQ(b.albedo, glow.color);
  EXPECT_EQ(b.emission, glow.emission);
  EXPECT_EQ(b.two_sided, 1);
  const MaterialData plain =
      make_material_data(scene_material(MaterialType::diffuse, glm::vec3(0.5f)), bindings);
  EXPECT_FALSE(is_emissive(plain));
  // Specular and refractive: alpha = ROUGHNESS^2; ROUGHNESS 0 is a delta lobe.
  for (float roughness : {0.0f, 0.2f, 0.5f, 1.0f}) {
    Material metal = scene_material(MaterialType::specular, glm::vec3(0.9f, 0.8f, 0.6f));
    metal.roughness = roughness;
    const MaterialData c = make_material_data(metal, bindings);
    EXPECT_EQ(c.kind, static_cast<std::int32_t>(BsdfKind::kConductor));
    EXPECT_FLOAT_EQ(c.alpha, roughness * roughness);
    EXPECT_EQ(c.albedo, metal.color);
    EXPECT_EQ(is_specular(params_of(c)), roughness == 0.0f);
    Material glass = scene_material(MaterialType::refractive, glm::vec3(1.0f, 0.95f, 0.9f));
    glass.roughness = roughness;
    glass.ior = 1.33f;
    const MaterialData d = make_material_data(glass, bindings);
    EXPECT_EQ(d.kind, static_cast<std::int32_t>(BsdfKind::kDielectric));
    EXPECT_FLOAT_EQ(d.alpha, roughness * roughness);
    EXPECT_EQ(d.ior, 1.33f);
    EXPECT_EQ(d.albedo, glass.color);
    EXPECT_EQ(is_specular(params_of(d)), roughness == 0.0f);
  }
}

// The features the host picks a shade kernel by: each textured material marks its lobe's kind,
// so a queue of a lobe that none of them has may run the lobe's kernel compiled without textures.
TEST(Bsdf, LobeFeaturesMarkTheKindsOfTexturedMaterials) {
  MaterialData textured_diffuse;
  textured_diffuse.kind = static_cast<std::int32_t>(BsdfKind::kLambertian);
  textured_diffuse.texture = 0;
  MaterialData metal;
  metal.kind = static_cast<std::int32_t>(BsdfKind::kConductor);
  MaterialData lamp;
  lamp.kind = static_cast<std::int32_t>(BsdfKind::none);
  lamp.emission_texture = 1;
  const MaterialData materials[] = {textured_diffuse, metal, lamp};
  const LobeFeatures f = lobe_features(materials, 3);
  EXPECT_EQ(f.mask, lobe_bit(BsdfKind::kLambertian) | lobe_bit(BsdfKind::kConductor) |
                        lobe_bit(BsdfKind::none));
  EXPECT_EQ(f.textured_kinds, lobe_bit(BsdfKind::kLambertian) | lobe_bit(BsdfKind::none));
  EXPECT_TRUE(f.textured);
  const LobeFeatures plain = lobe_features(&metal, 1);
  EXPECT_EQ(plain.textured_kinds, 0u);
  EXPECT_FALSE(plain.textured);
  // The untextured variant is the lobe (same kind, same functions) without texture reads.
  static_assert(LobeTextured<Conductor>::value && !LobeTextured<Untextured<Conductor>>::value);
  static_assert(Untextured<Conductor>::kKind == BsdfKind::kConductor);
  BsdfParams p;
  p.kind = metal.kind;
  p.alpha = 0.3f;
  const glm::vec3 wo = glm::normalize(glm::vec3(0.3f, -0.2f, 0.9f));
  const BsdfSample a = sample_bsdf<Conductor>(p, wo, glm::vec3(0, 0, 1), 0.4f, 0.3f, 0.7f);
  const BsdfSample b =
      sample_bsdf<Untextured<Conductor>>(p, wo, glm::vec3(0, 0, 1), 0.4f, 0.3f, 0.7f);
  EXPECT_EQ(a.wi, b.wi);
  EXPECT_EQ(a.weight, b.weight);
  EXPECT_GT(a.pdf, 0.0f);
}

// ---- Russian roulette --------------------------------------------------------------------------

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
