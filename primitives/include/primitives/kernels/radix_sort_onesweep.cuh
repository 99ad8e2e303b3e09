// The onesweep radix sort's kernels (host side: device/dispatch_radix_sort.cuh): histogram_kernel
// with agent::AgentRadixSortHistogram (agent/agent_radix_sort_histogram.cuh) and pass_kernel, in
// which block b sorts tile b by one digit with agent::AgentRadixSortOnesweep
// (agent/agent_radix_sort_onesweep.cuh, which describes the algorithm).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/agent/agent_radix_sort_histogram.cuh"
#include "primitives/agent/agent_radix_sort_onesweep.cuh"

namespace prim::detail::radix_sort_onesweep {

// grid = (blocks per portion, portions), block = onesweep::kThreads. Counts the digits of every
// pass for the items of portion blockIdx.y into histograms[(pass * portions + portion) * RADIX +
// digit]; the last block to finish turns the histograms into the digit offsets (no extra launch).
template <int RADIX_BITS, class K, class Digit>
__global__ void histogram_kernel(const K* __restrict__ keys, std::size_t n, Digit digit_of,
                                 int passes, std::size_t portions, unsigned* histograms,
                                 unsigned* done_counter, unsigned long long* __restrict__ offsets,
                                 unsigned long long* bucket_offsets, int buckets) {
  using Agent = agent::AgentRadixSortHistogram<RADIX_BITS, K, Digit>;
  __shared__ typename Agent::TempStorage storage;
  Agent(storage, keys, n, digit_of, passes, portions, histograms, done_counter, offsets,
        bucket_offsets, buckets)
      .consume_share();
}

// One digit pass over one portion: block b sorts tile b. Dynamic shared memory:
// onesweep::staging_bytes<K, V>(). At most 64 registers, two blocks of 512 threads per SM
// (agent/agent_radix_sort_onesweep.cuh says why).
template <int RADIX_BITS, bool ONE_WAVE, class K, class V, class Digit>
__global__ void __launch_bounds__(agent::onesweep::kThreads, agent::onesweep::kPassBlocksPerSm)
    pass_kernel(const K* __restrict__ keys_in, K* __restrict__ keys_out,
                const V* __restrict__ values_in, V* __restrict__ values_out, std::size_t n,
                std::size_t portion_start, Digit digit_of, int pass,
                const unsigned long long* digit_offsets, unsigned* status,
                unsigned long long* bucket_offsets, int buckets) {
  using Agent = agent::AgentRadixSortOnesweep<RADIX_BITS, ONE_WAVE, K, V, Digit>;
  __shared__ typename Agent::TempStorage storage;
  __shared__ typename Agent::SumStorage sums;
  extern __shared__ uint4 staging_raw[];
  Agent(storage, sums, staging_raw, keys_in, keys_out, values_in, values_out, n, digit_of, pass,
        status)
      .consume_tile(portion_start, digit_offsets, bucket_offsets, buckets);
}

}  // namespace prim::detail::radix_sort_onesweep
