// Scan of a warp's segment held in the warp-striped vector arrangement (block/block_load.cuh):
// each thread holds ITEMS = ROWS * VEC items; item (row r, v) of lane l is segment element
// (r * 32 + l) * VEC + v. Rows are scanned one after the other, each row across the 32 lanes.
//
//   VEC = 2, ROWS = 1, 2 lanes shown: lane 0 holds [1, 2], lane 1 holds [3, 4]
//   after the call: lane 0 items [1, 3] prefix {0}; lane 1 items [3, 7] prefix {3}; returns 10
//   (items become the thread-local inclusive scan of each row; the element's segment inclusive
//    scan is op(prefix[r], items[r * VEC + v]))
//
// Every lane of the warp must call it together; order is kept (non-commutative operators work).
#pragma once

#include "primitives/warp/warp_scan.cuh"

namespace prim::warp {

// Returns the segment's aggregate (in every lane).
template <int ITEMS, int VEC, class T, class Op>
__device__ __forceinline__ T striped_scan(T (&items)[ITEMS], T (&prefix)[ITEMS / VEC], T identity,
                                          Op op) {
  static_assert(ITEMS % VEC == 0, "ITEMS must be a multiple of VEC");
  constexpr int kRows = ITEMS / VEC;
  T carry = identity;  // reduction of the rows before row r
#pragma unroll
  for (int r = 0; r < kRows; ++r) {
#pragma unroll
    for (int v = 1; v < VEC; ++v)
      items[r * VEC + v] = op(items[r * VEC + v - 1], items[r * VEC + v]);
    T row_total;
    T lane_prefix = exclusive_scan(items[r * VEC + VEC - 1], identity, op, row_total);
    prefix[r] = op(carry, lane_prefix);
    carry = op(carry, row_total);
  }
  return carry;
}

}  // namespace prim::warp
