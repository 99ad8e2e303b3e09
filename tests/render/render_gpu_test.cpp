// End-to-end renders on the GPU executor (skipped without a CUDA device): the GPU image agrees
// with the CPU image of the same seed in every schedule, the own and Thrust primitives give the
// same image and counts, compaction and sorting change nothing, every sample is issued once
// whatever the pool, the schedules trace the same paths, the furnace holds, running out of memory
// is a clear error, and 1920x1080 renders work.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "integrator/backend/path_primitives.h"
#include "integrator/render.h"
#include "integrator/wavefront.h"
#include "render_test_scenes.h"

namespace raystream {
namespace {

using test::box_scene;
using test::furnace_scene;
using test::settings_for;
using test::with_schedule;

RenderResult render_own(const Scene& scene, const RenderSettings& s) {
  return render_wavefront(scene, s, own_primitives::path_primitives());
}
RenderResult render_thrust(const Scene& scene, const RenderSettings& s) {
  return render_wavefront(scene, s, thrust_primitives::path_primitives());
}

std::string trace_name(const RenderSettings& s) {
  return std::string("schedule ") + schedule_name(s.schedule) + ", pool " + std::to_string(s.pool) +
         ", compact " + (s.compact ? "on" : "off") + ", sort " +
         (s.sort_by_material ? "on" : "off");
}

// Per-depth counts of two renders whose paths may differ by rounding between kernels: within
// `relative` (and `absolute` paths).
void expect_counts_near(const RenderResult& a, const RenderResult& b, double relative,
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
void expect_images_mostly_close(const Image& a, const Image& b, double fraction,
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
  std::printf("%zu of %zu pixels differ beyond rounding\n", differ, pixels);
  EXPECT_LE(double(differ), fraction * double(pixels)) << differ << " of " << pixels;
}

// The same scene and seed on the GPU and the CPU: the same per-path code and random numbers, so
// the paths agree but for float rounding (fused multiply-adds on the device, library sin/cos),
// which rarely sends a path elsewhere. The same-seed difference must be far below the noise
// between two seeds, and the means agree.
void expect_gpu_matches_cpu(const Scene& scene, RenderSettings s) {
  SCOPED_TRACE(trace_name(s));
  s.executor = ExecutorKind::gpu;
  const RenderResult gpu = render_own(scene, s);
  test::expect_all_finite(gpu.image);
  test::expect_consistent_stats(gpu, s);
  s.executor = ExecutorKind::cpu;
  const RenderResult cpu = render_own(scene, s);
  s.seed += 7;
  const RenderResult cpu_other_seed = render_own(scene, s);
  const double noise = test::rms_difference(cpu.image, cpu_other_seed.image);
  const double diff = test::rms_difference(gpu.image, cpu.image);
  std::printf("%s: rms difference: GPU vs CPU same seed %.5f, CPU seed vs seed %.5f\n",
              schedule_name(s.schedule), diff, noise);
  EXPECT_GT(noise, 0.0);
  EXPECT_LT(diff, 0.5 * noise);
  for (int c = 0; c < 3; ++c) {
    const double g = test::mean_channel(gpu.image, c), m = test::mean_channel(cpu.image, c);
    EXPECT_NEAR(g, m, 0.01 * m + 1e-6) << "channel " << c;
  }
  // Every depth's counts within a fraction of a percent (identical when no path diverged).
  expect_counts_near(gpu, cpu, 0.005, 2.0);
}

TEST(RenderGpu, GpuAndCpuImagesAgreeWithinNoise) {
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 32);
  s.width = 64;
  s.height = 48;
  for (const Schedule schedule : test::kSchedules)
    expect_gpu_matches_cpu(scene, with_schedule(s, schedule));
  // A pool smaller than the image: many waves, the last ones partly filled.
  RenderSettings small_pool = with_schedule(s, Schedule::stream);
  small_pool.pool = 1000;
  expect_gpu_matches_cpu(scene, small_pool);
}

TEST(RenderGpu, EveryLightAndMaterialAgreesWithCpu) {
  // Emissive triangles, an emissive sphere, the environment, rough glass, rough metal and a
  // texture: the GPU traces what the CPU traces, with next-event estimation and without.
  const Scene scene = test::feature_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 32);
  s.width = 64;
  s.height = 48;
  for (const Schedule schedule : test::kSchedules)
    expect_gpu_matches_cpu(scene, with_schedule(s, schedule));
  s.nee = false;
  expect_gpu_matches_cpu(scene, with_schedule(s, Schedule::stream));
}

TEST(RenderGpu, WhiteFurnace) {
  const Scene scene = furnace_scene();
  for (const Schedule schedule : test::kSchedules) {
    const RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::gpu, 64), schedule);
    SCOPED_TRACE(trace_name(s));
    const RenderResult r = render_own(scene, s);
    test::expect_all_finite(r.image);
    test::expect_consistent_stats(r, s);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(test::mean_channel(r.image, c), test::kFurnaceRadiance[c],
                  0.01 * test::kFurnaceRadiance[c]);
  }
}

TEST(RenderGpu, EverySampleIsIssuedExactlyOnce) {
  // Counting samples, every pixel must hold exactly spp: 13 x 7 x 5 = 455 samples, pools of 1,
  // 7 (divides 455), 32 (does not), 1024 (more slots than samples) and the default, with both
  // backends; the frame and megakernel schedules too.
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::gpu, 5);
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
  cases.push_back(sorted_stream);
  for (const bool compact : {true, false}) {
    RenderSettings s = with_schedule(base, Schedule::frame);
    s.compact = compact;
    s.sort_by_material = true;
    cases.push_back(s);
  }
  cases.push_back(with_schedule(base, Schedule::megakernel));
  for (const RenderSettings& s : cases) {
    for (const bool thrust : {false, true}) {
      SCOPED_TRACE(std::string(thrust ? "thrust, " : "own, ") + trace_name(s));
      const RenderResult r = thrust ? render_thrust(scene, s) : render_own(scene, s);
      test::expect_consistent_stats(r, s);
      ASSERT_EQ(r.image.rgb.size(), std::size_t(3 * 13 * 7));
      for (std::size_t k = 0; k < r.image.rgb.size(); ++k)
        ASSERT_EQ(r.image.rgb[k], 5.0f) << "pixel " << k / 3 << ", channel " << k % 3;
    }
  }
  // A large image through a pool that does not divide it.
  RenderSettings big = with_schedule(base, Schedule::stream);
  big.width = 640;
  big.height = 360;
  big.spp = 3;
  big.pool = 100000;
  const RenderResult r = render_own(scene, big);
  test::expect_consistent_stats(r, big);
  for (std::size_t k = 0; k < r.image.rgb.size(); ++k)
    ASSERT_EQ(r.image.rgb[k], 3.0f) << "pixel " << k / 3 << ", channel " << k % 3;
}

TEST(RenderGpu, SchedulesTraceTheSamePaths) {
  // The same paths in every schedule (random numbers keyed by pixel, sample, depth and seed): the
  // per-depth counts agree but for the rare path that rounding in another kernel sends elsewhere;
  // the images agree pixel by pixel but for those paths' pixels and the order of the film's
  // additions.
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::gpu, 8);
  base.width = 128;
  base.height = 96;
  const RenderResult frame = render_own(scene, with_schedule(base, Schedule::frame));
  test::expect_consistent_stats(frame, with_schedule(base, Schedule::frame));
  std::vector<RenderSettings> others = {with_schedule(base, Schedule::megakernel)};
  for (const std::size_t pool :
       {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(1024), std::size_t(20000)}) {
    RenderSettings s = with_schedule(base, Schedule::stream);
    s.pool = pool;
    if (pool == 1) {  // one path at a time: a smaller image
      s.width = 16;
      s.height = 12;
      s.spp = 2;
    }
    others.push_back(s);
  }
  for (const RenderSettings& s : others) {
    SCOPED_TRACE(trace_name(s));
    const RenderResult r = render_own(scene, s);
    test::expect_consistent_stats(r, s);
    test::expect_all_finite(r.image);
    const RenderResult& reference =
        s.width == base.width ? frame : render_own(scene, with_schedule(s, Schedule::frame));
    expect_counts_near(r, reference, 1e-4, 2.0);
    expect_images_mostly_close(r.image, reference.image, 0.01);
    for (int c = 0; c < 3; ++c) {
      const double m = test::mean_channel(reference.image, c);
      EXPECT_NEAR(test::mean_channel(r.image, c), m, 0.002 * m + 1e-6) << "channel " << c;
    }
  }
}

TEST(RenderGpu, OwnAndThrustAgreeWithCompactionAndSortingOnAndOff) {
  // The frame schedule: one deposit per pixel per frame in frame order, so every switch and
  // backend gives the same bits.
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::gpu, 4);
  base.schedule = Schedule::frame;
  base.width = 96;
  base.height = 80;
  const RenderResult reference = render_own(scene, base);
  EXPECT_EQ(reference.stats.backend, "own");
  EXPECT_EQ(reference.stats.executor, "gpu");
  EXPECT_GT(reference.stats.peak_device_bytes, 0u);
  for (const bool compact : {true, false}) {
    for (const int sort_mode : {0, 1, 2}) {  // off, radix sort, multisplit
      const bool sort = sort_mode > 0;
      for (const bool thrust : {false, true}) {
        RenderSettings s = base;
        s.compact = compact;
        s.sort_by_material = sort;
        s.material_multisplit = sort_mode == 2;
        SCOPED_TRACE(std::string(thrust ? "thrust" : "own") + ", compact " +
                     (compact ? "on" : "off") + ", sort " +
                     (sort_mode == 2 ? "multisplit"
                      : sort         ? "on"
                                     : "off"));
        const RenderResult r = thrust ? render_thrust(scene, s) : render_own(scene, s);
        EXPECT_EQ(r.stats.backend, thrust ? "thrust" : "own");
        test::expect_consistent_stats(r, s);
        test::expect_all_finite(r.image);
        // Per-path work does not depend on the order of the paths: the same bits.
        ASSERT_EQ(r.image.rgb.size(), reference.image.rgb.size());
        for (std::size_t k = 0; k < r.image.rgb.size(); ++k)
          ASSERT_EQ(r.image.rgb[k], reference.image.rgb[k]) << "value " << k;
        test::expect_same_counts(r, reference);
        for (int b = 0; b < s.depth; ++b) {
          if (sort) {
            EXPECT_GT(r.stats.bounces[b].sort_ms, 0.0);
          }
        }
      }
    }
  }
}

TEST(RenderGpu, OwnAndThrustAgreeInTheStreamSchedule) {
  // The same kernels, so the same paths: identical per-depth counts; the images differ only by
  // the order of the film's atomic additions (paths of one pixel end in the same wave).
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::gpu, 4);
  base.width = 96;
  base.height = 80;
  for (const std::size_t pool : {std::size_t(0), std::size_t(5000)}) {
    for (const bool sort : {false, true}) {
      RenderSettings s = base;
      s.pool = pool;
      s.sort_by_material = sort;
      SCOPED_TRACE(trace_name(s));
      const RenderResult own = render_own(scene, s);
      const RenderResult thrust = render_thrust(scene, s);
      EXPECT_EQ(own.stats.backend, "own");
      EXPECT_EQ(thrust.stats.backend, "thrust");
      test::expect_consistent_stats(own, s);
      test::expect_consistent_stats(thrust, s);
      test::expect_all_finite(thrust.image);
      test::expect_same_counts(thrust, own);
      test::expect_images_close(thrust.image, own.image);
      ASSERT_EQ(thrust.stats.waves.size(), own.stats.waves.size());
      for (std::size_t k = 0; k < own.stats.waves.size(); ++k) {
        EXPECT_EQ(thrust.stats.waves[k].live_in, own.stats.waves[k].live_in) << "wave " << k;
        EXPECT_EQ(thrust.stats.waves[k].regenerated, own.stats.waves[k].regenerated)
            << "wave " << k;
      }
      if (sort) {
        EXPECT_GT(own.stats.stage_ms[int(Stage::sort)], 0.0);
      }
    }
  }
}

TEST(RenderGpu, SortOverMoreThanEightKeyBitsAgreesWithCpu) {
  // 306 materials: 9-bit keys, so radix sorts with 8-bit digits need two passes.
  const Scene scene = test::many_materials_scene(300);
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 2);
  s.width = 80;
  s.height = 64;
  for (const Schedule schedule : {Schedule::frame, Schedule::stream}) {
    s.schedule = schedule;
    s.sort_by_material = false;
    const RenderResult unsorted = render_own(scene, s);
    s.sort_by_material = true;
    for (const bool thrust : {false, true}) {
      SCOPED_TRACE(std::string(thrust ? "thrust, " : "own, ") + trace_name(s));
      const RenderResult sorted = thrust ? render_thrust(scene, s) : render_own(scene, s);
      test::expect_consistent_stats(sorted, s);
      test::expect_same_counts(sorted, unsorted);
      if (schedule == Schedule::frame) {
        EXPECT_EQ(sorted.image.rgb, unsorted.image.rgb);
      } else {
        test::expect_images_close(sorted.image, unsorted.image);
      }
    }
  }
}

TEST(RenderGpu, DeviceMemoryDoesNotGrowWithSamples) {
  // Everything is allocated once per render; Thrust's cached temporaries are reused, so the peak
  // after six samples per pixel is the peak after one (the stream pool is fixed here: its
  // default grows with the samples until it fills the device).
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 1);
  s.width = 200;
  s.height = 150;
  s.sort_by_material = true;
  for (const Schedule schedule : {Schedule::frame, Schedule::stream}) {
    s.schedule = schedule;
    s.pool = 20000;
    for (const bool thrust : {false, true}) {
      SCOPED_TRACE(std::string(thrust ? "thrust, " : "own, ") + trace_name(s));
      s.spp = 1;
      const RenderResult one = thrust ? render_thrust(scene, s) : render_own(scene, s);
      s.spp = 6;
      const RenderResult six = thrust ? render_thrust(scene, s) : render_own(scene, s);
      const std::size_t paths = schedule == Schedule::frame ? 200 * 150 : 20000;
      EXPECT_GT(one.stats.peak_device_bytes, paths * 60);  // the path state
      EXPECT_EQ(six.stats.peak_device_bytes, one.stats.peak_device_bytes);
    }
  }
}

TEST(RenderGpu, OpenSceneLosesMostPathsAtTheFirstBounce) {
  Scene scene = box_scene();
  scene.objects.erase(scene.objects.begin() + 1, scene.objects.begin() + 7);  // no walls
  for (const Schedule schedule : test::kSchedules) {
    RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::gpu, 2), schedule);
    s.width = 128;
    s.height = 96;
    SCOPED_TRACE(trace_name(s));
    const RenderResult r = render_own(scene, s);
    test::expect_consistent_stats(r, s);
    test::expect_all_finite(r.image);
    EXPECT_LT(r.stats.bounces[0].paths_out, r.stats.bounces[0].paths_in / 2);
    if (schedule != Schedule::megakernel) {
      const RenderResult t = render_thrust(scene, s);
      test::expect_same_counts(t, r);
      test::expect_images_close(t.image, r.image);
    }
  }
}

TEST(RenderGpu, NoNanOrInfInAnyTestSceneWithAnySchedule) {
  Scene open = box_scene();
  open.objects.erase(open.objects.begin() + 1, open.objects.begin() + 7);
  open.path = "open box (test)";
  Scene lens = box_scene();
  lens.camera.lens_radius = 0.3f;
  lens.camera.focal_distance = 8.0f;
  lens.path = "thin lens box (test)";
  for (const Scene& scene :
       {furnace_scene(), box_scene(), test::many_materials_scene(300), open, lens}) {
    for (const Schedule schedule : test::kSchedules) {
      RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::gpu, 4), schedule);
      s.width = 160;
      s.height = 120;
      s.sort_by_material = schedule != Schedule::megakernel;
      SCOPED_TRACE(scene.path + ", " + trace_name(s));
      const RenderResult r = render_own(scene, s);
      test::expect_all_finite(r.image);
      test::expect_consistent_stats(r, s);
      EXPECT_GT(test::mean_channel(r.image, 1), 0.0);
    }
  }
}

TEST(RenderGpu, OutOfMemoryIsAClearErrorAndLeavesTheDeviceUsable) {
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 1);
  s.schedule = Schedule::frame;  // path state for every pixel
  s.width = 40000;               // 1.6 G paths: about 140 GB of path state
  s.height = 40000;
  try {
    render_own(scene, s);
    ADD_FAILURE() << "a 40000 x 40000 frame-schedule render did not fail";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("out of GPU memory"), std::string::npos) << what;
    EXPECT_NE(what.find("bytes"), std::string::npos) << what;
  }
  s.width = 16;
  s.height = 16;
  for (const Schedule schedule : test::kSchedules) {
    s.schedule = schedule;
    const RenderResult r = render_own(scene, s);
    test::expect_all_finite(r.image);
    test::expect_consistent_stats(r, s);
  }
}

TEST(RenderGpu, FullHdStreamRenderAtDepthEight) {
  // A big stream render is finite, and its per-depth counts are the frame schedule's (the same
  // paths, the same stage kernels) within 1e-6.
  Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 4);
  s.width = 1920;
  s.height = 1080;
  s.depth = 8;
  const RenderResult frame = render_own(scene, with_schedule(s, Schedule::frame));
  test::expect_consistent_stats(frame, with_schedule(s, Schedule::frame));
  for (const bool sort : {false, true}) {
    s.sort_by_material = sort;
    for (const Schedule schedule : test::kSchedules) {
      s.schedule = schedule;
      SCOPED_TRACE(trace_name(s));
      const RenderResult r = render_own(scene, s);
      test::expect_consistent_stats(r, s);
      test::expect_all_finite(r.image);
      if (schedule == Schedule::stream) {
        expect_counts_near(r, frame, 1e-6);
      } else {
        expect_counts_near(r, frame, 1e-4, 2.0);
      }
      double waves_ms = 0.0;
      for (const WaveStats& w : r.stats.waves) waves_ms += w.ms;
      std::printf(
          "1920x1080 depth 8, %s, sort %s, %s: %.3f ms total, %zu waves (%.3f ms), peak %.1f "
          "MiB\n",
          schedule_name(schedule), sort ? "on" : "off", r.stats.device.c_str(), r.stats.total_ms,
          r.stats.waves.size(), waves_ms, r.stats.peak_device_bytes / 1048576.0);
    }
  }
}

}  // namespace
}  // namespace raystream

namespace raystream {
namespace {

// Shares of a render on the GPU, each in its own thread with its own stream and buffers: on the
// same device when there is one, on every device when there are more. Same image as one render
// up to the order of the film's additions.
TEST(RenderSplitGpu, SharesOnDevicesGiveTheSameImage) {
  const Scene scene = test::box_scene();
  const std::vector<int> all = all_gpu_devices();
  ASSERT_FALSE(all.empty());
  const std::vector<std::vector<int>> splits = {{all[0], all[0]}, {all[0], all[0], all[0]}, all};
  for (const Schedule schedule : test::kSchedules) {
    SCOPED_TRACE(schedule_name(schedule));
    const RenderSettings s =
        test::with_schedule(test::settings_for(scene, ExecutorKind::gpu, 9), schedule);
    const RenderResult whole = render(scene, s);
    for (const std::vector<int>& devices : splits) {
      SCOPED_TRACE(std::to_string(devices.size()) + " shares");
      const RenderResult split = render_split(scene, s, devices);
      test::expect_images_close(split.image, whole.image, 1e-4, 1e-5);
      test::expect_same_counts(split, whole);
      if (devices.size() > 1) {
        ASSERT_EQ(split.stats.shares.size(), devices.size());
        for (std::size_t k = 0; k < devices.size(); ++k)
          EXPECT_EQ(split.stats.shares[k].device_index, devices[k]);
      }
    }
  }
  EXPECT_THROW(render_split(scene, test::settings_for(scene, ExecutorKind::gpu, 2),
                            {static_cast<int>(all.size())}),
               std::runtime_error);
}

}  // namespace
}  // namespace raystream

namespace raystream {
namespace {

// Every shipped scene, in every schedule, small: a finite image on the GPU.
TEST(ShippedScenesGpu, RenderFiniteInEverySchedule) {
  test::expect_shipped_scenes_finite(ExecutorKind::gpu, 64, 48, 4);
}

}  // namespace
}  // namespace raystream
