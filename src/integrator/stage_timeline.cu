#include "integrator/stage_timeline.h"
#include "primitives/error.h"

namespace raystream {

StageTimeline::StageTimeline(const Executor& ex, int depth)
    : ex_(ex), depth_(depth), recorded_(2 * depth * kStageCount, 0) {
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

void StageTimeline::collect(std::vector<BounceStats>& bounces) {
  for (int bounce = 0; bounce < depth_; ++bounce) {
    for (int stage = 0; stage < kStageCount; ++stage) {
      const int start = slot(bounce, Stage(stage));
      if (!recorded_[start] || !recorded_[start + 1]) continue;
      double ms = 0.0;
      if (ex_.gpu()) {
        float elapsed = 0.0f;
        PRIM_CUDA_CHECK(cudaEventElapsedTime(&elapsed, events_[start], events_[start + 1]));
        ms = elapsed;
      } else {
        ms = std::chrono::duration<double, std::milli>(times_[start + 1] - times_[start]).count();
      }
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
}

}  // namespace raystream
