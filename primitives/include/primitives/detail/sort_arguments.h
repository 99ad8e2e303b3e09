// Argument checks shared by every backend's sort_pairs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "primitives/error.h"

namespace prim::detail {

// Throws prim::Error naming `function` and the argument for a bit range outside the key, null
// pointers with n > 0 or outputs aliasing inputs. Returns false when there is nothing to sort.
template <class K, class V>
bool check_sort_pairs_arguments(const char* function, const K* keys_in, const K* keys_out,
                                const V* values_in, const V* values_out, std::size_t n,
                                int begin_bit, int end_bit) {
  static_assert(std::is_same_v<K, std::uint8_t> || std::is_same_v<K, std::uint16_t> ||
                    std::is_same_v<K, std::uint32_t>,
                "sort_pairs keys are uint8_t, uint16_t or uint32_t");
  static_assert(std::is_trivially_copyable_v<V>, "sort_pairs needs trivially copyable values");
  const int key_bits = static_cast<int>(8 * sizeof(K));
  if (begin_bit < 0 || begin_bit >= end_bit || end_bit > key_bits) {
    throw Error(std::string(function) + ": " +
                (begin_bit < 0 ? "begin_bit " + std::to_string(begin_bit) + " is negative"
                 : begin_bit >= end_bit
                     ? "begin_bit " + std::to_string(begin_bit) + " must be below end_bit " +
                           std::to_string(end_bit)
                     : "end_bit " + std::to_string(end_bit) + " is past the key width of " +
                           std::to_string(key_bits) + " bits"));
  }
  if (n == 0) return false;
  require(keys_in && keys_out && values_in && values_out, function,
          "a key or value pointer is null with n > 0");
  require(static_cast<const void*>(keys_in) != keys_out &&
              static_cast<const void*>(values_in) != values_out,
          function, "outputs must not alias inputs");
  return true;
}

}  // namespace prim::detail
