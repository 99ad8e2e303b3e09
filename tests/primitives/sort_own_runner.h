// The own backend as a sort runner for sort_checks.h, one SortConfig per test case.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "primitives/classic/radix_sort.cuh"
#include "primitives/classic/variants.h"
#include "sort_checks.h"

namespace prim_test {

struct SortCase {
  prim::classic::SortAlgorithm algorithm;
  int radix_bits;  // 0 = default
  prim::classic::ScanAlgorithm scan;
  prim::classic::SortConfig config() const {
    prim::classic::SortConfig c;
    c.algorithm = algorithm;
    c.radix_bits = radix_bits;
    c.scan.algorithm = scan;
    return c;
  }
};

// Every sort algorithm with its defaults, the digit widths 4 and 8 of lsd and onesweep, and the
// split sort over a blocked scan as well.
inline std::vector<SortCase> all_sort_cases() {
  const auto lookback = prim::classic::ScanAlgorithm::lookback;
  std::vector<SortCase> cases;
  for (auto a : prim::classic::all_sort_algorithms()) {
    cases.push_back({a, 0, lookback});
    if (a == prim::classic::SortAlgorithm::lsd || a == prim::classic::SortAlgorithm::onesweep) {
      cases.push_back({a, 4, lookback});
      cases.push_back({a, 8, lookback});
    }
    if (a == prim::classic::SortAlgorithm::split_1bit)
      cases.push_back({a, 0, prim::classic::ScanAlgorithm::blocked_brent_kung});
  }
  return cases;
}

inline std::string sort_case_name(const ::testing::TestParamInfo<SortCase>& info) {
  std::string name = prim::classic::name(info.param.algorithm);
  if (info.param.radix_bits != 0) name += "_radix" + std::to_string(info.param.radix_bits);
  if (info.param.scan != prim::classic::ScanAlgorithm::lookback)
    name += std::string("_") + prim::classic::name(info.param.scan);
  return name;
}

struct OwnSortRunner {
  prim::classic::SortConfig config;
  prim::Workspace ws;

  explicit OwnSortRunner(const prim::classic::SortConfig& c) : config(c) {}

  // Sized once for the largest size and every bit range of the test.
  template <class K, class V>
  void reserve(std::size_t max_n, const BitRanges& ranges) {
    std::size_t bytes = 0;
    for (auto [b, e] : ranges)
      bytes = std::max(bytes, prim::classic::sort_pairs_workspace_bytes<K, V>(max_n, b, e, config));
    ws.reserve(bytes);
  }
  template <class K, class V>
  void sort(const K* keys_in, K* keys_out, const V* values_in, V* values_out, std::size_t n,
            int begin_bit, int end_bit) {
    prim::classic::sort_pairs(keys_in, keys_out, values_in, values_out, n, begin_bit, end_bit, ws,
                              0, config);
  }
};

}  // namespace prim_test
