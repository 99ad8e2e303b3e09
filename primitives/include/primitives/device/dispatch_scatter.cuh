// Dispatch of the scatter (prim::own::scatter, scatter.cuh): checks the arguments, sizes the grid
// and launches kernels/scatter.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/error.h"
#include "primitives/kernels/scatter.cuh"
#include "primitives/tuning.h"

namespace prim::detail {

template <class T, class I>
void dispatch_scatter(const char* function, const T* d_in, const I* d_map, T* d_out, std::size_t n,
                      cudaStream_t stream) {
  if (n == 0) return;
  require(d_in != nullptr, function, "d_in is null with n > 0");
  require(d_map != nullptr, function, "d_map is null with n > 0");
  require(d_out != nullptr, function, "d_out is null with n > 0");
  require(static_cast<const void*>(d_in) != static_cast<const void*>(d_out), function,
          "d_out must not alias d_in");
  const int threads = tuning::kGlobalScanThreads;
  std::size_t blocks = (n + threads - 1) / threads;
  if (blocks > 65535u * 16u) blocks = 65535u * 16u;
  scatter_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(d_in, d_map, d_out, n);
  PRIM_LAUNCH_CHECK("scatter_kernel");
}

}  // namespace prim::detail
