// Timestamps at named points of the loop: CUDA events recorded on the executor's stream (GPU) or
// a steady clock (CPU, where stages run synchronously). A timeline is a fixed set of slots, each
// recorded at most once before it is read and cleared; the loops keep two, so the host reads one
// batch of waves (or one frame) while the next runs.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <vector>

#include "integrator/backend/executor.h"

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

}  // namespace raystream
