// Stable radix sort of (key, value) pairs with the algorithm chosen at run time
// (SortConfig::algorithm, classic/variants.h): the classic 1-bit split and LSD sorts and the
// production onesweep sort, same signature and semantics as prim::own::sort_pairs
// (primitives/radix_sort.cuh). For tests, the benchmark and the examples; production code includes
// primitives/radix_sort.cuh, which compiles onesweep alone.
//
//   split_1bit  one stable split per bit, on a scan     classic/device/radix_sort_split.cuh
//   lsd         per-tile digit histograms, scan, scatter classic/device/radix_sort_lsd.cuh
//   onesweep    prim::own's sort                       agent/agent_radix_sort_onesweep.cuh
#pragma once

#include <cstddef>
#include <string>

#include "primitives/classic/device/radix_sort_lsd.cuh"
#include "primitives/classic/device/radix_sort_split.cuh"
#include "primitives/classic/variants.h"
#include "primitives/detail/sort_arguments.h"
#include "primitives/device/dispatch_radix_sort.cuh"
#include "primitives/error.h"
#include "primitives/workspace.h"

namespace prim::classic {

template <class K, class V>
std::size_t sort_pairs_workspace_bytes(std::size_t n, int begin_bit, int end_bit,
                                       const SortConfig& config = {}) {
  switch (config.algorithm) {
    case SortAlgorithm::split_1bit:
      return detail::radix_sort_split::workspace_bytes<K, V>(n, begin_bit, end_bit, config);
    case SortAlgorithm::lsd:
      return detail::radix_sort_lsd::workspace_bytes<K, V>(n, begin_bit, end_bit, config);
    case SortAlgorithm::onesweep:
      return ::prim::detail::radix_sort_onesweep::workspace_bytes<K, V>(n, begin_bit, end_bit,
                                                                        to_production(config));
  }
  throw Error("prim::classic::sort_pairs_workspace_bytes: unknown sort algorithm");
}

template <class K, class V>
void sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                std::size_t n, int begin_bit, int end_bit, Workspace& ws, cudaStream_t stream = 0,
                const SortConfig& config = {}) {
  const char* function = "prim::classic::sort_pairs";
  if (!::prim::detail::check_sort_pairs_arguments(function, d_keys_in, d_keys_out, d_values_in,
                                                  d_values_out, n, begin_bit, end_bit))
    return;
  ws.require(sort_pairs_workspace_bytes<K, V>(n, begin_bit, end_bit, config), function);
  switch (config.algorithm) {
    case SortAlgorithm::split_1bit:
      return detail::radix_sort_split::sort_pairs(d_keys_in, d_keys_out, d_values_in, d_values_out,
                                                  n, begin_bit, end_bit, ws.data(), stream, config);
    case SortAlgorithm::lsd:
      return detail::radix_sort_lsd::sort_pairs(d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                                begin_bit, end_bit, ws.data(), stream, config);
    case SortAlgorithm::onesweep:
      return ::prim::detail::radix_sort_onesweep::sort_pairs(
          d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit, end_bit, ws.data(),
          stream, to_production(config));
  }
  throw Error(std::string(function) + ": unknown sort algorithm");
}

}  // namespace prim::classic
