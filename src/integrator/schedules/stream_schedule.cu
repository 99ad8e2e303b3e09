// The stream schedule: a pool of path slots kept full. Each wave
//
//   regenerate (new samples behind the survivors) -> one bounce (WavefrontBounce: intersect ->
//   [sort by material] -> shade -> [shadow rays] -> [compact])
//
// starts new camera samples in the slots behind the paths that survived the last wave, from a
// device-side sample counter, until width x height x spp samples are issued; then traces every
// live path one bounce. Every launch is full until the last samples are issued, so the tail of
// short-lived launches is paid once per render instead of once per frame.
//
// The carried state lives in two buffers, and every stage of a wave reads and writes its paths'
// state in slot order, coalesced. With fused compaction (the default) the shade stage writes the
// paths that go on straight into the other buffer, packed to its front at slots reserved by a
// block-wide scan and one atomic per block, so no pass moves a path twice and no compaction runs
// over ids. With separate compaction the shade stage marks the ended paths, a compaction pass
// packs the live ids, and the refill moves the survivors' state from one buffer to the other in
// the order the compaction left them. Regenerating into the ended paths' own state slots
// instead, through the ids, would leave the state scattered, every stage's loads uncoalesced (the
// rates measured: renders/schedules/RESULTS.md).
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
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>
#include <vector>

#include "execution/parallel_for.cuh"
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

// The loop's state across batches: the pool's buffers and counters, two timelines (on the GPU
// the host reads one batch's events while the next batch runs), and the stopping.
class StreamLoop {
 public:
  StreamLoop(RenderContext& c, std::size_t pool)
      : c_(c),
        ex_(c.ex),
        settings_(c.settings),
        fused_(c.settings.compaction == Compaction::fused),
        pool_(pool),
        buffers_a_(ex_, pool, &c.tally),
        buffers_b_(ex_, pool, &c.tally),
        paths_(buffers_a_.view()),
        other_(buffers_b_.view()),
        bounce_(c, pool, true, fused_),
        counters_(ex_, "stream counters", 1, &c.tally),
        records_(ex_, "wave records", 2 * kMaxBatch, &c.tally),
        host_counters_(ex_, "stream counters (host)", 2),
        host_records_(ex_, "wave records (host)", 2 * kMaxBatch),
        stage_sets_{kMaxBatch + 2, timed_sets_per_batch(settings_.timing)},
        timeline_a_(ex_, kMaxBatch + 2 + stage_sets_.slots()),
        timeline_b_(ex_, kMaxBatch + 2 + stage_sets_.slots()),
        drain_(pool, c.settings.depth) {
    StreamCounters start;
    start.issued = c.begin_sample;
    copy_from_host(ex_, counters_.data(), &start, sizeof start);
    host_counters_[0] = start;
    host_counters_[1] = start;
  }

  void run();

 private:
  static int timed_sets_per_batch(StageTiming timing) {
    return timing == StageTiming::all       ? kMaxBatch
           : timing == StageTiming::sampled ? kMaxBatch / kTimingSamplePeriod + 1
                                            : 0;
  }
  StageTimeline& timeline(int b) { return b == 0 ? timeline_a_ : timeline_b_; }
  // Timeline slots: the start of each wave of a batch (and the end of the last), the batch's end,
  // then the stage sets of the timed waves.
  static int wave_slot(int j) { return j; }
  static int batch_end_slot() { return kMaxBatch + 1; }

  void queue_wave(int b, int j);
  void queue_batch(int b);
  StreamCounters finish_batch(int b);
  int next_batch_size(const StreamCounters& seen) const;
  bool wants_stop() const {
    if (c_.control->stop && c_.control->stop()) return true;
    // The CPU stops issuing when the budget has left about what the paths in flight need to
    // end, plus half a wave: the render then ends within about half a wave of its budget.
    return !ex_.gpu() && drain_.known() && c_.control->budget_ends_within &&
           c_.control->budget_ends_within(drain_.ms_to_end() + 0.5 * drain_.full_wave_ms());
  }
  bool wants_checkpoint() const {
    return c_.control->checkpoint_due && c_.control->checkpoint_due();
  }

  RenderContext& c_;
  const Executor& ex_;
  const RenderSettings& settings_;
  const bool fused_;
  const std::size_t pool_;
  PathBuffers buffers_a_, buffers_b_;
  PathState paths_;  // the state this wave's stages work on
  PathState other_;  // fused: where its survivors go; separate: the last wave's, refilled from
  WavefrontBounce bounce_;
  Buffer<StreamCounters> counters_;
  Buffer<WaveRecord> records_;
  HostBuffer<StreamCounters> host_counters_;
  HostBuffer<WaveRecord> host_records_;
  StageSets stage_sets_;
  StageTimeline timeline_a_, timeline_b_;
  int batch_waves_[2] = {0, 0};
  int timed_sets_[2][kMaxBatch] = {};  // per batch: the stage set of wave j, or -1
  std::uint64_t wave_ = 0;
  std::uint64_t timed_with_work_ = 0;
  int batch_size_ = kDrainBatch;
  DrainEstimate drain_;    // CPU only
  bool stopping_ = false;  // the device was asked to stop issuing
  bool stopping_for_good_ = false;
};

// One wave: its paths enter (the survivors and new camera samples behind them), then one bounce.
void StreamLoop::queue_wave(int b, int j) {
  StageTimeline& t = timeline(b);
  const int set = timed_sets_[b][j];
  const StageMarks marks = stage_sets_.marks(set >= 0 ? &t : nullptr, std::max(set, 0));
  if (settings_.timing != StageTiming::off) t.mark(wave_slot(j));
  StreamCounters* counters = counters_.data();
  WaveRecord* record = records_.data() + std::size_t(b) * kMaxBatch + j;
  const unsigned long long total = c_.end_sample;

  const SteadyTime wave_start = steady_now();
  marks.begin(Stage::regenerate);
  if (fused_) {
    // The last wave wrote its survivors into the front of this wave's state.
    advance_stream(ex_, counters, pool_, total, true, record);
    start_paths(ex_, c_.stages, paths_, pool_, counters, c_.pixels);
  } else {
    std::swap(paths_, other_);
    refill_paths(ex_, c_.stages, other_, paths_, bounce_.ids(), pool_, counters, total,
                 c_.pixels);
    advance_stream(ex_, counters, pool_, total, false, record);
  }
  marks.end(Stage::regenerate);

  BounceCounts counts;  // every wave: the pool, its active paths, its shadow rays, its survivors
  counts.bound = LiveBound{&counters->active, pool_};
  counts.shadow = &counters->shadow;
  counts.live_out = fused_ ? &counters->survivors : &counters->live;
  counts.next = fused_ ? &other_ : nullptr;
  bounce_.run(paths_, counts, marks);
  if (!ex_.gpu())  // the counters are in host memory, the wave done
    drain_.add(milliseconds_since(wave_start), std::size_t(record->live_in), counters->active,
               fused_ ? counters->survivors : counters->live);
  if (fused_) std::swap(paths_, other_);
}

// Queues a batch of waves, and the copies of the counters and records after it.
void StreamLoop::queue_batch(int b) {
  StageTimeline& t = timeline(b);
  int sets_used = 0;
  const SteadyTime queue_start = steady_now();
  for (int j = 0; j < batch_size_; ++j, ++wave_) {
    const bool timed = stage_sets_.sets > 0 &&
                       (settings_.timing == StageTiming::all || wave_ % kTimingSamplePeriod == 0) &&
                       sets_used < stage_sets_.sets;
    timed_sets_[b][j] = timed ? sets_used++ : -1;
    queue_wave(b, j);
    // The CPU runs each wave as it is queued: a batch ends early when the render should stop
    // issuing, so that a budget or a signal is not overrun by a long batch.
    if (!ex_.gpu() && !stopping_ && j + 1 < batch_size_ &&
        (wants_stop() || wants_checkpoint())) {
      batch_size_ = j + 1;
      ++wave_;
      break;
    }
  }
  c_.stats.host_queue_ms += milliseconds_since(queue_start);
  batch_waves_[b] = batch_size_;
  if (settings_.timing != StageTiming::off) t.mark(wave_slot(batch_size_));
  copy_to_host_async(ex_, host_counters_.data() + b, counters_.data(), sizeof(StreamCounters));
  copy_to_host_async(ex_, host_records_.data() + std::size_t(b) * kMaxBatch,
                     records_.data() + std::size_t(b) * kMaxBatch,
                     sizeof(WaveRecord) * std::size_t(batch_size_));
  t.mark(batch_end_slot());
}

// Reads a finished batch: its waves' records and times; returns the counters after it.
StreamCounters StreamLoop::finish_batch(int b) {
  StageTimeline& t = timeline(b);
  t.wait(batch_end_slot());
  RenderStats& stats = c_.stats;
  const StreamCounters after = host_counters_[b];
  for (int j = 0; j < batch_waves_[b]; ++j) {
    const WaveRecord& r = host_records_[std::size_t(b) * kMaxBatch + j];
    if (r.live_in + r.regenerated == 0) continue;  // queued after the work ran out
    WaveStats w;
    w.live_in = r.live_in;
    w.regenerated = r.regenerated;
    // Fused: the survivors' count of the last wave is read by the next wave's advance.
    w.paths_out = j + 1 < batch_waves_[b] ? host_records_[std::size_t(b) * kMaxBatch + j + 1].live_in
                  : fused_                ? after.survivors
                                          : after.live;
    if (t.recorded(wave_slot(j)) && t.recorded(wave_slot(j + 1)))
      w.ms = t.elapsed_ms(wave_slot(j), wave_slot(j + 1));
    const int set = timed_sets_[b][j];
    if (set >= 0) {
      w.stages_timed = true;
      stage_sets_.add_ms(t, set, w.stage_ms);
      for (int s = 0; s < kStageCount; ++s) stats.stage_ms[s] += w.stage_ms[s];
      ++timed_with_work_;
    }
    stats.waves.push_back(w);
  }
  t.clear();
  if (settings_.on_progress) {
    // Whole passes of the share's range, counting the paths in flight as not done.
    const unsigned long long in_flight = fused_ ? after.survivors : after.live;
    const unsigned long long range_first =
        static_cast<unsigned long long>(c_.pixels) * unsigned(settings_.first_sample);
    const unsigned long long ended =
        after.issued - std::min<unsigned long long>(after.issued, in_flight + range_first);
    settings_.on_progress(static_cast<int>(ended / c_.pixels), settings_.spp);
  }
  return after;
}

// The next batch: while samples remain, about as many waves as they need (growing to kMaxBatch);
// once all are issued, or while the pool drains, small batches.
int StreamLoop::next_batch_size(const StreamCounters& seen) const {
  const unsigned long long total = c_.end_sample;
  const unsigned long long left = stopping_ ? 0 : total - std::min(total, seen.issued);
  if (left == 0) return kDrainBatch;
  const std::vector<WaveStats>& waves = c_.stats.waves;
  const std::size_t n_waves = waves.size();
  double per_wave = 0.0;
  for (std::size_t k = n_waves > 16 ? n_waves - 16 : 0; k < n_waves; ++k)
    per_wave += double(waves[k].regenerated);
  per_wave /= double(std::max<std::size_t>(1, std::min<std::size_t>(16, n_waves)));
  const int next = per_wave > 0.0
                       ? static_cast<int>(std::ceil(double(left) / per_wave)) - batch_size_
                       : 2 * batch_size_;
  return std::min(std::max(next, kDrainBatch), std::min(kMaxBatch, 2 * batch_size_));
}

// Stopping: the host asks the device to issue no more samples (set_stream_limit) and reads the
// counters until the pool has drained. For a checkpoint, the film then holds every sample below
// the counter, and issuing goes on; for the end (budget, signal), the render stops.
void StreamLoop::run() {
  c_.next_sample = c_.begin_sample;
  if (wants_stop()) return;  // before the first sample
  int unread = -1;           // GPU: the batch queued last and not read yet
  record_allocation_time(c_);
  for (;;) {
    const int b = unread == 0 ? 1 : 0;
    queue_batch(b);
    // The counters after the batch read now: on the CPU this batch (it ran already); on the GPU
    // the one before, which is read while this one runs.
    const int read = ex_.gpu() ? unread : b;
    unread = ex_.gpu() ? b : -1;
    if (read < 0) {  // the GPU's first batch: nothing to read yet
      batch_size_ = std::min(kMaxBatch, 2 * batch_size_);
      continue;
    }
    StreamCounters seen = finish_batch(read);
    const std::size_t in_flight = fused_ ? seen.survivors : seen.live;
    if (in_flight == 0 && seen.issued >= std::min(c_.end_sample, seen.limit)) {  // drained
      // The batch queued after the one read found no work: read it too.
      if (unread >= 0) seen = finish_batch(unread), unread = -1;
      c_.next_sample = seen.issued;
      if (seen.issued >= c_.end_sample || stopping_for_good_) break;
      // Drained for a checkpoint: every sample below the counter is on the film.
      if (c_.control->checkpoint) c_.control->checkpoint(seen.issued);
      set_stream_limit(ex_, counters_.data(), false);
      stopping_ = false;
      batch_size_ = kDrainBatch;
      continue;
    }
    if (!stopping_for_good_ && wants_stop()) {
      if (!stopping_) set_stream_limit(ex_, counters_.data(), true);
      stopping_ = stopping_for_good_ = true;
    } else if (!stopping_ && wants_checkpoint()) {
      set_stream_limit(ex_, counters_.data(), true);
      stopping_ = true;
    }
    batch_size_ = next_batch_size(seen);
  }
  RenderStats& stats = c_.stats;
  // Stage totals: sampled timing scales the timed waves' stage times up by time, not by count:
  // by the time of every wave over the time of the timed ones (every wave's start is timed). The
  // first wave, timed always, is the fullest; scaled by count, a short render's stages claimed
  // several times its time. Stages lie within their wave, so the totals stay within the waves'.
  stats.timed_units = static_cast<int>(timed_with_work_);
  double all_ms = 0.0, timed_ms = 0.0;
  for (const WaveStats& w : stats.waves) {
    if (w.ms < 0) continue;
    all_ms += w.ms;
    if (w.stages_timed) timed_ms += w.ms;
  }
  const double scale = timed_ms > 0.0 ? all_ms / timed_ms : 0.0;
  for (double& ms : stats.stage_ms) ms *= scale;
  stats.pool = pool_;
  stats.peak_device_bytes = ex_.gpu() ? c_.tally.bytes + bounce_.workspace_device_bytes() : 0;
  bounce_.report(stats);
}

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
  const unsigned long long first = c.begin_sample, total = c.end_sample;
  c.next_sample = first;
  if (first >= total) return;  // a resumed render that was done
  std::size_t pool =
      c.settings.pool != 0 ? c.settings.pool : default_pool_size(c.ex, total - first);
  if (pool >= kMaxPathSlots)
    throw std::runtime_error("render: the path pool of " + std::to_string(pool) +
                             " slots is too large (at most " + std::to_string(kMaxPathSlots - 1) +
                             ")");
  pool = static_cast<std::size_t>(std::min<unsigned long long>(pool, total - first));
  StreamLoop(c, pool).run();
}

}  // namespace raystream
