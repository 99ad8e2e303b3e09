// Scan variant 'work_efficient': Blelloch's up-sweep / down-sweep in global memory.
//
// The input is copied into a workspace array of m = next_pow2(n) elements, padded with the
// identity, which is then treated as a balanced binary tree stored in place:
//
//   up-sweep   for d = 1, 2, ..., m/2:  buf[k] = op(buf[k - d], buf[k])  for k = 2d-1, 4d-1, ...
//              (every node k now holds the reduction of its subtree; buf[m-1] the total)
//   root       buf[m-1] = identity
//   down-sweep for d = m/2, ..., 2, 1:  left = buf[k - d]; buf[k - d] = buf[k];
//                                       buf[k] = op(buf[k], left)
//              (a node passes its prefix to its left child and prefix (+) left-sum to its right)
//
// after which buf holds the exclusive scan; the inclusive scan is op(excl[i], in[i]). The prefix
// is always the left operand, so non-commutative operators work.
//
//   in = [3, 1, 7, 0], +   up: [3, 4, 7, 11]   root: [3, 4, 7, 0]   down d=2: [3, 0, 7, 4]
//                          down d=1: [0, 3, 4, 11]  (exclusive)
//
// Cost: O(m) work (about 2m operations) in 2 log2(m) + 3 launches. Each level launches only as
// many threads as it has active nodes (m / 2d), so the grid shrinks level by level; the deep
// levels are a handful of threads, and each launch reads and writes scattered elements. Memory:
// m elements of workspace (up to 2n).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "primitives/classic/detail/grid.cuh"
#include "primitives/classic/variants.h"
#include "primitives/error.h"
#include "primitives/tuning.h"
#include "primitives/workspace.h"

namespace prim::classic::detail::work_efficient {

// buf[i] = in[i] for i < n, the identity for n <= i < m. Reads n, writes m elements.
template <class T>
__global__ void __launch_bounds__(detail::kMaxBlockThreads)
    load_padded_kernel(const T* __restrict__ in, T* __restrict__ buf, std::size_t n, std::size_t m,
                       T identity) {
  for (std::size_t i = detail::grid_first(); i < m; i += detail::grid_stride()) {
    buf[i] = i < n ? in[i] : identity;
  }
}

// One up-sweep level: `active` = m / 2d nodes, thread t combines node k = (t+1)*2d - 1 with its
// left sibling subtree's root k - d. Reads 2 and writes 1 element per node, 2d apart (the deep
// levels touch one element per cache line).
template <class T, class Op>
__global__ void __launch_bounds__(detail::kMaxBlockThreads)
    up_sweep_kernel(T* buf, std::size_t d, std::size_t active, Op op) {
  for (std::size_t t = detail::grid_first(); t < active; t += detail::grid_stride()) {
    const std::size_t k = (t + 1) * 2 * d - 1;
    buf[k] = op(buf[k - d], buf[k]);
  }
}

// Clears the root: the prefix of everything before the whole array is the identity. One thread.
template <class T>
__global__ void set_root_kernel(T* buf, std::size_t m, T identity) {
  buf[m - 1] = identity;
}

// One down-sweep level, same node numbering as the up-sweep. Reads 2 and writes 2 elements per
// node.
template <class T, class Op>
__global__ void __launch_bounds__(detail::kMaxBlockThreads)
    down_sweep_kernel(T* buf, std::size_t d, std::size_t active, Op op) {
  for (std::size_t t = detail::grid_first(); t < active; t += detail::grid_stride()) {
    const std::size_t k = (t + 1) * 2 * d - 1;
    const T left = buf[k - d];
    buf[k - d] = buf[k];
    buf[k] = op(buf[k], left);
  }
}

// out[i] = excl[i] (exclusive) or op(excl[i], in[i]) (inclusive). in and out may be the same
// array: each thread reads in[i] before writing out[i], and no other thread touches index i.
// Reads n (inclusive: 2n) and writes n elements.
template <class T, class Op>
__global__ void __launch_bounds__(detail::kMaxBlockThreads)
    finish_kernel(const T* in, const T* __restrict__ excl, T* out, std::size_t n, bool inclusive,
                  Op op) {
  for (std::size_t i = detail::grid_first(); i < n; i += detail::grid_stride()) {
    out[i] = inclusive ? op(excl[i], in[i]) : excl[i];
  }
}

template <class T>
std::size_t workspace_bytes(std::size_t n, const ScanConfig&) {
  WorkspaceCarver carver;
  carver.take<T>(detail::next_pow2(n));  // the tree, padded to a power of two
  return carver.used();
}

template <bool Inclusive, class T, class Op>
void scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, void* workspace,
          cudaStream_t stream, const ScanConfig& config) {
  const std::size_t m = detail::next_pow2(n);
  WorkspaceCarver carver(workspace);
  T* buf = carver.take<T>(m);
  const int threads = config.block_threads == 0 ? tuning::kGlobalScanThreads : config.block_threads;
  require(threads >= 32 && threads <= 1024 && threads % 32 == 0,
          "prim::classic::detail::work_efficient::scan", [&] {
            return "block_threads " + std::to_string(config.block_threads) +
                   " must be a multiple of 32 in [32, 1024] (or 0 for the default)";
          });

  load_padded_kernel<<<detail::grid_blocks(m, threads), threads, 0, stream>>>(d_in, buf, n, m,
                                                                              identity);
  PRIM_LAUNCH_CHECK("load_padded_kernel");
  for (std::size_t d = 1; d < m; d <<= 1) {
    const std::size_t active = m / (2 * d);
    up_sweep_kernel<<<detail::grid_blocks(active, threads), threads, 0, stream>>>(buf, d, active,
                                                                                  op);
    PRIM_LAUNCH_CHECK("up_sweep_kernel");
  }
  set_root_kernel<<<1, 1, 0, stream>>>(buf, m, identity);
  PRIM_LAUNCH_CHECK("set_root_kernel");
  for (std::size_t d = m / 2; d >= 1; d >>= 1) {
    const std::size_t active = m / (2 * d);
    down_sweep_kernel<<<detail::grid_blocks(active, threads), threads, 0, stream>>>(buf, d, active,
                                                                                    op);
    PRIM_LAUNCH_CHECK("down_sweep_kernel");
  }
  finish_kernel<<<detail::grid_blocks(n, threads), threads, 0, stream>>>(d_in, buf, d_out, n,
                                                                         Inclusive, op);
  PRIM_LAUNCH_CHECK("finish_kernel");
}

}  // namespace prim::classic::detail::work_efficient
