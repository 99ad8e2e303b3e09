// Stream compaction and stable partition with the algorithm chosen at run time
// (CompactConfig::algorithm, classic/variants.h): the classic scan-and-scatter compaction over any
// scan, and the production fused pass, same signatures and semantics as prim::own::compact_if,
// compact_flags and stable_partition (primitives/compact.cuh). For tests, the benchmark and the
// examples; production code includes primitives/compact.cuh, which compiles the fused pass alone.
//
//   scan_scatter  flags -> exclusive scan -> scatter   classic/device/compact_scan_scatter.cuh
//   fused         prim::own's single pass              agent/agent_select.cuh
//
// DeviceItems (a count read on the device) needs the fused algorithm: scan_scatter sizes its
// passes on the host.
#pragma once

#include <cstddef>
#include <string>

#include "primitives/classic/device/compact_scan_scatter.cuh"
#include "primitives/classic/variants.h"
#include "primitives/detail/arguments.h"
#include "primitives/device/dispatch_compact.cuh"
#include "primitives/device_items.h"
#include "primitives/error.h"
#include "primitives/workspace.h"

namespace prim::classic {

template <class T>
std::size_t compact_workspace_bytes(std::size_t n, const CompactConfig& config = {}) {
  switch (config.algorithm) {
    case CompactAlgorithm::scan_scatter:
      return detail::compact_scan_scatter::workspace_bytes<T>(n, config);
    case CompactAlgorithm::fused:
      return ::prim::detail::compact_fused::workspace_bytes<T>(n, to_production(config));
  }
  throw Error("prim::classic::compact_workspace_bytes: unknown compact algorithm");
}

namespace detail {

// d_n: null, or the device-side count of items (at most n are read).
template <bool Partition, class T, class Selector>
void dispatch_select(const char* function, const T* d_in, T* d_out, std::size_t n,
                     const std::size_t* d_n, Selector selector, std::size_t* d_count, Workspace& ws,
                     cudaStream_t stream, const CompactConfig& config) {
  if (d_n != nullptr) {
    require(config.algorithm == CompactAlgorithm::fused, function,
            "a device-side item count (DeviceItems) needs CompactAlgorithm::fused");
  }
  if (!::prim::detail::check_select_arguments(function, d_in, d_out, n, d_n, d_count)) {
    PRIM_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
    return;
  }
  ws.require(compact_workspace_bytes<T>(n, config), function);
  constexpr auto kFusedMode = Partition ? ::prim::detail::compact_fused::Select::stable_partition
                                        : ::prim::detail::compact_fused::Select::compact;
  switch (config.algorithm) {
    case CompactAlgorithm::scan_scatter:
      return compact_scan_scatter::select<Partition>(d_in, d_out, n, selector, d_count, ws.data(),
                                                     stream, config);
    case CompactAlgorithm::fused:
      return ::prim::detail::compact_fused::select<kFusedMode>(
          d_in, d_out, n, d_n, selector, d_count, ws.data(), stream, to_production(config));
  }
  throw Error(std::string(function) + ": unknown compact algorithm");
}

}  // namespace detail

// n == 0 (or max_n == 0) writes *d_count = 0.
template <class T, class Pred>
void compact_if(const T* d_in, T* d_out, std::size_t n, Pred pred, std::size_t* d_count,
                Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  detail::dispatch_select<false>("prim::classic::compact_if", d_in, d_out, n, nullptr,
                                 ::prim::detail::ItemSelector<Pred>{pred}, d_count, ws, stream,
                                 config);
}
template <class T, class Pred>
void compact_if(const T* d_in, T* d_out, DeviceItems items, Pred pred, std::size_t* d_count,
                Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  require(items.d_n != nullptr, "prim::classic::compact_if", "DeviceItems::d_n is null");
  detail::dispatch_select<false>("prim::classic::compact_if", d_in, d_out, items.max_n, items.d_n,
                                 ::prim::detail::ItemSelector<Pred>{pred}, d_count, ws, stream,
                                 config);
}

template <class T, class F>
void compact_flags(const T* d_in, const F* d_flags, T* d_out, std::size_t n, std::size_t* d_count,
                   Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  if (n > 0)
    require(d_flags != nullptr, "prim::classic::compact_flags", "d_flags is null with n > 0");
  detail::dispatch_select<false>("prim::classic::compact_flags", d_in, d_out, n, nullptr,
                                 ::prim::detail::FlagSelector<F>{d_flags}, d_count, ws, stream,
                                 config);
}

template <class T, class Pred>
void stable_partition(const T* d_in, T* d_out, std::size_t n, Pred pred, std::size_t* d_count,
                      Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  detail::dispatch_select<true>("prim::classic::stable_partition", d_in, d_out, n, nullptr,
                                ::prim::detail::ItemSelector<Pred>{pred}, d_count, ws, stream,
                                config);
}
template <class T, class Pred>
void stable_partition(const T* d_in, T* d_out, DeviceItems items, Pred pred, std::size_t* d_count,
                      Workspace& ws, cudaStream_t stream = 0, const CompactConfig& config = {}) {
  require(items.d_n != nullptr, "prim::classic::stable_partition", "DeviceItems::d_n is null");
  detail::dispatch_select<true>("prim::classic::stable_partition", d_in, d_out, items.max_n,
                                items.d_n, ::prim::detail::ItemSelector<Pred>{pred}, d_count, ws,
                                stream, config);
}

}  // namespace prim::classic
