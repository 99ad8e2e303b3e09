#include "integrator/stage_timeline.h"
#include "primitives/error.h"

namespace raystream {

StageTimeline::StageTimeline(const Executor& ex, int depth)
    : ex_(ex), depth_(depth), recorded_(2 * depth * kStageCount + 2, 0) {
  const std::size_t slots = recorded_.size();
  if (ex_.gpu()) {
    events_.reserve(slots);
    for (std::size_t i = 0; i < slots; ++i) {
      cudaEvent_t event = nullptr;
      const cudaError_t status = cudaEventCreate(&event);
      if (status != cudaSuccess) {
        for (cudaEvent_t e : events_) cudaEventDestroy(e);
        PRIM_CUDA_CHECK(status);
      }
      events_.push_back(event);
    }
  } else {
    times_.resize(slots);
  }
}

StageTimeline::~StageTimeline() {
  for (cudaEvent_t e : events_) cudaEventDestroy(e);
}

void StageTimeline::mark(int slot) {
  if (ex_.gpu()) {
    PRIM_CUDA_CHECK(cudaEventRecord(events_[slot], ex_.stream));
  } else {
    times_[slot] = std::chrono::steady_clock::now();
  }
  recorded_[slot] = 1;
}

void StageTimeline::wait_frame_end() {
  if (ex_.gpu() && recorded_[frame_slot() + 1])
    PRIM_CUDA_CHECK(cudaEventSynchronize(events_[frame_slot() + 1]));
}

double StageTimeline::elapsed_ms(int start) const {
  if (!ex_.gpu())
    return std::chrono::duration<double, std::milli>(times_[start + 1] - times_[start]).count();
  float elapsed = 0.0f;
  PRIM_CUDA_CHECK(cudaEventElapsedTime(&elapsed, events_[start], events_[start + 1]));
  return elapsed;
}

double StageTimeline::collect(std::vector<BounceStats>& bounces) {
  for (int bounce = 0; bounce < depth_; ++bounce) {
    for (int stage = 0; stage < kStageCount; ++stage) {
      const int start = slot(bounce, Stage(stage));
      if (!recorded_[start] || !recorded_[start + 1]) continue;
      const double ms = elapsed_ms(start);
      BounceStats& b = bounces[bounce];
      switch (Stage(stage)) {
        case Stage::intersect:
          b.intersect_ms += ms;
          break;
        case Stage::sort:
          b.sort_ms += ms;
          break;
        case Stage::shade:
          b.shade_ms += ms;
          break;
        case Stage::compact:
          b.compact_ms += ms;
          break;
      }
      recorded_[start] = recorded_[start + 1] = 0;
    }
  }
  const int frame = frame_slot();
  double frame_ms = 0.0;
  if (recorded_[frame] && recorded_[frame + 1]) frame_ms = elapsed_ms(frame);
  recorded_[frame] = recorded_[frame + 1] = 0;
  return frame_ms;
}

}  // namespace raystream
