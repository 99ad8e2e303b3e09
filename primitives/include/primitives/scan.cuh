// Device-wide scans for any associative operator with an identity and any trivially copyable T.
// Order is kept left to right, so non-commutative operators (a 2x2 matrix product) work.
//
//   in  = [3, 1, 7, 0, 4, 1, 6, 3], op = +, identity = 0
//   exclusive_scan -> [0, 3, 4, 11, 11, 15, 16, 22]
//   inclusive_scan -> [3, 4, 11, 11, 15, 16, 22, 25]
//
// d_in and d_out are device pointers; d_out == d_in (in place) is allowed. n == 0 is a no-op.
// The workspace must hold scan_workspace_bytes<T>(n, config) bytes; nothing is allocated.
// Work is queued on `stream`; nothing synchronizes the host.
#pragma once

#include <cstddef>
#include <type_traits>

#include "primitives/device/scan_blocked.cuh"
#include "primitives/device/scan_lookback.cuh"
#include "primitives/device/scan_naive.cuh"
#include "primitives/device/scan_work_efficient.cuh"
#include "primitives/error.h"
#include "primitives/operators.h"
#include "primitives/variants.h"
#include "primitives/workspace.h"

namespace prim::own {

template <class T>
std::size_t scan_workspace_bytes(std::size_t n, const ScanConfig& config = {}) {
  switch (config.algorithm) {
    case ScanAlgorithm::naive:
      return ::prim::detail::naive::workspace_bytes<T>(n, config);
    case ScanAlgorithm::work_efficient:
      return ::prim::detail::work_efficient::workspace_bytes<T>(n, config);
    case ScanAlgorithm::blocked_brent_kung:
    case ScanAlgorithm::blocked_blelloch:
      return ::prim::detail::blocked::workspace_bytes<T>(n, config);
    case ScanAlgorithm::lookback:
      return ::prim::detail::lookback::workspace_bytes<T>(n, config);
  }
  throw Error("scan_workspace_bytes: unknown scan algorithm");
}

namespace dispatch {
template <bool Inclusive, class T, class Op>
void scan_dispatch(const char* function, const T* d_in, T* d_out, std::size_t n, T identity, Op op,
                   Workspace& ws, cudaStream_t stream, const ScanConfig& config) {
  static_assert(std::is_trivially_copyable_v<T>, "scan needs a trivially copyable T");
  if (n == 0) return;
  require(d_in != nullptr, function, "d_in is null with n > 0");
  require(d_out != nullptr, function, "d_out is null with n > 0");
  ws.require(scan_workspace_bytes<T>(n, config), function);
  switch (config.algorithm) {
    case ScanAlgorithm::naive:
      return ::prim::detail::naive::scan<Inclusive>(d_in, d_out, n, identity, op, ws.data(), stream,
                                                    config);
    case ScanAlgorithm::work_efficient:
      return ::prim::detail::work_efficient::scan<Inclusive>(d_in, d_out, n, identity, op,
                                                             ws.data(), stream, config);
    case ScanAlgorithm::blocked_brent_kung:
    case ScanAlgorithm::blocked_blelloch:
      return ::prim::detail::blocked::scan<Inclusive>(d_in, d_out, n, identity, op, ws.data(),
                                                      stream, config);
    case ScanAlgorithm::lookback:
      return ::prim::detail::lookback::scan<Inclusive>(d_in, d_out, n, identity, op, ws.data(),
                                                       stream, config);
  }
  throw Error(std::string(function) + ": unknown scan algorithm");
}
}  // namespace dispatch

template <class T, class Op = Plus>
void exclusive_scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, Workspace& ws,
                    cudaStream_t stream = 0, const ScanConfig& config = {}) {
  dispatch::scan_dispatch<false>("prim::own::exclusive_scan", d_in, d_out, n, identity, op, ws,
                                 stream, config);
}

template <class T, class Op = Plus>
void inclusive_scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, Workspace& ws,
                    cudaStream_t stream = 0, const ScanConfig& config = {}) {
  dispatch::scan_dispatch<true>("prim::own::inclusive_scan", d_in, d_out, n, identity, op, ws,
                                stream, config);
}

}  // namespace prim::own
