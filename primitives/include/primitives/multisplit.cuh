// Multisplit: a stable k-way partition (k <= 32 buckets) by a bucket function of the key, after
// Ashkiani et al., "GPU Multisplit" (PPoPP 2016), built on the onesweep sort's kernels.
//
//   keys = [5, 2, 7, 4, 0, 3], bucket_of(k) = k % 3, 3 buckets  (buckets [2, 2, 1, 1, 0, 0])
//   -> keys_out = [0, 3, 7, 4, 5, 2], bucket_offsets = [0, 2, 4, 6]
//   (bucket b is keys_out[bucket_offsets[b], bucket_offsets[b + 1]); each keeps the input order)
//
// While all its tiles fit on the GPU at once (two tiles of 8192 items per SM for keys and values
// of up to 4 bytes each: about 2.16M items on an H100 or H200; one per SM, so half as many items,
// for 8-byte keys with 8-byte values), one cooperative launch: every tile ranks its keys by bucket
// and publishes its bucket counts, and after a grid barrier sums all tiles' counts, which gives
// both each bucket's count in earlier tiles and the bucket offsets (block 0 writes them); then it
// writes the keys (and values) of each bucket to consecutive addresses. Bytes: read keys and values
// once, write them once, as a copy does. Larger inputs take three launches: a zeroing kernel, a
// histogram kernel that reads the keys once and whose last block writes the bucket offsets, and the
// pass, which finds each bucket's count in earlier tiles by decoupled look-back (one thread per
// bucket); the keys are read twice. A sort over ceil(log2 k) bits moves the same; the multisplit
// needs no key bits, only the bucket function.
//
// bucket_of(key) is a device functor returning an integer in [0, buckets); results >= buckets
// count as bucket buckets - 1. d_bucket_offsets (buckets + 1 entries, on the device) receives the
// start of every bucket and then n; it is written on the stream, with no host round trip.
// Keys are any trivially copyable type of alignment <= 16; values any trivially copyable type;
// outputs must not alias inputs; 1 <= buckets <= 32, else prim::Error.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <type_traits>

#include "primitives/detail/multisplit_arguments.h"
#include "primitives/device/dispatch_radix_sort.cuh"
#include "primitives/error.h"
#include "primitives/workspace.h"

namespace prim {
namespace detail {

template <class K, class V>
std::size_t multisplit_workspace_bytes(std::size_t n, int buckets) {
  using namespace radix_sort_onesweep;
  check_multisplit_buckets("prim::own::multisplit_workspace_bytes", buckets);
  if (n == 0) return 0;
  return Layout<K, V>(nullptr, n, make_plan(n, multisplit_radix_bits(buckets), 1)).bytes;
}

template <class K, class V, class BucketOf>
void dispatch_multisplit(const char* function, const K* d_keys_in, K* d_keys_out,
                         const V* d_values_in, V* d_values_out, std::size_t n, int buckets,
                         BucketOf bucket_of, unsigned long long* d_bucket_offsets, Workspace& ws,
                         cudaStream_t stream) {
  using namespace radix_sort_onesweep;
  static_assert(alignof(K) <= 16 && alignof(V) <= 16, "staging assumes alignment <= 16");
  if (!check_multisplit_arguments(function, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                  buckets, d_bucket_offsets)) {
    PRIM_CUDA_CHECK(cudaMemsetAsync(
        d_bucket_offsets, 0, (std::size_t(buckets) + 1) * sizeof(unsigned long long), stream));
    return;
  }
  const int radix_bits = multisplit_radix_bits(buckets);
  const Plan p = make_plan(n, radix_bits, 1);
  ws.require(multisplit_workspace_bytes<K, V>(n, buckets), function);
  const Layout<K, V> layout(ws.data(), n, p);
  const BucketDigit<BucketOf> digit{bucket_of, static_cast<unsigned>(buckets - 1)};
  if (radix_bits == 3) {
    run<3>(d_keys_in, d_keys_out, d_values_in, d_values_out, n, digit, p, layout, d_bucket_offsets,
           buckets, stream);
  } else if (radix_bits == 4) {
    run<4>(d_keys_in, d_keys_out, d_values_in, d_values_out, n, digit, p, layout, d_bucket_offsets,
           buckets, stream);
  } else {
    run<5>(d_keys_in, d_keys_out, d_values_in, d_values_out, n, digit, p, layout, d_bucket_offsets,
           buckets, stream);
  }
}

}  // namespace detail

namespace own {

// Workspace bytes of multisplit_pairs (V = the value type) and of multisplit (V = NoValues).
template <class K, class V = detail::NoValues>
std::size_t multisplit_workspace_bytes(std::size_t n, int buckets) {
  return detail::multisplit_workspace_bytes<K, V>(n, buckets);
}

// Stable k-way partition of (key, value) pairs by bucket_of(key).
template <class K, class V, class BucketOf>
void multisplit_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                      std::size_t n, int buckets, BucketOf bucket_of,
                      unsigned long long* d_bucket_offsets, Workspace& ws,
                      cudaStream_t stream = 0) {
  detail::dispatch_multisplit("prim::own::multisplit_pairs", d_keys_in, d_keys_out, d_values_in,
                              d_values_out, n, buckets, bucket_of, d_bucket_offsets, ws, stream);
}

// Stable k-way partition of keys alone.
template <class K, class BucketOf>
void multisplit(const K* d_keys_in, K* d_keys_out, std::size_t n, int buckets, BucketOf bucket_of,
                unsigned long long* d_bucket_offsets, Workspace& ws, cudaStream_t stream = 0) {
  detail::dispatch_multisplit<K, detail::NoValues>("prim::own::multisplit", d_keys_in, d_keys_out,
                                                   nullptr, nullptr, n, buckets, bucket_of,
                                                   d_bucket_offsets, ws, stream);
}

}  // namespace own
}  // namespace prim
