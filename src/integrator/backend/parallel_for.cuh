// parallel_for: runs body(i) for i in [0, n) as a CUDA kernel on the executor's stream or as an
// OpenMP loop on the host. The body is a functor with a __host__ __device__ operator().
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "integrator/backend/executor.h"
#include "primitives/device_info.h"
#include "primitives/error.h"

namespace raystream {

inline constexpr int kStageThreads = 256;
inline constexpr long long kSerialBelow = 2048;  // CPU executor: slots below which one thread runs

// MinBlocks: blocks of kStageThreads that must fit on an SM at once, which caps the registers
// per thread (65536 / (256 * MinBlocks)); 1 leaves the choice to the compiler.
template <int MinBlocks, class Body>
__global__ void __launch_bounds__(kStageThreads, MinBlocks)
    parallel_for_kernel(std::size_t n, Body body) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) body(i);
}

// `name` names the stage in the error a failed launch throws.
template <int MinBlocks = 1, class Body>
void parallel_for(const Executor& ex, const char* name, std::size_t n, const Body& body) {
  if (n == 0) return;
  if (ex.gpu()) {
    const std::size_t blocks = (n + kStageThreads - 1) / kStageThreads;
    parallel_for_kernel<MinBlocks>
        <<<static_cast<unsigned>(blocks), kStageThreads, 0, ex.stream>>>(n, body);
    // PRIM_LAUNCH_CHECK with the stage's name given at run time.
    ::prim::check_cuda(cudaGetLastError(), name, __FILE__, __LINE__);
  } else {
    const long long count = static_cast<long long>(n);
    // Small loops run on one thread: starting the team would cost more than the work.
#pragma omp parallel for schedule(static) if (count > kSerialBelow)
    for (long long i = 0; i < count; ++i) body(static_cast<std::size_t>(i));
  }
}

template <int MinBlocks, class Body>
__global__ void __launch_bounds__(kStageThreads, MinBlocks)
    parallel_for_range_kernel(const std::size_t* range, Body body) {
  const std::size_t end = range[1];
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = range[0] + static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       i < end; i += stride)
    body(i);
}

// body(i) for i in [range[0], range[1]), a range in executor memory that the device wrote (no
// host round trip), at most n long: a kernel of one wave of blocks (as many as the SMs hold at
// once, fewer for small n), each thread striding over the range; an empty range costs only the
// launch. On the CPU, an OpenMP loop over the range.
template <int MinBlocks = 1, class Body>
void parallel_for_range(const Executor& ex, const char* name, std::size_t n,
                        const std::size_t* range, const Body& body) {
  if (n == 0) return;
  if (ex.gpu()) {
    static const std::size_t wave =
        static_cast<std::size_t>(prim::device_info().sm_count) * (2048 / kStageThreads);
    const std::size_t blocks = std::min((n + kStageThreads - 1) / kStageThreads, wave);
    parallel_for_range_kernel<MinBlocks>
        <<<static_cast<unsigned>(blocks), kStageThreads, 0, ex.stream>>>(range, body);
    ::prim::check_cuda(cudaGetLastError(), name, __FILE__, __LINE__);
  } else {
    const long long begin = static_cast<long long>(range[0]);
    const long long end = static_cast<long long>(range[1]);
#pragma omp parallel for schedule(static) if (end - begin > kSerialBelow)
    for (long long i = begin; i < end; ++i) body(static_cast<std::size_t>(i));
  }
}

}  // namespace raystream
