// The device-wide scans with the algorithm chosen at run time (ScanConfig::algorithm,
// classic/variants.h): the classic teaching variants and the production look-back scan, same
// signatures and semantics as prim::own::exclusive_scan / inclusive_scan (primitives/scan.cuh).
// For tests, the benchmark and the examples; production code includes primitives/scan.cuh, which
// compiles the look-back scan alone.
//
//   naive               Hillis-Steele in global memory        classic/device/scan_naive.cuh
//   work_efficient      Blelloch up-sweep / down-sweep classic/device/scan_work_efficient.cuh
//   blocked_brent_kung  shared-memory tiles, recursive sums   classic/device/scan_blocked.cuh
//   blocked_blelloch    (same, Blelloch tree per tile)        classic/device/scan_blocked.cuh
//   lookback            prim::own's single pass               agent/agent_scan.cuh
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include "primitives/classic/detail/scan_into.cuh"
#include "primitives/classic/device/scan_blocked.cuh"
#include "primitives/classic/device/scan_naive.cuh"
#include "primitives/classic/device/scan_work_efficient.cuh"
#include "primitives/classic/variants.h"
#include "primitives/detail/arguments.h"
#include "primitives/device/dispatch_scan.cuh"
#include "primitives/error.h"
#include "primitives/operators.h"
#include "primitives/workspace.h"

namespace prim::classic {

template <class T>
std::size_t scan_workspace_bytes(std::size_t n, const ScanConfig& config = {}) {
  return detail::scan_workspace_bytes<T>(n, config);
}

namespace detail {

template <bool Inclusive, class T, class Op>
void dispatch_scan(const char* function, const T* d_in, T* d_out, std::size_t n, T identity, Op op,
                   Workspace& ws, cudaStream_t stream, const ScanConfig& config) {
  static_assert(std::is_trivially_copyable_v<T>, "scan needs a trivially copyable T");
  if (!::prim::detail::check_scan_arguments(function, d_in, d_out, n)) return;
  ws.require(detail::scan_workspace_bytes<T>(n, config), function);
  switch (config.algorithm) {
    case ScanAlgorithm::naive:
      return naive::scan<Inclusive>(d_in, d_out, n, identity, op, ws.data(), stream, config);
    case ScanAlgorithm::work_efficient:
      return work_efficient::scan<Inclusive>(d_in, d_out, n, identity, op, ws.data(), stream,
                                             config);
    case ScanAlgorithm::blocked_brent_kung:
    case ScanAlgorithm::blocked_blelloch:
      return blocked::scan<Inclusive>(d_in, d_out, n, identity, op, ws.data(), stream, config);
    case ScanAlgorithm::lookback:
      return ::prim::detail::lookback::scan<Inclusive>(d_in, d_out, n, identity, op, ws.data(),
                                                       stream, to_production(config));
  }
  throw Error(std::string(function) + ": unknown scan algorithm");
}

}  // namespace detail

template <class T, class Op = Plus>
void exclusive_scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, Workspace& ws,
                    cudaStream_t stream = 0, const ScanConfig& config = {}) {
  detail::dispatch_scan<false>("prim::classic::exclusive_scan", d_in, d_out, n, identity, op, ws,
                               stream, config);
}

template <class T, class Op = Plus>
void inclusive_scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, Workspace& ws,
                    cudaStream_t stream = 0, const ScanConfig& config = {}) {
  detail::dispatch_scan<true>("prim::classic::inclusive_scan", d_in, d_out, n, identity, op, ws,
                              stream, config);
}

}  // namespace prim::classic
