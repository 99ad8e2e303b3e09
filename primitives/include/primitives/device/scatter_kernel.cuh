// Scatter kernel: one thread per item, grid-stride.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/error.h"
#include "primitives/tuning.h"

namespace prim::detail {

template <class T, class I>
__global__ void scatter_kernel(const T* __restrict__ in, const I* __restrict__ map,
                               T* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[map[i]] = in[i];
  }
}

template <class T, class I>
void scatter(const T* in, const I* map, T* out, std::size_t n, cudaStream_t stream) {
  const int threads = tuning::kGlobalScanThreads;
  std::size_t blocks = (n + threads - 1) / threads;
  if (blocks > 65535u * 16u) blocks = 65535u * 16u;
  scatter_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(in, map, out, n);
  PRIM_LAUNCH_CHECK("scatter_kernel");
}

}  // namespace prim::detail
