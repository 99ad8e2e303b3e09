// Warp-wide inclusive and exclusive scans by shuffles (Kogge-Stone over the 32 lanes), for any
// associative operator; order is kept, so non-commutative operators work.
//
//   lane x:          3  1  7  0  4 ...
//   inclusive_scan:  3  4 11 11 15 ...
//   exclusive_scan:  e  3  4 11 11 ...   (e = identity)
//
// Every lane of the warp must call these together.
#pragma once

#include "primitives/warp/warp_shuffle.cuh"

namespace prim::warp {

template <class T, class Op>
__device__ __forceinline__ T inclusive_scan(T x, Op op) {
  const int lane = lane_id();
#pragma unroll
  for (int delta = 1; delta < kWarpThreads; delta <<= 1) {
    T before = shuffle_up(x, delta);
    if (lane >= delta) x = op(before, x);
  }
  return x;
}

// Exclusive scan; also returns the warp's total (the last lane's inclusive value) in every lane.
template <class T, class Op>
__device__ __forceinline__ T exclusive_scan(T x, T identity, Op op, T& total) {
  T inclusive = inclusive_scan(x, op);
  total = shuffle_idx(inclusive, kWarpThreads - 1);
  T before = shuffle_up(inclusive, 1);
  return lane_id() == 0 ? identity : before;
}

}  // namespace prim::warp
