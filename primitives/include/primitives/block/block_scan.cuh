// Block-wide combination of per-warp aggregates with a tile prefix (CUB-style: the caller owns
// the shared memory, BlockScan<T>::TempStorage).
//
//   warp aggregates [2, 5, 1], tile prefix 10 (from the look-back)
//   -> warp 0 gets 10, warp 1 gets 12, warp 2 gets 17; tile_aggregate = 8, tile_prefix = 10
//
// All threads of the block call warp_base together (it contains two __syncthreads).
#pragma once

#include <cuda_runtime.h>

#include "primitives/warp/warp_scan.cuh"

namespace prim::block {

template <class T>
struct BlockScan {
  static constexpr int kMaxWarps = 32;
  // Raw bytes, so that T needs no trivial constructor to live in __shared__.
  struct TempStorage {
    alignas(alignof(T)) unsigned char bytes[(kMaxWarps + 2) * sizeof(T)];
    __device__ __forceinline__ T* warp_base() { return reinterpret_cast<T*>(bytes); }
    __device__ __forceinline__ T& tile_prefix() { return warp_base()[kMaxWarps]; }
    __device__ __forceinline__ T& tile_aggregate() { return warp_base()[kMaxWarps + 1]; }
  };

  // Every thread passes its warp's aggregate. Warp 0 scans the warp aggregates and calls
  // tile_prefix_of(tile_aggregate) in all its lanes, which returns the tile's exclusive prefix.
  // Returns op(tile prefix, aggregates of the warps before the caller's). Afterwards
  // storage.tile_prefix() and storage.tile_aggregate() hold the tile's values.
  template <class Op, class TilePrefixOf>
  __device__ __forceinline__ static T warp_base(TempStorage& storage, const T& warp_aggregate,
                                                const T& identity, Op op,
                                                TilePrefixOf tile_prefix_of) {
    const int warp_index = static_cast<int>(threadIdx.x) / warp::kWarpThreads;
    const int warps = static_cast<int>(blockDim.x) / warp::kWarpThreads;
    const int lane = warp::lane_id();
    if (lane == 0) storage.warp_base()[warp_index] = warp_aggregate;
    __syncthreads();
    if (warp_index == 0) {
      const T mine = lane < warps ? storage.warp_base()[lane] : identity;
      T tile_aggregate;
      const T before = warp::exclusive_scan(mine, identity, op, tile_aggregate);
      const T tile_prefix = tile_prefix_of(tile_aggregate);
      if (lane < warps) storage.warp_base()[lane] = op(tile_prefix, before);
      if (lane == 0) {
        storage.tile_prefix() = tile_prefix;
        storage.tile_aggregate() = tile_aggregate;
      }
    }
    __syncthreads();
    return storage.warp_base()[warp_index];
  }
};

}  // namespace prim::block
