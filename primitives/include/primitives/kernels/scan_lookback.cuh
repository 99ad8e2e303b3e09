// The look-back scan's kernel (host side: device/dispatch_scan.cuh): single pass with decoupled
// look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan with Decoupled Look-back", 2016).
//
// Block b scans tile b (block/tile_lookback.cuh says why the look-back's waits end): it loads
// its tile with 16-byte loads in the warp-striped arrangement (block/block_load.cuh), scans it in
// registers and shuffles, publishes its aggregate, finds its exclusive prefix by a warp-parallel
// look-back over 32 predecessors at a time (block/tile_lookback.cuh), and stores the result. Each
// element is read once and written once: 2 * n * sizeof(T) bytes of traffic, plus 8 bytes of status
// per tile.
//
// Performance (block/tile_lookback.cuh, tuning.h): after publishing its aggregate a tile sleeps
// about one L2 round trip before it reads its predecessors, and sleeps between reads of a window
// that is not ready, so that it finds an inclusive prefix close by instead of walking back over
// hundreds of aggregates; and the kernel is held to 40 registers for items of up to 4 bytes, so
// that three blocks of 512 threads stay resident per SM and keep enough loads in flight while
// some of them wait in their look-back. Warp 0 parks its items in shared memory during the
// look-back (block::park), which keeps the kernel within those 40 registers without spilling: on
// an H100 that took the scan of 2^24 int32 from 59.3 to 56.4 us and 2^28 from 867 to 819 us.
// A block holds its tile until its look-back ends, so few tiles' loads are in flight while most
// resident tiles wait; in a long grid each tile therefore first asks L2 for the input of the tile
// 128 ahead (block::prefetch_tile_ahead), which DRAM delivers while the tiles between run, and
// that tile's loads then find L2 (no extra bytes while the 4 MiB ahead stay in L2). At 2^28
// int32 it took the scan from 819 to 756 us on an H100 (1.15 to 1.06 x a copy) and from 632 to
// 601 us on an H200 (1.25 to 1.19 x); tuning.h has the distances tried.
//
// Status reset: the tile flags must be zero before a tile publishes. The workspace is shared with
// every other primitive, so its old contents are arbitrary; an epoch stamped into the flags cannot
// tell a stale flag of this scan from a stray bit pattern left by another primitive, and a kernel
// that cleans up after itself breaks as soon as a different call uses the same bytes in between.
// So each call zeroes the flags, 8 bytes per tile rounded up to 256 (1 KiB at 2^20 int32, 256 KiB
// at 2^28): no extra pass over the data, and correct whatever ran before. The zeroing is a kernel
// of its own (zero_for_dependent) and the scan is its programmatic dependent
// (device/dependent_launch.cuh): the scan's blocks launch while it runs, load and scan their
// tiles, and wait for it only before they publish. Against a cudaMemsetAsync before a plain launch
// that took the scan at 2^22 to 2^24 int32 from 24.0 / 39.4 / 66.5 us to 22.4 / 37.2 / 64.6 us on
// an H100 (with a ticket then, taken after the wait). A single tile needs no reset: it runs alone,
// and what it publishes nobody reads.
//
// 64-bit offsets throughout: n up to 2^31 - 1 tiles.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/block/block_load.cuh"
#include "primitives/block/block_scan.cuh"
#include "primitives/block/block_store.cuh"
#include "primitives/block/tile_lookback.cuh"
#include "primitives/block/tile_shape.cuh"
#include "primitives/block/tile_status.cuh"
#include "primitives/device/dependent_launch.cuh"
#include "primitives/warp/warp_striped_scan.cuh"

namespace prim::detail::lookback {

template <bool Inclusive, int ITEMS, int VEC, class T, class Op, class Status>
__global__ void __maxnreg__(block::lookback_max_registers<T>())
    scan_kernel(const T* in, T* out, std::size_t n, T identity, Op op, Status status, bool aligned,
                block::LookbackSchedule schedule) {
  using Scan = block::BlockScan<T>;
  __shared__ typename Scan::TempStorage storage;
  // Warp 0's items while it looks back (block::park); raw bytes, as T need not be trivially
  // constructible.
  __shared__ alignas(alignof(T)) unsigned char parked_bytes[warp::kWarpThreads * ITEMS * sizeof(T)];
  T* parked = reinterpret_cast<T*>(parked_bytes);
  const int tile = blockIdx.x;

  constexpr int kSegmentItems = warp::kWarpThreads * ITEMS;
  const int lane = warp::lane_id();
  const std::size_t segment_start = static_cast<std::size_t>(tile) * blockDim.x * ITEMS +
                                    (threadIdx.x / warp::kWarpThreads) * std::size_t(kSegmentItems);
  const long long valid =
      segment_start >= n ? 0
                         : static_cast<long long>(n - segment_start < std::size_t(kSegmentItems)
                                                      ? n - segment_start
                                                      : std::size_t(kSegmentItems));
  if (threadIdx.x == 0)
    block::prefetch_tile_ahead(in, n, std::size_t(blockDim.x) * ITEMS, tile,
                               schedule.prefetch_tiles);
  bool vectorized = false;
  if constexpr (block::vectorizable<T, VEC>()) vectorized = aligned && valid == kSegmentItems;

  T items[ITEMS];
  if constexpr (block::vectorizable<T, VEC>()) {
    if (vectorized) block::load_striped_vector<ITEMS, VEC, true>(in + segment_start, items, lane);
  }
  if (!vectorized)
    block::load_striped_guarded<ITEMS, VEC>(in + segment_start, items, lane, valid, identity);

  griddep_wait();  // the status is zeroed by the kernel ahead; the input was ready before it
  T prefix[ITEMS / VEC];
  const T warp_aggregate = warp::striped_scan<ITEMS, VEC>(items, prefix, identity, op);

  auto tile_prefix_of = [&](const T& tile_aggregate) -> T {
    if (tile == 0) {
      if (lane == 0) status.publish(0, block::kTileInclusive, tile_aggregate);
      return identity;
    }
    if (lane == 0) status.publish(tile, block::kTileAggregate, tile_aggregate);
    block::park(parked, items, lane);
    if (schedule.first_ns) __nanosleep(schedule.first_ns);
    const T exclusive = block::tile_lookback(status, tile, identity, op, schedule.poll_ns);
    if (lane == 0) status.publish(tile, block::kTileInclusive, op(exclusive, tile_aggregate));
    block::unpark(parked, items, lane);
    return exclusive;
  };
  const T base = Scan::warp_base(storage, warp_aggregate, identity, op, tile_prefix_of);

#pragma unroll
  for (int r = 0; r < ITEMS / VEC; ++r) {
    const T row_prefix = op(base, prefix[r]);
    if constexpr (Inclusive) {
#pragma unroll
      for (int v = 0; v < VEC; ++v) items[r * VEC + v] = op(row_prefix, items[r * VEC + v]);
    } else {
#pragma unroll
      for (int v = VEC - 1; v > 0; --v) items[r * VEC + v] = op(row_prefix, items[r * VEC + v - 1]);
      items[r * VEC] = row_prefix;
    }
  }

  if constexpr (block::vectorizable<T, VEC>()) {
    if (vectorized) block::store_striped_vector<ITEMS, VEC>(out + segment_start, items, lane);
  }
  if (!vectorized)
    block::store_striped_guarded<ITEMS, VEC>(out + segment_start, items, lane, valid);
}

}  // namespace prim::detail::lookback
