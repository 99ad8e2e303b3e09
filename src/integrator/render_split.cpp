// Splitting a render by samples: across the CUDA devices of a host (one thread each), and the
// arithmetic that the MPI run shares. Each share keeps its own progress, so a checkpoint of a
// split render holds the sum of the shares' films and one next sample number per share. Path
// tracing splits cleanly by samples: the random numbers follow (pixel, sample, depth, seed), so
// every share traces the same paths it would in one render, and the films add up.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "execution/devices.h"
#include "integrator/api/render.h"
#include "primitives/error.h"

namespace raystream {

int share_first_sample(const RenderSettings& settings, int share, int shares) {
  // Rounded up, so the first shares get the extra samples and share 0 is empty only when spp is.
  const long long spp = settings.spp;
  return settings.first_sample + static_cast<int>((spp * share + shares - 1) / shares);
}

void add_share(RenderResult& total, const RenderResult& share) {
  add_film(total.film, share.film);
  total.image = film_image(total.film);
  total.next_samples.insert(total.next_samples.end(), share.next_samples.begin(),
                            share.next_samples.end());
  add_share_stats(total.stats, share.stats);
  count_film_samples(total.film, total.stats);
}

void add_share_stats(RenderStats& t, const RenderStats& s) {
  if (t.shares.empty()) {
    // The totals start as a copy of the first share without its per-wave and per-frame lists.
    t = s;
    t.waves.clear();
    t.frame_ms.clear();
    t.shares.clear();
    t.spp = 0;
    t.samples = 0;
    t.total_ms = 0;
    t.path_segments = 0;
    t.shadow_rays = 0;
    for (std::uint64_t& n : t.queue_paths) n = 0;
    t.timed_units = 0;
    t.peak_device_bytes = 0;
    for (double& ms : t.stage_ms) ms = 0;
    for (BounceStats& b : t.bounces) b = BounceStats{b.bounce};
    t.device_index = -1;
    t.rank = -1;
  }
  t.spp += s.spp;
  t.samples += s.samples;
  // The earliest stop speaks for the render (a share that finished did not stop).
  if (t.stopped == StopReason::none) t.stopped = s.stopped;
  t.first_sample = std::min(t.first_sample, s.first_sample);
  t.path_segments += s.path_segments;
  t.shadow_rays += s.shadow_rays;
  for (std::size_t k = 0; k < t.queue_paths.size() && k < s.queue_paths.size(); ++k)
    t.queue_paths[k] += s.queue_paths[k];
  t.timed_units += s.timed_units;
  t.total_ms = std::max(t.total_ms, s.total_ms);
  t.peak_device_bytes = std::max(t.peak_device_bytes, s.peak_device_bytes);
  for (int k = 0; k < kStageCount; ++k) t.stage_ms[k] += s.stage_ms[k];
  for (std::size_t b = 0; b < t.bounces.size() && b < s.bounces.size(); ++b) {
    t.bounces[b].paths_in += s.bounces[b].paths_in;
    t.bounces[b].paths_out += s.bounces[b].paths_out;
    t.bounces[b].shadow_rays += s.bounces[b].shadow_rays;
    for (int k = 0; k < kStageCount; ++k) t.bounces[b].stage_ms[k] += s.bounces[b].stage_ms[k];
  }
  if (s.device != t.device && t.device.find(s.device) == std::string::npos)
    t.device += ", " + s.device;
  t.shares.push_back(s);
}

namespace {

void check_devices_exist(const std::vector<int>& devices) {
  int count = 0;
  PRIM_CUDA_CHECK(cudaGetDeviceCount(&count));
  for (int d : devices)
    if (d < 0 || d >= count)
      throw std::runtime_error("render: CUDA device " + std::to_string(d) + " does not exist (" +
                               std::to_string(count) + " visible)");
}

// Every device's context first, one after the other: creating one takes driver locks that
// would stall the other devices' launches.
void create_contexts(const std::vector<int>& devices) {
  for (int d : devices) {
    set_gpu_device(d);
    PRIM_CUDA_CHECK(cudaFree(nullptr));
  }
}

// Where each share starts: its first sample, or where a resumed render left it.
std::vector<std::uint64_t> share_starts(const RenderSettings& settings, int n) {
  if (!settings.resume_at.empty() && settings.resume_at.size() != std::size_t(n))
    throw std::runtime_error("render: the checkpoint was written by a render split into " +
                             std::to_string(settings.resume_at.size()) + " shares; this one has " +
                             std::to_string(n) + " (resume with as many devices)");
  std::vector<std::uint64_t> starts(n);
  for (int k = 0; k < n; ++k)
    starts[k] = settings.resume_at.empty() ? std::uint64_t(share_first_sample(settings, k, n)) *
                                                 settings.width * std::uint64_t(settings.height)
                                           : settings.resume_at[k];
  return starts;
}

// The shares' loops start together, once every share is set up (or has failed).
class StartBarrier {
 public:
  StartBarrier(const RenderSettings& settings, int n) : started_(n, 0) {
    for (int k = 0; k < n; ++k)
      if (share_first_sample(settings, k + 1, n) > share_first_sample(settings, k, n)) ++sharing_;
  }

  // Share k's loop starts once every other share's does.
  void arrive(int k) {
    std::unique_lock<std::mutex> lock(mutex_);
    started_[k] = 1;
    if (++waiting_ >= sharing_) {
      changed_.notify_all();
    } else {
      changed_.wait(lock, [&] { return waiting_ >= sharing_; });
    }
  }

  // A share that fails before its loop must not keep the others waiting for it.
  void fail(int k) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!started_[k]) {
      --sharing_;
      changed_.notify_all();
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  int waiting_ = 0;
  int sharing_ = 0;  // shares that will reach the barrier
  std::vector<char> started_;
};

// Checkpoints: each share hands over its film when its own checkpoint is due; the render's
// checkpoint is the sum of every share's latest film (or the film it started from) with every
// share's progress at that film. The films add up whenever they were taken.
class SharedCheckpoint {
 public:
  SharedCheckpoint(const RenderSettings& settings, const std::vector<std::uint64_t>& starts)
      : settings_(settings), latest_(starts.size()), latest_next_(starts) {
    if (settings.initial_film) latest_[0] = *settings.initial_film;
  }

  void hand_over(int k, const FilmState& film, std::uint64_t next) {
    std::lock_guard<std::mutex> lock(mutex_);
    latest_[k] = film;
    latest_next_[k] = next;
    FilmState total;
    for (const FilmState& f : latest_)
      if (!f.sums.empty()) add_film(total, f);
    settings_.on_checkpoint(total, latest_next_);
  }

 private:
  const RenderSettings& settings_;
  std::mutex mutex_;
  std::vector<FilmState> latest_;
  std::vector<std::uint64_t> latest_next_;
};

// The render's progress: the samples every share has done.
class SharedProgress {
 public:
  SharedProgress(const RenderSettings& settings, int n) : settings_(settings), done_(n, 0) {}

  void report(int k, int share_done) {
    std::lock_guard<std::mutex> lock(mutex_);
    done_[k] = share_done;
    int sum = 0;
    for (int v : done_) sum += v;
    settings_.on_progress(sum, settings_.spp);
  }

 private:
  const RenderSettings& settings_;
  std::mutex mutex_;
  std::vector<int> done_;
};

// A render split into one share per device (GPU) or share (CPU): the shares' settings, their
// renders (one thread per device on the GPU, one after the other on the CPU) and their sum.
class SplitRender {
 public:
  SplitRender(const Scene& scene, const RenderSettings& settings, const std::vector<int>& devices)
      : scene_(scene),
        settings_(settings),
        devices_(devices),
        n_(static_cast<int>(devices.size())),
        gpu_(settings.executor == ExecutorKind::gpu),
        barrier_(settings, n_),
        starts_(share_starts(settings, n_)),
        checkpoint_(settings, starts_),
        progress_(settings, n_),
        results_(n_),
        errors_(n_) {}

  void render_shares() {
    if (gpu_ && n_ > 1) {
      std::vector<std::thread> threads;
      for (int k = 0; k < n_; ++k) threads.emplace_back([this, k] { render_share(k); });
      for (std::thread& t : threads) t.join();
    } else {
      for (int k = 0; k < n_; ++k) render_share(k);
    }
  }

  // Throws the first share's error, naming its device or share.
  void rethrow_errors() const {
    for (int k = 0; k < n_; ++k) {
      if (!errors_[k]) continue;
      const std::string where =
          gpu_ ? "device " + std::to_string(devices_[k]) : "share " + std::to_string(k);
      try {
        std::rethrow_exception(errors_[k]);
      } catch (const std::exception& e) {
        throw std::runtime_error(where + ": " + e.what());
      }
    }
  }

  RenderResult total(double wall_ms) {
    if (n_ == 1) {
      results_[0].stats.device_index = gpu_ ? devices_[0] : -1;
      return results_[0];
    }
    RenderResult total;
    for (int k = 0; k < n_; ++k)
      if (results_[k].stats.spp > 0) add_share(total, results_[k]);
    // Every share's progress, the empty shares' too.
    total.next_samples = starts_;
    for (int k = 0; k < n_; ++k)
      if (results_[k].stats.spp > 0) total.next_samples[k] = results_[k].next_samples.at(0);
    // The shares' render loops run at the same time, so total_ms is the slowest one's (see
    // add_share_stats); the wall time also counts each device's set-up (context, scene upload).
    total.stats.wall_ms = wall_ms;
    return total;
  }

 private:
  RenderSettings share_settings(int k) {
    RenderSettings s = settings_;
    if (gpu_ && n_ > 1) s.on_loop_start = [this, k] { barrier_.arrive(k); };
    s.first_sample = share_first_sample(settings_, k, n_);
    s.spp = share_first_sample(settings_, k + 1, n_) - s.first_sample;
    s.initial_film = k == 0 ? settings_.initial_film : nullptr;
    s.resume_at.clear();
    if (!settings_.resume_at.empty()) s.resume_at = {starts_[k]};
    if (settings_.on_checkpoint && n_ > 1) {
      s.on_checkpoint = [this, k](const FilmState& film, const std::vector<std::uint64_t>& next) {
        checkpoint_.hand_over(k, film, next.at(0));
      };
    }
    if (settings_.on_progress) {
      s.on_progress = [this, k](int share_done, int) { progress_.report(k, share_done); };
    }
    return s;
  }

  void render_share(int k) {
    try {
      const RenderSettings s = share_settings(k);
      if (s.spp == 0) return;
      if (gpu_) set_gpu_device(devices_[k]);
      results_[k] = render(scene_, s);
      results_[k].stats.first_sample = s.first_sample;
      results_[k].stats.device_index = gpu_ ? devices_[k] : -1;
    } catch (...) {
      errors_[k] = std::current_exception();
      barrier_.fail(k);
    }
  }

  const Scene& scene_;
  const RenderSettings& settings_;
  const std::vector<int>& devices_;
  const int n_;
  const bool gpu_;
  StartBarrier barrier_;
  std::vector<std::uint64_t> starts_;
  SharedCheckpoint checkpoint_;
  SharedProgress progress_;
  std::vector<RenderResult> results_;
  std::vector<std::exception_ptr> errors_;
};

}  // namespace

RenderResult render_split(const Scene& scene, const RenderSettings& settings,
                          const std::vector<int>& devices) {
  if (devices.empty()) throw std::runtime_error("render: no device to render on");
  if (settings.executor == ExecutorKind::gpu) {
    check_devices_exist(devices);
    create_contexts(devices);
  }
  SplitRender split(scene, settings, devices);
  const auto start = std::chrono::steady_clock::now();
  split.render_shares();
  const double wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  split.rethrow_errors();
  return split.total(wall_ms);
}

}  // namespace raystream
