// Lanes of the warp holding the same value in the low BITS bits, by one ballot per bit (a fixed
// cost of BITS votes, whatever the number of distinct values).
//
//   lane value (BITS = 2):  1  3  1  0 ...   ->  lane 0 gets the mask of lanes {0, 2, ...}
//
// Every lane of the warp must call it together.
#pragma once

#include "primitives/warp/warp_shuffle.cuh"

namespace prim::warp {

template <int BITS>
__device__ __forceinline__ unsigned match_bits(unsigned value) {
  unsigned peers = kFullMask;
#pragma unroll
  for (int b = 0; b < BITS; ++b) {
    const bool set = (value >> b) & 1u;
    const unsigned lanes_set = __ballot_sync(kFullMask, set);
    peers &= set ? lanes_set : ~lanes_set;
  }
  return peers;
}

}  // namespace prim::warp
