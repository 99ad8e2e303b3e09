// Scans inside other primitives (compaction's positions, the split sort's false-counts): the
// configured ScanAlgorithm on a region of the caller's workspace, without the public entry points'
// argument checks (the calling primitive has made them and sized the workspace).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/classic/detail/grid.cuh"
#include "primitives/classic/device/scan_blocked.cuh"
#include "primitives/classic/device/scan_naive.cuh"
#include "primitives/classic/device/scan_work_efficient.cuh"
#include "primitives/classic/variants.h"
#include "primitives/device/dispatch_scan.cuh"
#include "primitives/error.h"

namespace prim::classic::detail {

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
      return ::prim::detail::lookback::workspace_bytes<T>(n, to_production(config));
  }
  throw Error("prim::classic::detail::scan_workspace_bytes: unknown scan algorithm");
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
      return ::prim::detail::lookback::scan<false>(in, out, n, identity, op, workspace, stream,
                                                   to_production(config));
  }
  throw Error("prim::classic::detail::exclusive_scan_into: unknown scan algorithm");
}

}  // namespace prim::classic::detail
