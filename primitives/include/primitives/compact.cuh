// Stream compaction and partition, by predicate or by flags. The kept items always stay in input
// order; partition puts the rejected ones after them in reverse order (one pass, the order of
// CUB's DevicePartition::If), stable_partition in input order (one pass from 2 tiles of 8192
// int32 until all tiles no longer fit on the GPU at once, about 3.2M int32 on 132 SMs; otherwise
// a second, light kernel reverses them back: one more read and write of the rejected items).
//
//   in = [5, 2, 8, 1, 9, 4], pred = (x > 3)
//   compact_if       -> out = [5, 8, 9, 4],           *d_count = 4
//   partition        -> out = [5, 8, 9, 4, 1, 2],     *d_count = 4 (kept first, rest reversed)
//   stable_partition -> out = [5, 8, 9, 4, 2, 1],     *d_count = 4 (kept first, rest after)
//   compact_flags(in, flags = [1, 0, 1, 0, 1, 1]) -> out = [5, 8, 9, 4], *d_count = 4
//
// d_count is a device pointer: the count stays on the device until the caller reads it.
// d_out must not alias d_in. The predicate is a device-callable functor of the item;
// flags are any type, nonzero meaning "keep".
//
// The item count can also stay on the device (compact_if and stable_partition): pass
// DeviceItems{d_n, max_n} instead of n, and the call works on the first min(*d_n, max_n) items,
// reading *d_n on the device (the count a previous call wrote, for one). The grid and the workspace
// are sized for max_n: a smaller count costs its own items plus the launch and the status reset for
// max_n; the rest of d_out is left as it was (a stable partition fills d_out[0, min(*d_n, max_n))
// only).
//
//   in = [5, 2, 8, 1, 9, 4], *d_n = 4, max_n = 6, pred = (x > 3)
//   compact_if(in, out, DeviceItems{d_n, 6}, pred, d_count) -> out = [5, 8, ...], *d_count = 2
//
// One fused pass with decoupled look-back, or, where all tiles fit on the GPU at once, one
// cooperative launch with a grid barrier instead (agent/agent_select.cuh), dispatched by
// device/dispatch_compact.cuh; config sets its tile shape and can turn the one-wave launch off. The
// classic scan-and-scatter compaction is prim::classic::compact_if and friends,
// primitives/classic/compact.cuh.
#pragma once

#include <cstddef>

#include "primitives/config.h"
#include "primitives/device/dispatch_compact.cuh"
#include "primitives/device_items.h"
#include "primitives/error.h"
#include "primitives/workspace.h"

namespace prim::own {

template <class T>
std::size_t compact_workspace_bytes(std::size_t n, const CompactConfig& config = {}) {
  return ::prim::detail::compact_fused::workspace_bytes<T>(n, config);
}

// n == 0 (or max_n == 0) writes *d_count = 0.
template <class T, class Pred>
void compact_if(const T* d_in, T* d_out, std::size_t n, Pred pred, std::size_t* d_count,
                Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  ::prim::detail::dispatch_select<::prim::detail::compact_fused::Select::compact>(
      "prim::own::compact_if", d_in, d_out, n, nullptr, ::prim::detail::ItemSelector<Pred>{pred},
      d_count, ws, stream, config);
}
template <class T, class Pred>
void compact_if(const T* d_in, T* d_out, DeviceItems items, Pred pred, std::size_t* d_count,
                Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  require(items.d_n != nullptr, "prim::own::compact_if", "DeviceItems::d_n is null");
  ::prim::detail::dispatch_select<::prim::detail::compact_fused::Select::compact>(
      "prim::own::compact_if", d_in, d_out, items.max_n, items.d_n,
      ::prim::detail::ItemSelector<Pred>{pred}, d_count, ws, stream, config);
}

template <class T, class F>
void compact_flags(const T* d_in, const F* d_flags, T* d_out, std::size_t n, std::size_t* d_count,
                   Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  if (n > 0) require(d_flags != nullptr, "prim::own::compact_flags", "d_flags is null with n > 0");
  ::prim::detail::dispatch_select<::prim::detail::compact_fused::Select::compact>(
      "prim::own::compact_flags", d_in, d_out, n, nullptr, ::prim::detail::FlagSelector<F>{d_flags},
      d_count, ws, stream, config);
}

template <class T, class Pred>
void partition(const T* d_in, T* d_out, std::size_t n, Pred pred, std::size_t* d_count,
               Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  ::prim::detail::dispatch_select<::prim::detail::compact_fused::Select::partition>(
      "prim::own::partition", d_in, d_out, n, nullptr, ::prim::detail::ItemSelector<Pred>{pred},
      d_count, ws, stream, config);
}

template <class T, class Pred>
void stable_partition(const T* d_in, T* d_out, std::size_t n, Pred pred, std::size_t* d_count,
                      Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  ::prim::detail::dispatch_select<::prim::detail::compact_fused::Select::stable_partition>(
      "prim::own::stable_partition", d_in, d_out, n, nullptr,
      ::prim::detail::ItemSelector<Pred>{pred}, d_count, ws, stream, config);
}
template <class T, class Pred>
void stable_partition(const T* d_in, T* d_out, DeviceItems items, Pred pred, std::size_t* d_count,
                      Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  require(items.d_n != nullptr, "prim::own::stable_partition", "DeviceItems::d_n is null");
  ::prim::detail::dispatch_select<::prim::detail::compact_fused::Select::stable_partition>(
      "prim::own::stable_partition", d_in, d_out, items.max_n, items.d_n,
      ::prim::detail::ItemSelector<Pred>{pred}, d_count, ws, stream, config);
}

}  // namespace prim::own
