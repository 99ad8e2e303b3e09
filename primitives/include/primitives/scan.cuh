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
//
// One pass with decoupled look-back (agent/agent_scan.cuh), dispatched by
// device/dispatch_scan.cuh; config sets its tile shape. The classic scans (naive, work-efficient,
// blocked) are prim::classic::exclusive_scan and inclusive_scan, primitives/classic/scan.cuh.
#pragma once

#include <cstddef>

#include "primitives/config.h"
#include "primitives/device/dispatch_scan.cuh"
#include "primitives/operators.h"
#include "primitives/workspace.h"

namespace prim::own {

template <class T>
std::size_t scan_workspace_bytes(std::size_t n, const ScanConfig& config = {}) {
  return ::prim::detail::lookback::workspace_bytes<T>(n, config);
}

template <class T, class Op = Plus>
void exclusive_scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, Workspace& ws,
                    cudaStream_t stream = 0, const ScanConfig& config = {}) {
  ::prim::detail::dispatch_scan<false>("prim::own::exclusive_scan", d_in, d_out, n, identity, op,
                                       ws, stream, config);
}

template <class T, class Op = Plus>
void inclusive_scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, Workspace& ws,
                    cudaStream_t stream = 0, const ScanConfig& config = {}) {
  ::prim::detail::dispatch_scan<true>("prim::own::inclusive_scan", d_in, d_out, n, identity, op, ws,
                                      stream, config);
}

}  // namespace prim::own
