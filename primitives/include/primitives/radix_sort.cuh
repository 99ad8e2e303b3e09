// Stable radix sort of (key, value) pairs by the key bits [begin_bit, end_bit).
// Keys are uint8_t, uint16_t or uint32_t; values any trivially copyable type.
//
//   keys = [3, 1, 2, 1, 0], values = [a, b, c, d, e], bits [0, 2)
//   -> keys_out = [0, 1, 1, 2, 3], values_out = [e, b, d, c, a]   (b stays before d)
//
// Sorting 8 materials is one pass over bits [0, 3). Inputs are left unchanged; outputs must not
// alias inputs. 0 <= begin_bit < end_bit <= 8 * sizeof(K), else prim::Error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "primitives/detail/sort_arguments.h"
#include "primitives/device/radix_sort_lsd.cuh"
#include "primitives/device/radix_sort_onesweep.cuh"
#include "primitives/device/radix_sort_split.cuh"
#include "primitives/error.h"
#include "primitives/variants.h"
#include "primitives/workspace.h"

namespace prim::own {

template <class K, class V>
std::size_t sort_pairs_workspace_bytes(std::size_t n, int begin_bit, int end_bit,
                                       const SortConfig& config = {}) {
  switch (config.algorithm) {
    case SortAlgorithm::split_1bit:
      return ::prim::detail::radix_sort_split::workspace_bytes<K, V>(n, begin_bit, end_bit, config);
    case SortAlgorithm::lsd:
      return ::prim::detail::radix_sort_lsd::workspace_bytes<K, V>(n, begin_bit, end_bit, config);
    case SortAlgorithm::onesweep:
      return ::prim::detail::radix_sort_onesweep::workspace_bytes<K, V>(n, begin_bit, end_bit,
                                                                        config);
  }
  throw Error("sort_pairs_workspace_bytes: unknown sort algorithm");
}

template <class K, class V>
void sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                std::size_t n, int begin_bit, int end_bit, Workspace& ws, cudaStream_t stream = 0,
                const SortConfig& config = {}) {
  const char* function = "prim::own::sort_pairs";
  if (!::prim::detail::check_sort_pairs_arguments(function, d_keys_in, d_keys_out, d_values_in,
                                                  d_values_out, n, begin_bit, end_bit))
    return;
  ws.require(sort_pairs_workspace_bytes<K, V>(n, begin_bit, end_bit, config), function);
  switch (config.algorithm) {
    case SortAlgorithm::split_1bit:
      return ::prim::detail::radix_sort_split::sort_pairs(d_keys_in, d_keys_out, d_values_in,
                                                          d_values_out, n, begin_bit, end_bit,
                                                          ws.data(), stream, config);
    case SortAlgorithm::lsd:
      return ::prim::detail::radix_sort_lsd::sort_pairs(d_keys_in, d_keys_out, d_values_in,
                                                        d_values_out, n, begin_bit, end_bit,
                                                        ws.data(), stream, config);
    case SortAlgorithm::onesweep:
      return ::prim::detail::radix_sort_onesweep::sort_pairs(d_keys_in, d_keys_out, d_values_in,
                                                             d_values_out, n, begin_bit, end_bit,
                                                             ws.data(), stream, config);
  }
  throw Error(std::string(function) + ": unknown sort algorithm");
}

}  // namespace prim::own
