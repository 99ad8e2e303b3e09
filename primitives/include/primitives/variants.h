// The algorithm variants of the own backend, selectable by name for tests and benchmarks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace prim {

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

// Tuning knobs; 0 means "the default from primitives/tuning.h".
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

}  // namespace prim
