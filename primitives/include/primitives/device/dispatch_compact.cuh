// Dispatch of compaction and partition (prim::own::compact_if, compact_flags, partition,
// stable_partition, compact.cuh): checks the arguments, sizes the tiles, the shared-memory staging
// and the workspace, resets the tile status and launches the fused kernels
// (kernels/compact_fused.cuh; agent/agent_select.cuh describes the algorithm).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "primitives/agent/agent_select.cuh"
#include "primitives/agent/tile_status.cuh"
#include "primitives/block/block_load.cuh"
#include "primitives/config.h"
#include "primitives/detail/arguments.h"
#include "primitives/device/dependent_launch.cuh"
#include "primitives/device/lookback_shape.cuh"
#include "primitives/device_info.h"
#include "primitives/error.h"
#include "primitives/kernels/compact_fused.cuh"
#include "primitives/tuning.h"
#include "primitives/workspace.h"

namespace prim::detail::compact_fused {

// The lookback scan's shape (device/lookback_shape.cuh) and the kernel's staging in shared memory.
struct TileShape : LookbackShape {
  std::size_t staging_bytes = 0;  // dynamic shared memory: one tile of T (+ kStagingSlack)
};

// Room for the shifts of 16-byte stores (agent/agent_select.cuh): the kept run's shift, the
// gap to the next vector and the rejected run's shift, each under one vector.
inline constexpr std::size_t kStagingSlack = 48;

// The dynamic shared memory a block may have by default: 48 KiB less the kernel's static shared
// memory (the agent's: the block scan's storage, the item count and the one-wave sums).
inline constexpr std::size_t kStagingLimit = 48 * 1024 - sizeof(agent::SelectTempStorage<true>);

// The block size and items per thread come from config.scan (the same knobs as the lookback scan).
template <class T>
TileShape tile_shape(std::size_t n, const CompactConfig& config, const char* function) {
  TileShape shape{lookback_shape<T>(n, config.scan, function)};
  const std::size_t tile_items = static_cast<std::size_t>(shape.threads) * shape.items;
  shape.staging_bytes = tile_items * sizeof(T);
  require(shape.staging_bytes <= kStagingLimit, function, [&] {
    return "a tile of " + std::to_string(tile_items) + " items of " + std::to_string(sizeof(T)) +
           " bytes does not fit in the " + std::to_string(kStagingLimit) +
           " bytes of shared memory a block has for it";
  });
  // The slack for the shifted staging of 16-byte stores, where it fits.
  if (shape.staging_bytes + kStagingSlack <= kStagingLimit) shape.staging_bytes += kStagingSlack;
  return shape;
}

// Workspace: the kept count per tile, zeroed per chained call; a one-wave call writes every count
// it reads.
struct Layout {
  agent::CountTileStatus status;
  std::size_t bytes = 0;

  Layout(void* workspace, std::size_t tiles) {
    WorkspaceCarver carver(workspace);
    status = agent::CountTileStatus::carve(carver, tiles);
    bytes = carver.used();
  }
};

template <class T>
std::size_t workspace_bytes(std::size_t n, const CompactConfig& config) {
  return Layout(nullptr, tile_shape<T>(n, config, "prim::own compaction (fused)").tiles).bytes;
}

// What a selection does with the rejected items: drops them (compact), puts them after the kept
// ones in reverse input order (partition, one pass; CUB's DevicePartition::If order), or in input
// order (stable_partition: one pass in one wave; chained, the reversed run reversed again in
// place by a second light kernel).
enum class Select { compact, partition, stable_partition };

// A stable partition's chained pass writes CUB's order; its second kernel restores the rest. In one
// wave it writes input order at once.
template <Select Mode>
inline constexpr agent::Rejected kChained =
    Mode == Select::compact ? agent::Rejected::dropped : agent::Rejected::reversed;
template <Select Mode>
inline constexpr agent::Rejected kOneWave =
    Mode == Select::stable_partition ? agent::Rejected::in_order : kChained<Mode>;

// The most tiles a selection of this shape runs in one wave: the blocks of its one-wave kernel
// that the GPU holds at once (0 where it has no cooperative launch).
template <Select Mode, int ITEMS, class T, class Selector>
std::size_t one_wave_tile_limit(const TileShape& shape) {
  auto* kernel =
      select_kernel<kOneWave<Mode>, true, ITEMS, block::vector_width<T, ITEMS>(), T, Selector>;
  return cooperative_grid_limit(reinterpret_cast<const void*>(kernel), shape.threads,
                                shape.staging_bytes);
}

template <Select Mode, int ITEMS, class T, class Selector>
void launch(const T* in, T* out, std::size_t n, const std::size_t* d_n, Selector selector,
            std::size_t* d_count, void* workspace, cudaStream_t stream, const TileShape& shape,
            const CompactConfig& config) {
  constexpr int kVec = block::vector_width<T, ITEMS>();
  constexpr std::size_t kAlign = agent::access_alignment<T, kVec>();
  const Layout layout(workspace, shape.tiles);
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % kAlign == 0;
  // Stores of words of wide items need an aligned output; 16-byte stores of vectors of items
  // also need the staging slack.
  const bool out_aligned =
      reinterpret_cast<std::uintptr_t>(out) % kAlign == 0 &&
      (agent::wide_items<T, kVec>() ||
       shape.staging_bytes >= shape.threads * std::size_t(shape.items) * sizeof(T) + kStagingSlack);
  // One wave where every tile fits on the GPU at once: no status reset, no look-back, no second
  // kernel (agent/agent_select.cuh); refused, the chained path below. Short grids do better
  // chained (tuning.h).
  const std::size_t min_tiles =
      Mode == Select::stable_partition ? 2 : std::size_t(tuning::kOneWaveMinTiles);
  if (config.one_wave && shape.tiles >= min_tiles &&
      shape.tiles <= one_wave_tile_limit<Mode, ITEMS, T, Selector>(shape) &&
      launch_cooperative_if_it_fits("compact_fused::select_kernel (one wave)",
                                    select_kernel<kOneWave<Mode>, true, ITEMS, kVec, T, Selector>,
                                    dim3(static_cast<unsigned>(shape.tiles)), dim3(shape.threads),
                                    shape.staging_bytes, stream, in, out, n, d_n, selector, d_count,
                                    layout.status, aligned, out_aligned, shape.schedule))
    return;
  const bool single = shape.tiles == 1;  // one launch only: nothing to look back on
  auto* kernel = select_kernel<kChained<Mode>, false, ITEMS, kVec, T, Selector>;
  if (single) {
    kernel<<<1, shape.threads, shape.staging_bytes, stream>>>(
        in, out, n, d_n, selector, d_count, layout.status, aligned, out_aligned, shape.schedule);
    PRIM_LAUNCH_CHECK("compact_fused::select_kernel");
  } else {
    // The status is zeroed by a kernel that lets the selection's blocks launch meanwhile
    // (device/dependent_launch.cuh); they wait for it before they publish.
    zero_for_dependent(workspace, layout.bytes, stream);
    launch_dependent("compact_fused::select_kernel", kernel,
                     dim3(static_cast<unsigned>(shape.tiles)), dim3(shape.threads),
                     shape.staging_bytes, stream, in, out, n, d_n, selector, d_count, layout.status,
                     aligned, out_aligned, shape.schedule);
  }
  if constexpr (Mode == Select::stable_partition) {
    const int threads = 256;
    constexpr std::size_t kWords = sizeof(T) / sizeof(ReverseWord<T>);
    const std::size_t per_block = std::size_t(threads) * kReverseUnroll;
    std::size_t blocks = (n / 2 * kWords + per_block - 1) / per_block;
    if (blocks > 65535) blocks = 65535;
    if (blocks == 0) blocks = 1;
    launch_dependent("compact_fused::reverse_rejected_kernel", reverse_rejected_kernel<T>,
                     dim3(static_cast<unsigned>(blocks)), dim3(threads), 0, stream, out, n, d_n,
                     d_count);
  }
}

// Selected items first, in order, then (Mode != compact) the others, in reverse input order
// (partition) or in input order (stable_partition). selector(item, index) -> bool. Writes the
// selected count to *d_count. Over the first n items, or min(*d_n, n) when d_n is set.
template <Select Mode, class T, class Selector>
void select(const T* d_in, T* d_out, std::size_t n, const std::size_t* d_n, Selector selector,
            std::size_t* d_count, void* workspace, cudaStream_t stream,
            const CompactConfig& config) {
  const TileShape shape = tile_shape<T>(n, config, "prim::own compaction (fused)");
  if (shape.items == 1) {
    launch<Mode, 1>(d_in, d_out, n, d_n, selector, d_count, workspace, stream, shape, config);
  } else {
    launch<Mode, tuning::lookback_items_per_thread<T>()>(d_in, d_out, n, d_n, selector, d_count,
                                                         workspace, stream, shape, config);
  }
}

}  // namespace prim::detail::compact_fused

namespace prim::detail {

// A selector sees the item and its index: bool operator()(const T& item, std::size_t i).
template <class Pred>
struct ItemSelector {
  Pred pred;
  template <class T>
  __host__ __device__ bool operator()(const T& item, std::size_t) const {
    return pred(item);
  }
};
template <class F>
struct FlagSelector {
  const F* flags;
  template <class T>
  __host__ __device__ bool operator()(const T&, std::size_t i) const {
    return flags[i] != F(0);
  }
};

// The public compactions' entry. d_n: null, or the device-side count of items (at most n are
// read). n == 0 writes *d_count = 0.
template <compact_fused::Select Mode, class T, class Selector>
void dispatch_select(const char* function, const T* d_in, T* d_out, std::size_t n,
                     const std::size_t* d_n, Selector selector, std::size_t* d_count, Workspace& ws,
                     cudaStream_t stream, const CompactConfig& config) {
  if (!check_select_arguments(function, d_in, d_out, n, d_n, d_count)) {
    PRIM_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
    return;
  }
  ws.require(compact_fused::workspace_bytes<T>(n, config), function);
  compact_fused::select<Mode>(d_in, d_out, n, d_n, selector, d_count, ws.data(), stream, config);
}

}  // namespace prim::detail
