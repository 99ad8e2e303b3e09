// The host-side shape of a single-pass look-back call (the scan, and the fused compaction on top
// of it): block size, items per thread and tiles for n items of T, checked against what the
// kernels support, and the look-back schedule (agent/tile_lookback.cuh) for that many tiles.
//
//   int32, n = 2^20, defaults: 512 threads x 16 items = 8192 items a tile, 128 tiles, no schedule
#pragma once

#include <climits>
#include <cstddef>
#include <string>

#include "primitives/agent/tile_lookback.cuh"
#include "primitives/config.h"
#include "primitives/error.h"
#include "primitives/tuning.h"

namespace prim::detail {

// The schedule for a grid of `tiles` tiles: none for short grids, whose look-backs are short and
// whose input L2 may still hold (tuning.h).
inline agent::LookbackSchedule lookback_schedule(std::size_t tiles) {
  if (static_cast<long long>(tiles) < tuning::kLookbackScheduleMinTiles) return {};
  return {tuning::kLookbackFirstDelayNs, tuning::kLookbackPollDelayNs,
          tuning::kLookbackPrefetchTiles};
}

struct LookbackShape {
  int threads = 0;
  int items = 0;
  std::size_t tiles = 0;
  agent::LookbackSchedule schedule;
};

template <class T>
LookbackShape lookback_shape(std::size_t n, const ScanConfig& config, const char* function) {
  constexpr int kItems = tuning::lookback_items_per_thread<T>();
  LookbackShape shape;
  shape.threads = config.block_threads ? config.block_threads : tuning::kLookbackThreads;
  shape.items = config.items_per_thread ? config.items_per_thread : kItems;
  require(shape.threads >= 32 && shape.threads <= 1024 && shape.threads % 32 == 0, function, [&] {
    return "block_threads " + std::to_string(shape.threads) +
           " must be a multiple of 32 in [32, 1024]";
  });
  require(shape.items == 1 || shape.items == kItems, function, [&] {
    return "items_per_thread " + std::to_string(shape.items) + " must be 1 or " +
           std::to_string(kItems);
  });
  const std::size_t tile_items = static_cast<std::size_t>(shape.threads) * shape.items;
  shape.tiles = (n + tile_items - 1) / tile_items;
  require(shape.tiles <= static_cast<std::size_t>(INT_MAX), function,
          [&] { return "n = " + std::to_string(n) + " needs more than 2^31 - 1 tiles"; });
  shape.schedule = lookback_schedule(shape.tiles);
  return shape;
}

}  // namespace prim::detail
