// Scans inside other primitives (compaction's positions, the split sort's false-counts): the
// configured ScanAlgorithm on a region of the caller's workspace, without the public entry points'
// argument checks (the calling primitive has made them and sized the workspace).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/detail_classic/grid.cuh"
#include "primitives/device/scan_blocked.cuh"
#include "primitives/device/scan_lookback.cuh"
#include "primitives/device/scan_naive.cuh"
#include "primitives/device/scan_work_efficient.cuh"
#include "primitives/error.h"
#include "primitives/variants.h"

namespace prim::detail::classic {

template <class T>
std::size_t scan_workspace_bytes(std::size_t n, const ScanConfig& config) {
  switch (config.algorithm) {
    case ScanAlgorithm::naive:
      return naive::workspace_bytes<T>(n, config);
    case ScanAlgorithm::work_efficient:
      return work_efficient::workspace_bytes<T>(n, config);
    case ScanAlgorithm::blocked_brent_kung:
    case ScanAlgorithm::blocked_blelloch:
      return blocked::workspace_bytes<T>(n, config);
    case ScanAlgorithm::lookback:
      return lookback::workspace_bytes<T>(n, config);
  }
  throw Error("prim::detail::classic::scan_workspace_bytes: unknown scan algorithm");
}

// Exclusive scan of n > 0 items with config.algorithm; in == out is allowed.
template <class T, class Op>
void exclusive_scan_into(const T* in, T* out, std::size_t n, T identity, Op op, void* workspace,
                         cudaStream_t stream, const ScanConfig& config) {
  switch (config.algorithm) {
    case ScanAlgorithm::naive:
      return naive::scan<false>(in, out, n, identity, op, workspace, stream, config);
    case ScanAlgorithm::work_efficient:
      return work_efficient::scan<false>(in, out, n, identity, op, workspace, stream, config);
    case ScanAlgorithm::blocked_brent_kung:
    case ScanAlgorithm::blocked_blelloch:
      return blocked::scan<false>(in, out, n, identity, op, workspace, stream, config);
    case ScanAlgorithm::lookback:
      return lookback::scan<false>(in, out, n, identity, op, workspace, stream, config);
  }
  throw Error("prim::detail::classic::exclusive_scan_into: unknown scan algorithm");
}

}  // namespace prim::detail::classic
