// End-to-end renders on the GPU executor (skipped without a CUDA device): the GPU image agrees
// with the CPU image of the same seed, the own and Thrust primitives give the same image and
// counts, compaction and sorting change nothing, the furnace holds, running out of memory is a
// clear error, and a 1920x1080 frame works.
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "integrator/path_primitives.h"
#include "integrator/render.h"
#include "integrator/wavefront.h"
#include "render_test_scenes.h"

namespace raystream {
namespace {

using test::box_scene;
using test::furnace_scene;
using test::settings_for;

RenderResult render_own(const Scene& scene, const RenderSettings& s) {
  return render_wavefront(scene, s, own_primitives::path_primitives());
}
RenderResult render_thrust(const Scene& scene, const RenderSettings& s) {
  return render_wavefront(scene, s, thrust_primitives::path_primitives());
}

TEST(RenderGpu, GpuAndCpuImagesAgreeWithinNoise) {
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 32);
  s.width = 64;
  s.height = 48;
  const RenderResult gpu = render_own(scene, s);
  test::expect_all_finite(gpu.image);
  test::expect_consistent_stats(gpu, s);
  s.executor = ExecutorKind::cpu;
  const RenderResult cpu = render_own(scene, s);
  s.seed += 7;
  const RenderResult cpu_other_seed = render_own(scene, s);
  // The same per-path code and random numbers: the paths agree but for float rounding (fused
  // multiply-adds on the device, library sin/cos), which rarely sends a path elsewhere. So the
  // same-seed difference must be far below the noise between two seeds, and the means agree.
  const double noise = test::rms_difference(cpu.image, cpu_other_seed.image);
  const double diff = test::rms_difference(gpu.image, cpu.image);
  std::printf("rms difference: GPU vs CPU same seed %.5f, CPU seed vs seed %.5f\n", diff, noise);
  EXPECT_GT(noise, 0.0);
  EXPECT_LT(diff, 0.5 * noise);
  for (int c = 0; c < 3; ++c) {
    const double g = test::mean_channel(gpu.image, c), m = test::mean_channel(cpu.image, c);
    EXPECT_NEAR(g, m, 0.01 * m + 1e-6) << "channel " << c;
  }
  // Every bounce's counts within a fraction of a percent (identical when no path diverged).
  for (int b = 0; b < s.depth; ++b) {
    const double g = double(gpu.stats.bounces[b].paths_out);
    const double m = double(cpu.stats.bounces[b].paths_out);
    EXPECT_NEAR(g, m, 0.005 * m + 2.0) << "bounce " << b;
  }
}

TEST(RenderGpu, WhiteFurnace) {
  const Scene scene = furnace_scene();
  const RenderSettings s = settings_for(scene, ExecutorKind::gpu, 64);
  const RenderResult r = render_own(scene, s);
  test::expect_all_finite(r.image);
  test::expect_consistent_stats(r, s);
  for (int c = 0; c < 3; ++c)
    EXPECT_NEAR(test::mean_channel(r.image, c), test::kFurnaceRadiance[c],
                0.01 * test::kFurnaceRadiance[c]);
}

TEST(RenderGpu, OwnAndThrustAgreeWithCompactionAndSortingOnAndOff) {
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::gpu, 4);
  base.width = 96;
  base.height = 80;
  const RenderResult reference = render_own(scene, base);
  EXPECT_EQ(reference.stats.backend, "own");
  EXPECT_EQ(reference.stats.executor, "gpu");
  EXPECT_GT(reference.stats.peak_device_bytes, 0u);
  for (const bool compact : {true, false}) {
    for (const bool sort : {false, true}) {
      for (const bool thrust : {false, true}) {
        RenderSettings s = base;
        s.compact = compact;
        s.sort_by_material = sort;
        SCOPED_TRACE(std::string(thrust ? "thrust" : "own") + ", compact " +
                     (compact ? "on" : "off") + ", sort " + (sort ? "on" : "off"));
        const RenderResult r = thrust ? render_thrust(scene, s) : render_own(scene, s);
        EXPECT_EQ(r.stats.backend, thrust ? "thrust" : "own");
        test::expect_consistent_stats(r, s);
        test::expect_all_finite(r.image);
        // Per-path work does not depend on the order of the paths: the same bits.
        ASSERT_EQ(r.image.rgb.size(), reference.image.rgb.size());
        for (std::size_t k = 0; k < r.image.rgb.size(); ++k)
          ASSERT_EQ(r.image.rgb[k], reference.image.rgb[k]) << "value " << k;
        for (int b = 0; b < s.depth; ++b) {
          EXPECT_EQ(r.stats.bounces[b].paths_in, reference.stats.bounces[b].paths_in);
          EXPECT_EQ(r.stats.bounces[b].paths_out, reference.stats.bounces[b].paths_out);
          if (sort) {
            EXPECT_GT(r.stats.bounces[b].sort_ms, 0.0);
          }
        }
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
  const RenderResult unsorted = render_own(scene, s);
  s.sort_by_material = true;
  for (const bool thrust : {false, true}) {
    SCOPED_TRACE(thrust ? "thrust" : "own");
    const RenderResult sorted = thrust ? render_thrust(scene, s) : render_own(scene, s);
    test::expect_consistent_stats(sorted, s);
    EXPECT_EQ(sorted.image.rgb, unsorted.image.rgb);
    for (int b = 0; b < s.depth; ++b)
      EXPECT_EQ(sorted.stats.bounces[b].paths_out, unsorted.stats.bounces[b].paths_out);
  }
}

TEST(RenderGpu, DeviceMemoryDoesNotGrowWithFrames) {
  // Everything is allocated once per render; Thrust's cached temporaries are reused, so the peak
  // after six frames is the peak after one.
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 1);
  s.width = 200;
  s.height = 150;
  s.sort_by_material = true;
  for (const bool thrust : {false, true}) {
    SCOPED_TRACE(thrust ? "thrust" : "own");
    s.spp = 1;
    const RenderResult one = thrust ? render_thrust(scene, s) : render_own(scene, s);
    s.spp = 6;
    const RenderResult six = thrust ? render_thrust(scene, s) : render_own(scene, s);
    EXPECT_GT(one.stats.peak_device_bytes, std::size_t(200 * 150 * 60));  // the path state
    EXPECT_EQ(six.stats.peak_device_bytes, one.stats.peak_device_bytes);
  }
}

TEST(RenderGpu, OpenSceneLosesMostPathsAtTheFirstBounce) {
  Scene scene = box_scene();
  scene.objects.erase(scene.objects.begin() + 1, scene.objects.begin() + 7);  // no walls
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 2);
  s.width = 128;
  s.height = 96;
  const RenderResult r = render_own(scene, s);
  test::expect_consistent_stats(r, s);
  EXPECT_LT(r.stats.bounces[0].paths_out, r.stats.bounces[0].paths_in / 2);
  const RenderResult t = render_thrust(scene, s);
  EXPECT_EQ(t.image.rgb, r.image.rgb);
}

TEST(RenderGpu, OutOfMemoryIsAClearErrorAndLeavesTheDeviceUsable) {
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 1);
  s.width = 40000;  // 1.6 G paths: about 150 GB of path state
  s.height = 40000;
  try {
    render_own(scene, s);
    ADD_FAILURE() << "a 40000 x 40000 render did not fail";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("out of GPU memory"), std::string::npos) << what;
    EXPECT_NE(what.find("bytes"), std::string::npos) << what;
  }
  s.width = 16;
  s.height = 16;
  const RenderResult r = render_own(scene, s);
  test::expect_all_finite(r.image);
}

TEST(RenderGpu, FullHdFramesAtDepthEight) {
  Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::gpu, 8);
  s.width = 1920;
  s.height = 1080;
  s.depth = 8;
  for (const bool sort : {false, true}) {
    s.sort_by_material = sort;
    const RenderResult r = render_own(scene, s);
    test::expect_consistent_stats(r, s);
    test::expect_all_finite(r.image);
    double frame_ms = 0.0;
    for (double ms : r.stats.frame_ms) frame_ms += ms;
    std::printf("1920x1080 depth 8, sort %s, %s: %.3f ms per frame (mean of %d), peak %.1f MiB\n",
                sort ? "on" : "off", r.stats.device.c_str(), frame_ms / r.stats.frames,
                r.stats.frames, r.stats.peak_device_bytes / 1048576.0);
  }
}

}  // namespace
}  // namespace raystream
