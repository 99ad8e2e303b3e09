#include <algorithm>

#include "integrator/schedules/stage_timeline.h"
#include "primitives/error.h"

namespace raystream {

StageTimeline::StageTimeline(const Executor& ex, int slots) : ex_(ex), recorded_(slots, 0) {
  if (ex_.gpu()) {
    events_.reserve(slots);
    for (int i = 0; i < slots; ++i) {
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

void StageTimeline::wait(int slot) const {
  if (ex_.gpu() && recorded_[slot]) PRIM_CUDA_CHECK(cudaEventSynchronize(events_[slot]));
}

double StageTimeline::elapsed_ms(int from, int to) const {
  if (!ex_.gpu())
    return std::chrono::duration<double, std::milli>(times_[to] - times_[from]).count();
  float elapsed = 0.0f;
  PRIM_CUDA_CHECK(cudaEventElapsedTime(&elapsed, events_[from], events_[to]));
  return elapsed;
}

void StageTimeline::clear() {
  std::fill(recorded_.begin(), recorded_.end(), 0);
}

}  // namespace raystream
