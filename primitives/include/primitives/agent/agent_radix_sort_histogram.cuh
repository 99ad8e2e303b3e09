// AgentRadixSortHistogram: the onesweep sort's histogram (the kernel is histogram_kernel in
// kernels/radix_sort_onesweep.cuh, the host side device/dispatch_radix_sort.cuh; the sort is
// described in agent/agent_radix_sort_onesweep.cuh). One read of the keys counts the digits of
// every pass at once, in shared memory counters, per portion of the input; the last block to
// finish turns the counts into the digit offsets of every pass.
//
//   keys = [3, 1, 2, 1, 0], one pass of 2-bit digits: counts [1, 2, 1, 1],
//   offsets (exclusive scan) [0, 1, 3, 4]
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/agent/agent_radix_sort_onesweep.cuh"
#include "primitives/block/block_scan.cuh"
#include "primitives/detail/grid_dependency.cuh"
#include "primitives/operators.h"
#include "primitives/warp/warp_scan.cuh"

namespace prim::agent {

namespace onesweep {
constexpr int kHistogramUnroll = 8;  // keys per thread per round of the histogram kernel
}  // namespace onesweep

// Digits of RADIX_BITS bits given by Digit, keys K. Blocks of onesweep::kThreads threads, in a
// grid of (blocks per portion, portions).
template <int RADIX_BITS, class K, class Digit>
struct AgentRadixSortHistogram {
  static constexpr int kRadix = 1 << RADIX_BITS;
  static constexpr int kMaxPasses = (32 + RADIX_BITS - 1) / RADIX_BITS;
  static constexpr int kUnroll = onesweep::kHistogramUnroll;
  using BlockScanT = block::BlockScan<unsigned long long>;

  struct TempStorage {
    unsigned counts[kMaxPasses][kRadix];
    bool last_block;
    typename BlockScanT::TempStorage scan;  // the last block's digit offsets
  };

  TempStorage& storage;
  const K* __restrict__ keys;
  std::size_t n;
  Digit digit_of;
  int passes;
  std::size_t portions;
  unsigned* histograms;
  unsigned* done_counter;
  unsigned long long* __restrict__ offsets;
  unsigned long long* bucket_offsets;
  int buckets;

  __device__ __forceinline__ AgentRadixSortHistogram(
      TempStorage& storage, const K* __restrict__ keys, std::size_t n, Digit digit_of, int passes,
      std::size_t portions, unsigned* histograms, unsigned* done_counter,
      unsigned long long* __restrict__ offsets, unsigned long long* bucket_offsets, int buckets)
      : storage(storage),
        keys(keys),
        n(n),
        digit_of(digit_of),
        passes(passes),
        portions(portions),
        histograms(histograms),
        done_counter(done_counter),
        offsets(offsets),
        bucket_offsets(bucket_offsets),
        buckets(buckets) {}

  // Counts the digits of every pass for this block's share of portion blockIdx.y into
  // histograms[(pass * portions + portion) * kRadix + digit]; the last block to finish writes
  // the digit offsets (digit_offsets). The global counters are zeroed by the kernel ahead.
  __device__ __forceinline__ void consume_share() {
    for (int i = threadIdx.x; i < kMaxPasses * kRadix; i += blockDim.x)
      (&storage.counts[0][0])[i] = 0;
    __syncthreads();

    const std::size_t portion = blockIdx.y;
    const std::size_t first = portion * onesweep::kTilesPerPortion * onesweep::kTile;
    const std::size_t last_limit = first + onesweep::kTilesPerPortion * onesweep::kTile;
    const std::size_t last = n < last_limit ? n : last_limit;
    // kUnroll loads in flight per thread before the counting.
    const std::size_t stride = std::size_t(gridDim.x) * blockDim.x * kUnroll;
    for (std::size_t base = first + std::size_t(blockIdx.x) * blockDim.x * kUnroll; base < last;
         base += stride) {
      K key[kUnroll];
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        const std::size_t i = base + std::size_t(u) * blockDim.x + threadIdx.x;
        if (i < last) key[u] = keys[i];
      }
#pragma unroll
      for (int u = 0; u < kUnroll; ++u) {
        if (base + std::size_t(u) * blockDim.x + threadIdx.x >= last) break;
#pragma unroll 1
        for (int pass = 0; pass < passes; ++pass)
          atomicAdd(&storage.counts[pass][digit_of(key[u], pass)], 1u);
      }
    }
    __syncthreads();
    // The global counters are zeroed by the kernel ahead (zero_for_dependent), which the counting
    // above overlaps. The first pass may start once every block is past this wait, so it never
    // sees its status before it is zero.
    detail::griddep_wait();
    detail::griddep_launch_dependents();
    for (int i = threadIdx.x; i < passes * kRadix; i += blockDim.x) {
      const int pass = i / kRadix, digit = i % kRadix;
      const unsigned c = storage.counts[pass][digit];
      if (c) atomicAdd(&histograms[(pass * portions + portion) * kRadix + digit], c);
    }
    // Last block done (the threadFenceReduction pattern): every block's counts are in L2 before
    // it takes its turn on the counter, so the block that comes last sees all of them.
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
      storage.last_block = atomicAdd(done_counter, 1u) == gridDim.x * gridDim.y - 1;
    __syncthreads();
    if (!storage.last_block) return;
    __threadfence();
    digit_offsets();
  }

 private:
  // Per pass: offsets[pass][portion][d] = items of digits < d in the whole input + items of digit
  // d in earlier portions. Run by one whole block; histograms are read past L1 (other blocks wrote
  // them with atomics).
  //
  // With `buckets` > 0 (the multisplit, one pass), bucket_offsets[b] = where bucket b starts in
  // the output, for b < buckets, and bucket_offsets[buckets] = n.
  __device__ void digit_offsets() {
    const int digit = threadIdx.x;
    for (int pass = 0; pass < passes; ++pass) {
      const unsigned* h = histograms + std::size_t(pass) * portions * kRadix;
      unsigned long long total = 0;
      if (digit < kRadix)
        for (std::size_t k = 0; k < portions; ++k) total += __ldcg(h + k * kRadix + digit);
      unsigned long long warp_total;
      const unsigned long long before = warp::exclusive_scan(total, 0ull, Plus{}, warp_total);
      const unsigned long long start =
          BlockScanT::warp_base(storage.scan, warp_total, 0ull, Plus{},
                                [](unsigned long long) { return 0ull; }) +
          before;
      if (digit < kRadix) {
        unsigned long long running = start;
        unsigned long long* o = offsets + std::size_t(pass) * portions * kRadix;
        for (std::size_t k = 0; k < portions; ++k) {
          o[k * kRadix + digit] = running;
          running += __ldcg(h + k * kRadix + digit);
        }
        if (pass == 0 && digit < buckets) bucket_offsets[digit] = start;
      }
      if (pass == 0 && buckets > 0 && threadIdx.x == 0) bucket_offsets[buckets] = n;
      __syncthreads();  // storage.scan is reused by the next pass
    }
  }
};

}  // namespace prim::agent
