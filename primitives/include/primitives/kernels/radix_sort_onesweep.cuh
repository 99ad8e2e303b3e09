// The onesweep radix sort's kernels (host side: device/dispatch_radix_sort.cuh), after Adinets &
// Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs" (2022).
//
//   1. histogram kernel: one read of the keys counts the digits of EVERY pass at once (shared
//      memory counters), per portion of the input;
//   2. in the same launch, the last histogram block to finish computes per pass the exclusive
//      scan of the digit totals (where each digit's run starts in the output) plus the counts of
//      earlier portions;
//   3. one kernel per digit pass: block b takes tile b (512 x 16 items; block/tile_lookback.cuh
//      says why the look-back's waits end), ranks its keys by digit stably (per-warp counters in
//      shared memory; lanes with equal digits in a row of 32 found by ballots,
//      warp/warp_match.cuh), publishes its per-digit counts, finds for every digit the count in all
//      earlier tiles by decoupled look-back (one thread per digit, reading kLookbackWindow
//      predecessors at once; 32-bit status words: 2 flag bits and a 30-bit count), stages keys and
//      values in shared memory in sorted order and writes them out, runs of equal digits landing on
//      consecutive addresses.
//
// The first pass (of the first portion) is launched as a programmatic dependent of the histogram
// kernel: its blocks start while the histogram's last block computes the offsets, and everything
// up to the end of the look-back (loads, ranking) overlaps it; only the offsets
// are read after griddep_wait. Later passes read what the pass before wrote and start after it,
// as usual.
// On an H100 at 2^21 pairs (3 bits) this took the sort from 42.0 to 36.3 us.
//
//   keys = [3, 1, 2, 1, 0], bits [0, 2): one pass; digit counts [1, 2, 1, 1] -> runs start at
//   [0, 1, 3, 4]; keys_out = [0, 1, 1, 2, 3], and the two 1s keep their order (stable).
//
// A sort over <= 8 bits is one pass (3 bits: 8 materials), and with radix_bits left at 0 a range
// of <= 4 bits uses 16 digit values instead of 256. Each pass reads the keys and values once and
// writes them once; the whole sort adds one read of the keys for the histograms (except in one
// wave, below).
//
// One wave: a single pass of digits of <= 5 bits (a sort over <= 4 bits, a multisplit) whose
// tiles all fit on the GPU at once (two tiles of 8192 items per SM for items of up to 4 + 4 bytes:
// 264 tiles on 132 SMs; the renderer's material sorts of 691,200 slots are 85) is one cooperative
// launch of the pass kernel alone, with no zeroing or histogram kernel:
// each tile publishes its digit counts, a grid barrier, and every tile sums all tiles' counts,
// which gives both its look-back and the digit totals. The keys are read once. On an H100, uint32
// pairs in 8 buckets: 2^20 24.5 -> 15.6 us, 2^21 29.1 -> 24.1 us (a copy: 9.4, 14.9 us). Staging
// before the barrier, or loading the values after it, spilled 72 to 120 bytes at 64 registers and
// was slower (2^21: 25.6 us).
//
// Portions: look-back counts are 30-bit, so tiles are grouped in portions of fewer than 2^30
// items, each its own launch with its own status and digit offsets (computed by the
// histogram kernel's last block from the per-portion histograms). Outside one wave, every status
// word and histogram (and the histogram blocks' done counter) is zeroed by one zeroing kernel per
// sort (4 bytes per digit per tile per pass: for 8-bit digits 1/32 of the key bytes per pass), and
// the histogram kernel is its programmatic dependent: it counts its keys in shared memory while the
// zeroing runs and waits for it before it adds to the global counters. Passes ping-pong between the
// outputs and workspace copies so the last one lands in keys_out / values_out; the inputs are only
// read.
//
// The digit of a key is a functor of (key, pass): RadixDigit for the sort, BucketDigit for the
// multisplit (primitives/multisplit.cuh), which is one pass whose digit is a user's bucket
// function. Keys without values pass NoValues (nothing loaded, staged or stored for them).
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "primitives/block/block_scan.cuh"
#include "primitives/detail/multisplit_arguments.h"
#include "primitives/device/dependent_launch.cuh"
#include "primitives/operators.h"
#include "primitives/tuning.h"
#include "primitives/warp/warp_match.cuh"
#include "primitives/warp/warp_scan.cuh"

namespace prim::detail::radix_sort_onesweep {

constexpr int kThreads = tuning::kOnesweepThreads;
constexpr int kItems = tuning::kSortItemsPerThread;
constexpr int kTile = kThreads * kItems;
constexpr int kWarps = kThreads / 32;
static_assert(kThreads % 32 == 0 && kThreads >= 256, "one thread per digit value (256)");

// Look-back status word: flag in the top 2 bits, count in the low 30.
constexpr unsigned kCountMask = (1u << 30) - 1;
constexpr unsigned kFlagAggregate = 1u << 30;
constexpr unsigned kFlagInclusive = 2u << 30;
constexpr std::size_t kTilesPerPortion = ((std::size_t(1) << 30) - 1) / kTile;
// Resident pass blocks per SM: 1024 threads of at most 64 registers fill the 65536 registers.
constexpr int kPassBlocksPerSm = 1024 / kThreads;
constexpr int kHistogramUnroll = 8;  // keys per thread per round of the histogram kernel
// Predecessor tiles a digit's look-back reads at once (independent loads, folded nearest first):
// 2 took the 3-bit sort at 2^21 from 36.3 to 34.0 us on an H100; 4 spills registers (64 at most)
// and was slower at 2^24. Spreading a digit's look-back over a group of 8 or 32 threads (one
// predecessor each, 32 tiles a step) gained nothing measurable and slowed the 8-bit sorts (the
// table in primitives/bench/results/RESULTS.md).
constexpr int kLookbackWindow = 2;
// One-wave passes (pass_kernel's ONE_WAVE): digits of at most this many bits, so that a tile reads
// every tile's counts in a few loads per thread (32 digits x 264 tiles: 17 loads per thread).
constexpr int kOneWaveMaxBits = 5;

using ::prim::detail::NoValues;

// What the pass kernel stages in shared memory per item. Keys of up to 8 bytes are staged, with
// the value itself up to 8 bytes, else the item's index in its tile (the write-out gathers the
// value from global memory). Wider keys (a multisplit's struct keys) are not staged at all: the
// staging area holds each item's index and the write-out gathers key and value, so a tile's
// shared memory stays within 16 bytes an item whatever the sizes (at most 128 KiB, plus about
// 19 KiB of static memory, of the 227 KiB a block may have).
template <class K>
inline constexpr bool kStageKeyIndex = sizeof(K) > 8;
template <class V>
using StagedValue = std::conditional_t<(sizeof(V) <= 8), V, unsigned>;

// Offset of the staged values in the pass kernel's dynamic shared memory, and its size.
template <class K>
__host__ __device__ constexpr std::size_t staged_values_offset() {
  return kStageKeyIndex<K> ? 0 : (std::size_t(kTile) * sizeof(K) + 15) / 16 * 16;
}
template <class K, class V>
__host__ __device__ constexpr std::size_t staging_bytes() {
  if constexpr (kStageKeyIndex<K>) {
    return std::size_t(kTile) * sizeof(unsigned);
  } else if constexpr (std::is_same_v<V, NoValues>) {
    return staged_values_offset<K>();
  } else {
    return staged_values_offset<K>() + std::size_t(kTile) * sizeof(StagedValue<V>);
  }
}

__device__ __forceinline__ unsigned load_status(const unsigned* p) {
  unsigned v;
  asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ unsigned long long load_offset(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_status(unsigned* p, unsigned v) {
  asm volatile("st.relaxed.gpu.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}

// The split grid barrier of a cooperative launch (the one-wave pass; nothing for the others):
// every thread of every block calls both.
template <bool GRID>
__device__ __forceinline__ unsigned grid_arrive() {
  if constexpr (GRID) {
    return cooperative_groups::this_grid().barrier_arrive();
  } else {
    return 0;
  }
}
__device__ __forceinline__ void grid_wait(unsigned arrival) {
  cooperative_groups::this_grid().barrier_wait(static_cast<unsigned&&>(arrival));
}

// The sort's digit of pass p: key bits [begin_bit + p * RADIX_BITS, end_bit), at most RADIX_BITS.
template <int RADIX_BITS>
struct RadixDigit {
  int begin_bit;
  int end_bit;
  template <class K>
  __device__ __forceinline__ unsigned operator()(const K& key, int pass) const {
    const int shift = begin_bit + pass * RADIX_BITS;
    const int bits = end_bit - shift < RADIX_BITS ? end_bit - shift : RADIX_BITS;
    return (static_cast<unsigned>(key) >> shift) & ((1u << bits) - 1);
  }
};

// The multisplit's digit: the bucket a user's function gives the key, results past the last
// bucket counting as the last (so no item can land outside the output).
template <class BucketOf>
struct BucketDigit {
  BucketOf bucket_of;
  unsigned last;
  template <class K>
  __device__ __forceinline__ unsigned operator()(const K& key, int) const {
    const unsigned b = static_cast<unsigned>(bucket_of(key));
    return b < last ? b : last;
  }
};

// Per pass: offsets[pass][portion][d] = items of digits < d in the whole input + items of digit d
// in earlier portions. Run by one whole block; histograms are read past L1 (other blocks wrote
// them with atomics).
//
// With `buckets` > 0 (the multisplit, one pass), bucket_offsets[b] = where bucket b starts in the
// output, for b < buckets, and bucket_offsets[buckets] = n.
template <int RADIX_BITS>
__device__ void digit_offsets(const unsigned* histograms, int passes, std::size_t portions,
                              unsigned long long* offsets, unsigned long long* bucket_offsets,
                              int buckets, std::size_t n) {
  constexpr int kRadix = 1 << RADIX_BITS;
  using Scan = block::BlockScan<unsigned long long>;
  __shared__ typename Scan::TempStorage storage;
  const int digit = threadIdx.x;
  for (int pass = 0; pass < passes; ++pass) {
    const unsigned* h = histograms + std::size_t(pass) * portions * kRadix;
    unsigned long long total = 0;
    if (digit < kRadix)
      for (std::size_t k = 0; k < portions; ++k) total += __ldcg(h + k * kRadix + digit);
    unsigned long long warp_total;
    const unsigned long long before = warp::exclusive_scan(total, 0ull, Plus{}, warp_total);
    const unsigned long long start = Scan::warp_base(storage, warp_total, 0ull, Plus{},
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
    __syncthreads();  // storage is reused by the next pass
  }
}

// grid = (blocks per portion, portions), block = kThreads. Counts the digits of every pass for
// the items of portion blockIdx.y into histograms[(pass * portions + portion) * RADIX + digit];
// the last block to finish turns the histograms into the digit offsets (no extra launch).
template <int RADIX_BITS, class K, class Digit>
__global__ void histogram_kernel(const K* __restrict__ keys, std::size_t n, Digit digit_of,
                                 int passes, std::size_t portions, unsigned* histograms,
                                 unsigned* done_counter, unsigned long long* __restrict__ offsets,
                                 unsigned long long* bucket_offsets, int buckets) {
  constexpr int kRadix = 1 << RADIX_BITS;
  constexpr int kMaxPasses = (32 + RADIX_BITS - 1) / RADIX_BITS;
  __shared__ unsigned counts[kMaxPasses][kRadix];
  __shared__ bool last_block;
  for (int i = threadIdx.x; i < kMaxPasses * kRadix; i += blockDim.x) (&counts[0][0])[i] = 0;
  __syncthreads();

  const std::size_t portion = blockIdx.y;
  const std::size_t first = portion * kTilesPerPortion * kTile;
  const std::size_t last_limit = first + kTilesPerPortion * kTile;
  const std::size_t last = n < last_limit ? n : last_limit;
  // kHistogramUnroll loads in flight per thread before the counting.
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x * kHistogramUnroll;
  for (std::size_t base = first + std::size_t(blockIdx.x) * blockDim.x * kHistogramUnroll;
       base < last; base += stride) {
    K key[kHistogramUnroll];
#pragma unroll
    for (int u = 0; u < kHistogramUnroll; ++u) {
      const std::size_t i = base + std::size_t(u) * blockDim.x + threadIdx.x;
      if (i < last) key[u] = keys[i];
    }
#pragma unroll
    for (int u = 0; u < kHistogramUnroll; ++u) {
      if (base + std::size_t(u) * blockDim.x + threadIdx.x >= last) break;
#pragma unroll 1
      for (int pass = 0; pass < passes; ++pass)
        atomicAdd(&counts[pass][digit_of(key[u], pass)], 1u);
    }
  }
  __syncthreads();
  // The global counters are zeroed by the kernel ahead (zero_for_dependent), which the counting
  // above overlaps. The first pass may start once every block is past this wait, so it never
  // sees its status before it is zero.
  griddep_wait();
  griddep_launch_dependents();
  for (int i = threadIdx.x; i < passes * kRadix; i += blockDim.x) {
    const int pass = i / kRadix, digit = i % kRadix;
    const unsigned c = counts[pass][digit];
    if (c) atomicAdd(&histograms[(pass * portions + portion) * kRadix + digit], c);
  }
  // Last block done (the threadFenceReduction pattern): every block's counts are in L2 before
  // it takes its turn on the counter, so the block that comes last sees all of them.
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last_block = atomicAdd(done_counter, 1u) == gridDim.x * gridDim.y - 1;
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  digit_offsets<RADIX_BITS>(histograms, passes, portions, offsets, bucket_offsets, buckets, n);
}

// One-wave passes: every tile has published its digit counts (status[tile][digit], no flags)
// before a grid barrier, so a tile sums them all at once instead of walking a look-back chain.
// Thread t reads digit t % kRadix of tiles t / kRadix, + kThreads / kRadix, ... (four
// independent loads in flight), then the lanes of each digit are added in the warp and the warps
// in shared memory: earlier[d] gets the count of digit d in the tiles before `tile`, total[d] in
// all tiles. Both must be zero before, and read after a __syncthreads.
template <int RADIX_BITS>
__device__ __forceinline__ void sum_published_counts(const unsigned* status, unsigned tiles,
                                                     unsigned tile, unsigned* earlier,
                                                     unsigned* total) {
  constexpr int kRadix = 1 << RADIX_BITS;
  static_assert(kRadix <= 32, "the lanes of a digit are lane % kRadix");
  constexpr unsigned kStep = kThreads / kRadix;
  constexpr int kInFlight = 4;
  const unsigned digit = threadIdx.x % kRadix;
  unsigned before = 0, all = 0;
  for (unsigned first = threadIdx.x / kRadix; first < tiles; first += kStep * kInFlight) {
    unsigned counts[kInFlight];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) {
      const unsigned t = first + u * kStep;
      counts[u] = t < tiles ? load_status(status + std::size_t(t) * kRadix + digit) : 0;
    }
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) {
      all += counts[u];
      if (first + u * kStep < tile) before += counts[u];
    }
  }
#pragma unroll
  for (int lanes = kRadix; lanes < 32; lanes *= 2) {
    before += __shfl_xor_sync(0xffffffffu, before, lanes);
    all += __shfl_xor_sync(0xffffffffu, all, lanes);
  }
  if (warp::lane_id() < kRadix) {
    atomicAdd(earlier + digit, before);
    atomicAdd(total + digit, all);
  }
}

// One digit pass over one portion. Dynamic shared memory: staging_bytes<K, V>() (kTile keys, then
// kTile values or value indices; or kTile item indices for wide keys).
//
// At most 64 registers (uint32 pairs need 64 without spills, 48 spill), so that 1024 threads fit
// on an SM: the pass is memory-bound, and at 80 registers a 2^21-pair sort ran as 1.3 waves.
// Where shared memory holds fewer blocks (8-byte values: one block of 512 threads per SM) the
// pass runs at that occupancy. The keys and values are read before griddep_wait: only the first
// pass, whose inputs are the caller's, may be launched as a programmatic dependent.
//
// ONE_WAVE (a sort of one pass, or a multisplit, whose tiles all fit on the GPU at once; launched
// cooperatively, alone: no zeroing or histogram kernel): tile = blockIdx.x; each tile publishes its
// digit counts, and after a grid barrier sums every tile's (sum_published_counts) for both its
// look-back and the digit totals, whose exclusive scan gives the digit offsets; block 0 writes the
// multisplit's bucket_offsets. The keys are read once, not twice, and no status word needs
// zeroing. (A template parameter: as a run-time flag it made the pass spill 16 to 32 bytes more at
// 64 registers.)
template <int RADIX_BITS, bool ONE_WAVE, class K, class V, class Digit>
__global__ void __launch_bounds__(kThreads, kPassBlocksPerSm)
    pass_kernel(const K* __restrict__ keys_in, K* __restrict__ keys_out,
                const V* __restrict__ values_in, V* __restrict__ values_out, std::size_t n,
                std::size_t portion_start, Digit digit_of, int pass,
                const unsigned long long* digit_offsets, unsigned* status,
                unsigned long long* bucket_offsets, int buckets) {
  constexpr int kRadix = 1 << RADIX_BITS;
  constexpr int kSegment = 32 * kItems;
  using Scan = block::BlockScan<unsigned>;
  __shared__ unsigned warp_counts[kWarps][kRadix];    // per warp, then warp offsets per digit
  __shared__ unsigned tile_digit_start[kRadix];       // first staged slot of each digit
  __shared__ unsigned long long global_base[kRadix];  // output index - staged slot, per digit
  __shared__ typename Scan::TempStorage storage;
  static_assert(!ONE_WAVE || RADIX_BITS <= kOneWaveMaxBits, "one-wave digits of <= 5 bits");
  constexpr int kSummedDigits = ONE_WAVE ? kRadix : 1;
  __shared__ unsigned summed_earlier[kSummedDigits], summed_total[kSummedDigits];  // ONE_WAVE
  // Values of up to 8 bytes travel in registers and are staged with the keys; larger ones are not
  // staged: the staging area holds each item's index in the tile and the write-out gathers the
  // value from global memory, so a tile's shared memory stays small whatever the value size.
  constexpr bool kHasValues = !std::is_same_v<V, NoValues>;
  constexpr bool kByIndex = kStageKeyIndex<K>;
  constexpr bool kValuesInRegisters = kHasValues && sizeof(V) <= 8 && !kByIndex;
  using Staged = StagedValue<V>;
  extern __shared__ uint4 staging_raw[];
  K* staged_keys = reinterpret_cast<K*>(staging_raw);
  unsigned* staged_index = reinterpret_cast<unsigned*>(staging_raw);  // kByIndex
  Staged* staged_values = reinterpret_cast<Staged*>(reinterpret_cast<unsigned char*>(staging_raw) +
                                                    staged_values_offset<K>());

  for (int i = threadIdx.x; i < kWarps * kRadix; i += kThreads) (&warp_counts[0][0])[i] = 0;
  if constexpr (ONE_WAVE) {
    if (threadIdx.x < kSummedDigits) summed_earlier[threadIdx.x] = summed_total[threadIdx.x] = 0;
  }
  __syncthreads();
  const unsigned tile = blockIdx.x;
  const std::size_t tile_start = portion_start + std::size_t(tile) * kTile;
  const unsigned tile_valid =
      n - tile_start < std::size_t(kTile) ? static_cast<unsigned>(n - tile_start) : kTile;
  const int lane = warp::lane_id();
  const int warp_index = threadIdx.x / 32;
  const int segment_offset = warp_index * kSegment;

  // Warp-striped scalar loads: item i of `lane` is tile element segment_offset + i * 32 + lane,
  // so (i, lane) order is input order. Small values are loaded with the keys.
  K keys[kItems];
  V values[kValuesInRegisters ? kItems : 1];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const unsigned index = segment_offset + i * 32 + lane;
    if (index < tile_valid) {
      keys[i] = keys_in[tile_start + index];
      if constexpr (kValuesInRegisters) values[i] = values_in[tile_start + index];
    }
  }
  // The digit of item i, or kRadix past the end of the input.
  auto digit_at = [&](int i) -> unsigned {
    return segment_offset + i * 32 + lane < tile_valid ? digit_of(keys[i], pass) : unsigned(kRadix);
  };

  // Rank within the warp: rank[i] = earlier items of the segment with the same digit.
  unsigned rank[kItems];
  const unsigned lower_lanes = warp::lanemask_lt();
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const unsigned d = digit_at(i);
    const unsigned peers = warp::match_bits<RADIX_BITS + 1>(d);  // + 1: past-the-end items
    const bool valid = d < kRadix;
    const unsigned before = valid ? warp_counts[warp_index][d] : 0;
    __syncwarp();
    if (valid && lane == 31 - __clz(peers)) warp_counts[warp_index][d] = before + __popc(peers);
    __syncwarp();
    rank[i] = before + __popc(peers & lower_lanes);
  }
  __syncthreads();

  // One thread per digit: warp counts -> warp offsets, tile count; publish the tile's count.
  const int digit = threadIdx.x;
  unsigned tile_count = 0;
  if (digit < kRadix) {
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const unsigned c = warp_counts[w][digit];
      warp_counts[w][digit] = tile_count;
      tile_count += c;
    }
    if constexpr (ONE_WAVE) {
      store_status(status + std::size_t(tile) * kRadix + digit, tile_count);
    } else {
      store_status(status + std::size_t(tile) * kRadix + digit,
                   (tile == 0 ? kFlagInclusive : kFlagAggregate) | tile_count);
    }
  }
  // One wave: every tile's counts are published once all blocks have arrived.
  [[maybe_unused]] const auto arrival = grid_arrive<ONE_WAVE>();
  // Staged slot where each digit's run starts: exclusive scan of the tile counts over digits.
  unsigned warp_total;
  const unsigned before_in_warp = warp::exclusive_scan(tile_count, 0u, Plus{}, warp_total);
  const unsigned run_start =
      Scan::warp_base(storage, warp_total, 0u, Plus{}, [](unsigned) { return 0u; }) +
      before_in_warp;

  if (digit < kRadix) tile_digit_start[digit] = run_start;

  // Look-back: items of this digit in earlier tiles of the portion.
  unsigned long long earlier = 0;
  if constexpr (ONE_WAVE) {
    grid_wait(arrival);
    sum_published_counts<RADIX_BITS>(status, gridDim.x, tile, summed_earlier, summed_total);
    __syncthreads();
    // Where each digit starts in the output: exclusive scan of the totals (one warp's lanes).
    const unsigned total = digit < kRadix ? summed_total[digit] : 0;
    unsigned all_digits;
    const unsigned start = warp::exclusive_scan(total, 0u, Plus{}, all_digits);
    if (digit < kRadix) {
      earlier = summed_earlier[digit];
      global_base[digit] = std::size_t(start) + earlier - run_start;
      if (tile == 0 && digit < buckets) bucket_offsets[digit] = start;
    }
    if (tile == 0 && buckets > 0 && threadIdx.x == 0) bucket_offsets[buckets] = n;
  } else {
    if (digit < kRadix && tile > 0) {
      long long k = static_cast<long long>(tile) - 1;  // nearest tile not yet folded
      while (true) {
        unsigned words[kLookbackWindow];
#pragma unroll
        for (int w = 0; w < kLookbackWindow; ++w)
          words[w] = (k - w >= 0) ? load_status(status + std::size_t(k - w) * kRadix + digit)
                                  : kFlagInclusive;
        int used = 0;
        bool open = true, found = false;
#pragma unroll
        for (int w = 0; w < kLookbackWindow; ++w) {
          if (open) {
            const unsigned flag = words[w] & ~kCountMask;
            if (flag == 0) {
              open = false;
            } else {
              earlier += words[w] & kCountMask;
              ++used;
              if (flag == kFlagInclusive) found = true, open = false;
            }
          }
        }
        if (found) break;
        k -= used;
      }
      store_status(status + std::size_t(tile) * kRadix + digit,
                   kFlagInclusive | static_cast<unsigned>(earlier + tile_count));
    }
    // The digit offsets come from the histogram kernel ahead. Every thread waits (the wait is
    // block-uniform), and the offsets are read with a load the compiler cannot move above it.
    griddep_wait();
    if (digit < kRadix)
      global_base[digit] = load_offset(digit_offsets + digit) + earlier - run_start;
  }
  __syncthreads();

  // Stage in sorted order: slot = run start of the digit + earlier warps + rank in the warp.
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const unsigned d = digit_at(i);
    if (d < kRadix) {
      const unsigned slot = tile_digit_start[d] + warp_counts[warp_index][d] + rank[i];
      if constexpr (kByIndex) {
        staged_index[slot] = segment_offset + i * 32 + lane;
      } else {
        staged_keys[slot] = keys[i];
        if constexpr (kValuesInRegisters) {
          staged_values[slot] = values[i];
        } else if constexpr (kHasValues) {
          staged_values[slot] = segment_offset + i * 32 + lane;
        }
      }
    }
  }
  __syncthreads();

  // Write out: staged slot j of digit d goes to global_base[d] + j; equal digits are adjacent.
  for (unsigned j = threadIdx.x; j < tile_valid; j += kThreads) {
    if constexpr (kByIndex) {
      const std::size_t source = tile_start + staged_index[j];
      const K key = keys_in[source];
      const std::size_t destination = global_base[digit_of(key, pass)] + j;
      keys_out[destination] = key;
      if constexpr (kHasValues) values_out[destination] = values_in[source];
    } else {
      const K key = staged_keys[j];
      const std::size_t destination = global_base[digit_of(key, pass)] + j;
      keys_out[destination] = key;
      if constexpr (kValuesInRegisters) {
        values_out[destination] = staged_values[j];
      } else if constexpr (kHasValues) {
        values_out[destination] = values_in[tile_start + staged_values[j]];
      }
    }
  }
}

}  // namespace prim::detail::radix_sort_onesweep
