// Scatter kernel (host side: device/dispatch_scatter.cuh): one thread per item, grid-stride.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace prim::detail {

template <class T, class I>
__global__ void scatter_kernel(const T* __restrict__ in, const I* __restrict__ map,
                               T* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    out[map[i]] = in[i];
  }
}

}  // namespace prim::detail
