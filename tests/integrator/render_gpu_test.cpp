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

#include "execution/devices.h"
#include "execution/path_primitives.h"
#include "integrator/api/render.h"
#include "integrator/wavefront.h"
#include "render_suite.h"
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

using test::expect_counts_near;
using test::expect_images_mostly_close;
using test::RenderOnExecutor;
using test::trace_name;

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

TEST(RenderGpu, OwnAndThrustAgreeWithCompactionAndSortingOnAndOff) {
  // The frame schedule: one deposit per pixel per frame in frame order, so every switch and
  // backend gives the same bits.
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::gpu, 4);
  base.schedule = Schedule::frame;
  base.width = 96;
  base.height = 80;
  const RenderResult reference = render_own(scene, base);
  EXPECT_EQ(reference.stats.backend, PrimitivesBackend::own);
  EXPECT_EQ(reference.stats.executor, ExecutorKind::gpu);
  EXPECT_GT(reference.stats.peak_device_bytes, 0u);
  for (const bool compact : {true, false}) {
    for (const int sort_mode : {0, 1, 2}) {  // off, radix sort, multisplit
      const bool sort = sort_mode > 0;
      for (const bool thrust : {false, true}) {
        RenderSettings s = base;
        s.compact = compact;
        s.sort_by_material = sort;
        s.shade = ShadeMode::single;  // the sort of the single shade kernel
        s.material_multisplit = sort_mode == 2;
        SCOPED_TRACE(std::string(thrust ? "thrust" : "own") + ", compact " +
                     (compact ? "on" : "off") + ", sort " +
                     (sort_mode == 2 ? "multisplit"
                      : sort         ? "on"
                                     : "off"));
        const RenderResult r = thrust ? render_thrust(scene, s) : render_own(scene, s);
        EXPECT_EQ(r.stats.backend, thrust ? PrimitivesBackend::thrust : PrimitivesBackend::own);
        test::expect_consistent_stats(r, s);
        test::expect_all_finite(r.image);
        // Per-path work does not depend on the order of the paths: the same bits.
        ASSERT_EQ(r.image.rgb.size(), reference.image.rgb.size());
        for (std::size_t k = 0; k < r.image.rgb.size(); ++k)
          ASSERT_EQ(r.image.rgb[k], reference.image.rgb[k]) << "value " << k;
        test::expect_same_counts(r, reference);
        for (int b = 0; b < s.depth; ++b) {
          if (sort) {
            EXPECT_GT(r.stats.bounces[b].ms(Stage::sort), 0.0);
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
      s.shade = ShadeMode::single;  // the sort of the single shade kernel
      SCOPED_TRACE(trace_name(s));
      const RenderResult own = render_own(scene, s);
      const RenderResult thrust = render_thrust(scene, s);
      EXPECT_EQ(own.stats.backend, PrimitivesBackend::own);
      EXPECT_EQ(thrust.stats.backend, PrimitivesBackend::thrust);
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

TEST(RenderGpu, DeviceMemoryDoesNotGrowWithSamples) {
  // Everything is allocated once per render; Thrust's cached temporaries are reused, so the peak
  // after six samples per pixel is the peak after one (the stream pool is fixed here: its
  // default grows with the samples until it fills the device).
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 1);
  s.width = 200;
  s.height = 150;
  s.sort_by_material = true;
  s.shade = ShadeMode::single;  // the sort of the single shade kernel
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
    s.shade = ShadeMode::single;  // the sort of the single shade kernel
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

// The render tests written once for both executors (render_suite.h), on the GPU with each
// primitives backend.
INSTANTIATE_TEST_SUITE_P(
    Gpu, RenderOnExecutor,
    testing::Values(test::ExecutorCase{
        "gpu", ExecutorKind::gpu, {{"own", render_own}, {"thrust", render_thrust}}, false, 1024}),
    test::executor_case_name);

}  // namespace
}  // namespace raystream
