// Compaction variant 'fused' (see primitives/variants.h): compaction and stable partition in one
// pass over the input, with the kept count published by decoupled look-back.
//
// Each block takes a tile from an atomic ticket, loads it with 16-byte loads (warp-striped
// arrangement, block/block_load.cuh), evaluates selector(item, index) in registers (no flag array
// in memory), ranks the kept items with warp ballots and popc, combines the warp counts and finds
// the tile's global offset by look-back over the tiles' kept counts (block/tile_lookback.cuh with
// 64-bit counts), stages its items in shared memory in output order and writes them out with
// contiguous, coalesced stores. The last tile writes the total to *d_count on the device.
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
// Status reset: as for the lookback scan (device/scan_lookback.cuh), a cudaMemsetAsync zeroes the
// ticket counter and the tile status words (256 + 8 * tiles bytes) before each pass; a single
// tile needs neither.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <string>

#include "primitives/block/block_load.cuh"
#include "primitives/block/block_scan.cuh"
#include "primitives/block/tile_lookback.cuh"
#include "primitives/block/tile_shape.cuh"
#include "primitives/block/tile_status.cuh"
#include "primitives/error.h"
#include "primitives/operators.h"
#include "primitives/tuning.h"
#include "primitives/variants.h"
#include "primitives/workspace.h"

namespace prim::detail::compact_fused {

struct TileShape {
  int threads = 0;
  int items = 0;
  std::size_t tiles = 0;
  std::size_t staging_bytes = 0;  // dynamic shared memory: one tile of T
};

// The block size and items per thread come from config.scan (the same knobs as the lookback scan).
template <class T>
TileShape tile_shape(std::size_t n, const CompactConfig& config, const char* function) {
  TileShape shape;
  const ScanConfig& knobs = config.scan;
  shape.threads = knobs.block_threads ? knobs.block_threads : tuning::kLookbackThreads;
  shape.items =
      knobs.items_per_thread ? knobs.items_per_thread : block::default_items_per_thread<T>();
  require(
      shape.threads >= 32 && shape.threads <= 1024 && shape.threads % 32 == 0, function,
      "block_threads " + std::to_string(shape.threads) + " must be a multiple of 32 in [32, 1024]");
  require(shape.items == 1 || shape.items == block::default_items_per_thread<T>(), function,
          "items_per_thread " + std::to_string(shape.items) + " must be 1 or " +
              std::to_string(block::default_items_per_thread<T>()));
  const std::size_t tile_items = static_cast<std::size_t>(shape.threads) * shape.items;
  shape.staging_bytes = tile_items * sizeof(T);
  require(shape.staging_bytes <= 48 * 1024, function,
          "a tile of " + std::to_string(tile_items) + " items of " + std::to_string(sizeof(T)) +
              " bytes does not fit in 48 KiB of shared memory");
  shape.tiles = (n + tile_items - 1) / tile_items;
  require(shape.tiles <= static_cast<std::size_t>(INT_MAX), function,
          "n = " + std::to_string(n) + " needs more than 2^31 - 1 tiles");
  return shape;
}

// Workspace: [ticket counter | kept count per tile], all zeroed per call.
struct Layout {
  unsigned* counter = nullptr;
  block::CountTileStatus status;
  std::size_t bytes = 0;

  Layout(void* workspace, std::size_t tiles) {
    WorkspaceCarver carver(workspace);
    counter = carver.take<unsigned>(1);
    status = block::CountTileStatus::carve(carver, tiles);
    bytes = carver.used();
  }
};

template <class T>
std::size_t workspace_bytes(std::size_t n, const CompactConfig& config) {
  return Layout(nullptr, tile_shape<T>(n, config, "prim::own compaction (fused)").tiles).bytes;
}

template <bool Partition, int ITEMS, int VEC, class T, class Selector>
__global__ void select_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t n,
                              Selector selector, std::size_t* d_count,
                              block::CountTileStatus status, unsigned* ticket_counter,
                              unsigned tiles, bool aligned) {
  using Count = unsigned long long;
  using Scan = block::BlockScan<Count>;
  static_assert(alignof(T) <= 16, "staging in shared memory assumes alignof(T) <= 16");
  __shared__ typename Scan::TempStorage storage;
  __shared__ unsigned ticket;
  extern __shared__ uint4 staging_vectors[];
  T* staged = reinterpret_cast<T*>(staging_vectors);

  // A single-tile launch passes no counter: no ticket, no status, no reset.
  if (threadIdx.x == 0) ticket = ticket_counter ? atomicAdd(ticket_counter, 1u) : 0u;
  __syncthreads();
  const long long tile = ticket;

  constexpr int kSegmentItems = warp::kWarpThreads * ITEMS;
  const int lane = warp::lane_id();
  const int warp_index = static_cast<int>(threadIdx.x) / warp::kWarpThreads;
  const std::size_t tile_items = static_cast<std::size_t>(blockDim.x) * ITEMS;
  const std::size_t tile_start = static_cast<std::size_t>(tile) * tile_items;
  const std::size_t tile_valid = n - tile_start < tile_items ? n - tile_start : tile_items;
  const int segment_offset = warp_index * kSegmentItems;  // within the tile
  const std::size_t segment_start = tile_start + segment_offset;
  const long long valid =
      segment_start >= n ? 0
                         : static_cast<long long>(n - segment_start < std::size_t(kSegmentItems)
                                                      ? n - segment_start
                                                      : std::size_t(kSegmentItems));

  T items[ITEMS];
  bool vectorized = false;
  if constexpr (block::vectorizable<T, VEC>()) {
    vectorized = aligned && valid == kSegmentItems;
    if (vectorized) block::load_striped_vector<ITEMS, VEC>(in + segment_start, items, lane);
  }
  if (!vectorized) block::load_striped_guarded<ITEMS, VEC>(in + segment_start, items, lane, valid);

  // keep[i], and rank[i] = kept items of the warp's segment before item i (kept or not).
  bool keep[ITEMS];
  unsigned rank[ITEMS];
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
      keep[i] = index < valid && selector(items[i], segment_start + index);
      const unsigned ballot = __ballot_sync(warp::kFullMask, keep[i]);
      before_lane += __popc(ballot & lower_lanes);
      row_kept += __popc(ballot);
    }
    unsigned own = 0;
#pragma unroll
    for (int v = 0; v < VEC; ++v) {
      rank[r * VEC + v] = warp_kept + before_lane + own;
      own += keep[r * VEC + v] ? 1u : 0u;
    }
    warp_kept += row_kept;
  }

  auto tile_prefix_of = [&](const Count& tile_kept) -> Count {
    if (tile == 0) {
      if (lane == 0 && ticket_counter) status.publish(0, block::kTileInclusive, tile_kept);
      return 0;
    }
    if (lane == 0) status.publish(tile, block::kTileAggregate, tile_kept);
    const Count before = block::tile_lookback(status, tile, Count(0), Plus{});
    if (lane == 0) status.publish(tile, block::kTileInclusive, before + tile_kept);
    return before;
  };
  const Count warp_base =
      Scan::warp_base(storage, Count(warp_kept), Count(0), Plus{}, tile_prefix_of);
  const Count kept_before_tile = storage.tile_prefix();
  const Count tile_kept = storage.tile_aggregate();
  const unsigned warp_offset = static_cast<unsigned>(warp_base - kept_before_tile);

  // Stage in output order: kept items at their rank, rejected ones from the end of the tile's
  // valid range backwards (see the note at the top of the file).
#pragma unroll
  for (int i = 0; i < ITEMS; ++i) {
    const int index = block::striped_index<VEC>(i, lane);
    const unsigned kept_rank = warp_offset + rank[i];
    if (keep[i]) {
      staged[kept_rank] = items[i];
    } else if (Partition && index < valid) {
      const unsigned rejected_rank = static_cast<unsigned>(segment_offset + index) - kept_rank;
      staged[tile_valid - 1 - rejected_rank] = items[i];
    }
  }
  __syncthreads();

  const std::size_t rejected_before_tile = tile_start - kept_before_tile;
  const std::size_t end = Partition ? tile_valid : static_cast<std::size_t>(tile_kept);
  for (std::size_t j = threadIdx.x; j < end; j += blockDim.x) {
    const std::size_t destination =
        j < tile_kept ? kept_before_tile + j : n - rejected_before_tile - tile_valid + j;
    out[destination] = staged[j];
  }
  if (tile == static_cast<long long>(tiles) - 1 && threadIdx.x == 0) {
    *d_count = static_cast<std::size_t>(kept_before_tile + tile_kept);
  }
}

// Reverses out[kept, n) in place, kept = *d_count.
template <class T>
__global__ void reverse_rejected_kernel(T* out, std::size_t n, const std::size_t* d_count) {
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

template <bool Partition, int ITEMS, class T, class Selector>
void launch(const T* in, T* out, std::size_t n, Selector selector, std::size_t* d_count,
            void* workspace, cudaStream_t stream, const TileShape& shape) {
  constexpr int kVec = ITEMS % block::vector_width<T>() == 0 ? block::vector_width<T>() : 1;
  const Layout layout(workspace, shape.tiles);
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0;
  const bool single = shape.tiles == 1;  // one launch only: nothing to look back on
  if (!single) PRIM_CUDA_CHECK(cudaMemsetAsync(workspace, 0, layout.bytes, stream));
  select_kernel<Partition, ITEMS, kVec>
      <<<static_cast<unsigned>(shape.tiles), shape.threads, shape.staging_bytes, stream>>>(
          in, out, n, selector, d_count, layout.status, single ? nullptr : layout.counter,
          static_cast<unsigned>(shape.tiles), aligned);
  PRIM_LAUNCH_CHECK("compact_fused::select_kernel");
  if constexpr (Partition) {
    const int threads = 256;
    std::size_t blocks = (n / 2 + threads - 1) / threads;
    if (blocks > 65535) blocks = 65535;
    if (blocks == 0) blocks = 1;
    reverse_rejected_kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(out, n, d_count);
    PRIM_LAUNCH_CHECK("compact_fused::reverse_rejected_kernel");
  }
}

// Partition == false: keep selected items in order. Partition == true: selected items first,
// then the others, both in order. selector(item, index) -> bool. Writes the selected count to
// *d_count.
template <bool Partition, class T, class Selector>
void select(const T* d_in, T* d_out, std::size_t n, Selector selector, std::size_t* d_count,
            void* workspace, cudaStream_t stream, const CompactConfig& config) {
  const TileShape shape = tile_shape<T>(n, config, "prim::own compaction (fused)");
  if (shape.items == 1) {
    launch<Partition, 1>(d_in, d_out, n, selector, d_count, workspace, stream, shape);
  } else {
    launch<Partition, block::default_items_per_thread<T>()>(d_in, d_out, n, selector, d_count,
                                                            workspace, stream, shape);
  }
}

}  // namespace prim::detail::compact_fused
