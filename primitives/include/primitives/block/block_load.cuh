// Tile loads in the warp-striped vector arrangement: warp w of the block owns the segment
// [w * 32 * ITEMS, (w + 1) * 32 * ITEMS) of the tile; each thread holds ITEMS = ROWS * VEC items,
// item (row r, v) of lane l being segment element (r * 32 + l) * VEC + v. With VEC * sizeof(T) ==
// 16 every row is one 16-byte load per thread and 512 contiguous bytes per warp (coalesced).
//
//   int32, VEC = 4, ITEMS = 8: lane 0 holds segment elements 0-3 and 128-131,
//                              lane 1 holds 4-7 and 132-135, ...
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>

#include "primitives/warp/warp_shuffle.cuh"

namespace prim::block {

// Items of T per 16-byte vector when T tiles 16 bytes exactly, else 1 (scalar accesses).
template <class T>
constexpr int vector_width() {
  return (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? static_cast<int>(16 / sizeof(T)) : 1;
}

// The vector width of a thread's ITEMS items of T: vector_width<T>() where the items fill whole
// vectors, else 1.
template <class T, int ITEMS>
constexpr int vector_width() {
  return ITEMS % vector_width<T>() == 0 ? vector_width<T>() : 1;
}

// True when VEC items of T make one 16-byte vector.
template <class T, int VEC>
constexpr bool vectorizable() {
  return VEC * sizeof(T) == 16;
}

// Segment index of item i (= r * VEC + v) of `lane`.
template <int VEC>
__device__ __forceinline__ int striped_index(int i, int lane) {
  return (i / VEC * warp::kWarpThreads + lane) * VEC + i % VEC;
}

// The whole segment is in range and `segment` is 16-byte aligned; VEC * sizeof(T) == 16.
// STREAMING: ld.global.cs (evict-first in L1 and L2), for items read once.
template <int ITEMS, int VEC, bool STREAMING, class T>
__device__ __forceinline__ void load_striped_vector(const T* segment, T (&items)[ITEMS], int lane) {
  static_assert(VEC * sizeof(T) == 16, "vector loads move 16 bytes");
  const uint4* vectors = reinterpret_cast<const uint4*>(segment);
  uint4 raw[ITEMS / VEC];
#pragma unroll
  for (int r = 0; r < ITEMS / VEC; ++r) {
    const uint4* at = &vectors[r * warp::kWarpThreads + lane];
    raw[r] = STREAMING ? __ldcs(at) : *at;
  }
#pragma unroll
  for (int r = 0; r < ITEMS / VEC; ++r) memcpy(&items[r * VEC], &raw[r], 16);
}

// Scalar loads of the same arrangement; elements at segment index >= valid get `fill`.
template <int ITEMS, int VEC, class T>
__device__ __forceinline__ void load_striped_guarded(const T* segment, T (&items)[ITEMS], int lane,
                                                     long long valid, const T& fill) {
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int index = striped_index<VEC>(i, lane);
    items[i] = index < valid ? segment[index] : fill;
  }
}

// Scalar loads of the same arrangement; elements at segment index >= valid are left untouched.
template <int ITEMS, int VEC, class T>
__device__ __forceinline__ void load_striped_guarded(const T* segment, T (&items)[ITEMS], int lane,
                                                     long long valid) {
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int index = striped_index<VEC>(i, lane);
    if (index < valid) items[i] = segment[index];
  }
}

}  // namespace prim::block
