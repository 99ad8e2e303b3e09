// The fused compaction's kernels (host side: device/dispatch_compact.cuh): compaction and stable
// partition in one pass over the input, with the kept count published by decoupled look-back.
//
// Each block takes a tile from an atomic ticket, loads it with 16-byte loads (warp-striped
// arrangement, block/block_load.cuh), evaluates selector(item, index) in registers (no flag array
// in memory), ranks the kept items with warp ballots and popc, combines the warp counts and finds
// the tile's global offset by look-back over the tiles' kept counts (block/tile_lookback.cuh with
// 64-bit counts), stages its items in shared memory in output order and writes them out with
// contiguous, coalesced stores. The last tile writes the total to *d_count on the device.
//
// Compaction stores 16-byte vectors when T tiles 16 bytes and the output is 16-byte aligned: the
// kept items are staged `kept_before_tile % VEC` places further into shared memory, so that the
// staged vectors line up with aligned output vectors; only the two partial vectors at the ends of
// the tile's output are written item by item. The kept flags live in one bit mask and the ranks
// are recomputed from one count per row, and the kernel is held to 40 registers for items of up
// to 4 bytes (see kernels/scan_lookback.cuh for that and for the look-back pauses).
//
// Stable partition (Partition == true) needs every rejected item at kept_total + rejected_rank,
// and kept_total is only known when the last tile is done. Rather than read the input twice (a
// counting pass first) or stage rejected items in a workspace as large as the input, the pass
// writes rejected item number r (global, in input order) to out[n - 1 - r], which is known from
// the tile's own prefix (rejected before the tile = tile start - kept before the tile). The
// rejected items then fill [kept_total, n) in reverse order, and a light second kernel reverses
// that range in place (it reads kept_total from d_count, on the device). Extra traffic: one read
// and one write of the rejected items, no host round trip, workspace of 8 bytes per tile.
//
// Device-side item count: with d_n set, the kernels process the first min(*d_n, n) items, read on
// the device (the grid and the workspace are sized for n). Blocks whose tile starts past that
// count exit after taking their ticket; no live tile looks back on them.
//
// Status reset: as for the lookback scan (kernels/scan_lookback.cuh), a cudaMemsetAsync zeroes the
// ticket counter and the tile status words (256 + 8 * tiles bytes) before each pass; a single
// tile needs neither.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "primitives/block/block_load.cuh"
#include "primitives/block/block_scan.cuh"
#include "primitives/block/tile_lookback.cuh"
#include "primitives/block/tile_shape.cuh"
#include "primitives/block/tile_status.cuh"
#include "primitives/operators.h"

namespace prim::detail::compact_fused {

template <bool Partition, int ITEMS, int VEC, class T, class Selector>
__global__ void __maxnreg__(block::lookback_max_registers<T>())
    select_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t max_n,
                  const std::size_t* d_n, Selector selector, std::size_t* d_count,
                  block::CountTileStatus status, unsigned* ticket_counter, bool aligned,
                  bool out_aligned, block::LookbackDelays delays) {
  using Count = unsigned long long;
  using Scan = block::BlockScan<Count>;
  static_assert(alignof(T) <= 16, "staging in shared memory assumes alignof(T) <= 16");
  static_assert(ITEMS <= 32, "the kept flags of a thread live in one 32-bit mask");
  __shared__ typename Scan::TempStorage storage;
  __shared__ unsigned ticket;
  // The item count lives in shared memory rather than in a register for the whole kernel (which
  // is held to few registers): it is read at the start and again at the end.
  __shared__ std::size_t item_count;
  extern __shared__ uint4 staging_vectors[];
  T* staged = reinterpret_cast<T*>(staging_vectors);

  // A single-tile launch passes no counter: no ticket, no status, no reset.
  if (threadIdx.x == 0) {
    ticket = ticket_counter ? atomicAdd(ticket_counter, 1u) : 0u;
    item_count = d_n && *d_n < max_n ? *d_n : max_n;
  }
  __syncthreads();
  const long long tile = ticket;

  const unsigned tile_items = blockDim.x * ITEMS;
  const std::size_t tile_start = static_cast<std::size_t>(tile) * tile_items;
  if (tile_start >= item_count) {  // past a device-side count (tile 0 when it is 0)
    if (tile == 0 && threadIdx.x == 0) *d_count = 0;
    return;
  }

  constexpr int kSegmentItems = warp::kWarpThreads * ITEMS;
  const int lane = warp::lane_id();
  const int warp_index = static_cast<int>(threadIdx.x) / warp::kWarpThreads;
  const unsigned tile_valid = static_cast<unsigned>(
      item_count - tile_start < tile_items ? item_count - tile_start : tile_items);
  const int segment_offset = warp_index * kSegmentItems;  // within the tile
  const std::size_t segment_start = tile_start + segment_offset;
  const int valid = segment_offset >= static_cast<int>(tile_valid)
                        ? 0
                        : min(static_cast<int>(tile_valid) - segment_offset, kSegmentItems);

  T items[ITEMS];
  bool vectorized = false;
  if constexpr (block::vectorizable<T, VEC>()) {
    vectorized = aligned && valid == kSegmentItems;
    if (vectorized) block::load_striped_vector<ITEMS, VEC>(in + segment_start, items, lane);
  }
  if (!vectorized) block::load_striped_guarded<ITEMS, VEC>(in + segment_start, items, lane, valid);

  // Bit i of kept_bits: item i is kept. row_base[r]: kept items of the warp's segment before the
  // lane's first item of row r (a kept item's rank adds the lane's kept items before it in the
  // row). Ranks are recomputed from these when staging, which keeps registers (and so resident
  // blocks) down.
  unsigned kept_bits = 0;
  unsigned row_base[ITEMS / VEC];
  unsigned warp_kept = 0;
  const unsigned lower_lanes = warp::lanemask_lt();
#pragma unroll
  for (int r = 0; r < ITEMS / VEC; ++r) {
    unsigned before_lane = 0;
    unsigned row_kept = 0;
#pragma unroll
    for (int v = 0; v < VEC; ++v) {
      const int i = r * VEC + v;
      const int index = block::striped_index<VEC>(i, lane);
      const bool keep = index < valid && selector(items[i], segment_start + index);
      kept_bits |= (keep ? 1u : 0u) << i;
      const unsigned ballot = __ballot_sync(warp::kFullMask, keep);
      before_lane += __popc(ballot & lower_lanes);
      row_kept += __popc(ballot);
    }
    row_base[r] = warp_kept + before_lane;
    warp_kept += row_kept;
  }

  auto tile_prefix_of = [&](const Count& tile_kept) -> Count {
    if (tile == 0) {
      if (lane == 0 && ticket_counter) status.publish(0, block::kTileInclusive, tile_kept);
      return 0;
    }
    if (lane == 0) status.publish(tile, block::kTileAggregate, tile_kept);
    if (delays.first_ns) __nanosleep(delays.first_ns);
    const Count before = block::tile_lookback(status, tile, Count(0), Plus{}, delays.poll_ns);
    if (lane == 0) status.publish(tile, block::kTileInclusive, before + tile_kept);
    return before;
  };
  const Count warp_base =
      Scan::warp_base(storage, Count(warp_kept), Count(0), Plus{}, tile_prefix_of);
  const Count kept_before_tile = storage.tile_prefix();
  const unsigned tile_kept = static_cast<unsigned>(storage.tile_aggregate());
  const unsigned warp_offset = static_cast<unsigned>(warp_base - kept_before_tile);

  // Compaction with 16-byte stores: the output of the tile starts at kept_before_tile, which need
  // not be a multiple of VEC; staging the kept items `shift` places further makes staged vector q
  // the output vector that starts at (kept_before_tile - shift) + q * VEC, which is 16-byte
  // aligned.
  constexpr bool kVectorStores = !Partition && block::vectorizable<T, VEC>();
  const bool vector_stores = kVectorStores && out_aligned;
  const unsigned shift = vector_stores ? static_cast<unsigned>(kept_before_tile % VEC) : 0u;

  // Stage in output order: kept items at their rank (+ shift), rejected ones from the end of the
  // tile's valid range backwards (see the note at the top of the file).
#pragma unroll
  for (int r = 0; r < ITEMS / VEC; ++r) {
    unsigned kept_rank = warp_offset + row_base[r];
#pragma unroll
    for (int v = 0; v < VEC; ++v) {
      const int i = r * VEC + v;
      const int index = block::striped_index<VEC>(i, lane);
      if ((kept_bits >> i) & 1u) {
        staged[shift + kept_rank] = items[i];
        ++kept_rank;
      } else if (Partition && index < valid) {
        const unsigned rejected_rank = static_cast<unsigned>(segment_offset + index) - kept_rank;
        staged[tile_valid - 1 - rejected_rank] = items[i];
      }
    }
  }
  __syncthreads();

  if (vector_stores) {
    if constexpr (kVectorStores) {
      // Staged items [shift, shift + tile_kept) go to out[base + shift, ...), base % VEC == 0.
      uint4* out_vectors = reinterpret_cast<uint4*>(out + (kept_before_tile - shift));
      const unsigned end = shift + tile_kept;
      const unsigned vectors = (end + VEC - 1) / VEC;
      for (unsigned q = threadIdx.x; q < vectors; q += blockDim.x) {
        const unsigned first = q * VEC;
        if (first >= shift && first + VEC <= end) {
          out_vectors[q] = staging_vectors[q];
        } else {  // the partial vectors at both ends
          T* out_items = reinterpret_cast<T*>(out_vectors);
#pragma unroll
          for (int v = 0; v < VEC; ++v) {
            const unsigned j = first + v;
            if (j >= shift && j < end) out_items[j] = staged[j];
          }
        }
      }
    }
  } else {
    const std::size_t rejected_before_tile = tile_start - kept_before_tile;
    const unsigned end = Partition ? tile_valid : tile_kept;
    T* kept_out = out + kept_before_tile;
    T* rejected_out = out + (item_count - rejected_before_tile - tile_valid);
    for (unsigned j = threadIdx.x; j < end; j += blockDim.x) {
      (j < tile_kept ? kept_out : rejected_out)[j] = staged[j];
    }
  }
  if (tile_start + tile_items >= item_count && threadIdx.x == 0) {  // the last tile
    *d_count = static_cast<std::size_t>(kept_before_tile + tile_kept);
  }
}

// Reverses out[kept, n) in place, kept = *d_count, n = min(*d_n, max_n) (max_n without d_n).
template <class T>
__global__ void reverse_rejected_kernel(T* out, std::size_t max_n, const std::size_t* d_n,
                                        const std::size_t* d_count) {
  const std::size_t n = d_n && *d_n < max_n ? *d_n : max_n;
  const std::size_t kept = *d_count;
  const std::size_t half = (n - kept) / 2;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < half;
       i += stride) {
    const T front = out[kept + i];
    const T back = out[n - 1 - i];
    out[kept + i] = back;
    out[n - 1 - i] = front;
  }
}

}  // namespace prim::detail::compact_fused
