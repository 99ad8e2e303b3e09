// Dispatch of the multisplit (prim::own::multisplit, multisplit_pairs, multisplit.cuh): checks the
// arguments, picks the digit width, carves the workspace and runs one onesweep pass whose digit is
// the bucket (device/dispatch_radix_sort.cuh, kernels/radix_sort_onesweep.cuh).
//
// While all its tiles fit on the GPU at once (two tiles of 8192 items per SM for keys and values
// of up to 4 bytes each: about 2.16M items on 132 SMs; one per SM, so half as many items,
// for 8-byte keys with 8-byte values), one cooperative launch: every tile ranks its keys by bucket
// and publishes its bucket counts, and after a grid barrier sums all tiles' counts, which gives
// both each bucket's count in earlier tiles and the bucket offsets (block 0 writes them); then it
// writes the keys (and values) of each bucket to consecutive addresses. Bytes: read keys and values
// once, write them once, as a copy does. Larger inputs take three launches: a zeroing kernel, a
// histogram kernel that reads the keys once and whose last block writes the bucket offsets, and the
// pass, which finds each bucket's count in earlier tiles by decoupled look-back (one thread per
// bucket); the keys are read twice. A sort over ceil(log2 k) bits moves the same; the multisplit
// needs no key bits, only the bucket function.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/agent/agent_radix_sort_onesweep.cuh"
#include "primitives/detail/multisplit_arguments.h"
#include "primitives/device/dispatch_radix_sort.cuh"
#include "primitives/error.h"
#include "primitives/workspace.h"

namespace prim::detail {

// The multisplit: one pass with the narrowest digit that holds the buckets, 3, 4 or 5 bits (16
// buckets in 5-bit digits would rank 32 digit values where the sort of the same keys ranks 16).
inline int multisplit_radix_bits(int buckets) {
  return buckets <= 8 ? 3 : buckets <= 16 ? 4 : 5;
}

template <class K, class V>
std::size_t multisplit_workspace_bytes(std::size_t n, int buckets) {
  using radix_sort_onesweep::Layout;
  using radix_sort_onesweep::make_plan;
  check_multisplit_buckets("prim::own::multisplit_workspace_bytes", buckets);
  if (n == 0) return 0;
  return Layout<K, V>(nullptr, n, make_plan(n, multisplit_radix_bits(buckets), 1)).bytes;
}

// The public multisplits' entry: argument checks, the workspace size, then the pass. n == 0
// writes zeros to d_bucket_offsets.
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
  const agent::onesweep::BucketDigit<BucketOf> digit{bucket_of, static_cast<unsigned>(buckets - 1)};
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

}  // namespace prim::detail
