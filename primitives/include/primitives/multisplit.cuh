// Multisplit: a stable k-way partition (k <= 32 buckets) by a bucket function of the key, after
// Ashkiani et al., "GPU Multisplit" (PPoPP 2016), built on the onesweep sort's kernels.
//
//   keys = [5, 2, 7, 4, 0, 3], bucket_of(k) = k % 3, 3 buckets  (buckets [2, 2, 1, 1, 0, 0])
//   -> keys_out = [0, 3, 7, 4, 5, 2], bucket_offsets = [0, 2, 4, 6]
//   (bucket b is keys_out[bucket_offsets[b], bucket_offsets[b + 1]); each keeps the input order)
//
// One onesweep pass whose digit is the bucket (agent/agent_radix_sort_onesweep.cuh), dispatched by
// device/dispatch_multisplit.cuh; while all its tiles fit on the GPU at once it reads keys and
// values once and writes them once, as a copy does.
//
// bucket_of(key) is a device functor returning an integer in [0, buckets); results >= buckets
// count as bucket buckets - 1. d_bucket_offsets (buckets + 1 entries, on the device) receives the
// start of every bucket and then n; it is written on the stream, with no host round trip.
// Keys are any trivially copyable type of alignment <= 16; values any trivially copyable type;
// outputs must not alias inputs; 1 <= buckets <= 32, else prim::Error.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/detail/multisplit_arguments.h"
#include "primitives/device/dispatch_multisplit.cuh"
#include "primitives/workspace.h"

namespace prim::own {

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

}  // namespace prim::own
