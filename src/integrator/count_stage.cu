// Stage (compaction off): count the live slots, so the report shows paths in and out per bounce
// either way. On the GPU each warp counts with a ballot and adds once.
#include "integrator/parallel_for.cuh"
#include "integrator/stages.h"

namespace raystream {

namespace {

__global__ void __launch_bounds__(kStageThreads)
    count_live_kernel(const std::uint32_t* ids, std::size_t n, unsigned long long* count) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  // Every thread of the (full) block takes part in the ballot; none returns early.
  const bool live = i < n && ids[i] != kDeadPath;
  const unsigned mask = __ballot_sync(0xFFFFFFFFu, live);
  if ((threadIdx.x & 31u) == 0 && mask != 0)
    atomicAdd(count, static_cast<unsigned long long>(__popc(mask)));
}

}  // namespace

void count_live_paths(const Executor& ex, const std::uint32_t* ids, std::size_t n,
                      std::size_t* count) {
  static_assert(sizeof(std::size_t) == sizeof(unsigned long long), "64-bit size_t expected");
  if (n == 0) return;
  if (ex.gpu()) {
    const std::size_t blocks = (n + kStageThreads - 1) / kStageThreads;
    count_live_kernel<<<static_cast<unsigned>(blocks), kStageThreads, 0, ex.stream>>>(
        ids, n, reinterpret_cast<unsigned long long*>(count));
    PRIM_LAUNCH_CHECK("count_live_kernel");
  } else {
    std::size_t live = 0;
    const long long count_n = static_cast<long long>(n);
#pragma omp parallel for reduction(+ : live) schedule(static)
    for (long long i = 0; i < count_n; ++i) live += ids[i] != kDeadPath ? 1 : 0;
    *count += live;
  }
}

}  // namespace raystream
