// The stream schedule: a pool of path slots kept full. Each wave
//
//   regenerate (refill) -> one bounce (WavefrontBounce: intersect -> [sort by material] -> shade
//                          -> [shadow rays] -> compact)
//
// packs the paths that survived the last wave to the front of the pool (in the order the last
// compaction left their ids) and starts new camera samples in the slots behind them, from a
// device-side sample counter, until width x height x spp samples are issued; then traces every
// live path one bounce, and compacts the ids of the paths still alive. A path deposits its
// radiance on its pixel when it ends. Every launch is full until the last samples are issued, so
// the tail of short-lived launches is paid once per render instead of once per frame.
//
// The carried state lives in two buffers: the refill moves the survivors from one to the other
// (about 60 bytes read and written per surviving path, in nearly ascending order), so every stage
// of a wave reads and writes its paths' state in slot order, coalesced. Regenerating into the
// ended paths' own state slots instead, through the ids, would leave the state scattered, every
// stage's loads uncoalesced (the rates measured: renders/schedules/RESULTS.md).
//
// No count travels to the host inside the loop: every kernel reads its bound from the counters
// on the device (StreamCounters), and a wave with no work costs only its launches. The host
// queues batches of waves and reads the previous batch's counters and records while the next
// batch runs: it waits for the device a few times a second, never the other way round.
//
// Stopping early (a time budget, a signal) and checkpoints both lower the counters' limit
// (set_stream_limit): no sample is started after it, the paths in flight end, and once the pool
// has drained every sample below the counter is on the film. A checkpoint then hands the film
// over and raises the limit again; a stop ends the render there.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "integrator/backend/parallel_for.cuh"
#include "integrator/path/path_buffers.h"
#include "integrator/schedules/bounce.h"
#include "integrator/schedules/schedules.h"
#include "integrator/schedules/stage_timeline.h"
#include "integrator/stages/stages.h"
#include "primitives/device_info.h"

namespace raystream {

namespace {

// Waves queued per batch at most: enough GPU work that the host's reading of the previous batch
// hides behind it, few enough that the progress and the drain stay prompt.
constexpr int kMaxBatch = 256;
// Waves per batch once every sample is issued (the pool drains): few, so that the waves queued
// after the last path has ended, which only launch and return, stay few.
constexpr int kDrainBatch = 4;

// Event slots of one batch: the start of each wave and the end of the last (when timing is on),
// the batch's end (always), then a begin/end pair per stage for each timed wave.
struct BatchSlots {
  int timed_waves = 0;  // stage sets per batch
  int wave(int j) const { return j; }
  int batch_end() const { return kMaxBatch + 1; }
  int stage(int set, Stage s, bool end) const {
    return kMaxBatch + 2 + 2 * (set * kStageCount + static_cast<int>(s)) + (end ? 1 : 0);
  }
  int count() const { return kMaxBatch + 2 + 2 * kStageCount * timed_waves; }
};

// The CPU's estimate of what the paths in flight need to end, from the waves so far (each runs
// as it is queued there, so its time and counts are known at once). It follows the live paths by
// depth (new ones start at 0, survivors go one deeper, those at the last depth end) with the
// share of a wave's paths that survive it, so the paths in flight end in waves it can foresee.
// A wave's time is modelled as a share that every wave pays (the passes over the whole pool)
// plus one in proportion to its paths: full_ms * (fixed + (1 - fixed) * active / pool), full_ms
// the time of a full wave and `fixed` learnt from the waves that were not full (0.3 before any).
// Stopping for a time budget lets the paths in flight end (a sample counts only whole), which on
// the CPU takes several waves of a large pool: without this estimate `--time 2` ran 3 s.
class DrainEstimate {
 public:
  DrainEstimate(std::size_t pool, int depth)
      : pool_(double(pool)), live_(std::size_t(std::max(depth, 1)), 0.0) {}

  // A wave that started with `live_in` survivors of the last one and `active` paths in all, and
  // left `live_out`, in `ms` milliseconds.
  void add(double ms, std::size_t live_in, std::size_t active, std::size_t live_out) {
    if (active == 0) return;
    live_[0] += double(active - std::min(live_in, active));  // the new camera paths
    const double may_go_on = total(live_) - live_.back();
    const double survival = may_go_on > 0.0 ? std::min(1.0, double(live_out) / may_go_on) : 0.0;
    advance(live_, survival);
    const double share = double(active) / pool_;
    if (share >= 0.9) {
      const double w = full_ms_ > 0.0 ? 0.3 : 1.0;  // the newest wave's weight
      full_ms_ += w * (ms / share - full_ms_);
      survival_ += w * (survival - survival_);
    } else if (full_ms_ > 0.0 && share < 0.5) {
      const double f = std::min(1.0, std::max(0.0, (ms / full_ms_ - share) / (1.0 - share)));
      fixed_ += 0.5 * (f - fixed_);
    }
  }
  bool known() const { return full_ms_ > 0.0; }
  double full_wave_ms() const { return full_ms_; }

  // Milliseconds for the live paths and their survivors to end: after w waves, the paths that
  // were at depths below depth - w, times survival^w.
  double ms_to_end() const {
    std::vector<double> below(live_.size() + 1, 0.0);  // below[k]: the live paths at depths < k
    for (std::size_t k = 0; k < live_.size(); ++k) below[k + 1] = below[k] + live_[k];
    double ms = 0.0, scale = 1.0;
    for (std::size_t wave = 0; wave < live_.size(); ++wave, scale *= survival_) {
      const double active = scale * below[live_.size() - wave];
      if (active < 1.0) break;
      ms += full_ms_ * (fixed_ + (1.0 - fixed_) * std::min(1.0, active / pool_));
    }
    return ms;
  }

 private:
  static double total(const std::vector<double>& live) {
    double sum = 0.0;
    for (const double n : live) sum += n;
    return sum;
  }
  // One wave: each depth's paths survive by `survival` to the next; those at the last end.
  static void advance(std::vector<double>& live, double survival) {
    for (std::size_t k = live.size() - 1; k > 0; --k) live[k] = live[k - 1] * survival;
    live[0] = 0.0;
  }

  double pool_;
  std::vector<double> live_;  // the live paths by the depth they trace next
  double full_ms_ = 0.0, survival_ = 0.0, fixed_ = 0.3;
};

}  // namespace

std::size_t default_pool_size(const Executor& ex, unsigned long long total_samples) {
  std::size_t pool = std::size_t(1) << 18;
  if (ex.gpu()) {
    const prim::DeviceInfo info = prim::device_info();
    // Eight times the threads the SMs hold at once: larger pools make fewer, longer waves (each
    // wave's launches cost the same), with diminishing returns past this while the path state
    // grows with the pool (renders/schedules/RESULTS.md has the measured curve).
    pool = static_cast<std::size_t>(info.sm_count) * 2048u * 8u;
  }
  return static_cast<std::size_t>(
      std::max<unsigned long long>(1, std::min<unsigned long long>(pool, total_samples)));
}

void run_stream_schedule(RenderContext& c) {
  const Executor& ex = c.ex;
  const RenderSettings& settings = c.settings;
  RenderStats& stats = c.stats;
  const RenderControl& control = *c.control;
  // Samples first .. total - 1, in order (sample k: pixel k % pixels, sample index k / pixels).
  const unsigned long long first = c.begin_sample;
  const unsigned long long total = c.end_sample;
  c.next_sample = first;
  if (first >= total) return;  // a resumed render that was done
  std::size_t pool = settings.pool != 0 ? settings.pool : default_pool_size(ex, total - first);
  if (pool >= kMaxPathSlots)
    throw std::runtime_error("render: the path pool of " + std::to_string(pool) +
                             " slots is too large (at most " + std::to_string(kMaxPathSlots - 1) +
                             ")");
  pool = static_cast<std::size_t>(std::min<unsigned long long>(pool, total - first));

  PathBuffers buffers_a(ex, pool, &c.tally), buffers_b(ex, pool, &c.tally);
  PathState paths = buffers_a.view();     // the state this wave's stages work on
  PathState previous = buffers_b.view();  // the last wave's, where the refill takes survivors
  WavefrontBounce bounce(c, pool, true);
  Buffer<StreamCounters> counters(ex, "stream counters", 1, &c.tally);
  Buffer<WaveRecord> records(ex, "wave records", 2 * kMaxBatch, &c.tally);
  HostBuffer<StreamCounters> host_counters(ex, "stream counters (host)", 2);
  HostBuffer<WaveRecord> host_records(ex, "wave records (host)", 2 * kMaxBatch);

  StreamCounters start;
  start.issued = first;
  copy_from_host(ex, counters.data(), &start, sizeof start);
  host_counters[0] = start;
  host_counters[1] = start;

  BatchSlots slots;
  slots.timed_waves = settings.timing == StageTiming::all ? kMaxBatch
                      : settings.timing == StageTiming::sampled
                          ? kMaxBatch / kTimingSamplePeriod + 1
                          : 0;
  StageTimeline timeline_a(ex, slots.count()), timeline_b(ex, slots.count());
  StageTimeline* timelines[2] = {&timeline_a, &timeline_b};
  int batch_waves[2] = {0, 0};
  int timed_sets[2][kMaxBatch] = {};  // per batch: the stage set of wave j, or -1
  std::uint64_t timed_with_work = 0;

  StreamCounters* d_counters = counters.data();
  BounceCounts bounds;  // every wave: the pool, its active paths, its shadow rays, its survivors
  bounds.bound = LiveBound{&d_counters->active, pool};
  bounds.shadow = &d_counters->shadow;
  bounds.live_out = &d_counters->live;
  std::uint64_t wave = 0;

  // Reads a finished batch: its waves' records and times; returns the counters after it.
  auto finish_batch = [&](int b) {
    StageTimeline& t = *timelines[b];
    t.wait(slots.batch_end());
    const StreamCounters after = host_counters[b];
    for (int j = 0; j < batch_waves[b]; ++j) {
      const WaveRecord& r = host_records[std::size_t(b) * kMaxBatch + j];
      if (r.live_in + r.regenerated == 0) continue;  // queued after the work ran out
      WaveStats w;
      w.live_in = r.live_in;
      w.regenerated = r.regenerated;
      w.paths_out = j + 1 < batch_waves[b]
                        ? host_records[std::size_t(b) * kMaxBatch + j + 1].live_in
                        : after.live;
      if (t.recorded(slots.wave(j)) && t.recorded(slots.wave(j + 1)))
        w.ms = t.elapsed_ms(slots.wave(j), slots.wave(j + 1));
      const int set = timed_sets[b][j];
      if (set >= 0) {
        w.stages_timed = true;
        for (int s = 0; s < kStageCount; ++s) {
          const int begin = slots.stage(set, Stage(s), false);
          if (t.recorded(begin) && t.recorded(begin + 1)) {
            w.stage_ms[s] = t.elapsed_ms(begin, begin + 1);
            stats.stage_ms[s] += w.stage_ms[s];
          }
        }
        ++timed_with_work;
      }
      stats.waves.push_back(w);
    }
    t.clear();
    if (settings.on_progress) {
      // Whole passes of the share's range, counting the paths in flight as not done.
      const unsigned long long range_first =
          static_cast<unsigned long long>(c.pixels) * unsigned(settings.first_sample);
      const unsigned long long ended =
          after.issued - std::min<unsigned long long>(after.issued, after.live + range_first);
      settings.on_progress(static_cast<int>(ended / c.pixels), settings.spp);
    }
    return after;
  };

  // Stopping: the host asks the device to issue no more samples (set_stream_limit) and reads
  // the counters until the pool has drained. For a checkpoint, the film then holds every sample
  // below the counter, and issuing goes on; for the end (budget, signal), the render stops.
  bool stopping = false;  // the device was asked to stop issuing
  bool stopping_for_good = false;
  DrainEstimate drain(pool, settings.depth);  // CPU only
  auto wants_stop = [&] {
    if (control.stop && control.stop()) return true;
    // The CPU stops issuing when the budget has left about what the paths in flight need to
    // end, plus half a wave: the render then ends within about half a wave of its budget.
    return !ex.gpu() && drain.known() && control.budget_ends_within &&
           control.budget_ends_within(drain.ms_to_end() + 0.5 * drain.full_wave_ms());
  };
  auto wants_checkpoint = [&] { return control.checkpoint_due && control.checkpoint_due(); };
  if (wants_stop()) return;  // before the first sample

  int batch_size = kDrainBatch;
  int unread = -1;  // GPU: the batch queued last and not read yet
  record_allocation_time(c);
  for (;;) {
    const int b = unread == 0 ? 1 : 0;
    StageTimeline& t = *timelines[b];
    int sets_used = 0;
    const auto queue_start = std::chrono::steady_clock::now();
    for (int j = 0; j < batch_size; ++j, ++wave) {
      const bool timed = slots.timed_waves > 0 &&
                         (settings.timing == StageTiming::all || wave % kTimingSamplePeriod == 0) &&
                         sets_used < slots.timed_waves;
      timed_sets[b][j] = timed ? sets_used++ : -1;
      const int set = timed_sets[b][j];
      const StageMarks marks{set >= 0 ? &t : nullptr,
                             set >= 0 ? slots.stage(set, Stage::regenerate, false) : 0};
      if (settings.timing != StageTiming::off) t.mark(slots.wave(j));

      // Paths enter: the survivors packed to the front, new camera samples behind them.
      const auto wave_start = std::chrono::steady_clock::now();
      marks.begin(Stage::regenerate);
      std::swap(paths, previous);
      refill_paths(ex, c.view, previous, paths, bounce.ids(), pool, d_counters, total, c.pixels,
                   settings.seed);
      advance_stream(ex, d_counters, pool, total, records.data() + std::size_t(b) * kMaxBatch + j);
      marks.end(Stage::regenerate);

      bounce.run(paths, bounds, marks);
      if (!ex.gpu()) {  // the counters are in host memory, the wave done
        const WaveRecord& record = records.data()[std::size_t(b) * kMaxBatch + j];
        drain.add(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wave_start)
                .count(),
            std::size_t(record.live_in), d_counters->active, d_counters->live);
      }
      // The CPU runs each wave as it is queued: a batch ends early when the render should stop
      // issuing, so that a budget or a signal is not overrun by a long batch.
      if (!ex.gpu() && !stopping && j + 1 < batch_size && (wants_stop() || wants_checkpoint())) {
        batch_size = j + 1;
        ++wave;
        break;
      }
    }
    stats.host_queue_ms +=
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - queue_start)
            .count();
    batch_waves[b] = batch_size;
    if (settings.timing != StageTiming::off) t.mark(slots.wave(batch_size));
    copy_to_host_async(ex, host_counters.data() + b, d_counters, sizeof(StreamCounters));
    copy_to_host_async(ex, host_records.data() + std::size_t(b) * kMaxBatch,
                       records.data() + std::size_t(b) * kMaxBatch,
                       sizeof(WaveRecord) * std::size_t(batch_size));
    t.mark(slots.batch_end());

    // The counters after the batch read now: on the CPU this batch (it ran already); on the GPU
    // the one before, which is read while this one runs.
    const int read = ex.gpu() ? unread : b;
    unread = ex.gpu() ? b : -1;
    if (read < 0) {  // the GPU's first batch: nothing to read yet
      batch_size = std::min(kMaxBatch, 2 * batch_size);
      continue;
    }
    StreamCounters seen = finish_batch(read);
    const bool drained = seen.live == 0 && seen.issued >= std::min(total, seen.limit);
    if (drained) {
      // The batch queued after the one read found no work: read it too.
      if (unread >= 0) seen = finish_batch(unread), unread = -1;
      c.next_sample = seen.issued;
      if (seen.issued >= total || stopping_for_good) break;
      // Drained for a checkpoint: every sample below the counter is on the film.
      if (control.checkpoint) control.checkpoint(seen.issued);
      set_stream_limit(ex, d_counters, false);
      stopping = false;
      batch_size = kDrainBatch;
      continue;
    }
    if (!stopping_for_good && wants_stop()) {
      if (!stopping) set_stream_limit(ex, d_counters, true);
      stopping = stopping_for_good = true;
    } else if (!stopping && wants_checkpoint()) {
      set_stream_limit(ex, d_counters, true);
      stopping = true;
    }
    // The next batch: while samples remain, about as many waves as they need (growing to
    // kMaxBatch); once all are issued, or while the pool drains, small batches.
    const unsigned long long left = stopping ? 0 : total - std::min(total, seen.issued);
    const std::size_t n_waves = stats.waves.size();
    double per_wave = 0.0;
    for (std::size_t k = n_waves > 16 ? n_waves - 16 : 0; k < n_waves; ++k)
      per_wave += double(stats.waves[k].regenerated);
    per_wave /= double(std::max<std::size_t>(1, std::min<std::size_t>(16, n_waves)));
    int next = kDrainBatch;
    if (left > 0) {
      next = per_wave > 0.0 ? static_cast<int>(std::ceil(double(left) / per_wave)) - batch_size
                            : 2 * batch_size;
      next = std::min(std::max(next, kDrainBatch), std::min(kMaxBatch, 2 * batch_size));
    }
    batch_size = next;
  }

  // Stage totals: sampled timing scales the timed waves' stage times up by time, not by count:
  // by the time of every wave over the time of the timed ones (every wave's start is timed). The
  // first wave, timed always, is the fullest; scaled by count, a short render's stages claimed
  // several times its time. Stages lie within their wave, so the totals stay within the waves'.
  stats.timed_units = static_cast<int>(timed_with_work);
  double all_ms = 0.0, timed_ms = 0.0;
  for (const WaveStats& w : stats.waves) {
    if (w.ms < 0) continue;
    all_ms += w.ms;
    if (w.stages_timed) timed_ms += w.ms;
  }
  const double scale = timed_ms > 0.0 ? all_ms / timed_ms : 0.0;
  for (double& ms : stats.stage_ms) ms *= scale;
  stats.pool = pool;
  stats.peak_device_bytes = ex.gpu() ? c.tally.bytes + bounce.workspace_device_bytes() : 0;
  bounce.report(stats);
}

}  // namespace raystream
