// The own backend as a compaction runner for compact_checks.h, one config per test case:
// fused, and scan_scatter over each scan algorithm.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "compact_checks.h"
#include "primitives/classic/compact.cuh"
#include "primitives/classic/variants.h"

namespace prim_test {

struct CompactCase {
  prim::classic::CompactAlgorithm algorithm;
  prim::classic::ScanAlgorithm scan;
  prim::classic::CompactConfig config() const {
    prim::classic::CompactConfig c;
    c.algorithm = algorithm;
    c.scan.algorithm = scan;
    return c;
  }
};

inline std::vector<CompactCase> all_compact_cases() {
  std::vector<CompactCase> cases;
  for (auto a : prim::classic::all_compact_algorithms()) {
    if (a == prim::classic::CompactAlgorithm::scan_scatter) {
      for (auto s : prim::classic::all_scan_algorithms()) cases.push_back({a, s});
    } else {
      cases.push_back({a, prim::classic::ScanConfig{}.algorithm});
    }
  }
  return cases;
}

inline std::string compact_case_name(const ::testing::TestParamInfo<CompactCase>& info) {
  std::string name = prim::classic::name(info.param.algorithm);
  if (info.param.algorithm == prim::classic::CompactAlgorithm::scan_scatter)
    name += std::string("_") + prim::classic::name(info.param.scan);
  return name;
}

// Item types the runner may be asked to reserve for.
template <class... Items>
struct OwnCompactRunner {
  prim::classic::CompactConfig config;
  prim::Workspace ws;

  explicit OwnCompactRunner(const prim::classic::CompactConfig& c) : config(c) {}

  // Sized once for the largest size of the test, then reused by every call.
  void reserve(std::size_t max_n) {
    ws.reserve(std::max({prim::classic::compact_workspace_bytes<Items>(max_n, config)...}));
  }
  template <class T, class Pred>
  void compact_if(const T* in, T* out, std::size_t n, Pred pred, std::size_t* d_count) {
    prim::classic::compact_if(in, out, n, pred, d_count, ws, 0, config);
  }
  template <class T, class F>
  void compact_flags(const T* in, const F* flags, T* out, std::size_t n, std::size_t* d_count) {
    prim::classic::compact_flags(in, flags, out, n, d_count, ws, 0, config);
  }
  template <class T, class Pred>
  void stable_partition(const T* in, T* out, std::size_t n, Pred pred, std::size_t* d_count) {
    prim::classic::stable_partition(in, out, n, pred, d_count, ws, 0, config);
  }
  template <class T, class Pred>
  void compact_if(const T* in, T* out, prim::DeviceItems items, Pred pred, std::size_t* d_count) {
    prim::classic::compact_if(in, out, items, pred, d_count, ws, 0, config);
  }
  template <class T, class Pred>
  void stable_partition(const T* in, T* out, prim::DeviceItems items, Pred pred,
                        std::size_t* d_count) {
    prim::classic::stable_partition(in, out, items, pred, d_count, ws, 0, config);
  }
};

}  // namespace prim_test
