// Decoupled look-back (Merrill & Garland 2016), warp-parallel over windows of 32 predecessors.
//
// One warp of tile `tile` (>= 1) calls tile_lookback; it waits until each of the 32 predecessor
// tiles [tile - 32, tile) has published something, folds the window from the nearest inclusive
// prefix (flag P) forward, and if no tile in the window has P yet, folds the aggregates of the
// whole window and moves to the 32 tiles before it. Returns the tile's exclusive prefix in every
// lane. Tile = block index, and the GPU starts the blocks of a grid in increasing index order, so
// every predecessor is running or done and the wait ends (no deadlock). CUB's single-pass scan
// relies on that order too ("blocks are launched in increasing order", agent_scan.cuh); the CUDA
// documentation does not promise it. An atomic ticket taken at the start of each block promises it
// by construction, but on the tile's critical path (an L2 round trip before the loads), and with
// one most sizes of the scan, the compaction and the onesweep sorts ran longer
// (bench/results/RESULTS.md).
//
//   predecessors  ... [P:10] [A:3] [A:4]   (nearest first on the right)
//   exclusive prefix = 10 + 3 + 4 = 17   (op applied left to right)
//
// Polling: a window with a tile that has published nothing yet is read again after sleeping
// `poll_ns` nanoseconds (0: at once). Hundreds of warps polling the same few status lines without
// a pause keep the L2 slices that hold them busy and slow down every other access to those slices.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "primitives/agent/tile_status.cuh"
#include "primitives/warp/warp_reduce.cuh"

namespace prim::agent {

// When a tile of a long grid acts: `first_ns`, the pause after it publishes its aggregate and
// before it first reads its predecessors (they are likely still busy; reading at once only adds
// polling traffic); `poll_ns`, the pause between two reads of a window that is not ready yet; and
// `prefetch_tiles`, how far ahead of itself it asks L2 for a tile's input (prefetch_tile_ahead).
struct LookbackSchedule {
  unsigned first_ns = 0;
  unsigned poll_ns = 0;
  unsigned prefetch_tiles = 0;
};

// Tile `tile` asks L2 for the input of tile `tile + ahead` (tiles of tile_items items of the n at
// `in`), so that it is on its way from DRAM before that tile's block starts: one bulk prefetch
// (cp.async.bulk.prefetch.L2, sm_90 on) by the calling thread, which does not wait for it. Nothing
// where ahead is 0, the tile is not whole, `in` is not 16-byte aligned, or before sm_90. A tile
// spends most of its life in its look-back; with the loads of the tiles to come already in flight
// DRAM stays busy meanwhile (tuning.h).
template <class T>
__device__ __forceinline__ void prefetch_tile_ahead(const T* in, std::size_t n,
                                                    std::size_t tile_items, int tile,
                                                    unsigned ahead) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  const std::size_t first = (static_cast<std::size_t>(tile) + ahead) * tile_items;
  if (ahead == 0 || first + tile_items > n || reinterpret_cast<std::uintptr_t>(in) % 16 != 0)
    return;
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(in + first),
               "r"(static_cast<unsigned>(tile_items * sizeof(T)))
               : "memory");
#endif
}

template <class Status, class T, class Op>
__device__ __forceinline__ T tile_lookback(const Status& status, int tile, const T& identity, Op op,
                                           unsigned poll_ns = 0) {
  const int lane = warp::lane_id();
  T exclusive = identity;
  int window_end = tile;  // the window is [window_end - 32, window_end)
  while (true) {
    const int index = window_end - warp::kWarpThreads + lane;
    unsigned flag;
    T value = identity;
    while (true) {
      if (index >= 0) {
        status.load(index, flag, value);
      } else {  // before tile 0: nothing to add
        flag = kTileInclusive;
        value = identity;
      }
      // Only the tiles after the nearest inclusive prefix (the highest lane with P) are needed;
      // tiles before it may still be empty.
      const unsigned invalid_lanes = __ballot_sync(warp::kFullMask, flag == kTileInvalid);
      const unsigned inclusive_lanes = __ballot_sync(warp::kFullMask, flag == kTileInclusive);
      if (invalid_lanes == 0 || (inclusive_lanes >> (31 - __clz(invalid_lanes))) > 1u) break;
      if (poll_ns) __nanosleep(poll_ns);
    }
    const unsigned inclusive_lanes = __ballot_sync(warp::kFullMask, flag == kTileInclusive);
    // The nearest inclusive prefix is the highest lane with P; lanes before it are not needed.
    const int first = inclusive_lanes ? 31 - __clz(inclusive_lanes) : 0;
    if (lane < first) value = identity;
    exclusive = op(warp::reduce(value, op), exclusive);
    if (inclusive_lanes) return exclusive;
    window_end -= warp::kWarpThreads;
  }
}

// Warp 0 of a look-back kernel holds its tile's items in registers while it looks back, and the
// look-back's own registers come on top. Under the kernels' register cap (tuning.h) that peak
// spilled 4 to 9 registers to local memory around warp_base, in every warp of every tile, as many
// local-memory requests as global loads and stores (bench/results/RESULTS.md). park moves the
// calling warp's items to shared memory (lane-interleaved: no bank conflicts) once it has published
// its aggregate, and unpark brings them back after the look-back, so no items are live at the peak
// and only warp 0 pays, ITEMS shared stores and loads per thread. The __syncwarp between them is a
// memory barrier to the compiler, which therefore reloads the items instead of keeping them in
// registers across the look-back.
template <int ITEMS, class T>
__device__ __forceinline__ void park(T* parked, const T (&items)[ITEMS], int lane) {
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) parked[i * warp::kWarpThreads + lane] = items[i];
  __syncwarp();
}
template <int ITEMS, class T>
__device__ __forceinline__ void unpark(const T* parked, T (&items)[ITEMS], int lane) {
  __syncwarp();
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) items[i] = parked[i * warp::kWarpThreads + lane];
}

// The chained tile prefix, as warp 0 of a look-back kernel finds it once it knows its tile's
// aggregate (block::BlockScan::warp_base's tile_prefix_of; every lane calls it). Tile 0 publishes
// its aggregate as its inclusive prefix and gets `identity`. Any other tile publishes its
// aggregate, parks its items in `parked` (above), pauses schedule.first_ns, looks back, publishes
// its inclusive prefix and takes its items back. Returns the tile's exclusive prefix.
template <class Status, class T, class Op, int ITEMS, class Item>
__device__ __forceinline__ T tile_exclusive_prefix(const Status& status, int tile,
                                                   const T& tile_aggregate, const T& identity,
                                                   Op op, const LookbackSchedule& schedule,
                                                   Item* parked, Item (&items)[ITEMS], int lane) {
  if (tile == 0) {
    if (lane == 0) status.publish(0, kTileInclusive, tile_aggregate);
    return identity;
  }
  if (lane == 0) status.publish(tile, kTileAggregate, tile_aggregate);
  park(parked, items, lane);
  if (schedule.first_ns) __nanosleep(schedule.first_ns);
  const T exclusive = tile_lookback(status, tile, identity, op, schedule.poll_ns);
  if (lane == 0) status.publish(tile, kTileInclusive, op(exclusive, tile_aggregate));
  unpark(parked, items, lane);
  return exclusive;
}

}  // namespace prim::agent
