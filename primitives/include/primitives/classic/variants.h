// Every algorithm variant of the own backend, selectable at run time by name: the classic teaching
// variants and the production one (which prim::own calls directly), for the tests, the benchmark
// and the examples. prim::classic::exclusive_scan, compact_if, sort_pairs, ... (classic/scan.cuh,
// classic/compact.cuh, classic/radix_sort.cuh) take these configs and switch on the algorithm.
// The renderer and other production code include the prim::own headers instead, which compile
// the production variant alone.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "primitives/config.h"

namespace prim::classic {

enum class ScanAlgorithm {
  naive,               // Hillis-Steele, ping-pong buffers, one launch per step: O(n log n) work
  work_efficient,      // Blelloch up-sweep/down-sweep in global memory, grid shrinking per level
  blocked_brent_kung,  // shared-memory Brent-Kung per block, recursive scan of block sums
  blocked_blelloch,    // shared-memory Blelloch per block, recursive scan of block sums
  lookback,            // single pass, decoupled look-back (production)
};

enum class CompactAlgorithm {
  scan_scatter,  // flags -> scan (any ScanAlgorithm) -> scatter
  fused,  // one pass: predicate, warp ballot ranks, tile look-back, staged writes (production)
};

enum class SortAlgorithm {
  split_1bit,  // one stable split per bit, built on scan
  lsd,         // multi-bit LSD passes with per-block digit histograms
  onesweep,    // all histograms in one read, one look-back pass per digit (production)
};

// Tuning knobs; 0 means "the default from primitives/tuning.h". The same fields as
// prim::ScanConfig, prim::CompactConfig and prim::SortConfig (primitives/config.h) plus the
// algorithm.
struct ScanConfig {
  ScanAlgorithm algorithm = ScanAlgorithm::lookback;
  int block_threads = 0;
  int items_per_thread = 0;
};

struct CompactConfig {
  CompactAlgorithm algorithm = CompactAlgorithm::fused;
  ScanConfig scan = {};  // the scan used by scan_scatter
};

struct SortConfig {
  SortAlgorithm algorithm = SortAlgorithm::onesweep;
  int radix_bits = 0;    // digit width of lsd / onesweep (4 or 8; 0 = default)
  ScanConfig scan = {};  // the scan used by split_1bit and lsd
};

const char* name(ScanAlgorithm a);
const char* name(CompactAlgorithm a);
const char* name(SortAlgorithm a);

// Parse a variant by its name(); throws prim::Error listing the valid names.
ScanAlgorithm parse_scan_algorithm(std::string_view text);
CompactAlgorithm parse_compact_algorithm(std::string_view text);
SortAlgorithm parse_sort_algorithm(std::string_view text);

std::vector<ScanAlgorithm> all_scan_algorithms();
std::vector<CompactAlgorithm> all_compact_algorithms();
std::vector<SortAlgorithm> all_sort_algorithms();

// The production variant's knobs of a config (its algorithm aside).
inline ::prim::ScanConfig to_production(const ScanConfig& config) {
  return {config.block_threads, config.items_per_thread};
}
inline ::prim::CompactConfig to_production(const CompactConfig& config) {
  return {to_production(config.scan)};
}
inline ::prim::SortConfig to_production(const SortConfig& config) {
  return {config.radix_bits};
}

}  // namespace prim::classic
