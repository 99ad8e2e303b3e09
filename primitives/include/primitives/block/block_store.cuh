// Tile stores in the warp-striped vector arrangement of block/block_load.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstring>

#include "primitives/block/block_load.cuh"

namespace prim::block {

// The whole segment is in range and `segment` is 16-byte aligned; VEC * sizeof(T) == 16.
// Streaming stores (st.global.cs, evict-first): the output is not read again by the kernel.
template <int ITEMS, int VEC, class T>
__device__ __forceinline__ void store_striped_vector(T* segment, const T (&items)[ITEMS],
                                                     int lane) {
  static_assert(VEC * sizeof(T) == 16, "vector stores move 16 bytes");
  uint4* vectors = reinterpret_cast<uint4*>(segment);
#pragma unroll
  for (int r = 0; r < ITEMS / VEC; ++r) {
    uint4 raw;
    memcpy(&raw, &items[r * VEC], 16);
    __stcs(&vectors[r * warp::kWarpThreads + lane], raw);
  }
}

// Scalar stores of the elements at segment index < valid.
template <int ITEMS, int VEC, class T>
__device__ __forceinline__ void store_striped_guarded(T* segment, const T (&items)[ITEMS], int lane,
                                                      long long valid) {
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int index = striped_index<VEC>(i, lane);
    if (index < valid) segment[index] = items[i];
  }
}

}  // namespace prim::block
