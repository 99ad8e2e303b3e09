// AgentScan: one tile of the single-pass scan with decoupled look-back (Merrill & Garland,
// "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016); the kernel is
// kernels/scan_lookback.cuh, the host side device/dispatch_scan.cuh.
//
// Block b scans tile b (agent/tile_lookback.cuh says why the look-back's waits end): it loads its
// tile with 16-byte loads in the warp-striped arrangement (block/block_load.cuh), scans it in
// registers and shuffles, publishes its aggregate, finds its exclusive prefix by a warp-parallel
// look-back over 32 predecessors at a time (agent/tile_lookback.cuh), and stores the result. Each
// element is read once and written once: 2 * n * sizeof(T) bytes of traffic, plus 8 bytes of status
// per tile.
//
//   tile 2 of tiles of 4 items, in = [.., .., 1 2 3 4], tiles 0 and 1 sum to 17, op = +
//   -> aggregate 10 published, look-back finds 17, inclusive 27 published;
//      exclusive scan of the tile: [17 18 20 23]
//
// Performance (agent/tile_lookback.cuh, tuning.h): after publishing its aggregate a tile sleeps
// about one L2 round trip before it reads its predecessors, and sleeps between reads of a window
// that is not ready, so that it finds an inclusive prefix close by instead of walking back over
// hundreds of aggregates; and the kernel is held to 40 registers for items of up to 4 bytes, so
// that three blocks of 512 threads stay resident per SM and keep enough loads in flight while
// some of them wait in their look-back. Warp 0 parks its items in shared memory during the
// look-back (agent::park), which keeps the kernel within those 40 registers without spilling.
// A block holds its tile until its look-back ends, so few tiles' loads are in flight while most
// resident tiles wait; in a long grid each tile therefore first asks L2 for the input of the tile
// 128 ahead (agent::prefetch_tile_ahead), which DRAM delivers while the tiles between run, and
// that tile's loads then find L2 (no extra bytes while the 4 MiB ahead stay in L2). What each
// of these gained: bench/results/RESULTS.md.
//
// The tile status is zeroed by a kernel ahead of this one (device/dispatch_scan.cuh); the tile
// loads and scans its items before it waits for that kernel, and publishes only after.
//
// 64-bit offsets throughout: n up to 2^31 - 1 tiles.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/agent/tile_lookback.cuh"
#include "primitives/block/block_load.cuh"
#include "primitives/block/block_scan.cuh"
#include "primitives/block/block_store.cuh"
#include "primitives/detail/grid_dependency.cuh"
#include "primitives/warp/warp_striped_scan.cuh"

namespace prim::agent {

// INCLUSIVE: inclusive scan, else exclusive. ITEMS items per thread, VEC of them per 16-byte
// vector (block::vector_width). Status: a tile status of agent/tile_status.cuh for T.
template <bool INCLUSIVE, int ITEMS, int VEC, class T, class Op, class Status>
struct AgentScan {
  using BlockScanT = block::BlockScan<T>;
  static constexpr int kSegmentItems = warp::kWarpThreads * ITEMS;  // a warp's items

  using TempStorage = typename BlockScanT::TempStorage;
  // Warp 0's items while it looks back (park); raw bytes, as T need not be trivially
  // constructible. A shared variable of its own rather than a member of TempStorage: addressed
  // from one base with the block scan's storage, the kernels' registers and spills changed (the
  // 16-byte-item scans spilled more).
  struct ParkStorage {
    alignas(alignof(T)) unsigned char bytes[kSegmentItems * sizeof(T)];
  };

  TempStorage& storage;
  ParkStorage& park_storage;
  const T* in;
  T* out;
  std::size_t n;
  T identity;
  Op op;
  Status status;
  LookbackSchedule schedule;

  __device__ __forceinline__ AgentScan(TempStorage& storage, ParkStorage& park_storage, const T* in,
                                       T* out, std::size_t n, const T& identity, Op op,
                                       const Status& status, const LookbackSchedule& schedule)
      : storage(storage),
        park_storage(park_storage),
        in(in),
        out(out),
        n(n),
        identity(identity),
        op(op),
        status(status),
        schedule(schedule) {}

  // Scans tile blockIdx.x (every thread of the block calls it). aligned: `in` and `out` are 16-byte
  // aligned, so whole segments move as 16-byte vectors.
  __device__ __forceinline__ void consume_tile(bool aligned) {
    const int tile = blockIdx.x;
    const int lane = warp::lane_id();
    const std::size_t segment_start =
        static_cast<std::size_t>(tile) * blockDim.x * ITEMS +
        (threadIdx.x / warp::kWarpThreads) * std::size_t(kSegmentItems);
    const long long valid =
        segment_start >= n ? 0
                           : static_cast<long long>(n - segment_start < std::size_t(kSegmentItems)
                                                        ? n - segment_start
                                                        : std::size_t(kSegmentItems));
    if (threadIdx.x == 0)
      prefetch_tile_ahead(in, n, std::size_t(blockDim.x) * ITEMS, tile, schedule.prefetch_tiles);

    T items[ITEMS];
    const bool vectorized = load_segment(items, segment_start, valid, lane, aligned);

    detail::griddep_wait();  // the status is zeroed by the kernel ahead; the input was ready before
                             // it
    T prefix[ITEMS / VEC];
    const T warp_aggregate = warp::striped_scan<ITEMS, VEC>(items, prefix, identity, op);
    T* parked = reinterpret_cast<T*>(park_storage.bytes);
    const T base =
        BlockScanT::warp_base(storage, warp_aggregate, identity, op, [&](const T& aggregate) {
          return tile_exclusive_prefix(status, tile, aggregate, identity, op, schedule, parked,
                                       items, lane);
        });
    add_base(items, prefix, base);
    store_segment(items, segment_start, valid, lane, vectorized);
  }

 private:
  // The warp's segment into items: 16-byte loads where the segment is whole and aligned, else
  // item by item, `identity` past the end. Returns whether it took the vectors.
  __device__ __forceinline__ bool load_segment(T (&items)[ITEMS], std::size_t segment_start,
                                               long long valid, int lane, bool aligned) const {
    bool vectorized = false;
    if constexpr (block::vectorizable<T, VEC>()) {
      vectorized = aligned && valid == kSegmentItems;
      if (vectorized) block::load_striped_vector<ITEMS, VEC, true>(in + segment_start, items, lane);
    }
    if (!vectorized)
      block::load_striped_guarded<ITEMS, VEC>(in + segment_start, items, lane, valid, identity);
    return vectorized;
  }

  // Items, scanned within their rows (warp::striped_scan), to the scan of the whole input:
  // op(base, row prefix, item), shifted by one for the exclusive scan.
  __device__ __forceinline__ void add_base(T (&items)[ITEMS], const T (&prefix)[ITEMS / VEC],
                                           const T& base) const {
#pragma unroll
    for (int r = 0; r < ITEMS / VEC; ++r) {
      const T row_prefix = op(base, prefix[r]);
      if constexpr (INCLUSIVE) {
#pragma unroll
        for (int v = 0; v < VEC; ++v) items[r * VEC + v] = op(row_prefix, items[r * VEC + v]);
      } else {
#pragma unroll
        for (int v = VEC - 1; v > 0; --v)
          items[r * VEC + v] = op(row_prefix, items[r * VEC + v - 1]);
        items[r * VEC] = row_prefix;
      }
    }
  }

  __device__ __forceinline__ void store_segment(const T (&items)[ITEMS], std::size_t segment_start,
                                                long long valid, int lane, bool vectorized) const {
    if constexpr (block::vectorizable<T, VEC>()) {
      if (vectorized) block::store_striped_vector<ITEMS, VEC>(out + segment_start, items, lane);
    }
    if (!vectorized)
      block::store_striped_guarded<ITEMS, VEC>(out + segment_start, items, lane, valid);
  }
};

}  // namespace prim::agent
