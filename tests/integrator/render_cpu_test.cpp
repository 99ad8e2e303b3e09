// End-to-end renders on the CPU executor: the white furnace, the three schedules tracing the same
// paths (stream, frame, megakernel), every sample issued once whatever the pool, the stream
// schedule's waves, compaction and sorting that change nothing in the image, statistics,
// determinism, the report of a stream render and bad settings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "execution/devices.h"
#include "execution/path_primitives.h"
#include "integrator/api/render.h"
#include "integrator/path/path_state.h"
#include "integrator/wavefront.h"
#include "io/scene/scene_loader.h"
#include "render_suite.h"
#include "render_test_scenes.h"
#include "stats/report.h"

namespace raystream {
namespace {

using test::box_scene;
using test::furnace_scene;
using test::settings_for;
using test::with_schedule;

using test::RenderOnExecutor;
using test::trace_name;

TEST(RenderCpu, EnvironmentFurnaceRendersOne) {
  // A diffuse sphere of albedo 1 and a conductor of reflectance 1 at low roughness under a
  // uniform environment of radiance 1: every pixel's expected value is 1 (the conductor loses
  // under 0.1% at ROUGHNESS 0.1), with next-event estimation and MIS and without.
  Scene scene;
  scene.path = "environment furnace (test)";
  scene.materials = {test::make_material("white", MaterialType::diffuse, glm::vec3(1.0f)),
                     test::make_material("metal", MaterialType::specular, glm::vec3(1.0f))};
  scene.materials[1].roughness = 0.1f;
  scene.objects = {test::make_object(ShapeType::sphere, 0, glm::vec3(-1.1f, 0.0f, 0.0f),
                                     glm::vec3(0.0f), glm::vec3(2.0f)),
                   test::make_object(ShapeType::sphere, 1, glm::vec3(1.1f, 0.0f, 0.0f),
                                     glm::vec3(0.0f), glm::vec3(2.0f))};
  scene.environment.present = true;
  scene.environment.constant = glm::vec3(1.0f);
  scene.camera.width = 32;
  scene.camera.height = 16;
  scene.camera.fovy_degrees = 12.0f;
  scene.camera.eye = glm::vec3(0.0f, 0.0f, 10.0f);
  scene.camera.lookat = glm::vec3(0.0f);
  scene.depth = 64;
  for (const bool nee : {true, false}) {
    SCOPED_TRACE(nee ? "path" : "bsdf");
    RenderSettings settings = settings_for(scene, ExecutorKind::cpu, 256);
    settings.nee = nee;
    const RenderResult r = render(scene, settings);
    EXPECT_EQ(r.stats.shadow_rays > 0, nee);
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(test::mean_channel(r.image, c), 1.0, 0.01) << c;
    for (float v : r.image.rgb) ASSERT_NEAR(v, 1.0f, 0.25f);
  }
}

TEST(RenderCpu, ShadowRaysReachLightsAtGrazingAngles) {
  // A two-sided lamp quad 0.09 below a ceiling: the ceiling around it is lit by the lamp's back
  // at grazing angles. Shadow rays leave from just off the ceiling; aimed along the sampled
  // direction from the hit point they met the lamp's plane short of their end and were shadowed
  // by the lamp itself (NEE rendered that ceiling black). Depth 2: direct light only.
  Scene scene;
  scene.path = "grazing (test)";
  scene.materials = {test::make_material("white", MaterialType::diffuse, glm::vec3(0.8f)),
                     test::make_material("lamp", MaterialType::diffuse, glm::vec3(0.0f))};
  scene.materials[1].emission = glm::vec3(10.0f);
  scene.objects = {test::make_object(ShapeType::cube, 0, glm::vec3(0.0f, 2.0f, 0.0f),
                                     glm::vec3(0.0f), glm::vec3(4.0f, 0.01f, 4.0f))};
  const glm::vec3 p0(-0.3f, 1.9f, -0.3f), p1(0.3f, 1.9f, -0.3f), p2(0.3f, 1.9f, 0.3f),
      p3(-0.3f, 1.9f, 0.3f);
  Triangle a, b;
  a.v[0] = p0, a.v[1] = p1, a.v[2] = p2;
  b.v[0] = p0, b.v[1] = p2, b.v[2] = p3;
  for (Triangle* t : {&a, &b}) {
    for (glm::vec3& n : t->n) n = glm::vec3(0.0f, -1.0f, 0.0f);
    t->material = 1;
  }
  scene.triangles = {a, b};
  scene.camera.width = 24;
  scene.camera.height = 16;
  scene.camera.fovy_degrees = 30.0f;
  scene.camera.eye = glm::vec3(0.0f, 0.5f, 3.0f);
  scene.camera.lookat = glm::vec3(0.0f, 1.95f, 0.0f);
  scene.depth = 2;
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 256);
  const RenderResult nee = render(scene, s);
  s.nee = false;
  const RenderResult bsdf = render(scene, s);
  const double a_mean = test::mean_channel(nee.image, 0),
               b_mean = test::mean_channel(bsdf.image, 0);
  std::printf("grazing lamp: path %.5f, bsdf %.5f\n", a_mean, b_mean);
  EXPECT_GT(b_mean, 0.0);
  EXPECT_NEAR(a_mean, b_mean, 0.02 * b_mean);
}

TEST(RenderCpu, NonFiniteContributionsAreDroppedAloneInEverySchedule) {
  // A small floor of albedo 2000 (not physical: it makes the numbers overflow) under a small
  // sphere light of radiance 3e38, out of the camera's view: every shadow ray's contribution,
  // throughput x BSDF x radiance / pdf, overflows a float (the floor reaches no farther than 1.5
  // from the light), while a BSDF-sampled ray that hits the light (its MIS weight is about 1e-6)
  // stays finite. Each contribution is checked where it is made and a non-finite one is dropped
  // alone, so every schedule keeps the rest of the path and renders the same image. Before, the
  // megakernel added the infinite shadow term into the path and so dropped the whole path, while
  // the wavefront dropped the shadow term alone. Depth 2: direct light only.
  Scene scene;
  scene.path = "overflow (test)";
  scene.materials = {test::make_material("floor", MaterialType::diffuse, glm::vec3(2000.0f)),
                     test::make_material("light", MaterialType::emitting, glm::vec3(1.0f), 3e38f)};
  scene.objects = {test::make_object(ShapeType::cube, 0, glm::vec3(0.0f, -0.01f, 0.0f),
                                     glm::vec3(0.0f), glm::vec3(1.6f, 0.02f, 1.6f)),
                   test::make_object(ShapeType::sphere, 1, glm::vec3(0.0f, 1.0f, 0.0f),
                                     glm::vec3(0.0f), glm::vec3(0.1f))};
  scene.camera.width = 16;
  scene.camera.height = 12;
  scene.camera.fovy_degrees = 12.0f;
  scene.camera.eye = glm::vec3(0.0f, 0.6f, 2.2f);
  scene.camera.lookat = glm::vec3(0.0f);
  scene.depth = 2;
  const RenderSettings s = settings_for(scene, ExecutorKind::cpu, 64);
  const RenderResult stream = render(scene, s);
  test::expect_all_finite(stream.image);
  // Every shadow ray's contribution was dropped before it was traced, yet the floor is lit by
  // the BSDF-sampled rays that hit the light.
  EXPECT_EQ(stream.stats.shadow_rays, 0u);
  EXPECT_GT(test::mean_channel(stream.image, 0), 0.0);
  for (const Schedule schedule : {Schedule::frame, Schedule::megakernel}) {
    SCOPED_TRACE(schedule_name(schedule));
    const RenderResult r = render(scene, with_schedule(s, schedule));
    EXPECT_EQ(r.stats.shadow_rays, 0u);
    test::expect_images_close(stream.image, r.image);
  }
}

TEST(RenderCpu, NextEventEstimationAgreesWithBsdfSampling) {
  // Triangle, sphere and environment lights, a textured emitter; rough glass, rough and smooth
  // metal, textures, a metallic-roughness floor, alpha: the two estimators converge to the same
  // image, and NEE + MIS has the lower noise (less so than without the veil's stochastic
  // transparency, whose noise neither estimator reduces: 0.70 of BSDF sampling's here).
  const Scene scene = test::feature_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 128);
  s.width = 32;
  s.height = 24;
  const RenderResult nee = render(scene, s);
  test::expect_all_finite(nee.image);
  test::expect_consistent_stats(nee, s);
  EXPECT_GT(nee.stats.shadow_rays, 0u);
  s.nee = false;
  const RenderResult bsdf = render(scene, s);
  test::expect_same_counts(nee, bsdf);  // the same paths: light samples use their own numbers
  s.seed += 1;
  const RenderResult bsdf_other = render(scene, s);
  s.nee = true;
  const RenderResult nee_other = render(scene, s);
  const double noise_bsdf = test::rms_difference(bsdf.image, bsdf_other.image);
  const double noise_nee = test::rms_difference(nee.image, nee_other.image);
  std::printf("rms seed-to-seed difference: bsdf %.4f, path %.4f\n", noise_bsdf, noise_nee);
  EXPECT_LT(noise_nee, 0.8 * noise_bsdf);
  for (int c = 0; c < 3; ++c) {
    const double a =
        0.5 * (test::mean_channel(nee.image, c) + test::mean_channel(nee_other.image, c));
    const double b =
        0.5 * (test::mean_channel(bsdf.image, c) + test::mean_channel(bsdf_other.image, c));
    EXPECT_NEAR(a, b, 0.03 * b) << "channel " << c;
  }
}

TEST(RenderCpu, CompactionAndSortingLeaveTheFrameScheduleImageBitIdentical) {
  // The random numbers are keyed by pixel, sample and depth, so the order paths are processed in
  // does not matter, and in the frame schedule each pixel gets one deposit per frame, in frame
  // order: every combination gives the same bits and the same per-depth counts.
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::cpu, 6);
  base.schedule = Schedule::frame;
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
      s.shade = ShadeMode::single;  // the sort of the single shade kernel
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
  // same counts, with every switch of the frame schedule.
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::cpu, 4);
  base.schedule = Schedule::frame;
  const RenderResult reference = render(scene, base);
  WavefrontOptions gpu_shaped;
  gpu_shaped.cpu_live_slots_only = false;
  for (const bool compact : {false, true}) {
    for (const bool sort : {false, true}) {
      RenderSettings s = base;
      s.compact = compact;
      s.sort_by_material = sort;
      s.shade = ShadeMode::single;  // the sort of the single shade kernel
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
  base.shade = ShadeMode::single;  // the sort of the single shade kernel
  const RenderResult open_reference = render(open, base);
  const RenderResult open_gpu_shaped =
      render_wavefront(open, base, own_primitives::path_primitives(), gpu_shaped);
  EXPECT_EQ(open_gpu_shaped.image.rgb, open_reference.image.rgb);
  EXPECT_LT(open_reference.stats.bounces[1].paths_in, open_reference.stats.bounces[0].paths_in / 2);
}

TEST(RenderCpu, SameSeedSameImageOtherSeedOtherImage) {
  const Scene scene = box_scene();
  for (const Schedule schedule : test::kSchedules) {
    RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::cpu, 2), schedule);
    SCOPED_TRACE(trace_name(s));
    const RenderResult a = render(scene, s);
    const RenderResult b = render(scene, s);
    // The stream schedule adds a pixel's samples in the order its threads end them: the same
    // paths, the sums equal up to rounding. The other two add one sample per pixel per frame.
    if (schedule == Schedule::stream) {
      test::expect_images_close(a.image, b.image);
    } else {
      EXPECT_EQ(a.image.rgb, b.image.rgb);
    }
    test::expect_same_counts(a, b);
    s.seed += 1;
    const RenderResult c = render(scene, s);
    EXPECT_GT(test::rms_difference(a.image, c.image), 0.0);
    EXPECT_EQ(a.stats.backend, PrimitivesBackend::cpu);
    EXPECT_EQ(a.stats.executor, ExecutorKind::cpu);
    EXPECT_EQ(a.stats.peak_device_bytes, 0u);
  }
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

TEST(RenderCpu, EmptySceneIsBlackAndEveryPathEscapes) {
  Scene scene = box_scene();
  scene.objects.clear();
  for (const Schedule schedule : test::kSchedules) {
    const RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::cpu, 1), schedule);
    SCOPED_TRACE(trace_name(s));
    const RenderResult r = render(scene, s);
    test::expect_consistent_stats(r, s);
    for (float v : r.image.rgb) ASSERT_EQ(v, 0.0f);
    EXPECT_EQ(r.stats.bounces[0].paths_out, 0u);
    EXPECT_EQ(r.stats.bounces[1].paths_in, 0u);
    EXPECT_EQ(r.stats.path_segments, test::total_samples(s));
  }
}

TEST(RenderCpu, EmitterSeenDirectlyAtDepthOne) {
  // The camera inside an emitting sphere sees its radiance in every pixel, whatever the depth.
  Scene scene = furnace_scene();
  scene.objects.resize(1);
  for (const Schedule schedule : test::kSchedules) {
    RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::cpu, 3), schedule);
    s.depth = 1;
    SCOPED_TRACE(trace_name(s));
    const RenderResult r = render(scene, s);
    test::expect_consistent_stats(r, s);
    for (std::size_t p = 0; p < r.image.rgb.size() / 3; ++p)
      for (int c = 0; c < 3; ++c)
        ASSERT_FLOAT_EQ(r.image.rgb[3 * p + c], test::kFurnaceRadiance[c]);
    EXPECT_EQ(r.stats.bounces[0].paths_out, 0u);
  }
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
  for (const Schedule schedule : {Schedule::frame, Schedule::megakernel}) {
    RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::cpu, 3), schedule);
    s.width = 8;
    s.height = 8;
    SCOPED_TRACE(trace_name(s));
    int calls = 0, last = 0;
    s.on_progress = [&](int done, int total) {
      ++calls;
      EXPECT_EQ(done, last + 1);
      EXPECT_EQ(total, 3);
      last = done;
    };
    render(scene, s);
    EXPECT_EQ(calls, 3);
  }
}

TEST(RenderCpu, ProgressCallbackOfTheStreamScheduleGrowsToTheTotal) {
  // The stream schedule reports whole passes done after each batch of waves: never backwards,
  // never beyond the total, and the total at the end.
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 5);
  s.width = 8;
  s.height = 8;
  s.pool = 16;  // many waves, several batches
  int calls = 0, last = 0;
  s.on_progress = [&](int done, int total) {
    ++calls;
    EXPECT_GE(done, last);
    EXPECT_GE(done, 0);
    EXPECT_LE(done, 5);
    EXPECT_EQ(total, 5);
    last = done;
  };
  const RenderResult r = render(scene, s);
  EXPECT_GT(calls, 1);
  EXPECT_EQ(last, 5);
  EXPECT_GT(r.stats.waves.size(), 8u);
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
  RenderSettings huge_pool = s;
  huge_pool.pool = kMaxPathSlots;
  expect_error(huge_pool, scene, "path pool");
  if (!gpu_available()) {
    RenderSettings gpu = s;
    gpu.executor = ExecutorKind::gpu;
    expect_error(gpu, scene, "no CUDA device");
  }
}

// ---- The schedules -------------------------------------------------------------------------

// Mean and standard deviation over the values of a - b.
struct Difference {
  double mean = 0, sd = 0, t = 0;
  std::size_t n = 0;
};

Difference difference(const Image& a, const Image& b) {
  Difference d;
  d.n = a.rgb.size();
  for (std::size_t k = 0; k < d.n; ++k) d.mean += double(a.rgb[k]) - double(b.rgb[k]);
  d.mean /= double(d.n);
  for (std::size_t k = 0; k < d.n; ++k) {
    const double x = double(a.rgb[k]) - double(b.rgb[k]) - d.mean;
    d.sd += x * x;
  }
  d.sd = std::sqrt(d.sd / double(d.n - 1));
  d.t = d.sd > 0 ? d.mean / (d.sd / std::sqrt(double(d.n))) : 0.0;
  return d;
}

TEST(RenderCpu, SchedulesAreUnbiasedAcrossSeeds) {
  // Not the same paths this time: other seeds. Two unbiased renders of the same scene differ by
  // noise only: the mean of their per-pixel difference is zero within its standard error, and the
  // spread of the difference between two schedules is the spread between two seeds of one.
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::cpu, 128);
  base.width = 24;
  base.height = 20;
  RenderSettings s1 = with_schedule(base, Schedule::stream);
  s1.seed = 1;
  RenderSettings s2 = with_schedule(base, Schedule::frame);
  s2.seed = 2;
  RenderSettings s3 = with_schedule(base, Schedule::megakernel);
  s3.seed = 3;
  RenderSettings s4 = with_schedule(base, Schedule::stream);
  s4.seed = 4;
  const RenderResult stream = render(scene, s1);
  const RenderResult frame = render(scene, s2);
  const RenderResult mega = render(scene, s3);
  const RenderResult stream_other = render(scene, s4);
  test::expect_all_finite(stream.image);
  test::expect_all_finite(frame.image);
  test::expect_all_finite(mega.image);
  const Difference noise = difference(stream.image, stream_other.image);
  struct Pair {
    const char* name;
    const RenderResult& a;
    const RenderResult& b;
  };
  for (const Pair& p :
       {Pair{"stream - frame", stream, frame}, Pair{"stream - megakernel", stream, mega},
        Pair{"frame - megakernel", frame, mega},
        Pair{"stream - stream (seeds 1, 4)", stream, stream_other}}) {
    const Difference d = difference(p.a.image, p.b.image);
    std::printf("%-28s mean %+.5f, sd %.5f, t %+.2f (sd of two stream seeds %.5f)\n", p.name,
                d.mean, d.sd, d.t, noise.sd);
    SCOPED_TRACE(p.name);
    EXPECT_GT(d.sd, 0.0);  // other seeds: other paths
    EXPECT_LT(std::fabs(d.t), 5.0);
    EXPECT_GT(d.sd, 0.7 * noise.sd);
    EXPECT_LT(d.sd, 1.4 * noise.sd);
  }
  // The per-depth counts differ by noise only, too: within 3% at the first bounces.
  for (int b = 0; b < 3; ++b) {
    const double f = double(frame.stats.bounces[b].paths_out);
    EXPECT_NEAR(double(stream.stats.bounces[b].paths_out), f, 0.03 * f) << "depth " << b;
    EXPECT_NEAR(double(mega.stats.bounces[b].paths_out), f, 0.03 * f) << "depth " << b;
  }
}

TEST(RenderCpu, StreamImageDoesNotDependOnThePoolSize) {
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::cpu, 3);
  base.width = 16;
  base.height = 12;  // 576 samples
  const RenderResult reference = render(scene, with_schedule(base, Schedule::frame));
  for (const std::size_t pool :
       {std::size_t(1), std::size_t(7), std::size_t(1024), std::size_t(0)}) {
    RenderSettings s = with_schedule(base, Schedule::stream);
    s.pool = pool;
    SCOPED_TRACE(trace_name(s));
    const RenderResult r = render(scene, s);
    test::expect_consistent_stats(r, s);
    test::expect_same_counts(r, reference);
    test::expect_images_close(r.image, reference.image);
  }
}

TEST(RenderCpu, StreamWaveStatistics) {
  const Scene scene = box_scene();
  RenderSettings base = settings_for(scene, ExecutorKind::cpu, 3);
  base.width = 16;
  base.height = 12;  // 576 samples
  base.pool = 100;   // does not divide 576
  for (const StageTiming timing : {StageTiming::sampled, StageTiming::all, StageTiming::off}) {
    RenderSettings s = base;
    s.timing = timing;
    SCOPED_TRACE(stage_timing_name(timing));
    const RenderResult r = render(scene, s);
    const RenderStats& st = r.stats;
    test::expect_consistent_stats(r, s);  // the wave checks: test::expect_consistent_waves
    EXPECT_EQ(st.schedule, Schedule::stream);
    EXPECT_EQ(st.pool, 100u);
    ASSERT_GT(st.waves.size(), 6u);  // 576 samples through 100 slots, several bounces each
    std::uint64_t regenerated = 0;
    for (const WaveStats& w : st.waves) regenerated += w.regenerated;
    EXPECT_EQ(regenerated, 576u);
    EXPECT_EQ(st.waves.front().regenerated, 100u);
    EXPECT_EQ(st.waves.back().paths_out, 0u);
    for (std::size_t k = 0; k < st.waves.size(); ++k) {
      const WaveStats& w = st.waves[k];
      EXPECT_LE(w.live_in + w.regenerated, st.pool) << "wave " << k;
      if (k + 1 < st.waves.size()) {
        EXPECT_EQ(w.paths_out, st.waves[k + 1].live_in) << "wave " << k;
      }
    }
    EXPECT_TRUE(st.frame_ms.empty());
    switch (timing) {
      case StageTiming::sampled:
        EXPECT_GT(st.timed_units, 0);
        EXPECT_LT(st.timed_units, int(st.waves.size()));
        EXPECT_GT(st.stage_ms[int(Stage::intersect)], 0.0);
        break;
      case StageTiming::all:
        EXPECT_EQ(st.timed_units, int(st.waves.size()));
        for (const WaveStats& w : st.waves) EXPECT_TRUE(w.stages_timed);
        EXPECT_GT(st.stage_ms[int(Stage::intersect)], 0.0);
        break;
      case StageTiming::off:
        EXPECT_EQ(st.timed_units, 0);
        for (const WaveStats& w : st.waves) {
          EXPECT_EQ(w.ms, -1.0);
          EXPECT_FALSE(w.stages_timed);
        }
        for (int k = 0; k < kStageCount; ++k) EXPECT_EQ(st.stage_ms[k], 0.0);
        break;
    }
  }
}

TEST(RenderCpu, StreamSortByMaterialLeavesTheImageUnchanged) {
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 4);
  s.width = 24;
  s.height = 20;
  for (const std::size_t pool : {std::size_t(0), std::size_t(333)}) {
    s.pool = pool;
    s.sort_by_material = false;
    SCOPED_TRACE(trace_name(s));
    const RenderResult unsorted = render(scene, s);
    s.sort_by_material = true;
    s.shade = ShadeMode::single;  // the sort of the single shade kernel
    const RenderResult sorted = render(scene, s);
    test::expect_consistent_stats(sorted, s);
    test::expect_same_counts(sorted, unsorted);
    test::expect_images_close(sorted.image, unsorted.image);
    EXPECT_GT(sorted.stats.stage_ms[int(Stage::sort)], 0.0);
  }
}

TEST(RenderCpu, ReportOfAStreamRender) {
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 2);
  s.width = 16;
  s.height = 12;
  s.pool = 50;
  s.timing = StageTiming::all;
  const RenderResult r = render(scene, s);
  RunInfo info;
  info.scene = "box.json";
  info.seed = s.seed;
  std::ostringstream out;
  print_report(out, r.stats, info);
  const std::string text = out.str();
  const auto has = [&](const std::string& needle) {
    EXPECT_NE(text.find(needle), std::string::npos) << "\"" << needle << "\" not in:\n" << text;
  };
  has("box.json: 16 x 12, 2 samples per pixel, depth 8, integrator path, schedule stream (pool "
      "50, fused compaction), sort by material off, seed 1234\n");
  has("shadow rays/s");
  has("per depth, average per sample per pixel:\n");
  has("waves by fill of the pool: " + std::to_string(r.stats.waves.size()) + " waves\n");
  for (const char* fill : {">= 90%", "50-90%", "10-50%", "< 10%"}) has(fill);
  has("stage ms (from " + std::to_string(r.stats.waves.size()) + " timed waves): regenerate ");
  EXPECT_EQ(text.find("frame time"), std::string::npos) << text;  // no frames in a stream render

  const auto j = nlohmann::json::parse(stats_json(r.stats, info));
  EXPECT_EQ(j["schedule"], "stream");
  EXPECT_EQ(j["pool"], 50);
  EXPECT_EQ(j["stage_timing"], "all");
  EXPECT_EQ(j["spp"], 2);
  EXPECT_EQ(j["timed_units"], r.stats.waves.size());
  EXPECT_EQ(j["path_segments"], r.stats.path_segments);
  ASSERT_TRUE(j.contains("waves"));
  EXPECT_EQ(j["waves"]["count"], r.stats.waves.size());
  ASSERT_EQ(j["waves"]["each"].size(), r.stats.waves.size());
  std::uint64_t waves_in_classes = 0;
  for (const auto& c : j["waves"]["by_fill"]) waves_in_classes += c["waves"].get<std::uint64_t>();
  EXPECT_EQ(waves_in_classes, r.stats.waves.size());
  for (std::size_t k = 0; k < r.stats.waves.size(); ++k) {
    const auto& row = j["waves"]["each"][k];
    const WaveStats& w = r.stats.waves[k];
    ASSERT_EQ(row.size(), 4u);
    EXPECT_EQ(row[0], w.live_in);
    EXPECT_EQ(row[1], w.regenerated);
    EXPECT_EQ(row[2], w.paths_out);
    EXPECT_EQ(row[3], w.ms);
  }
  // A frame render has no waves in its JSON.
  const RenderResult frame = render(scene, with_schedule(s, Schedule::frame));
  const auto jf = nlohmann::json::parse(stats_json(frame.stats, info));
  EXPECT_EQ(jf["schedule"], "frame");
  EXPECT_FALSE(jf.contains("waves"));
  EXPECT_EQ(jf["pool"], 16 * 12);
}

// Issue 34, item 1: a lamp of radiance 1e38 lit the floor "mostly black with speckles": its
// power overflowed the light table's float sum and every pick was NaN. Scaled by the emittance,
// the floor renders as under a lamp of 1e30. (Pixels that see the lamp itself sum samples of
// 1e38 and overflow the film; the floor's do not.)
TEST(RenderCpu, LampsNearTheFloatLimitLightTheFloor) {
  Scene scene = load_scene("scenes/cornell.json");
  const auto lamp =
      std::find_if(scene.materials.begin(), scene.materials.end(),
                   [](const Material& m) { return m.type == MaterialType::emitting; });
  ASSERT_NE(lamp, scene.materials.end());
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 4);
  s.width = 64;
  s.height = 48;
  const auto floor_mean = [&](float emittance) {
    lamp->emittance = emittance;
    const Image image = render(scene, s).image;
    double sum = 0.0;
    for (int y = image.height - 8; y < image.height; ++y)
      for (int x = 0; x < image.width; ++x)
        for (int c = 0; c < 3; ++c)
          sum += double(image.rgb[3 * (std::size_t(y) * image.width + x) + c]) / emittance;
    return sum / (8.0 * image.width * 3);
  };
  const double reference = floor_mean(1e30f), huge = floor_mean(1e38f);
  EXPECT_GT(reference, 0.0);
  EXPECT_NEAR(huge, reference, 0.02 * reference);
}

// Issue 34, item 8: sampled timing scaled the first wave's stages (it is always timed, and the
// fullest) by the count of waves: on cornell at 64x48, 4 spp the stages summed to 228.7 ms of an
// 81.4 ms render. Scaled by time, the stages never claim more than the render took.
TEST(RenderCpu, SampledStageTimesStayWithinTheRender) {
  const Scene scene = load_scene("scenes/cornell.json");
  for (const Schedule schedule : {Schedule::stream, Schedule::frame}) {
    RenderSettings s = settings_for(scene, ExecutorKind::cpu, schedule == Schedule::frame ? 20 : 4);
    s.width = 64;
    s.height = 48;
    s.schedule = schedule;
    s.timing = StageTiming::sampled;
    const RenderResult r = render(scene, s);
    ASSERT_GT(r.stats.timed_units, 0) << schedule_name(schedule);
    double stages = 0.0;
    for (double ms : r.stats.stage_ms) stages += ms;
    EXPECT_GT(stages, 0.0) << schedule_name(schedule);
    EXPECT_LE(stages, r.stats.total_ms) << schedule_name(schedule);
    if (schedule == Schedule::stream) {
      ASSERT_GT(r.stats.waves.size(), std::size_t(r.stats.timed_units));  // some were not timed
      double waves = 0.0;
      for (const WaveStats& w : r.stats.waves) waves += w.ms;
      EXPECT_LE(stages, waves * (1 + 1e-9));
    } else {
      double frames = 0.0;
      for (double ms : r.stats.frame_ms) frames += ms;
      EXPECT_LE(stages, frames * (1 + 1e-9));
    }
  }
}

// Issue 34, item 3: what the report says ran is what ran.
TEST(RenderCpu, StatisticsSayWhatRan) {
  Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 1);
  s.width = 8;
  s.height = 6;
  s.sort_by_material = true;
  s.shade = ShadeMode::single;  // the sort of the single shade kernel
  s.material_multisplit = true;
  s.compact = false;
  RenderResult r = render(scene, with_schedule(s, Schedule::stream));
  EXPECT_TRUE(r.stats.sort_by_material);
  EXPECT_TRUE(r.stats.material_multisplit);
  EXPECT_TRUE(r.stats.compact);  // the stream schedule always compacts
  r = render(scene, with_schedule(s, Schedule::frame));
  EXPECT_TRUE(r.stats.sort_by_material);
  EXPECT_FALSE(r.stats.compact);
  r = render(scene, with_schedule(s, Schedule::megakernel));
  EXPECT_FALSE(r.stats.sort_by_material);
  EXPECT_FALSE(r.stats.material_multisplit);
  EXPECT_FALSE(r.stats.compact);
  EXPECT_EQ(r.stats.timing, StageTiming::off);
  // 42 materials: keys of 6 bits, more than the multisplit's 5: the radix sort ran.
  while (scene.materials.size() < 42) scene.materials.push_back(scene.materials.back());
  r = render(scene, with_schedule(s, Schedule::stream));
  EXPECT_TRUE(r.stats.sort_by_material);
  EXPECT_FALSE(r.stats.material_multisplit);
  EXPECT_FALSE(settings_that_run(s, scene).material_multisplit);
  scene.materials.resize(31);
  EXPECT_TRUE(settings_that_run(s, scene).material_multisplit);
  scene.materials.push_back(scene.materials.back());
  EXPECT_FALSE(settings_that_run(s, scene).material_multisplit);
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
  EXPECT_EQ(primitives_backend(), PrimitivesBackend::own);
}

}  // namespace
}  // namespace raystream

namespace raystream {
namespace {

// A render split into shares of samples gives the image of the whole render, up to the order of
// the film's additions, and statistics that add up.
TEST(RenderSplitCpu, OneTwoAndThreeSharesGiveTheSameImage) {
  const Scene scene = test::box_scene();
  for (const Schedule schedule : test::kSchedules) {
    SCOPED_TRACE(schedule_name(schedule));
    const RenderSettings s =
        test::with_schedule(test::settings_for(scene, ExecutorKind::cpu, 7), schedule);
    const RenderResult whole = render(scene, s);
    for (const int shares : {1, 2, 3}) {
      SCOPED_TRACE(std::to_string(shares) + " shares");
      const RenderResult split = render_split(scene, s, std::vector<int>(shares, 0));
      test::expect_images_close(split.image, whole.image, 1e-5, 1e-6);
      test::expect_same_counts(split, whole);
      EXPECT_EQ(split.stats.spp, 7);
      EXPECT_EQ(split.stats.path_segments, whole.stats.path_segments);
      if (shares == 1) {
        EXPECT_TRUE(split.stats.shares.empty());
        continue;
      }
      ASSERT_EQ(split.stats.shares.size(), static_cast<std::size_t>(shares));
      int next = 0;
      std::uint64_t segments = 0;
      for (const RenderStats& share : split.stats.shares) {
        EXPECT_EQ(share.first_sample, next);  // contiguous, in order
        next += share.spp;
        segments += share.path_segments;
      }
      EXPECT_EQ(next, 7);
      EXPECT_EQ(segments, split.stats.path_segments);
    }
  }
}

TEST(RenderSplitCpu, SharesOfFewerSamplesThanSharesAndProgress) {
  const Scene scene = test::box_scene();
  RenderSettings s = test::settings_for(scene, ExecutorKind::cpu, 2);
  int last = 0, total = 0;
  s.on_progress = [&](int done, int of) {
    EXPECT_GE(done, last);
    last = done;
    total = of;
  };
  const RenderResult whole = render(scene, test::settings_for(scene, ExecutorKind::cpu, 2));
  const RenderResult split = render_split(scene, s, {0, 0, 0});  // one share is empty
  test::expect_images_close(split.image, whole.image, 1e-5, 1e-6);
  EXPECT_EQ(split.stats.shares.size(), 2u);
  EXPECT_EQ(last, 2);
  EXPECT_EQ(total, 2);
  EXPECT_EQ(share_first_sample(s, 0, 3), 0);
  EXPECT_EQ(share_first_sample(s, 1, 3), 1);
  EXPECT_EQ(share_first_sample(s, 2, 3), 2);
  EXPECT_EQ(share_first_sample(s, 3, 3), 2);
  s.spp = 7;
  EXPECT_EQ(share_first_sample(s, 1, 3), 3);  // 3, 2, 2
  EXPECT_EQ(share_first_sample(s, 2, 3), 5);
}

TEST(RenderSplitCpu, AShareThatFailsNamesItself) {
  Scene scene = test::box_scene();
  RenderSettings s = test::settings_for(scene, ExecutorKind::cpu, 2);
  s.depth = 0;  // every share fails validation
  try {
    render_split(scene, s, {0, 0});
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("share 0: "), std::string::npos) << e.what();
  }
  EXPECT_THROW(render_split(scene, s, {}), std::runtime_error);
}

}  // namespace
}  // namespace raystream

namespace raystream {
namespace {

// The render tests written once for both executors (render_suite.h), on the CPU.
INSTANTIATE_TEST_SUITE_P(Cpu, RenderOnExecutor,
                         testing::Values(test::ExecutorCase{
                             "cpu", ExecutorKind::cpu, {{"cpu", render}}, true, 64}),
                         test::executor_case_name);

}  // namespace
}  // namespace raystream
