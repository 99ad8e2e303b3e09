// Tuning numbers of the own backend, in one place. Values that depend on the device are read off
// it by device_info(); these are the defaults the variants start from.
#pragma once

namespace prim::tuning {

// Blocked shared-memory scan (and the scans under scan_scatter and split_1bit).
inline constexpr int kBlockedScanThreads = 256;
inline constexpr int kBlockedScanItemsPerThread = 4;  // thread coarsening

// Naive and work-efficient global-memory scans.
inline constexpr int kGlobalScanThreads = 256;

// Single-pass decoupled look-back scan and fused compaction. Measured on an H200 (int32, 2^21 to
// 2^28 items): 512 x 16 with at most 40 registers per thread (three blocks, 48 warps per SM)
// beats 256 x 16 (five blocks at 48 registers, four at 64 for the compaction) and 256 x 24.
inline constexpr int kLookbackThreads = 512;
inline constexpr int kLookbackItemsPerThread = 16;  // int32: four 16-byte loads per thread
// Register cap of the look-back kernels for items of at most 4 bytes (more resident blocks, so
// more loads in flight while some blocks wait in their look-back); larger items get 64, which
// still lets a block of 1024 threads launch. At 40 the int32 scan and compaction spilled until
// warp 0 parked its items during the look-back (block::park). The shapes and pauses here were
// chosen while they spilled; measured again with the park and the prefetch (lookback_tuning,
// 2^24 and 2^28, H100 and H200), 512 x 16 with pauses 1200 / 650 ns was the fastest tried or
// within 1% of it at 2^28 on both; at 2^24 (where two runs of the defaults differ by 4%) the
// scan at 256 x 16 was up to 3% faster (H200: 47.8 against 49.2 us; the compaction 45.1 both).
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
// The look-back schedule (block/tile_lookback.cuh): pauses and a prefetch, used from this many
// tiles on. Without the first pause a tile reads its predecessors before their inclusive
// prefixes exist and walks back window after window: at 2^28 int32 (256 x 16 tiles) the scan took
// 861 us with no pause and 694 us with these on an H200; 512 x 16: 831 us and 713 us, the
// compaction 706 us and 579 us; H100, 512 x 16: 1020 and 907 us, the compaction 857 and 706 us.
// Short grids gain nothing from them: measured on both GPUs (lookback_tuning, scan and compaction,
// 512 x 16 int32), the pauses help from 2^23 items (1024 tiles; H200 scan 38.9 -> 36.6 us,
// compaction 35.5 -> 33.6 us), make no difference at 2^22 on the H200, and cost 7% and 11% at 2^20
// and 2^21 on the H100 (scan 14.1 -> 15.1 us, 17.8 -> 19.8 us). Both GPUs are sm_90; no other
// architecture was measured.
inline constexpr int kLookbackScheduleMinTiles = 1024;
inline constexpr unsigned kLookbackFirstDelayNs = 1200;
inline constexpr unsigned kLookbackPollDelayNs = 650;
// Prefetch: each tile asks L2 for the input of the tile this many ahead (32 KiB for 512 x 16
// int32; 128 tiles, 4 MiB, ahead), so that DRAM keeps reading while the resident tiles wait in
// their look-backs and a tile's loads find L2. Scan and compaction (compact50) of int32 at
// 512 x 16, distances 0 / 64 / 128 / 256 (primitives_bench, fastest of two runs):
//   H100 scan 2^24: 56.5 / 53.4 / 53.2 / 54.8 us; 2^28: 819 / 768 / 756 / 756 us (1.147 ->
//        1.059 x a copy); compaction 2^28: 633 / 610 / 605 / 614 us.
//   H200 scan 2^24: 45.6 / 43.7 / 43.7 / 44.5 us; 2^28: 632 / 604 / 601 / 602 us (1.250 ->
//        1.188 x a copy); compaction 2^28: 526 / 489 / 489 / 489 us.
// From 2^24 on it helps both kernels on both GPUs. At 2^23 (1024 tiles, the threshold) the scan
// gains (H100 32.5 -> 31.3 us) but the compaction lost 1% to 10% in the full runs (compact10,
// H100 24.9 -> 25.9 to 27.5 us; not analysed further: in a grid of 2.6 waves the first wave's
// prefetches may compete with its own loads). Below, it made no difference or cost up to 5% (H100
// scan 2^21 12.2 -> 12.8 us).
inline constexpr unsigned kLookbackPrefetchTiles = 128;

// One-wave selections (kernels/compact_fused.cuh) from this many tiles on: a cooperative launch
// costs about 1.5 us more than a plain one, and below about 40 tiles the chained path's zeroing
// kernel and look-back cost less than that (compact50 int32 on an H100 and an H200: one wave
// 0.3 us slower at 32 tiles, even at 36, 0.2 us faster at 64; a single tile is 1.6 us faster
// chained). A stable partition saves its second kernel in one wave, and goes from 2 tiles on.
inline constexpr int kOneWaveMinTiles = 48;

// Radix sort.
inline constexpr int kSortThreads = 256;  // the classic LSD sort
inline constexpr int kSortItemsPerThread = 16;
inline constexpr int kSortRadixBits = 8;  // lsd and onesweep digit width
// Onesweep tiles of 512 x 16 items (two blocks of 64 registers per SM). Measured on an H100 with
// (uint32, uint32) pairs against 256 x 16 (four blocks): at 2^21 the 3-, 8- and 32-bit sorts took
// 0.83x, 0.89x and 1.03x CUB's time (0.86x, 1.12x, 1.27x), at 2^24 1.13x, 1.20x, 1.27x (1.09x,
// 1.31x, 1.39x): half as many tiles halve the look-back chains of a one-wave grid.
inline constexpr int kOnesweepThreads = 512;

}  // namespace prim::tuning
