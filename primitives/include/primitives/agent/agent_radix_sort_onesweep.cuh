// AgentRadixSortOnesweep: one digit pass over one tile of the onesweep radix sort, after Adinets &
// Merrill, "Onesweep: A Faster Least Significant Digit Radix Sort for GPUs" (2022). The kernels are
// kernels/radix_sort_onesweep.cuh, the host side device/dispatch_radix_sort.cuh, the histogram
// agent/agent_radix_sort_histogram.cuh.
//
//   1. histogram kernel: one read of the keys counts the digits of EVERY pass at once (shared
//      memory counters), per portion of the input;
//   2. in the same launch, the last histogram block to finish computes per pass the exclusive
//      scan of the digit totals (where each digit's run starts in the output) plus the counts of
//      earlier portions;
//   3. one kernel per digit pass: block b takes tile b (512 x 16 items; agent/tile_lookback.cuh
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
// which gives both its look-back and the digit totals. The keys are read once. Staging before the
// barrier, or loading the values after it, spilled 72 to 120 bytes at 64 registers and was
// slower.
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
// multisplit (device/dispatch_multisplit.cuh), which is one pass whose digit is a user's bucket
// function. Keys without values pass NoValues (nothing loaded, staged or stored for them).
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "primitives/block/block_scan.cuh"
#include "primitives/detail/grid_dependency.cuh"
#include "primitives/detail/multisplit_arguments.h"
#include "primitives/operators.h"
#include "primitives/tuning.h"
#include "primitives/warp/warp_match.cuh"
#include "primitives/warp/warp_scan.cuh"

namespace prim::agent {

// What the onesweep's agents and its dispatch (device/dispatch_radix_sort.cuh) share: the tile,
// the status words, the staging layout and the digits.
namespace onesweep {

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
// Predecessor tiles a digit's look-back reads at once (independent loads, folded nearest first):
// 2 was faster than 1; 4 spills registers (64 at most) and was slower. Spreading a digit's
// look-back over a group of 8 or 32 threads (one predecessor each, 32 tiles a step) gained nothing
// measurable and slowed the 8-bit sorts (the table in primitives/bench/results/RESULTS.md).
constexpr int kLookbackWindow = 2;
// One-wave passes (AgentRadixSortOnesweep's ONE_WAVE): digits of at most this many bits, so that a
// tile reads every tile's counts in a few loads per thread (32 digits x 264 tiles: 17 loads per
// thread).
constexpr int kOneWaveMaxBits = 5;

using ::prim::detail::NoValues;

// What the pass stages in shared memory per item. Keys of up to 8 bytes are staged, with the value
// itself up to 8 bytes, else the item's index in its tile (the write-out gathers the value from
// global memory). Wider keys (a multisplit's struct keys) are not staged at all: the staging area
// holds each item's index and the write-out gathers key and value, so a tile's shared memory stays
// within 16 bytes an item whatever the sizes (at most 128 KiB, plus about 19 KiB of static memory,
// of the 227 KiB a block may have).
template <class K>
inline constexpr bool kStageKeyIndex = sizeof(K) > 8;
template <class V>
using StagedValue = std::conditional_t<(sizeof(V) <= 8), V, unsigned>;

// Offset of the staged values in the pass's dynamic shared memory, and its size.
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

}  // namespace onesweep

// One digit pass over one tile of one portion: RADIX_BITS-bit digits given by Digit, keys K,
// values V (NoValues for keys alone). The kernel's dynamic shared memory, the staging area, holds
// onesweep::staging_bytes<K, V>() bytes (kTile keys, then kTile values or value indices; or kTile
// item indices for wide keys).
//
// At most 64 registers (uint32 pairs need 64 without spills, 48 spill), so that 1024 threads fit
// on an SM: the pass is memory-bound, and at 80 registers a mid-sized sort ran in more than one
// wave of blocks.
// Where shared memory holds fewer blocks (8-byte values: one block of 512 threads per SM) the
// pass runs at that occupancy. The keys and values are read before griddep_wait: only the first
// pass, whose inputs are the caller's, may be launched as a programmatic dependent.
//
// ONE_WAVE (a sort of one pass, or a multisplit, whose tiles all fit on the GPU at once; launched
// cooperatively, alone: no zeroing or histogram kernel): tile = blockIdx.x; each tile publishes its
// digit counts, and after a grid barrier sums every tile's (sum_published_counts) for both its
// look-back and the digit totals, whose exclusive scan gives the digit offsets; tile 0 writes the
// multisplit's bucket_offsets. The keys are read once, not twice, and no status word needs
// zeroing. (A template parameter: as a run-time flag it made the pass spill 16 to 32 bytes more at
// 64 registers.)
template <int RADIX_BITS, bool ONE_WAVE, class K, class V, class Digit>
struct AgentRadixSortOnesweep {
  static constexpr int kRadix = 1 << RADIX_BITS;
  static constexpr int kThreads = onesweep::kThreads;
  static constexpr int kItems = onesweep::kItems;
  static constexpr int kTile = onesweep::kTile;
  static constexpr int kWarps = onesweep::kWarps;
  static constexpr int kSegment = 32 * kItems;  // a warp's keys
  static_assert(!ONE_WAVE || RADIX_BITS <= onesweep::kOneWaveMaxBits,
                "one-wave digits of <= 5 bits");
  // Values of up to 8 bytes travel in registers and are staged with the keys; larger ones are not
  // staged: the staging area holds each item's index in the tile and the write-out gathers the
  // value from global memory, so a tile's shared memory stays small whatever the value size.
  static constexpr bool kHasValues = !std::is_same_v<V, onesweep::NoValues>;
  static constexpr bool kByIndex = onesweep::kStageKeyIndex<K>;
  static constexpr bool kValuesInRegisters = kHasValues && sizeof(V) <= 8 && !kByIndex;
  using Staged = onesweep::StagedValue<V>;
  using BlockScanT = block::BlockScan<unsigned>;

  struct TempStorage {
    unsigned warp_counts[kWarps][kRadix];    // per warp, then warp offsets per digit
    unsigned tile_digit_start[kRadix];       // first staged slot of each digit
    unsigned long long global_base[kRadix];  // output index - staged slot, per digit
    typename BlockScanT::TempStorage scan;
  };
  // The one-wave pass's sums of all tiles' counts (sum_published_counts), a shared variable of
  // their own: as members of TempStorage they made the one-wave pass of 4-bit digits spill a
  // register at its 64. The chained pass leaves them unused, and so unallocated.
  static constexpr int kSummedDigits = ONE_WAVE ? kRadix : 1;
  struct SumStorage {
    unsigned earlier[kSummedDigits];  // count of each digit in the tiles before this one
    unsigned total[kSummedDigits];    // in all tiles
  };

  TempStorage& storage;
  SumStorage& sums;
  K* staged_keys;
  unsigned* staged_index;  // kByIndex
  Staged* staged_values;
  const K* __restrict__ keys_in;
  K* __restrict__ keys_out;
  const V* __restrict__ values_in;
  V* __restrict__ values_out;
  std::size_t n;
  Digit digit_of;
  int pass;
  unsigned* status;

  __device__ __forceinline__ AgentRadixSortOnesweep(TempStorage& storage, SumStorage& sums,
                                                    uint4* staging, const K* __restrict__ keys_in,
                                                    K* __restrict__ keys_out,
                                                    const V* __restrict__ values_in,
                                                    V* __restrict__ values_out, std::size_t n,
                                                    Digit digit_of, int pass, unsigned* status)
      : storage(storage),
        sums(sums),
        staged_keys(reinterpret_cast<K*>(staging)),
        staged_index(reinterpret_cast<unsigned*>(staging)),
        staged_values(reinterpret_cast<Staged*>(reinterpret_cast<unsigned char*>(staging) +
                                                onesweep::staged_values_offset<K>())),
        keys_in(keys_in),
        keys_out(keys_out),
        values_in(values_in),
        values_out(values_out),
        n(n),
        digit_of(digit_of),
        pass(pass),
        status(status) {}

  // Sorts tile blockIdx.x of the portion that starts at item portion_start by the pass's digit
  // (every thread of the block calls it). Chained: digit_offsets[d] is where digit d's run of the
  // portion starts in the output (the histogram kernel ahead writes it). One wave: tile 0 writes
  // the multisplit's bucket_offsets when `buckets` > 0.
  __device__ __forceinline__ void consume_tile(std::size_t portion_start,
                                               const unsigned long long* digit_offsets,
                                               unsigned long long* bucket_offsets, int buckets) {
    for (int i = threadIdx.x; i < kWarps * kRadix; i += kThreads)
      (&storage.warp_counts[0][0])[i] = 0;
    if constexpr (ONE_WAVE) {
      if (threadIdx.x < kRadix) sums.earlier[threadIdx.x] = sums.total[threadIdx.x] = 0;
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
      return segment_offset + i * 32 + lane < tile_valid ? digit_of(keys[i], pass)
                                                         : unsigned(kRadix);
    };

    unsigned rank[kItems];
    rank_keys(digit_at, rank, warp_index, lane);
    __syncthreads();

    // One thread per digit: warp counts -> warp offsets, tile count; publish the tile's count.
    const int digit = threadIdx.x;
    unsigned tile_count = 0;
    if (digit < kRadix) {
#pragma unroll
      for (int w = 0; w < kWarps; ++w) {
        const unsigned c = storage.warp_counts[w][digit];
        storage.warp_counts[w][digit] = tile_count;
        tile_count += c;
      }
      if constexpr (ONE_WAVE) {
        onesweep::store_status(status + std::size_t(tile) * kRadix + digit, tile_count);
      } else {
        onesweep::store_status(
            status + std::size_t(tile) * kRadix + digit,
            (tile == 0 ? onesweep::kFlagInclusive : onesweep::kFlagAggregate) | tile_count);
      }
    }
    // One wave: every tile's counts are published once all blocks have arrived.
    [[maybe_unused]] const auto arrival = onesweep::grid_arrive<ONE_WAVE>();
    // Staged slot where each digit's run starts: exclusive scan of the tile counts over digits.
    unsigned warp_total;
    const unsigned before_in_warp = warp::exclusive_scan(tile_count, 0u, Plus{}, warp_total);
    const unsigned run_start =
        BlockScanT::warp_base(storage.scan, warp_total, 0u, Plus{}, [](unsigned) { return 0u; }) +
        before_in_warp;

    if (digit < kRadix) storage.tile_digit_start[digit] = run_start;

    // Look-back: items of this digit in earlier tiles of the portion.
    if constexpr (ONE_WAVE) {
      onesweep::grid_wait(arrival);
      onesweep::sum_published_counts<RADIX_BITS>(status, gridDim.x, tile, sums.earlier, sums.total);
      __syncthreads();
      // Where each digit starts in the output: exclusive scan of the totals (one warp's lanes).
      const unsigned total = digit < kRadix ? sums.total[digit] : 0;
      unsigned all_digits;
      const unsigned start = warp::exclusive_scan(total, 0u, Plus{}, all_digits);
      if (digit < kRadix) {
        const unsigned long long earlier = sums.earlier[digit];
        storage.global_base[digit] = std::size_t(start) + earlier - run_start;
        if (tile == 0 && digit < buckets) bucket_offsets[digit] = start;
      }
      if (tile == 0 && buckets > 0 && threadIdx.x == 0) bucket_offsets[buckets] = n;
    } else {
      const unsigned long long earlier = look_back(tile, digit, tile_count);
      // The digit offsets come from the histogram kernel ahead. Every thread waits (the wait is
      // block-uniform), and the offsets are read with a load the compiler cannot move above it.
      detail::griddep_wait();
      if (digit < kRadix)
        storage.global_base[digit] =
            onesweep::load_offset(digit_offsets + digit) + earlier - run_start;
    }
    __syncthreads();

    stage(digit_at, keys, values, rank, segment_offset, warp_index, lane);
    __syncthreads();
    write_out(tile_start, tile_valid);
  }

 private:
  // Rank within the warp: rank[i] = earlier items of the segment with the same digit; the warp's
  // count of each digit is left in storage.warp_counts[warp_index].
  template <class DigitAt>
  __device__ __forceinline__ void rank_keys(DigitAt digit_at, unsigned (&rank)[kItems],
                                            int warp_index, int lane) {
    const unsigned lower_lanes = warp::lanemask_lt();
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const unsigned d = digit_at(i);
      const unsigned peers = warp::match_bits<RADIX_BITS + 1>(d);  // + 1: past-the-end items
      const bool valid = d < kRadix;
      const unsigned before = valid ? storage.warp_counts[warp_index][d] : 0;
      __syncwarp();
      if (valid && lane == 31 - __clz(peers))
        storage.warp_counts[warp_index][d] = before + __popc(peers);
      __syncwarp();
      rank[i] = before + __popc(peers & lower_lanes);
    }
  }

  // Chained: the count of `digit` in the portion's tiles before `tile`, by decoupled look-back
  // over onesweep::kLookbackWindow predecessors at a time; then publishes the digit's inclusive
  // count. Threads past the digits, and tile 0, get 0.
  __device__ __forceinline__ unsigned long long look_back(unsigned tile, int digit,
                                                          unsigned tile_count) {
    unsigned long long earlier = 0;
    if (digit < kRadix && tile > 0) {
      long long k = static_cast<long long>(tile) - 1;  // nearest tile not yet folded
      while (true) {
        unsigned words[onesweep::kLookbackWindow];
#pragma unroll
        for (int w = 0; w < onesweep::kLookbackWindow; ++w)
          words[w] = (k - w >= 0)
                         ? onesweep::load_status(status + std::size_t(k - w) * kRadix + digit)
                         : onesweep::kFlagInclusive;
        int used = 0;
        bool open = true, found = false;
#pragma unroll
        for (int w = 0; w < onesweep::kLookbackWindow; ++w) {
          if (open) {
            const unsigned flag = words[w] & ~onesweep::kCountMask;
            if (flag == 0) {
              open = false;
            } else {
              earlier += words[w] & onesweep::kCountMask;
              ++used;
              if (flag == onesweep::kFlagInclusive) found = true, open = false;
            }
          }
        }
        if (found) break;
        k -= used;
      }
      onesweep::store_status(
          status + std::size_t(tile) * kRadix + digit,
          onesweep::kFlagInclusive | static_cast<unsigned>(earlier + tile_count));
    }
    return earlier;
  }

  // Stage in sorted order: slot = run start of the digit + earlier warps + rank in the warp.
  template <class DigitAt>
  __device__ __forceinline__ void stage(DigitAt digit_at, const K (&keys)[kItems],
                                        const V (&values)[kValuesInRegisters ? kItems : 1],
                                        const unsigned (&rank)[kItems], int segment_offset,
                                        int warp_index, int lane) {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      const unsigned d = digit_at(i);
      if (d < kRadix) {
        const unsigned slot =
            storage.tile_digit_start[d] + storage.warp_counts[warp_index][d] + rank[i];
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
  }

  // Write out: staged slot j of digit d goes to global_base[d] + j; equal digits are adjacent.
  __device__ __forceinline__ void write_out(std::size_t tile_start, unsigned tile_valid) {
    for (unsigned j = threadIdx.x; j < tile_valid; j += kThreads) {
      if constexpr (kByIndex) {
        const std::size_t source = tile_start + staged_index[j];
        const K key = keys_in[source];
        const std::size_t destination = storage.global_base[digit_of(key, pass)] + j;
        keys_out[destination] = key;
        if constexpr (kHasValues) values_out[destination] = values_in[source];
      } else {
        const K key = staged_keys[j];
        const std::size_t destination = storage.global_base[digit_of(key, pass)] + j;
        keys_out[destination] = key;
        if constexpr (kValuesInRegisters) {
          values_out[destination] = staged_values[j];
        } else if constexpr (kHasValues) {
          values_out[destination] = values_in[tile_start + staged_values[j]];
        }
      }
    }
  }
};

}  // namespace prim::agent
