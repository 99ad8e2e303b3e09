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
  static_assert(std::is_same_v<K, std::uint8_t> || std::is_same_v<K, std::uint16_t> ||
                    std::is_same_v<K, std::uint32_t>,
                "sort_pairs keys are uint8_t, uint16_t or uint32_t");
  static_assert(std::is_trivially_copyable_v<V>, "sort_pairs needs trivially copyable values");
  const char* function = "prim::own::sort_pairs";
  const int key_bits = static_cast<int>(8 * sizeof(K));
  require(begin_bit >= 0, function, "begin_bit " + std::to_string(begin_bit) + " is negative");
  require(begin_bit < end_bit, function,
          "begin_bit " + std::to_string(begin_bit) + " must be below end_bit " +
              std::to_string(end_bit));
  require(end_bit <= key_bits, function,
          "end_bit " + std::to_string(end_bit) + " is past the key width of " +
              std::to_string(key_bits) + " bits");
  if (n == 0) return;
  require(d_keys_in && d_keys_out && d_values_in && d_values_out, function,
          "a key or value pointer is null with n > 0");
  require(static_cast<const void*>(d_keys_in) != d_keys_out &&
              static_cast<const void*>(d_values_in) != d_values_out,
          function, "outputs must not alias inputs");
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
