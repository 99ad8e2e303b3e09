// End-to-end renders on the CPU executor: the white furnace, compaction and sorting that change
// nothing in the image, statistics, determinism and bad settings.
#include <gtest/gtest.h>

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

TEST(RenderCpu, WhiteFurnaceRendersTheEmitterEverywhere) {
  const Scene scene = furnace_scene();
  const RenderSettings settings = settings_for(scene, ExecutorKind::cpu, 32);
  const RenderResult r = render(scene, settings);
  test::expect_all_finite(r.image);
  test::expect_consistent_stats(r, settings);
  for (int c = 0; c < 3; ++c)
    EXPECT_NEAR(test::mean_channel(r.image, c), test::kFurnaceRadiance[c],
                0.005 * test::kFurnaceRadiance[c])
        << "channel " << c;
  // Per pixel: only Russian roulette adds noise (the weights are exactly 1 before it).
  const std::size_t pixels = r.image.rgb.size() / 3;
  for (std::size_t p = 0; p < pixels; ++p)
    for (int c = 0; c < 3; ++c)
      ASSERT_NEAR(r.image.rgb[3 * p + c], test::kFurnaceRadiance[c],
                  0.3 * test::kFurnaceRadiance[c])
          << "pixel " << p << " channel " << c;
  // Roulette did act: the furnace has paths longer than three bounces.
  EXPECT_GT(r.stats.bounces[4].paths_in, 0u);
}

TEST(RenderCpu, CompactionAndSortingLeaveTheImageBitIdentical) {
  // The random numbers are keyed by pixel, frame and bounce, so the order paths are processed in
  // does not matter: every combination gives the same bits and the same per-bounce counts.
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::cpu, 6);
  base.compact = true;
  base.sort_by_material = false;
  const RenderResult reference = render(scene, base);
  test::expect_all_finite(reference.image);
  test::expect_consistent_stats(reference, base);
  EXPECT_GT(test::mean_channel(reference.image, 0), 0.01);
  for (const bool compact : {false, true}) {
    for (const bool sort : {false, true}) {
      RenderSettings s = base;
      s.compact = compact;
      s.sort_by_material = sort;
      const RenderResult r = render(scene, s);
      SCOPED_TRACE(std::string("compact ") + (compact ? "on" : "off") + ", sort " +
                   (sort ? "on" : "off"));
      test::expect_consistent_stats(r, s);
      ASSERT_EQ(r.image.rgb.size(), reference.image.rgb.size());
      for (std::size_t k = 0; k < r.image.rgb.size(); ++k)
        ASSERT_EQ(r.image.rgb[k], reference.image.rgb[k]) << "value " << k;
      for (int b = 0; b < s.depth; ++b) {
        EXPECT_EQ(r.stats.bounces[b].paths_in, reference.stats.bounces[b].paths_in);
        EXPECT_EQ(r.stats.bounces[b].paths_out, reference.stats.bounces[b].paths_out);
      }
    }
  }
}

TEST(RenderCpu, GpuShapedLoopOnTheCpuGivesTheSameImage) {
  // The CPU executor normally works on the live slots only. Run it the way the GPU runs: every
  // bounce over all n slots, the bound read inside the stages and by the compaction. Same bits,
  // same counts, with every switch.
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::cpu, 4);
  const RenderResult reference = render(scene, base);
  WavefrontOptions gpu_shaped;
  gpu_shaped.cpu_live_slots_only = false;
  for (const bool compact : {false, true}) {
    for (const bool sort : {false, true}) {
      RenderSettings s = base;
      s.compact = compact;
      s.sort_by_material = sort;
      SCOPED_TRACE(std::string("compact ") + (compact ? "on" : "off") + ", sort " +
                   (sort ? "on" : "off"));
      const RenderResult r =
          render_wavefront(scene, s, own_primitives::path_primitives(), gpu_shaped);
      test::expect_consistent_stats(r, s);
      EXPECT_EQ(r.image.rgb, reference.image.rgb);
      for (int b = 0; b < s.depth; ++b) {
        EXPECT_EQ(r.stats.bounces[b].paths_in, reference.stats.bounces[b].paths_in);
        EXPECT_EQ(r.stats.bounces[b].paths_out, reference.stats.bounces[b].paths_out);
      }
    }
  }
  // An open scene, where most slots are dead after the first bounce.
  Scene open = scene;
  open.objects.erase(open.objects.begin() + 1, open.objects.begin() + 7);
  base.sort_by_material = true;
  const RenderResult open_reference = render(open, base);
  const RenderResult open_gpu_shaped =
      render_wavefront(open, base, own_primitives::path_primitives(), gpu_shaped);
  EXPECT_EQ(open_gpu_shaped.image.rgb, open_reference.image.rgb);
  EXPECT_LT(open_reference.stats.bounces[1].paths_in, open_reference.stats.bounces[0].paths_in / 2);
}

TEST(RenderCpu, SortOverMoreThanEightKeyBits) {
  // 306 materials: keys need 9 bits, two digits of an 8-bit radix sort.
  const Scene scene = test::many_materials_scene(300);
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 2);
  EXPECT_EQ(material_key_bits(static_cast<int>(scene.materials.size())), 9);
  const RenderResult unsorted = render(scene, s);
  s.sort_by_material = true;
  const RenderResult sorted = render(scene, s);
  test::expect_consistent_stats(sorted, s);
  EXPECT_EQ(sorted.image.rgb, unsorted.image.rgb);
  for (int b = 0; b < s.depth; ++b)
    EXPECT_EQ(sorted.stats.bounces[b].paths_out, unsorted.stats.bounces[b].paths_out);
}

TEST(RenderCpu, SameSeedSameImageOtherSeedOtherImage) {
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 2);
  const RenderResult a = render(scene, s);
  const RenderResult b = render(scene, s);
  EXPECT_EQ(a.image.rgb, b.image.rgb);
  s.seed += 1;
  const RenderResult c = render(scene, s);
  EXPECT_GT(test::rms_difference(a.image, c.image), 0.0);
  EXPECT_EQ(a.stats.backend, "cpu");
  EXPECT_EQ(a.stats.executor, "cpu");
  EXPECT_EQ(a.stats.peak_device_bytes, 0u);
}

TEST(RenderCpu, BoxKeepsPathsAliveAndLosesSomeEachBounce) {
  const Scene scene = box_scene();
  const RenderSettings s = settings_for(scene, ExecutorKind::cpu, 2);
  const RenderResult r = render(scene, s);
  // A closed box: no path escapes at bounce 0, yet some end on the light or by roulette.
  const auto& b = r.stats.bounces;
  EXPECT_GT(b[0].paths_out, b[0].paths_in / 2);
  EXPECT_LT(b[s.depth - 1].paths_out, b[0].paths_in);
  EXPECT_LT(b[5].paths_out, b[2].paths_out);  // roulette from bounce 3 on
}

TEST(RenderCpu, OpenSceneLosesMostPathsAtTheFirstBounce) {
  Scene scene = box_scene();
  scene.objects.erase(scene.objects.begin() + 1, scene.objects.begin() + 7);  // no walls
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 2);
  const RenderResult r = render(scene, s);
  test::expect_consistent_stats(r, s);
  test::expect_all_finite(r.image);
  EXPECT_LT(r.stats.bounces[0].paths_out, r.stats.bounces[0].paths_in / 2);
  EXPECT_GT(r.stats.bounces[0].paths_out, 0u);
  EXPECT_GT(test::mean_channel(r.image, 0), 0.0);
}

TEST(RenderCpu, EmptySceneIsBlackAndEveryPathEscapes) {
  Scene scene = box_scene();
  scene.objects.clear();
  const RenderSettings s = settings_for(scene, ExecutorKind::cpu, 1);
  const RenderResult r = render(scene, s);
  for (float v : r.image.rgb) ASSERT_EQ(v, 0.0f);
  EXPECT_EQ(r.stats.bounces[0].paths_out, 0u);
  EXPECT_EQ(r.stats.bounces[1].paths_in, 0u);
}

TEST(RenderCpu, EmitterSeenDirectlyAtDepthOne) {
  // The camera inside an emitting sphere sees its radiance in every pixel, whatever the depth.
  Scene scene = furnace_scene();
  scene.objects.resize(1);
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 1);
  s.depth = 1;
  const RenderResult r = render(scene, s);
  for (std::size_t p = 0; p < r.image.rgb.size() / 3; ++p)
    for (int c = 0; c < 3; ++c) ASSERT_FLOAT_EQ(r.image.rgb[3 * p + c], test::kFurnaceRadiance[c]);
  EXPECT_EQ(r.stats.bounces[0].paths_out, 0u);
}

TEST(RenderCpu, ThinLensAndNonSquareImagesStayFinite) {
  Scene scene = box_scene();
  scene.camera.lens_radius = 0.3f;
  scene.camera.focal_distance = 8.0f;
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 2);
  s.width = 37;
  s.height = 11;
  const RenderResult r = render(scene, s);
  EXPECT_EQ(r.image.width, 37);
  EXPECT_EQ(r.image.height, 11);
  test::expect_all_finite(r.image);
  test::expect_consistent_stats(r, s);
}

TEST(RenderCpu, ProgressCallbackSeesEveryFrame) {
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 3);
  s.width = 8;
  s.height = 8;
  int calls = 0, last = 0;
  s.on_frame = [&](int done, int total) {
    ++calls;
    EXPECT_EQ(done, last + 1);
    EXPECT_EQ(total, 3);
    last = done;
  };
  render(scene, s);
  EXPECT_EQ(calls, 3);
}

TEST(RenderCpu, BadSettingsThrowNamingTheProblem) {
  const Scene scene = box_scene();
  auto expect_error = [&](RenderSettings s, Scene sc, const std::string& needle) {
    try {
      render(sc, s);
      ADD_FAILURE() << "no error for " << needle;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 1);
  RenderSettings zero_spp = s;
  zero_spp.spp = 0;
  expect_error(zero_spp, scene, "samples per pixel");
  RenderSettings zero_depth = s;
  zero_depth.depth = 0;
  expect_error(zero_depth, scene, "depth");
  RenderSettings negative = s;
  negative.width = -4;
  expect_error(negative, scene, "resolution");
  Scene bad_material = scene;
  bad_material.objects[2].material = 99;
  expect_error(s, bad_material, "material index 99");
  Scene flat = scene;
  flat.objects[8].scale.y = 0.0f;
  expect_error(s, flat, "object 8 has a zero or non-finite SCALE");
  Scene no_materials = scene;
  no_materials.materials.clear();
  expect_error(s, no_materials, "no materials");
  if (!gpu_available()) {
    RenderSettings gpu = s;
    gpu.executor = ExecutorKind::gpu;
    expect_error(gpu, scene, "no CUDA device");
  }
}

TEST(RenderCpu, MaterialKeyBits) {
  // Keys 0..count-1 for materials and count for dead slots.
  EXPECT_EQ(material_key_bits(1), 1);
  EXPECT_EQ(material_key_bits(2), 2);
  EXPECT_EQ(material_key_bits(3), 2);
  EXPECT_EQ(material_key_bits(4), 3);
  EXPECT_EQ(material_key_bits(7), 3);
  EXPECT_EQ(material_key_bits(8), 4);
  EXPECT_EQ(material_key_bits(255), 8);
  EXPECT_EQ(material_key_bits(256), 9);
}

TEST(RenderCpu, BackendNameComesFromTheLinkedStages) {
  EXPECT_STREQ(primitives_backend_name(), "own");
}

}  // namespace
}  // namespace raystream
