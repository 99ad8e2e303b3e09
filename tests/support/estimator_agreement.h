// The statistical agreement of next-event estimation (--integrator path) with BSDF sampling
// (--integrator bsdf): both are unbiased estimators of the same image, so rendered with
// independent seeds their per-pixel difference has mean zero everywhere. Per region of a grid,
// and over the whole image, per channel, the mean of the per-pixel differences is tested against
// zero with the standard error measured from those differences (a two-sample z-test; the pixels
// are independent, each one's two estimates too). The threshold holds the chance of any false
// alarm in one comparison to kAgreementFamilyAlpha (Bonferroni over the regions and channels).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "integrator/api/render.h"
#include "io/scene/scene_loader.h"
#include "render_test_scenes.h"
#include "statistics.h"

namespace raystream::test {

inline constexpr double kAgreementFamilyAlpha = 1e-4;

struct RegionTest {
  std::string where;  // "region (x, y)" or "whole image", and the channel
  double mean_a = 0, mean_b = 0, z = 0;
};

struct Agreement {
  double threshold = 0;  // |z| above this is a disagreement
  RegionTest worst;      // the largest |z|
  std::vector<RegionTest> failures;
  double image_mean_a[3] = {0, 0, 0}, image_mean_b[3] = {0, 0, 0};
};

// Compares images a and b (same size) over a grid x grid split plus the whole image.
inline Agreement compare_estimators(const Image& a, const Image& b, int grid) {
  Agreement result;
  const int tests = (grid * grid + 1) * 3;
  result.threshold = two_sided_normal_quantile(kAgreementFamilyAlpha / tests);
  auto test_box = [&](int x0, int x1, int y0, int y1, int c, const std::string& where) {
    double sum_a = 0, sum_b = 0, sum_d = 0, sum_d2 = 0;
    const int n = (x1 - x0) * (y1 - y0);
    for (int y = y0; y < y1; ++y)
      for (int x = x0; x < x1; ++x) {
        const std::size_t k = 3 * (std::size_t(y) * a.width + x) + c;
        const double d = double(a.rgb[k]) - double(b.rgb[k]);
        sum_a += a.rgb[k];
        sum_b += b.rgb[k];
        sum_d += d;
        sum_d2 += d * d;
      }
    RegionTest t;
    t.where = where + ", channel " + "rgb"[c];
    t.mean_a = sum_a / n;
    t.mean_b = sum_b / n;
    const double mean_d = sum_d / n;
    const double var_d = n > 1 ? (sum_d2 - n * mean_d * mean_d) / (n - 1) : 0.0;
    const double se = std::sqrt(std::max(var_d, 0.0) / n);
    t.z = se > 0 ? mean_d / se : (mean_d == 0 ? 0.0 : HUGE_VAL);
    if (std::fabs(t.z) > std::fabs(result.worst.z) || result.worst.where.empty()) result.worst = t;
    if (std::fabs(t.z) > result.threshold) result.failures.push_back(t);
    return t;
  };
  for (int c = 0; c < 3; ++c) {
    const RegionTest whole = test_box(0, a.width, 0, a.height, c, "whole image");
    result.image_mean_a[c] = whole.mean_a;
    result.image_mean_b[c] = whole.mean_b;
    for (int ry = 0; ry < grid; ++ry)
      for (int rx = 0; rx < grid; ++rx)
        test_box(rx * a.width / grid, (rx + 1) * a.width / grid, ry * a.height / grid,
                 (ry + 1) * a.height / grid, c,
                 "region (" + std::to_string(rx) + ", " + std::to_string(ry) + ")");
  }
  return result;
}

// Renders the scene file with both estimators (independent seeds) and expects them to agree.
// Prints one line per scene: the worst region and the whole image's means.
inline Agreement expect_estimators_agree(const std::string& path, ExecutorKind executor, int width,
                                         int height, int spp, int grid,
                                         Schedule schedule = Schedule::stream) {
  SCOPED_TRACE(path);
  std::vector<std::string> warnings;
  const Scene scene = load_scene(path, warnings);
  RenderSettings s = with_schedule(settings_for(scene, executor, spp), schedule);
  s.width = width;
  s.height = height;
  s.seed = 1;
  const RenderResult nee = render(scene, s);
  s.nee = false;
  s.seed = 2;
  const RenderResult bsdf = render(scene, s);
  expect_all_finite(nee.image);
  expect_all_finite(bsdf.image);
  const Agreement r = compare_estimators(nee.image, bsdf.image, grid);
  std::printf(
      "%-48s %dx%d %5d spp: worst |z| %.2f (%s: path %.5g, bsdf %.5g), threshold %.2f; image "
      "path/bsdf %.4f %.4f %.4f\n",
      path.c_str(), width, height, spp, std::fabs(r.worst.z), r.worst.where.c_str(), r.worst.mean_a,
      r.worst.mean_b, r.threshold, r.image_mean_a[0] / std::max(r.image_mean_b[0], 1e-30),
      r.image_mean_a[1] / std::max(r.image_mean_b[1], 1e-30),
      r.image_mean_a[2] / std::max(r.image_mean_b[2], 1e-30));
  for (const RegionTest& t : r.failures)
    ADD_FAILURE() << "next-event estimation and BSDF sampling disagree in " << t.where << ": path "
                  << t.mean_a << ", bsdf " << t.mean_b << ", z " << t.z << " (threshold "
                  << r.threshold << ")";
  return r;
}

// The scene files the agreement is tested on: every shipped scene and the test scenes made for
// it (tests/data/agreement), paths relative to the source folder where ctest runs.
inline std::vector<std::string> agreement_scene_paths() {
  std::vector<std::string> paths;
  for (const char* folder : {"scenes", "tests/data/agreement"})
    for (const auto& entry : std::filesystem::directory_iterator(folder))
      if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

// gtest's name for a test of the scene file `info.param`: the file's stem, with '_' for every
// character that is not a letter or a digit.
inline std::string scene_test_name(const testing::TestParamInfo<std::string>& info) {
  std::string name = std::filesystem::path(info.param).stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

}  // namespace raystream::test
