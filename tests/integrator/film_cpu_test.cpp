// The film on the CPU executor: per-pixel sample counts, renders stopped early (a time budget, a
// stop request) in every schedule, checkpoints handed over while rendering, renders resumed from
// them (alone and split into shares) that give the uninterrupted image, and the layers behind
// the AOVs (first-hit albedo, normal and depth; squared samples for the variance).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "integrator/api/render.h"
#include "render_test_scenes.h"

namespace raystream {
namespace {

using test::box_scene;
using test::settings_for;
using test::with_schedule;

std::uint64_t sum_counts(const FilmState& film) {
  std::uint64_t sum = 0;
  for (std::uint32_t c : film.counts) sum += c;
  return sum;
}

// A stop request that answers true from its n-th question on.
std::function<bool()> stop_after(int n) {
  auto asked = std::make_shared<int>(0);
  return [asked, n] { return ++*asked > n; };
}

TEST(FilmCpu, EveryPixelCountsItsSamples) {
  const Scene scene = box_scene();
  for (const Schedule schedule : test::kSchedules) {
    SCOPED_TRACE(schedule_name(schedule));
    const RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::cpu, 3), schedule);
    const RenderResult r = render(scene, s);
    for (std::uint32_t c : r.film.counts) ASSERT_EQ(c, 3u);
    EXPECT_EQ(r.stats.samples, test::total_samples(s));
    EXPECT_EQ(r.stats.film_samples, test::total_samples(s));
    EXPECT_EQ(r.stats.pixel_samples_min, 3u);
    EXPECT_EQ(r.stats.pixel_samples_max, 3u);
    EXPECT_EQ(r.stats.stopped, StopReason::none);
    ASSERT_EQ(r.next_samples.size(), 1u);
    EXPECT_EQ(r.next_samples[0], test::total_samples(s));
    // The image is the film's mean.
    const Image mean = film_image(r.film);
    EXPECT_EQ(mean.rgb, r.image.rgb);
  }
}

TEST(FilmCpu, ATimeBudgetStopsTheRenderAndTheImageIsTheMeanOfWhatEachPixelGot) {
  const Scene scene = box_scene();
  for (const Schedule schedule : test::kSchedules) {
    SCOPED_TRACE(schedule_name(schedule));
    RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::cpu, 100000), schedule);
    s.pool = 1000;  // many small waves: the budget is checked between them
    s.time_budget_s = 0.3;
    const RenderResult r = render(scene, s);
    EXPECT_EQ(r.stats.stopped, StopReason::time_budget);
    EXPECT_GT(r.stats.samples, 0u);
    EXPECT_LT(r.stats.samples, test::total_samples(s));
    EXPECT_EQ(sum_counts(r.film), r.stats.samples);
    EXPECT_EQ(r.next_samples.at(0), r.stats.samples);
    // The budget is kept, give or take the paths in flight (and a slow machine's last wave).
    EXPECT_LT(r.stats.total_ms, 300.0 + 2000.0);
    // Samples go in order: pixels get all but one count or that one (the stream schedule may
    // stop within a pass; the other two stop between passes).
    EXPECT_LE(r.stats.pixel_samples_max - r.stats.pixel_samples_min, 1u);
    if (schedule != Schedule::stream) {
      EXPECT_EQ(r.stats.samples % (s.width * s.height), 0u);
    }
    for (std::size_t p = 0; p < r.film.counts.size(); ++p) {
      const float n = float(r.film.counts[p]);
      for (int c = 0; c < 3; ++c)
        ASSERT_FLOAT_EQ(r.image.rgb[3 * p + c], n > 0 ? r.film.sums[3 * p + c] / n : 0.0f);
    }
    test::expect_all_finite(r.image);
  }
}

// Issue 40, item 6: on the CPU the stream schedule stops issuing once the budget has left about
// what its paths in flight need to end, so it overruns the budget by about half a wave. It used
// to stop issuing only when the budget was spent and then drain the pool, several waves of it
// (`--time 2` ran 2.985 s). The bound, two full waves, is generous: it catches the drain, and
// does not measure speed. A wave's time is wall time, so a busy machine can stretch the last
// waves: ctest runs this binary alone (RUN_SERIAL), and up to three renders are tried; the drain
// fails all three.
TEST(FilmCpu, TheCpuStreamScheduleOverrunsATimeBudgetByLessThanTwoWaves) {
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 100000);
  s.width = 256;
  s.height = 256;
  s.pool = 16384;  // short waves: the budget holds many, and several drains
  s.time_budget_s = 2.0;
  double over_ms = 0.0, full_ms = 0.0;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const RenderResult r = render(scene, s);
    ASSERT_EQ(r.stats.stopped, StopReason::time_budget);
    full_ms = 0.0;
    int full = 0;
    for (const WaveStats& w : r.stats.waves) {
      if (w.live_in + w.regenerated == r.stats.pool && w.ms > 0.0) {
        full_ms += w.ms;
        ++full;
      }
    }
    ASSERT_GT(full, 0);
    full_ms /= full;
    over_ms = r.stats.total_ms - 1000.0 * s.time_budget_s;
    std::printf("%zu waves, a full one %.1f ms; the render loop took %.1f ms of a %.0f ms budget\n",
                r.stats.waves.size(), full_ms, r.stats.total_ms, 1000.0 * s.time_budget_s);
    if (over_ms < 2.0 * full_ms) break;
  }
  EXPECT_LT(over_ms, 2.0 * full_ms);
}

TEST(FilmCpu, AStopRequestedBeforeTheFirstSampleRendersNothing) {
  const Scene scene = box_scene();
  for (const Schedule schedule : test::kSchedules) {
    SCOPED_TRACE(schedule_name(schedule));
    RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::cpu, 4), schedule);
    s.stop_requested = [] { return true; };
    const RenderResult r = render(scene, s);
    EXPECT_EQ(r.stats.stopped, StopReason::requested);
    EXPECT_EQ(r.stats.samples, 0u);
    EXPECT_EQ(sum_counts(r.film), 0u);
    EXPECT_EQ(r.next_samples.at(0), 0u);
    for (float v : r.image.rgb) ASSERT_EQ(v, 0.0f);
  }
}

// Renders `s` in pieces: stopped after `polls[i]` questions, resumed from the result each time
// (with the i-th schedule), then to the end. Returns the last result.
RenderResult render_in_pieces(const Scene& scene, RenderSettings s, const std::vector<int>& polls,
                              const std::vector<Schedule>& schedules) {
  RenderResult r;
  for (std::size_t piece = 0; piece <= polls.size(); ++piece) {
    RenderSettings p = with_schedule(s, schedules[piece % schedules.size()]);
    p.stop_requested = piece < polls.size() ? stop_after(polls[piece]) : nullptr;
    if (piece > 0) {
      p.resume_at = r.next_samples;
      p.initial_film = &r.film;
    }
    RenderResult next = render(scene, p);
    // A piece that reached the end before its stop did not stop.
    const bool ended = next.next_samples.at(0) == test::total_samples(p);
    EXPECT_EQ(next.stats.stopped, ended ? StopReason::none : StopReason::requested)
        << "piece " << piece;
    if (piece == polls.size()) {
      EXPECT_TRUE(ended);
    }
    EXPECT_EQ(sum_counts(next.film), next.next_samples.at(0));
    r = std::move(next);
  }
  return r;
}

TEST(FilmCpu, ARenderStoppedAndResumedGivesTheUninterruptedImage) {
  // The samples are numbered, and a stopped render has ended every sample below its counter: the
  // pieces render every sample once. Only the order of the film's additions differs.
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 5);
  s.pool = 700;  // the stream schedule stops within a pass
  for (const Schedule schedule : test::kSchedules) {
    SCOPED_TRACE(schedule_name(schedule));
    const RenderResult whole = render(scene, with_schedule(s, schedule));
    const RenderResult pieces = render_in_pieces(scene, s, {2, 1, 3}, {schedule});
    test::expect_images_close(pieces.image, whole.image, 1e-5, 1e-6);
    EXPECT_EQ(pieces.film.counts, whole.film.counts);
  }
  // Stopped by one schedule within a pass, resumed by another: the frame schedule and the
  // megakernel start within the pass too.
  const RenderResult whole = render(scene, with_schedule(s, Schedule::frame));
  const RenderResult mixed =
      render_in_pieces(scene, s, {3, 2, 4},
                       {Schedule::stream, Schedule::frame, Schedule::stream, Schedule::megakernel});
  test::expect_images_close(mixed.image, whole.image, 1e-5, 1e-6);
  EXPECT_EQ(mixed.film.counts, whole.film.counts);
}

TEST(FilmCpu, CheckpointsHoldEverySampleBelowTheirCounterAndResumeToTheSameImage) {
  const Scene scene = box_scene();
  for (const Schedule schedule : test::kSchedules) {
    SCOPED_TRACE(schedule_name(schedule));
    RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::cpu, 6), schedule);
    s.pool = 500;
    s.layers.squares = true;
    s.layers.first_hits = true;
    s.checkpoint_interval_s = 1e-9;  // due at every question
    std::vector<FilmState> films;
    std::vector<std::uint64_t> nexts;
    s.on_checkpoint = [&](const FilmState& film, const std::vector<std::uint64_t>& next) {
      ASSERT_EQ(next.size(), 1u);
      EXPECT_EQ(sum_counts(film), next[0]);
      if (!nexts.empty()) {
        EXPECT_GT(next[0], nexts.back());
      }
      films.push_back(film);
      nexts.push_back(next[0]);
    };
    const RenderResult whole = render(scene, s);
    ASSERT_GE(films.size(), 3u);
    EXPECT_LT(nexts.back(), test::total_samples(s));
    // Resumed from a checkpoint in the middle (no more checkpoints): the same image and layers.
    RenderSettings resumed = s;
    resumed.on_checkpoint = nullptr;
    const std::size_t middle = films.size() / 2;
    resumed.resume_at = {nexts[middle]};
    resumed.initial_film = &films[middle];
    const RenderResult r = render(scene, resumed);
    EXPECT_EQ(r.stats.samples, test::total_samples(s) - nexts[middle]);
    test::expect_images_close(r.image, whole.image, 1e-5, 1e-6);
    EXPECT_EQ(r.film.counts, whole.film.counts);
    ASSERT_EQ(r.film.squares.size(), whole.film.squares.size());
    for (std::size_t k = 0; k < r.film.squares.size(); ++k)
      ASSERT_NEAR(r.film.squares[k], whole.film.squares[k], 1e-4 * (1.0 + whole.film.squares[k]));
    ASSERT_EQ(r.film.first_hits.size(), whole.film.first_hits.size());
    for (std::size_t k = 0; k < r.film.first_hits.size(); ++k)
      ASSERT_NEAR(r.film.first_hits[k], whole.film.first_hits[k],
                  1e-4 * (1.0 + std::fabs(whole.film.first_hits[k])));
  }
}

TEST(FilmCpu, SplitRendersCheckpointEveryShareAndResume) {
  const Scene scene = box_scene();
  RenderSettings s = settings_for(scene, ExecutorKind::cpu, 7);
  s.pool = 400;
  const RenderResult whole = render(scene, s);
  const std::vector<int> shares = {0, 0, 0};
  // Stopped early: every share stops at once (the request is shared), each with its progress.
  RenderSettings stopped = s;
  stopped.stop_requested = stop_after(5);
  std::vector<FilmState> films;
  std::vector<std::vector<std::uint64_t>> nexts;
  stopped.checkpoint_interval_s = 1e-9;
  stopped.on_checkpoint = [&](const FilmState& film, const std::vector<std::uint64_t>& next) {
    ASSERT_EQ(next.size(), 3u);
    // The sum of the shares' films holds exactly the samples of their progress.
    std::uint64_t done = 0;
    for (int k = 0; k < 3; ++k)
      done += next[k] - std::uint64_t(share_first_sample(s, k, 3)) * s.width * s.height;
    EXPECT_EQ(sum_counts(film), done);
    films.push_back(film);
    nexts.push_back(next);
  };
  const RenderResult first = render_split(scene, stopped, shares);
  ASSERT_EQ(first.next_samples.size(), 3u);
  EXPECT_EQ(first.stats.stopped, StopReason::requested);
  EXPECT_LT(first.stats.samples, test::total_samples(s));
  ASSERT_FALSE(films.empty());
  // Resumed from the end of the stopped render, and from its last checkpoint.
  for (int from = 0; from < 2; ++from) {
    SCOPED_TRACE(from == 0 ? "from the stopped render" : "from its last checkpoint");
    RenderSettings resumed = s;
    resumed.resume_at = from == 0 ? first.next_samples : nexts.back();
    resumed.initial_film = from == 0 ? &first.film : &films.back();
    const RenderResult r = render_split(scene, resumed, shares);
    test::expect_images_close(r.image, whole.image, 1e-5, 1e-6);
    EXPECT_EQ(r.film.counts, whole.film.counts);
  }
  // Resumed with another number of shares: refused, naming both.
  RenderSettings two = s;
  two.resume_at = first.next_samples;
  two.initial_film = &first.film;
  try {
    render_split(scene, two, {0, 0});
    FAIL() << "expected a refusal";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("split into 3 shares; this one has 2"), std::string::npos)
        << e.what();
  }
}

TEST(FilmCpu, FirstHitLayersHoldAlbedoNormalAndDistance) {
  // The camera looks straight at a diffuse wall of albedo (0.8, 0.2, 0.2) 10 units away, square
  // on: every sample hits it with that albedo, the normal facing the camera, at about 10 units.
  Scene scene = box_scene();
  scene.objects = {test::make_object(ShapeType::cube, 2, glm::vec3(0.0f, 5.0f, -5.0f),
                                     glm::vec3(0.0f), glm::vec3(100.0f, 100.0f, 0.01f)),
                   test::make_object(ShapeType::cube, 0, glm::vec3(0.0f, 5.0f, 20.0f),
                                     glm::vec3(0.0f), glm::vec3(1.0f))};
  scene.camera.eye = glm::vec3(0.0f, 5.0f, 5.0f);
  scene.camera.lookat = glm::vec3(0.0f, 5.0f, 0.0f);
  scene.camera.fovy_degrees = 5.0f;
  for (const Schedule schedule : test::kSchedules) {
    SCOPED_TRACE(schedule_name(schedule));
    RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::cpu, 4), schedule);
    s.layers.first_hits = true;
    const RenderResult r = render(scene, s);
    ASSERT_EQ(r.film.first_hits.size(), kFirstHitValues * r.film.pixels());
    for (std::size_t p = 0; p < r.film.pixels(); ++p) {
      const float* h = &r.film.first_hits[kFirstHitValues * p];
      ASSERT_EQ(h[7], 4.0f) << "pixel " << p;  // four samples hit
      EXPECT_NEAR(h[0] / 4, 0.8f, 1e-5f);
      EXPECT_NEAR(h[1] / 4, 0.2f, 1e-5f);
      EXPECT_NEAR(h[2] / 4, 0.2f, 1e-5f);
      EXPECT_NEAR(h[3] / 4, 0.0f, 1e-5f);
      EXPECT_NEAR(h[4] / 4, 0.0f, 1e-5f);
      EXPECT_NEAR(h[5] / 4, 1.0f, 1e-5f);
      // 9.995 units straight ahead, up to 1 / cos of the corner's angle (FOVY 5, 40 x 32).
      EXPECT_GE(h[6] / 4, 9.99f);
      EXPECT_LE(h[6] / 4, 9.995f * 1.0101f);
    }
    EXPECT_TRUE(r.film.squares.empty());
  }
}

TEST(FilmCpu, SquaredSamplesGiveNoVarianceWhereEverySampleIsEqual) {
  // Inside an emitting sphere and nothing else, every sample is exactly the emitter's radiance,
  // so the variance is 0. The box has noise: there the sums of squares exceed n mean^2.
  Scene sky = test::furnace_scene();
  sky.objects.resize(1);
  for (const bool furnace : {true, false}) {
    const Scene scene = furnace ? sky : box_scene();
    SCOPED_TRACE(scene.path);
    for (const Schedule schedule : test::kSchedules) {
      SCOPED_TRACE(schedule_name(schedule));
      RenderSettings s = with_schedule(settings_for(scene, ExecutorKind::cpu, 8), schedule);
      s.layers.squares = true;
      s.nee = false;
      s.width = 12;
      s.height = 10;
      const RenderResult r = render(scene, s);
      double excess = 0.0;
      for (std::size_t k = 0; k < r.film.squares.size(); ++k) {
        const double n = r.film.counts[k / 3], sum = r.film.sums[k];
        excess += r.film.squares[k] - sum * sum / n;
        if (furnace) {
          ASSERT_NEAR(r.film.squares[k], sum * sum / n, 1e-4 * r.film.squares[k]);
        }
      }
      if (!furnace) {
        EXPECT_GT(excess, 1.0);
      }
    }
  }
}

}  // namespace
}  // namespace raystream
