// Timestamps at named points of the loop: CUDA events recorded on the executor's stream (GPU) or
// a steady clock (CPU, where stages run synchronously). A timeline is a fixed set of slots, each
// recorded at most once before it is read and cleared; the loops keep two, so the host reads one
// batch of waves (or one frame) while the next runs.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <vector>

#include "execution/executor.h"
#include "integrator/api/render_stats.h"

namespace raystream {

class StageTimeline {
 public:
  StageTimeline(const Executor& ex, int slots);
  ~StageTimeline();
  StageTimeline(const StageTimeline&) = delete;
  StageTimeline& operator=(const StageTimeline&) = delete;

  int slots() const { return static_cast<int>(recorded_.size()); }

  // Records slot `slot` at this point of the stream (GPU) or now (CPU).
  void mark(int slot);

  bool recorded(int slot) const { return recorded_[slot] != 0; }

  // Waits until the work queued before slot `slot` was recorded is done (GPU; a no-op on the CPU
  // or when the slot was not recorded).
  void wait(int slot) const;

  // Milliseconds from slot `from` to slot `to` (both recorded, and done).
  double elapsed_ms(int from, int to) const;

  // Forgets every recorded slot.
  void clear();

 private:
  Executor ex_;
  std::vector<cudaEvent_t> events_;
  std::vector<std::chrono::steady_clock::time_point> times_;
  std::vector<char> recorded_;
};

// Where a bounce's stage timing goes: stage s begins at slot first + 2 s and ends one slot later
// on `timeline` (null: the bounce is not timed).
struct StageMarks {
  StageTimeline* timeline = nullptr;
  int first = 0;
  void begin(Stage s) const {
    if (timeline) timeline->mark(first + 2 * static_cast<int>(s));
  }
  void end(Stage s) const {
    if (timeline) timeline->mark(first + 2 * static_cast<int>(s) + 1);
  }
};

// The stage clock of a schedule: `sets` sets of stage marks on a timeline, from slot `first` on
// (set j: one per timed wave of a batch, or one per bounce of a frame).
struct StageSets {
  int first = 0;
  int sets = 0;
  int slots() const { return 2 * kStageCount * sets; }
  StageMarks marks(StageTimeline* timeline, int set) const {
    return StageMarks{timeline, first + 2 * kStageCount * set};
  }
  // Adds the milliseconds of each stage of set `set` that was timed into ms[Stage]; returns
  // whether any was.
  bool add_ms(const StageTimeline& timeline, int set, double* ms) const {
    bool any = false;
    for (int s = 0; s < kStageCount; ++s) {
      const int begin = first + 2 * (kStageCount * set + s);
      if (timeline.recorded(begin) && timeline.recorded(begin + 1)) {
        ms[s] += timeline.elapsed_ms(begin, begin + 1);
        any = true;
      }
    }
    return any;
  }
};

}  // namespace raystream
