// Stream compaction and stable partition, by predicate or by flags. All are stable.
//
//   in = [5, 2, 8, 1, 9, 4], pred = (x > 3)
//   compact_if       -> out = [5, 8, 9, 4],           *d_count = 4
//   stable_partition -> out = [5, 8, 9, 4, 2, 1],     *d_count = 4 (kept first, rest after)
//   compact_flags(in, flags = [1, 0, 1, 0, 1, 1]) -> out = [5, 8, 9, 4], *d_count = 4
//
// d_count is a device pointer: the count stays on the device until the caller reads it.
// d_out must not alias d_in. The predicate is a device-callable functor of the item;
// flags are any type, nonzero meaning "keep".
//
// The item count can also stay on the device: pass DeviceItems{d_n, max_n} instead of n, and the
// call works on the first min(*d_n, max_n) items, reading *d_n on the device (the count a
// previous call wrote, for one). The grid and the workspace are sized for max_n: a smaller count
// costs its own items plus the launch and the status reset for max_n; the rest of d_out is left
// as it was (a stable partition fills d_out[0, min(*d_n, max_n)) only). Fused algorithm only
// (the default): the scan-and-scatter variants size their passes on the host.
//
//   in = [5, 2, 8, 1, 9, 4], *d_n = 4, max_n = 6, pred = (x > 3)
//   compact_if(in, out, DeviceItems{d_n, 6}, pred, d_count) -> out = [5, 8, ...], *d_count = 2
#pragma once

#include <cstddef>
#include <cstdint>

#include "primitives/device/compact_fused.cuh"
#include "primitives/device/compact_scan_scatter.cuh"
#include "primitives/device_items.h"
#include "primitives/error.h"
#include "primitives/variants.h"
#include "primitives/workspace.h"

namespace prim::own {

template <class T>
std::size_t compact_workspace_bytes(std::size_t n, const CompactConfig& config = {}) {
  switch (config.algorithm) {
    case CompactAlgorithm::scan_scatter:
      return ::prim::detail::compact_scan_scatter::workspace_bytes<T>(n, config);
    case CompactAlgorithm::fused:
      return ::prim::detail::compact_fused::workspace_bytes<T>(n, config);
  }
  throw Error("compact_workspace_bytes: unknown compact algorithm");
}

namespace dispatch {

// A selector sees the item and its index: bool operator()(const T& item, std::size_t i).
template <class Pred>
struct ItemSelector {
  Pred pred;
  template <class T>
  __host__ __device__ bool operator()(const T& item, std::size_t) const {
    return pred(item);
  }
};
template <class F>
struct FlagSelector {
  const F* flags;
  template <class T>
  __host__ __device__ bool operator()(const T&, std::size_t i) const {
    return flags[i] != F(0);
  }
};

// d_n: null, or the device-side count of items (at most n are read).
template <bool Partition, class T, class Selector>
void select_dispatch(const char* function, const T* d_in, T* d_out, std::size_t n,
                     const std::size_t* d_n, Selector selector, std::size_t* d_count,
                     Workspace& ws, cudaStream_t stream, const CompactConfig& config) {
  require(d_count != nullptr, function, "d_count is null");
  if (d_n != nullptr) {
    require(config.algorithm == CompactAlgorithm::fused, function,
            "a device-side item count (DeviceItems) needs CompactAlgorithm::fused");
    require(static_cast<const void*>(d_n) != static_cast<const void*>(d_count), function,
            "DeviceItems::d_n must not alias d_count");
  }
  if (n > 0) {
    require(d_in != nullptr, function, "d_in is null with n > 0");
    require(d_out != nullptr, function, "d_out is null with n > 0");
    require(static_cast<const void*>(d_in) != static_cast<const void*>(d_out), function,
            "d_out must not alias d_in");
  }
  if (n == 0) {
    PRIM_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
    return;
  }
  ws.require(compact_workspace_bytes<T>(n, config), function);
  switch (config.algorithm) {
    case CompactAlgorithm::scan_scatter:
      return ::prim::detail::compact_scan_scatter::select<Partition>(
          d_in, d_out, n, selector, d_count, ws.data(), stream, config);
    case CompactAlgorithm::fused:
      return ::prim::detail::compact_fused::select<Partition>(d_in, d_out, n, d_n, selector,
                                                              d_count, ws.data(), stream, config);
  }
  throw Error(std::string(function) + ": unknown compact algorithm");
}

}  // namespace dispatch

// n == 0 (or max_n == 0) writes *d_count = 0.
template <class T, class Pred>
void compact_if(const T* d_in, T* d_out, std::size_t n, Pred pred, std::size_t* d_count,
                Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  dispatch::select_dispatch<false>("prim::own::compact_if", d_in, d_out, n, nullptr,
                                   dispatch::ItemSelector<Pred>{pred}, d_count, ws, stream, config);
}
template <class T, class Pred>
void compact_if(const T* d_in, T* d_out, DeviceItems items, Pred pred, std::size_t* d_count,
                Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  require(items.d_n != nullptr, "prim::own::compact_if", "DeviceItems::d_n is null");
  dispatch::select_dispatch<false>("prim::own::compact_if", d_in, d_out, items.max_n, items.d_n,
                                   dispatch::ItemSelector<Pred>{pred}, d_count, ws, stream, config);
}

template <class T, class F>
void compact_flags(const T* d_in, const F* d_flags, T* d_out, std::size_t n, std::size_t* d_count,
                   Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  if (n > 0) require(d_flags != nullptr, "prim::own::compact_flags", "d_flags is null with n > 0");
  dispatch::select_dispatch<false>("prim::own::compact_flags", d_in, d_out, n, nullptr,
                                   dispatch::FlagSelector<F>{d_flags}, d_count, ws, stream, config);
}

template <class T, class Pred>
void stable_partition(const T* d_in, T* d_out, std::size_t n, Pred pred, std::size_t* d_count,
                      Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  dispatch::select_dispatch<true>("prim::own::stable_partition", d_in, d_out, n, nullptr,
                                  dispatch::ItemSelector<Pred>{pred}, d_count, ws, stream, config);
}
template <class T, class Pred>
void stable_partition(const T* d_in, T* d_out, DeviceItems items, Pred pred,
                      std::size_t* d_count, Workspace& ws, cudaStream_t stream = 0,
                      const CompactConfig& config = {}) {
  require(items.d_n != nullptr, "prim::own::stable_partition", "DeviceItems::d_n is null");
  dispatch::select_dispatch<true>("prim::own::stable_partition", d_in, d_out, items.max_n,
                                  items.d_n, dispatch::ItemSelector<Pred>{pred}, d_count, ws,
                                  stream, config);
}

}  // namespace prim::own
