// Named timestamps around each stage of each bounce and around the frame: CUDA event pairs on the
// GPU, a steady clock on the CPU (where stages run synchronously). Read once per frame, after the
// frame's work; the render keeps two timelines so one frame is read while the next runs.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <vector>

#include "integrator/executor.h"
#include "integrator/render.h"

namespace raystream {

enum class Stage { intersect = 0, sort = 1, shade = 2, compact = 3 };
inline constexpr int kStageCount = 4;

class StageTimeline {
 public:
  StageTimeline(const Executor& ex, int depth);
  ~StageTimeline();
  StageTimeline(const StageTimeline&) = delete;
  StageTimeline& operator=(const StageTimeline&) = delete;

  void begin(int bounce, Stage stage) { mark(slot(bounce, stage)); }
  void end(int bounce, Stage stage) { mark(slot(bounce, stage) + 1); }
  void begin_frame() { mark(frame_slot()); }
  void end_frame() { mark(frame_slot() + 1); }

  // Waits until the work queued before end_frame() is done (GPU; a no-op on the CPU).
  void wait_frame_end();

  // Adds the milliseconds of every stage pair recorded this frame to `bounces`, forgets them and
  // returns the frame's milliseconds. Call after wait_frame_end().
  double collect(std::vector<BounceStats>& bounces);

 private:
  int slot(int bounce, Stage stage) const { return 2 * (bounce * kStageCount + int(stage)); }
  int frame_slot() const { return 2 * depth_ * kStageCount; }
  double elapsed_ms(int start) const;
  void mark(int slot);

  Executor ex_;
  int depth_;
  std::vector<cudaEvent_t> events_;
  std::vector<std::chrono::steady_clock::time_point> times_;
  std::vector<char> recorded_;
};

}  // namespace raystream
