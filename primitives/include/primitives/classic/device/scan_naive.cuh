// Scan variant 'naive': Hillis-Steele in global memory with ping-pong buffers.
//
// Step d = 1, 2, 4, ... (while d < n) reads the previous array x and writes
//   x'[i] = i >= d ? op(x[i - d], x[i]) : x[i]
// so that after the step x'[i] combines the (up to) 2d inputs ending at i; after ceil(log2 n)
// steps x[i] is the inclusive prefix. The left operand is always the earlier element, so
// non-commutative operators work. An exclusive scan shifts the input right by one as the first
// step reads it (x[0] = identity, x[i] = in[i - 1]) and scans that.
//
//   in = [3, 1, 7, 0, 4], +   d=1: [3, 4, 8, 7, 4]   d=2: [3, 4, 11, 11, 12]   d=4: [.., 15]
//
// Cost: ceil(log2 n) launches (one for n == 1), each reading 2n and writing n elements: O(n log n)
// work where a sequential scan does O(n). It is the simplest parallel scan, the baseline that the
// other variants improve on.
//
// Buffers: the steps alternate between d_out and one workspace array of n elements, ordered so
// that the last step lands in d_out. In place (d_out == d_in) the first step must not write d_in
// while other threads still read it, so it writes the workspace, and when the parity then leaves
// the result there, one device-to-device copy moves it to d_out.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "primitives/classic/detail/grid.cuh"
#include "primitives/classic/variants.h"
#include "primitives/error.h"
#include "primitives/tuning.h"
#include "primitives/workspace.h"

namespace prim::classic::detail::naive {

// One Hillis-Steele step over n elements (grid-stride, one thread per element): reads 2n, writes
// n. With `shift` the step reads its input moved right by one (identity at 0): the exclusive
// scan's first step. d >= n makes the step a plain copy (or shift), used when n == 1.
// src and dst never alias (the host side guarantees it).
template <class T, class Op>
__global__ void __launch_bounds__(detail::kMaxBlockThreads)
    hillis_steele_step_kernel(const T* __restrict__ src, T* __restrict__ dst, std::size_t n,
                              std::size_t d, bool shift, T identity, Op op) {
  for (std::size_t i = detail::grid_first(); i < n; i += detail::grid_stride()) {
    // x(j): this step's input at j.
    auto x = [&](std::size_t j) -> T { return shift ? (j == 0 ? identity : src[j - 1]) : src[j]; };
    dst[i] = i >= d ? op(x(i - d), x(i)) : x(i);
  }
}

template <class T>
std::size_t workspace_bytes(std::size_t n, const ScanConfig&) {
  WorkspaceCarver carver;
  carver.take<T>(n);  // the ping-pong partner of d_out
  return carver.used();
}

template <bool Inclusive, class T, class Op>
void scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, void* workspace,
          cudaStream_t stream, const ScanConfig& config) {
  WorkspaceCarver carver(workspace);
  T* tmp = carver.take<T>(n);
  const int threads = config.block_threads == 0 ? tuning::kGlobalScanThreads : config.block_threads;
  require(threads >= 32 && threads <= 1024 && threads % 32 == 0,
          "prim::classic::detail::naive::scan", [&] {
            return "block_threads " + std::to_string(config.block_threads) +
                   " must be a multiple of 32 in [32, 1024] (or 0 for the default)";
          });
  const unsigned blocks = detail::grid_blocks(n, threads);

  int steps = 0;  // d = 1, 2, 4, ... while d < n; at least one step (a copy when n == 1)
  for (std::size_t d = 1;; d <<= 1) {
    ++steps;
    if (2 * d >= n) break;
  }
  const bool in_place = static_cast<const void*>(d_in) == static_cast<const void*>(d_out);

  const T* src = d_in;
  T* dst = nullptr;
  std::size_t d = 1;
  for (int step = 0; step < steps; ++step, d <<= 1) {
    // Out of place: pick the buffer so that the last step writes d_out. In place: tmp first.
    const bool to_out = in_place ? (step % 2 == 1) : detail::pass_writes_output(step, steps);
    dst = to_out ? d_out : tmp;
    hillis_steele_step_kernel<<<blocks, threads, 0, stream>>>(
        src, dst, n, d, !Inclusive && step == 0, identity, op);
    PRIM_LAUNCH_CHECK("hillis_steele_step_kernel");
    src = dst;
  }
  if (dst != d_out) {
    PRIM_CUDA_CHECK(cudaMemcpyAsync(d_out, dst, n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  }
}

}  // namespace prim::classic::detail::naive
