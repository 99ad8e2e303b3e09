// End-to-end render tests written once and run on both executors: render_cpu_test instantiates
// them on the CPU (prim::cpu), render_gpu_test on the GPU with each primitives backend (own and
// Thrust). Where the executors differ is stated by the case: on the CPU every kernel rounds alike,
// so the schedules trace exactly the same paths; on the GPU rounding between kernels (fused
// multiply-adds) rarely sends a path elsewhere, so counts and images agree within a tolerance.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "integrator/api/render.h"
#include "io/scene/scene_loader.h"
#include "materials/material_data.h"
#include "render_test_scenes.h"

namespace raystream::test {

using RenderFunction = RenderResult (*)(const Scene&, const RenderSettings&);

struct Backend {
  const char* name;
  RenderFunction render;
};

struct ExecutorCase {
  const char* name;
  ExecutorKind executor;
  std::vector<Backend> backends;  // the first renders where one backend is enough
  bool same_rounding;             // every kernel rounds alike: the schedules' paths are identical
  int shipped_half_spp;           // samples per pixel of each half of the shipped-scene renders
};

inline std::string trace_name(const RenderSettings& s) {
  return std::string("schedule ") + schedule_name(s.schedule) + ", pool " + std::to_string(s.pool) +
         ", compact " + (s.compact ? "on" : "off") + ", sort " +
         (s.sort_by_material ? "on" : "off");
}

// Per-depth counts of two renders whose paths may differ by rounding between kernels: within
// `relative` (and `absolute` paths).
inline void expect_counts_near(const RenderResult& a, const RenderResult& b, double relative,
                               double absolute = 0.0) {
  ASSERT_EQ(a.stats.bounces.size(), b.stats.bounces.size());
  for (std::size_t d = 0; d < a.stats.bounces.size(); ++d) {
    const double in_b = double(b.stats.bounces[d].paths_in);
    const double out_b = double(b.stats.bounces[d].paths_out);
    EXPECT_NEAR(double(a.stats.bounces[d].paths_in), in_b, relative * in_b + absolute)
        << "depth " << d;
    EXPECT_NEAR(double(a.stats.bounces[d].paths_out), out_b, relative * out_b + absolute)
        << "depth " << d;
  }
}

// Two images of the same paths but for rounding between kernels: pixel by pixel within rounding
// (relative, or absolute), but for at most `fraction` of the pixels, where a path took another
// turn.
inline void expect_images_mostly_close(const Image& a, const Image& b, double fraction,
                                       double relative = 1e-4, double absolute = 1e-5) {
  ASSERT_EQ(a.rgb.size(), b.rgb.size());
  const std::size_t pixels = a.rgb.size() / 3;
  std::size_t differ = 0;
  for (std::size_t p = 0; p < pixels; ++p) {
    bool same = true;
    for (int c = 0; c < 3; ++c) {
      const double x = a.rgb[3 * p + c], y = b.rgb[3 * p + c];
      same = same && std::fabs(x - y) <=
                         std::max(absolute, relative * std::max(std::fabs(x), std::fabs(y)));
    }
    differ += !same;
  }
  EXPECT_LE(double(differ), fraction * double(pixels)) << differ << " of " << pixels;
}

class RenderOnExecutor : public testing::TestWithParam<ExecutorCase> {
 protected:
  const ExecutorCase& executor_case() const { return GetParam(); }
  RenderSettings settings(const Scene& scene, int spp) const {
    return settings_for(scene, GetParam().executor, spp);
  }
  RenderResult render(const Scene& scene, const RenderSettings& s) const {
    return GetParam().backends.front().render(scene, s);
  }
  // Two renders of the same paths in different schedules or pools.
  void expect_same_paths(const RenderResult& a, const RenderResult& b) const {
    if (GetParam().same_rounding) {
      expect_same_counts(a, b);
      EXPECT_EQ(a.stats.shadow_rays, b.stats.shadow_rays);
      expect_images_close(a.image, b.image, 1e-4, 1e-6);
    } else {
      expect_counts_near(a, b, 1e-4, 2.0);
      expect_images_mostly_close(a.image, b.image, 0.01);
      for (int c = 0; c < 3; ++c) {
        const double m = mean_channel(b.image, c);
        EXPECT_NEAR(mean_channel(a.image, c), m, 0.01 * m + 1e-6) << "channel " << c;
      }
    }
  }
};

inline std::string executor_case_name(const testing::TestParamInfo<ExecutorCase>& info) {
  return info.param.name;
}

TEST_P(RenderOnExecutor, WhiteFurnaceRendersTheEmitterEverywhere) {
  // Energy-conserving surfaces inside an emitter: every pixel's expected value is the emitter's
  // radiance, with next-event estimation and with BSDF sampling alone, in every schedule.
  const Scene scene = furnace_scene();
  for (const Schedule schedule : kSchedules) {
    RenderSettings s = with_schedule(settings(scene, 32), schedule);
    SCOPED_TRACE(trace_name(s));
    const RenderResult with_nee = render(scene, s);
    expect_all_finite(with_nee.image);
    expect_consistent_stats(with_nee, s);
    EXPECT_GT(with_nee.stats.shadow_rays, 0u);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(mean_channel(with_nee.image, c), kFurnaceRadiance[c], 0.01 * kFurnaceRadiance[c])
          << "channel " << c;
    // BSDF sampling alone: per pixel, only Russian roulette adds noise (the weights are exactly
    // 1 before it).
    s.nee = false;
    const RenderResult r = render(scene, s);
    EXPECT_EQ(r.stats.shadow_rays, 0u);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(mean_channel(r.image, c), kFurnaceRadiance[c], 0.005 * kFurnaceRadiance[c])
          << "channel " << c;
    const std::size_t pixels = r.image.rgb.size() / 3;
    for (std::size_t p = 0; p < pixels; ++p)
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(r.image.rgb[3 * p + c], kFurnaceRadiance[c], 0.3 * kFurnaceRadiance[c])
            << "pixel " << p << " channel " << c;
    // Roulette did act: the furnace has paths longer than three bounces.
    EXPECT_GT(r.stats.bounces[4].paths_in, 0u);
  }
}

TEST_P(RenderOnExecutor, EverySampleIsIssuedExactlyOnce) {
  // Counting samples, every path adds exactly 1 to its pixel when it ends and the image is not
  // divided by spp: every pixel must hold spp, for every schedule, pool and backend. 13 x 7 x 5
  // = 455 samples: pool 1 (one path at a time), 7 (divides 455), 32 (does not), 1024 (more slots
  // than samples) and the default; then a larger image through a pool that does not divide it.
  const Scene scene = box_scene();
  RenderSettings base = settings(scene, 5);
  base.width = 13;
  base.height = 7;
  base.count_samples = true;
  std::vector<RenderSettings> cases;
  for (const std::size_t pool :
       {std::size_t(1), std::size_t(7), std::size_t(32), std::size_t(1024), std::size_t(0)}) {
    RenderSettings s = with_schedule(base, Schedule::stream);
    s.pool = pool;
    cases.push_back(s);
  }
  RenderSettings sorted_stream = with_schedule(base, Schedule::stream);
  sorted_stream.pool = 32;
  sorted_stream.sort_by_material = true;
  sorted_stream.shade = ShadeMode::single;  // the sort of the single shade kernel
  cases.push_back(sorted_stream);
  for (const bool compact : {true, false}) {
    for (const bool sort : {false, true}) {
      RenderSettings s = with_schedule(base, Schedule::frame);
      s.compact = compact;
      s.sort_by_material = sort;
      s.shade = ShadeMode::single;  // the sort of the single shade kernel
      cases.push_back(s);
    }
  }
  cases.push_back(with_schedule(base, Schedule::megakernel));
  RenderSettings big = with_schedule(base, Schedule::stream);
  big.width = 320;
  big.height = 180;
  big.spp = 3;
  big.pool = 10007;
  cases.push_back(big);
  for (const RenderSettings& s : cases) {
    for (const Backend& backend : executor_case().backends) {
      SCOPED_TRACE(std::string(backend.name) + ", " + trace_name(s));
      const RenderResult r = backend.render(scene, s);
      expect_consistent_stats(r, s);
      ASSERT_EQ(r.image.rgb.size(), std::size_t(3) * s.width * s.height);
      for (std::size_t k = 0; k < r.image.rgb.size(); ++k)
        ASSERT_EQ(r.image.rgb[k], float(s.spp)) << "pixel " << k / 3 << ", channel " << k % 3;
      if (s.schedule == Schedule::stream && s.pool != 0) {
        const std::size_t samples = std::size_t(s.width) * s.height * s.spp;
        const std::size_t pool = std::min<std::size_t>(s.pool, samples);
        EXPECT_EQ(r.stats.pool, pool);
        // Fewer slots, more waves: at least one per pool's worth of samples.
        EXPECT_GE(r.stats.waves.size(), (samples + pool - 1) / pool);
      }
    }
  }
}

TEST_P(RenderOnExecutor, SchedulesTraceTheSamePaths) {
  // Random numbers keyed by (pixel, sample, depth, seed): the stream (any pool), frame and
  // megakernel schedules trace the same paths, so their per-depth counts and images agree (the
  // images up to the order of the film's additions: the megakernel adds a path's shadow rays to
  // its radiance, the wavefronts add them to the film as they are traced).
  for (const Scene& scene : {box_scene(), furnace_scene()}) {
    SCOPED_TRACE(scene.path);
    RenderSettings base = settings(scene, 3);
    const bool furnace = scene.depth > 8;  // long paths: a smaller image
    base.width = furnace ? 24 : 64;
    base.height = furnace ? 16 : 48;
    const RenderResult frame = render(scene, with_schedule(base, Schedule::frame));
    expect_consistent_stats(frame, with_schedule(base, Schedule::frame));
    EXPECT_GT(mean_channel(frame.image, 0), 0.01);
    EXPECT_GT(frame.stats.bounces[3].paths_in, 0u);
    std::vector<RenderSettings> others = {with_schedule(base, Schedule::megakernel)};
    for (const std::size_t pool :
         {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(1000)}) {
      RenderSettings s = with_schedule(base, Schedule::stream);
      s.pool = pool;
      others.push_back(s);
    }
    for (const RenderSettings& s : others) {
      SCOPED_TRACE(trace_name(s));
      const RenderResult r = render(scene, s);
      expect_consistent_stats(r, s);
      expect_all_finite(r.image);
      expect_same_paths(r, frame);
    }
  }
}

TEST_P(RenderOnExecutor, MaterialQueuesTraceTheSamePathsAsTheSingleKernel) {
  // Shading per material queue changes which kernel shades a path and the order of the film's
  // additions, not what the path traces: the counts and images agree with the single kernel's,
  // in both wavefront schedules, on scenes of every lobe, texture and light kind. The report
  // gives each queue's paths.
  for (const Scene& scene : {box_scene(), feature_scene(), many_materials_scene(40)}) {
    SCOPED_TRACE(scene.path);
    for (const Schedule schedule : {Schedule::stream, Schedule::frame}) {
      RenderSettings s = with_schedule(settings(scene, 3), schedule);
      s.width = 48;
      s.height = 32;
      s.shade = ShadeMode::single;
      const RenderResult single = render(scene, s);
      EXPECT_EQ(single.stats.shade, ShadeMode::single);
      EXPECT_TRUE(single.stats.queue_paths.empty());
      s.shade = ShadeMode::queues;
      for (const Backend& backend : executor_case().backends) {
        SCOPED_TRACE(std::string(backend.name) + ", " + trace_name(s));
        const RenderResult queues = backend.render(scene, s);
        expect_consistent_stats(queues, s);
        expect_same_paths(queues, single);
        EXPECT_EQ(queues.stats.shade, ShadeMode::queues);
        ASSERT_EQ(queues.stats.queue_paths.size(), std::size_t(kBsdfKindCount));
        ASSERT_EQ(queues.stats.queue_names.size(), std::size_t(kBsdfKindCount));
        EXPECT_EQ(queues.stats.queue_names[0], "emitter");
        std::uint64_t shaded = 0;
        for (const std::uint64_t n : queues.stats.queue_paths) shaded += n;
        // Every path that hit something was shaded once: at most the segments traced.
        EXPECT_GT(shaded, 0u);
        EXPECT_LE(shaded, queues.stats.path_segments);
        const auto lambertian = static_cast<std::size_t>(BsdfKind::kLambertian);
        EXPECT_EQ(queues.stats.queue_names[lambertian], "Lambertian");
        EXPECT_GT(queues.stats.queue_paths[lambertian], 0u);
      }
    }
  }
}

TEST_P(RenderOnExecutor, SpecializedKernelsCoverTheScene) {
  // The megakernel (and the single shade kernel) run the smallest compiled set of lobes that
  // covers the scene: the course's materials, smooth and without textures, take the classic set;
  // a textured scene, or one with a rough metal, every lobe; without NEE its code is left out.
  // The image is the general kernel's.
  Scene classic = box_scene();
  for (Material& m : classic.materials) m.roughness = 0.0f;  // its brushed cube polished
  const Scene textured = feature_scene();
  const Scene rough = box_scene();
  for (const bool nee : {true, false}) {
    RenderSettings s = with_schedule(settings(classic, 2), Schedule::megakernel);
    s.nee = nee;
    const RenderResult r = render(classic, s);
    EXPECT_EQ(r.stats.kernel_variant, nee ? "classic lobes, NEE" : "classic lobes, BSDF sampling");
    RenderSettings t = with_schedule(settings(textured, 2), Schedule::megakernel);
    t.nee = nee;
    const RenderResult rt = render(textured, t);
    EXPECT_EQ(rt.stats.kernel_variant, nee ? "every lobe, NEE" : "every lobe, BSDF sampling");
    RenderSettings u = with_schedule(settings(rough, 2), Schedule::megakernel);
    u.nee = nee;
    const RenderResult ru = render(rough, u);
    EXPECT_EQ(ru.stats.kernel_variant, nee ? "every lobe, NEE" : "every lobe, BSDF sampling");
    // The stream schedule traces the rough box's paths as the every-lobe megakernel does.
    u.schedule = Schedule::stream;
    expect_same_paths(render(rough, u), ru);
    // The stream schedule (shade queues) traces the same paths as the specialized megakernel.
    t.schedule = Schedule::stream;
    expect_same_paths(render(textured, t), rt);
    s.schedule = Schedule::stream;
    expect_same_paths(render(classic, s), r);
  }
}

TEST_P(RenderOnExecutor, OpenSceneLosesMostPathsAtTheFirstBounce) {
  Scene scene = box_scene();
  scene.objects.erase(scene.objects.begin() + 1, scene.objects.begin() + 7);  // no walls
  for (const Schedule schedule : kSchedules) {
    RenderSettings s = with_schedule(settings(scene, 2), schedule);
    s.width = 64;
    s.height = 48;
    SCOPED_TRACE(trace_name(s));
    const RenderResult r = render(scene, s);
    expect_consistent_stats(r, s);
    expect_all_finite(r.image);
    EXPECT_LT(r.stats.bounces[0].paths_out, r.stats.bounces[0].paths_in / 2);
    EXPECT_GT(r.stats.bounces[0].paths_out, 0u);
    EXPECT_GT(mean_channel(r.image, 0), 0.0);
    if (schedule == Schedule::megakernel) continue;  // no primitives there
    for (const Backend& backend : executor_case().backends) {
      SCOPED_TRACE(backend.name);
      const RenderResult other = backend.render(scene, s);
      expect_same_counts(other, r);
      expect_images_close(other.image, r.image);
    }
  }
}

TEST_P(RenderOnExecutor, NoNanOrInfInAnyTestSceneWithAnySchedule) {
  Scene open = box_scene();
  open.objects.erase(open.objects.begin() + 1, open.objects.begin() + 7);  // no walls
  open.path = "open box (test)";
  Scene lens = box_scene();
  lens.camera.lens_radius = 0.3f;
  lens.camera.focal_distance = 8.0f;
  lens.path = "thin lens box (test)";
  for (const Scene& scene : {furnace_scene(), box_scene(), many_materials_scene(300), open, lens}) {
    for (const Schedule schedule : kSchedules) {
      RenderSettings s = with_schedule(settings(scene, 2), schedule);
      s.width = 32;
      s.height = 24;
      s.sort_by_material = schedule != Schedule::megakernel;
      s.shade = ShadeMode::single;  // the sort of the single shade kernel
      SCOPED_TRACE(scene.path + ", " + trace_name(s));
      const RenderResult r = render(scene, s);
      expect_all_finite(r.image);
      expect_consistent_stats(r, s);
      EXPECT_GT(mean_channel(r.image, 1), 0.0);
    }
  }
}

TEST_P(RenderOnExecutor, SortOverMoreThanEightKeyBits) {
  // 306 materials: 9-bit keys, so radix sorts with 8-bit digits need two passes. Sorting moves
  // paths between slots, not what they trace.
  const Scene scene = many_materials_scene(300);
  for (const Schedule schedule : {Schedule::frame, Schedule::stream}) {
    RenderSettings s = with_schedule(settings(scene, 2), schedule);
    s.width = 48;
    s.height = 40;
    s.pool = 700;  // stream: several waves, the last one partly filled
    const RenderResult unsorted = render(scene, s);
    s.sort_by_material = true;
    s.shade = ShadeMode::single;  // the sort of the single shade kernel
    for (const Backend& backend : executor_case().backends) {
      SCOPED_TRACE(std::string(backend.name) + ", " + trace_name(s));
      const RenderResult sorted = backend.render(scene, s);
      expect_consistent_stats(sorted, s);
      expect_same_counts(sorted, unsorted);
      if (schedule == Schedule::frame) {
        EXPECT_EQ(sorted.image.rgb, unsorted.image.rgb);
      } else {
        expect_images_close(sorted.image, unsorted.image);
      }
    }
  }
}

TEST_P(RenderOnExecutor, ShippedScenesMatchTheirReferenceMeans) {
  // Every shipped scene in every schedule at 64x48: the image's mean per channel against the
  // scene's reference (tests/data/shipped_scene_means.json, written by
  // scripts/shipped_scene_means.py from many samples). The render is two halves (samples per
  // pixel: the case's shipped_half_spp) under two seeds: per pixel their difference is pure noise,
  // so its spread gives the standard error of the mean (the scene's own structure cancels); the
  // reference's error is that scaled by the ratio of samples. The mean must lie within six standard
  // errors plus 0.1%.
  std::ifstream file("tests/data/shipped_scene_means.json");
  ASSERT_TRUE(file) << "tests/data/shipped_scene_means.json";
  const nlohmann::json references = nlohmann::json::parse(file);
  const double reference_spp = references["spp"];
  std::vector<std::string> paths;
  for (const auto& entry : std::filesystem::directory_iterator("scenes"))
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  ASSERT_GE(paths.size(), 12u);
  // An instrumented build (scripts/asan.sh) renders many times slower and sets
  // RAYSTREAM_TEST_SHIPPED_HALF_SPP lower: the same scenes and schedules, a wider tolerance.
  const char* half_spp_env = std::getenv("RAYSTREAM_TEST_SHIPPED_HALF_SPP");
  const int half_spp =
      half_spp_env ? std::max(1, std::atoi(half_spp_env)) : executor_case().shipped_half_spp;
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    const std::string name = std::filesystem::path(path).filename().string();
    ASSERT_TRUE(references["scenes"].contains(name)) << "no reference mean: rerun the script";
    const nlohmann::json& reference = references["scenes"][name];
    std::vector<std::string> warnings;
    const Scene scene = load_scene(path, warnings);
    for (const Schedule schedule : kSchedules) {
      SCOPED_TRACE(schedule_name(schedule));
      RenderSettings s = with_schedule(settings(scene, half_spp), schedule);
      s.width = references["resolution"][0];
      s.height = references["resolution"][1];
      s.seed = 101;
      const RenderResult a = render(scene, s);
      s.seed = 202;
      const RenderResult b = render(scene, s);
      expect_all_finite(a.image);
      expect_all_finite(b.image);
      EXPECT_GT(a.stats.path_segments, 0u);
      const std::size_t pixels = a.image.rgb.size() / 3;
      for (int c = 0; c < 3; ++c) {
        double sum = 0, sum_d = 0, sum_d2 = 0;
        for (std::size_t p = 0; p < pixels; ++p) {
          const double x = a.image.rgb[3 * p + c], y = b.image.rgb[3 * p + c];
          sum += x + y;
          sum_d += x - y;
          sum_d2 += (x - y) * (x - y);
        }
        const double mean = sum / (2.0 * pixels);
        const double mean_d = sum_d / pixels;
        // Var((a + b) / 2) per pixel = Var(a - b) / 4; the mean over the pixels divides by n.
        const double var_d = std::max(0.0, (sum_d2 - pixels * mean_d * mean_d) / (pixels - 1));
        const double se = std::sqrt(var_d / (4.0 * pixels));
        const double se_reference = se * std::sqrt(2.0 * half_spp / reference_spp);
        const double expected = reference[c];
        const double tolerance =
            6.0 * std::sqrt(se * se + se_reference * se_reference) + 1e-3 * expected;
        EXPECT_NEAR(mean, expected, tolerance)
            << "channel " << c << " (standard error " << se << ")";
        if (c == 1)
          std::printf("%-32s %-10s green %.5f, reference %.5f, tolerance %.2f%%\n", name.c_str(),
                      schedule_name(schedule), mean, expected, 100.0 * tolerance / expected);
      }
    }
  }
}

}  // namespace raystream::test
