// Ordered warp-wide reduction by shuffles: op(x[0], op(x[1], ... x[31])) for an associative,
// possibly non-commutative operator; the result is returned in every lane.
//
//   lane x:  a  b  c ... (32 lanes)  ->  every lane gets a.b.c. ... (left to right)
//
// Every lane of the warp must call it together.
#pragma once

#include "primitives/warp/warp_shuffle.cuh"

namespace prim::warp {

template <class T, class Op>
__device__ __forceinline__ T reduce(T x, Op op) {
  const int lane = lane_id();
  // After the step with `delta`, lane i holds the reduction of lanes [i, i + 2 * delta).
#pragma unroll
  for (int delta = 1; delta < kWarpThreads; delta <<= 1) {
    T after = shuffle_down(x, delta);
    if (lane + delta < kWarpThreads) x = op(x, after);
  }
  return shuffle_idx(x, 0);
}

}  // namespace prim::warp

namespace prim::warp {

// The least and the largest 32-bit unsigned value over the warp, in every lane: one redux
// instruction on sm_80 and newer, the shuffle reduction before.
__device__ __forceinline__ unsigned reduce_min(unsigned x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_min_sync(kFullMask, x);
#else
  return reduce(x, [](unsigned a, unsigned b) { return b < a ? b : a; });
#endif
}

__device__ __forceinline__ unsigned reduce_max(unsigned x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __reduce_max_sync(kFullMask, x);
#else
  return reduce(x, [](unsigned a, unsigned b) { return b > a ? b : a; });
#endif
}

}  // namespace prim::warp
