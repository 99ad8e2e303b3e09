// parallel_for: runs body(i) for i in [0, n) as a CUDA kernel on the executor's stream or as an
// OpenMP loop on the host. The body is a functor with a __host__ __device__ operator().
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "integrator/backend/executor.h"
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

}  // namespace raystream
