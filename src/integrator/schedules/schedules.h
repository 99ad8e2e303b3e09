// The three schedules behind render(): each runs the whole render over a prepared scene and film,
// and fills the statistics that belong to it. One file each: frame_schedule.cu,
// stream_schedule.cu, megakernel_schedule.cu.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "core/stopwatch.h"
#include "execution/buffer.h"
#include "execution/executor.h"
#include "execution/path_primitives.h"
#include "integrator/api/render_settings.h"
#include "integrator/api/render_stats.h"
#include "integrator/path/path_state.h"
#include "integrator/path/path_step.h"
#include "integrator/stages/stages.h"
#include "primitives/workspace.h"

namespace raystream {

// When a schedule stops issuing samples before the last and when it hands its film over for a
// checkpoint: polled on the host between waves (stream) or frames (frame, megakernel).
struct RenderControl {
  std::function<bool()> stop;  // true: start no more samples; the render ends
  // true when the time budget has at most `ms` milliseconds left: the render then ends as for
  // stop (its reason the budget). The CPU's stream schedule asks it with what its paths in
  // flight still need, so that it stops issuing early enough not to overrun the budget by more
  // than about half a wave.
  std::function<bool(double ms)> budget_ends_within;
  std::function<bool()> checkpoint_due;  // true: let the paths in flight end, then checkpoint()
  // Every sample below next_sample (from the render's first) is on the film.
  std::function<void(unsigned long long next_sample)> checkpoint;
};

// What every schedule works with: what it renders with (the executor, the settings, the
// primitives, the scene and the film as the stages see them) and what it reports.
struct RenderContext {
  RenderContext(const Executor& executor, const RenderSettings& run_settings,
                const PathPrimitives& path_primitives, MemoryTally& memory, RenderStats& report)
      : ex(executor),
        settings(run_settings),
        primitives(path_primitives),
        tally(memory),
        stats(report) {}
  const Executor& ex;
  const RenderSettings& settings;  // as they run (settings_that_run)
  const PathPrimitives& primitives;
  MemoryTally& tally;  // the buffers the schedule allocates are counted here
  RenderStats& stats;
  StageContext stages;         // the scene, the film and the counts as every stage reads them
  std::uint32_t pixels = 0;    // width x height
  int key_bits = 0;            // bits of a material sort key
  std::uint16_t dead_key = 0;  // sort key of a dead slot (sorts last)
  SteadyTime schedule_start;   // when render_wavefront called the schedule
  // The sample numbers to render, [begin_sample, end_sample) (sample k: sample k / pixels of
  // pixel k % pixels; end_sample is a whole number of passes).
  unsigned long long begin_sample = 0, end_sample = 0;
  const RenderControl* control = nullptr;
  // Set by the schedule: every sample in [begin_sample, next_sample) is on the film.
  unsigned long long next_sample = 0;
};

// Records the schedule's set-up (its buffers and workspace) as StartupStats::allocate_ms: called
// by each schedule once, right before its loop.
void record_allocation_time(RenderContext& context);

struct FrameScheduleOptions {
  // CPU executor only. true: stages, sort and compaction work on the live slots, and the frame
  // stops when no path is left (the count is host memory there). false: every bounce works on all
  // n slots with the bound read inside the stages, exactly as on the GPU (for tests).
  bool cpu_live_slots_only = true;
};

void run_frame_schedule(RenderContext& context, const FrameScheduleOptions& options);
void run_stream_schedule(RenderContext& context);
void run_megakernel_schedule(RenderContext& context);

// Stream schedule: the pool size when settings.pool is 0: enough slots to keep the device busy
// (GPU: eight times the threads the SMs hold at once, SMs x 2048 x 8; CPU: 2^18), at most the
// samples to render.
std::size_t default_pool_size(const Executor& ex, unsigned long long total_samples);

// Reserves the primitives' workspace for n slots: compaction when `compact`, a sort of
// `sort_bits`-bit keys (0: none) by the radix sort or the multisplit. Throws a clear out-of-memory
// error.
void reserve_workspace(const RenderContext& context, prim::Workspace& workspace, std::size_t n,
                       bool compact, int sort_bits, bool multisplit);

}  // namespace raystream
