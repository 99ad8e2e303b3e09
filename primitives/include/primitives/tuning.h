// Tuning numbers of the own backend, in one place. Values that depend on the device are read off
// it by device_info(); these are the defaults the variants start from.
#pragma once

namespace prim::tuning {

// Blocked shared-memory scan (and the scans under scan_scatter and split_1bit).
inline constexpr int kBlockedScanThreads = 256;
inline constexpr int kBlockedScanItemsPerThread = 4;  // thread coarsening

// Naive and work-efficient global-memory scans.
inline constexpr int kGlobalScanThreads = 256;

// Single-pass decoupled look-back scan and fused compaction.
inline constexpr int kLookbackThreads = 256;
inline constexpr int kLookbackItemsPerThread = 16;  // int32: four 16-byte loads per thread

// Radix sort.
inline constexpr int kSortThreads = 256;
inline constexpr int kSortItemsPerThread = 16;
inline constexpr int kSortRadixBits = 8;  // lsd and onesweep digit width

}  // namespace prim::tuning
