// check_scan for one own scan algorithm, with one workspace sized once for the largest size.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "primitives/classic/scan.cuh"
#include "scan_checks.h"

namespace prim_test {

template <class T, class Op, class Gen>
void check_own_scan(prim::classic::ScanAlgorithm algorithm, ScanKind kind, Placement placement,
                    const std::vector<std::size_t>& sizes, T identity, Op op, Gen gen) {
  prim::classic::ScanConfig config;
  config.algorithm = algorithm;
  const std::size_t max_n = *std::max_element(sizes.begin(), sizes.end());
  prim::Workspace ws(prim::classic::scan_workspace_bytes<T>(max_n, config));
  check_scan(kind, placement, sizes, identity, op, gen, [&](const T* in, T* out, std::size_t n) {
    if (kind == ScanKind::exclusive)
      prim::classic::exclusive_scan(in, out, n, identity, op, ws, 0, config);
    else
      prim::classic::inclusive_scan(in, out, n, identity, op, ws, 0, config);
  });
}

inline std::string scan_param_name(
    const ::testing::TestParamInfo<prim::classic::ScanAlgorithm>& info) {
  return prim::classic::name(info.param);
}

}  // namespace prim_test
