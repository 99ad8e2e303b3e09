// Tuning knobs of the own backend's calls; 0 means "the default from primitives/tuning.h".
// (The classic variants, chosen by an algorithm field, have their own configs in
// primitives/classic/variants.h.)
#pragma once

namespace prim {

// Tile shape of the single-pass look-back scan: block_threads a multiple of 32 up to 1024,
// items_per_thread 1 or the default for the item type (tuning::lookback_items_per_thread).
struct ScanConfig {
  int block_threads = 0;
  int items_per_thread = 0;
};

// The fused compaction's tile shape: the same knobs as the look-back scan. one_wave: where every
// tile fits on the GPU at once (and there are enough tiles for it to pay, tuning.h), one
// cooperative launch with a grid barrier instead of the chained look-back
// (agent/agent_select.cuh); false takes the chained path at every size (to compare).
struct CompactConfig {
  ScanConfig scan = {};
  bool one_wave = true;
};

// The onesweep radix sort's digit width: 4 or 8 bits; 0 picks 4 for a range of at most 4 bits,
// else 8.
struct SortConfig {
  int radix_bits = 0;
};

}  // namespace prim
