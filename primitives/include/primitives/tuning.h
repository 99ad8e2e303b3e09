// Tuning numbers of the own backend, in one place. Values that depend on the device are read off
// it by device_info(); these are the defaults the variants start from.
#pragma once

namespace prim::tuning {

// Blocked shared-memory scan (and the scans under scan_scatter and split_1bit).
inline constexpr int kBlockedScanThreads = 256;
inline constexpr int kBlockedScanItemsPerThread = 4;  // thread coarsening

// Naive and work-efficient global-memory scans.
inline constexpr int kGlobalScanThreads = 256;

// Single-pass decoupled look-back scan and fused compaction (the figures behind every choice below:
// bench/results/RESULTS.md, "Figures behind the code's choices"). 512 x 16 with at most 40
// registers per thread (three blocks, 48 warps per SM) beat 256 x 16 (five blocks at 48 registers,
// four at 64 for the compaction) and 256 x 24 on sm_90.
inline constexpr int kLookbackThreads = 512;
inline constexpr int kLookbackItemsPerThread = 16;  // int32: four 16-byte loads per thread
// Register cap of the look-back kernels for items of at most 4 bytes (more resident blocks, so
// more loads in flight while some blocks wait in their look-back); larger items get 64, which
// still lets a block of 1024 threads launch. At 40 the int32 scan and compaction spilled until
// warp 0 parked its items during the look-back (agent::park). The shapes and pauses here were
// chosen while they spilled; measured again with the park and the prefetch, 512 x 16 with pauses
// of 1200 / 650 ns was the fastest tried, or within the noise, on both GPUs measured.
inline constexpr int kLookbackMaxRegisters = 40;

// Items per thread of the look-back kernels for items of T: four 16-byte loads for 4- and 8-byte T,
// one or two for smaller T, and about 64 bytes for larger T.
//
//   int32:   16 items per thread, 4 per 16-byte load     (tile = 512 threads x 16 = 8192 items)
//   uint8:   16 items per thread, 16 per 16-byte load
//   int64:    8 items per thread, 2 per 16-byte load
//   48-byte:  1 item per thread, scalar loads
template <class T>
constexpr int lookback_items_per_thread() {
  if constexpr (sizeof(T) <= 4) {
    return kLookbackItemsPerThread;
  } else if constexpr (sizeof(T) == 8) {
    return kLookbackItemsPerThread / 2;
  } else {
    return sizeof(T) >= 64 ? 1 : static_cast<int>(64 / sizeof(T));
  }
}

// Register cap (__maxnreg__) of the look-back kernels for items of T.
template <class T>
constexpr int lookback_max_registers() {
  return sizeof(T) <= 4 ? kLookbackMaxRegisters : 64;
}

// The look-back schedule (agent/tile_lookback.cuh, chosen by device/lookback_shape.cuh): pauses
// and a prefetch, used from this many tiles on. Without the first pause a tile reads its
// predecessors before their inclusive prefixes exist and walks back window after window. Short
// grids gain nothing from them: their look-backs are short, and below 1024 tiles the pauses made
// no difference or cost time. Both GPUs measured are sm_90; no other architecture was measured.
inline constexpr int kLookbackScheduleMinTiles = 1024;
inline constexpr unsigned kLookbackFirstDelayNs = 1200;
inline constexpr unsigned kLookbackPollDelayNs = 650;
// Prefetch: each tile asks L2 for the input of the tile this many ahead (32 KiB for 512 x 16
// int32; 128 tiles, 4 MiB, ahead), so that DRAM keeps reading while the resident tiles wait in
// their look-backs and a tile's loads find L2. Of the distances tried (0, 64, 128, 256), 128 and
// 256 were best; from 2^24 items on it helps the scan and the compaction on both GPUs measured.
// At 2^23 (1024 tiles, the threshold) the compaction lost in some runs (not analysed further: in
// a grid of 2.6 waves the first wave's prefetches may compete with its own loads); below, it made
// no difference or cost time.
inline constexpr unsigned kLookbackPrefetchTiles = 128;

// One-wave selections (agent/agent_select.cuh) from this many tiles on: a cooperative launch
// costs more than a plain one, and below about 40 tiles the chained path's zeroing kernel and
// look-back cost less than that difference (the crossover lay between 36 and 64 tiles). A stable
// partition saves its second kernel in one wave, and goes from 2 tiles on.
inline constexpr int kOneWaveMinTiles = 48;

// Radix sort.
inline constexpr int kSortThreads = 256;  // the classic LSD sort
inline constexpr int kSortItemsPerThread = 16;
inline constexpr int kSortRadixBits = 8;  // lsd and onesweep digit width
// Onesweep tiles of 512 x 16 items (two blocks of 64 registers per SM) rather than 256 x 16 (four
// blocks): half as many tiles halve the look-back chains of a one-wave grid.
inline constexpr int kOnesweepThreads = 512;

}  // namespace prim::tuning
