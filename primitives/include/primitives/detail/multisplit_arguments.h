// Argument checks shared by every backend's multisplit (primitives/multisplit.cuh).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include "primitives/error.h"

namespace prim {

inline constexpr int kMaxMultisplitBuckets = 32;

namespace detail {

// The value type of a multisplit of keys alone (nothing is loaded, staged or stored for it).
struct NoValues {};

// Throws prim::Error naming `function` for a bucket count outside [1, 32].
inline void check_multisplit_buckets(const char* function, int buckets) {
  require(buckets >= 1 && buckets <= kMaxMultisplitBuckets, function, [&] {
    return "buckets " + std::to_string(buckets) + " must be in [1, " +
           std::to_string(kMaxMultisplitBuckets) + "]";
  });
}

// Throws prim::Error naming `function` and the argument for buckets outside [1, 32], a null
// d_bucket_offsets, null data pointers with n > 0 or outputs aliasing inputs. Returns false when
// there is nothing to move (n == 0).
template <class K, class V>
bool check_multisplit_arguments(const char* function, const K* keys_in, const K* keys_out,
                                const V* values_in, const V* values_out, std::size_t n, int buckets,
                                const unsigned long long* d_bucket_offsets) {
  static_assert(std::is_trivially_copyable_v<K> && std::is_trivially_copyable_v<V>,
                "multisplit needs trivially copyable keys and values");
  constexpr bool kHasValues = !std::is_same_v<V, NoValues>;
  check_multisplit_buckets(function, buckets);
  require(d_bucket_offsets != nullptr, function, "d_bucket_offsets is null");
  if (n == 0) return false;
  require(keys_in && keys_out, function, "a key pointer is null with n > 0");
  require(!kHasValues || (values_in && values_out), function, "a value pointer is null with n > 0");
  require(static_cast<const void*>(keys_in) != keys_out &&
              (!kHasValues || static_cast<const void*>(values_in) != values_out),
          function, "outputs must not alias inputs");
  return true;
}

}  // namespace detail
}  // namespace prim
