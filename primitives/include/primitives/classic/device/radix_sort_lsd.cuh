// Radix sort variant 'lsd': multi-bit LSD passes with per-tile digit histograms.
//
// Each pass sorts stably by one digit of radix_bits bits (4 or 8; the last digit is narrower when
// the bit range does not divide evenly, so a pass never looks past end_bit). With R = 2^bits
// digit values and the input cut into tiles of kThreads * kItemsPerThread items:
//
//   1. histogram kernel: each block counts the digits of its tile with shared-memory atomics and
//      writes the counts digit-major: table[digit * tiles + tile];
//   2. exclusive scan of the table (R * tiles counters) with the blocked scan: table[d * tiles + b]
//      becomes the first output slot of tile b's items with digit d, because digit-major order
//      lists every smaller digit, then the same digit in earlier tiles;
//   3. scatter kernel: each block walks its tile again in rounds of kThreads consecutive items and
//      gives each item its slot = tile's slot for the digit + items with that digit earlier in
//      the tile. Within a round, lanes of a warp with the same digit find each other with
//      __match_any_sync (rank = earlier peers), and one thread per digit turns the per-warp counts
//      into slots warp by warp; a running slot per digit carries over to the next round. Equal
//      digits therefore keep input order: the sort is stable.
//
//   keys = [3, 1, 2, 1, 0], 2-bit digits, one tile: counts [1, 2, 1, 1] -> slots [0, 1, 3, 4]
//   3 -> 4, 1 -> 1, 2 -> 3, 1 -> 2, 0 -> 0                 keys_out = [0, 1, 1, 2, 3]
//
// Cost per pass: 3 launches plus the table scan's; the histogram reads n keys, the scatter reads n
// keys and n values and writes them at scattered addresses (no local reordering in shared
// memory, the production onesweep variant does that). The table is R / (kThreads *
// kItemsPerThread) counters per item (1/16 for 8-bit digits). Counters are 32-bit below 2^32
// items, 64-bit above. Passes ping-pong between the outputs and workspace copies, ordered so the
// last pass lands in keys_out / values_out; the inputs are only read.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "primitives/classic/detail/grid.cuh"
#include "primitives/classic/device/scan_blocked.cuh"
#include "primitives/classic/variants.h"
#include "primitives/error.h"
#include "primitives/operators.h"
#include "primitives/tuning.h"
#include "primitives/workspace.h"

namespace prim::classic::detail::radix_sort_lsd {

inline constexpr int kThreads = tuning::kSortThreads;
inline constexpr int kItemsPerThread = tuning::kSortItemsPerThread;
inline constexpr std::size_t kTile = std::size_t(kThreads) * kItemsPerThread;
inline constexpr int kWarps = kThreads / 32;
inline constexpr int kMaxRadix = 256;  // 8-bit digits
static_assert(kThreads % 32 == 0, "whole warps");

template <class K>
__host__ __device__ inline unsigned digit_of(K key, int bit, unsigned radix) {
  return (static_cast<std::uint32_t>(key) >> bit) & (radix - 1);
}

// Counts the digits of one tile per block in shared memory and writes them digit-major to
// table[digit * tiles + blockIdx.x]. Reads the tile's keys, writes R counters.
template <class S, class K>
__global__ void __launch_bounds__(kThreads)
    digit_histogram_kernel(const K* __restrict__ keys, std::size_t n, int bit, unsigned radix,
                           S* __restrict__ table, std::size_t tiles) {
  __shared__ unsigned counts[kMaxRadix];
  for (unsigned d = threadIdx.x; d < radix; d += kThreads) counts[d] = 0;
  __syncthreads();
  const std::size_t base = std::size_t(blockIdx.x) * kTile;
  const std::size_t count = n - base < kTile ? n - base : kTile;
  for (std::size_t j = threadIdx.x; j < count; j += kThreads) {
    atomicAdd(&counts[digit_of(keys[base + j], bit, radix)], 1u);
  }
  __syncthreads();
  for (unsigned d = threadIdx.x; d < radix; d += kThreads) {
    table[std::size_t(d) * tiles + blockIdx.x] = counts[d];
  }
}

// Moves one tile per block to its sorted slots (step 3 above): slots = the scanned table. Reads
// R counters and the tile's keys and values, writes them scattered over up to R runs; two block
// barriers per round of kThreads items.
template <class S, class K, class V>
__global__ void __launch_bounds__(kThreads)
    digit_scatter_kernel(const K* __restrict__ keys_in, const V* __restrict__ values_in,
                         K* __restrict__ keys_out, V* __restrict__ values_out, std::size_t n,
                         int bit, unsigned radix, const S* __restrict__ slots, std::size_t tiles) {
  __shared__ S next_slot[kMaxRadix];          // next free output slot per digit for this tile
  __shared__ S warp_slot[kWarps][kMaxRadix];  // per round: warp's count of a digit, then its slot
  const int t = threadIdx.x;
  const int warp = t / 32;
  const unsigned lane = t % 32;
  const unsigned earlier_lanes = (1u << lane) - 1;
  for (unsigned d = t; d < radix; d += kThreads) {
    next_slot[d] = slots[std::size_t(d) * tiles + blockIdx.x];
    for (int w = 0; w < kWarps; ++w) warp_slot[w][d] = 0;
  }
  __syncthreads();

  const std::size_t base = std::size_t(blockIdx.x) * kTile;
  const std::size_t count = n - base < kTile ? n - base : kTile;
  for (int round = 0; round < kItemsPerThread; ++round) {
    const std::size_t j = std::size_t(round) * kThreads + t;
    const bool valid = j < count;
    K key{};
    V value{};
    unsigned digit = radix;  // past-the-end items share a digit no real item has
    if (valid) {
      key = keys_in[base + j];
      value = values_in[base + j];
      digit = digit_of(key, bit, radix);
    }
    // Lanes of this warp with the same digit; the lowest of them (rank 0) is the leader.
    const unsigned peers = __match_any_sync(0xffffffffu, digit);
    const unsigned rank = __popc(peers & earlier_lanes);
    const bool leader = rank == 0;
    if (valid && leader) warp_slot[warp][digit] = __popc(peers);
    __syncthreads();

    // One thread per digit: exclusive scan of the round's per-warp counts, in warp order, from
    // the digit's next free slot. Entries of warps without the digit stay 0.
    for (unsigned d = t; d < radix; d += kThreads) {
      S next = next_slot[d];
      for (int w = 0; w < kWarps; ++w) {
        const S c = warp_slot[w][d];
        if (c != 0) {
          warp_slot[w][d] = next;
          next += c;
        }
      }
      next_slot[d] = next;
    }
    __syncthreads();

    if (valid) {
      const std::size_t slot = static_cast<std::size_t>(warp_slot[warp][digit]) + rank;
      keys_out[slot] = key;
      values_out[slot] = value;
    }
    // The leader clears its warp's entry for the next round once all its peers have read it.
    // Only this warp writes its row until the next __syncthreads, so warp barriers suffice.
    __syncwarp();
    if (valid && leader) warp_slot[warp][digit] = 0;
    __syncwarp();
  }
}

struct Passes {
  int radix_bits;
  int count;
};
inline Passes passes_of(int begin_bit, int end_bit, const SortConfig& config) {
  const int bits = config.radix_bits == 0 ? tuning::kSortRadixBits : config.radix_bits;
  require(bits == 4 || bits == 8, "prim::classic::detail::radix_sort_lsd", [&] {
    return "radix_bits " + std::to_string(config.radix_bits) + " must be 4 or 8 (or 0 for " +
           std::to_string(tuning::kSortRadixBits) + ")";
  });
  return Passes{bits, (end_bit - begin_bit + bits - 1) / bits};
}

// The table scan: the blocked scan with config.scan's tile shape and tree (Brent-Kung unless
// Blelloch is asked for).
inline ScanConfig table_scan_config(const SortConfig& config) {
  ScanConfig scan = config.scan;
  if (scan.algorithm != ScanAlgorithm::blocked_blelloch) {
    scan.algorithm = ScanAlgorithm::blocked_brent_kung;
  }
  return scan;
}

template <class K, class V, class S>
std::size_t workspace_bytes_for(std::size_t n, int begin_bit, int end_bit,
                                const SortConfig& config) {
  const Passes passes = passes_of(begin_bit, end_bit, config);
  const std::size_t tiles = (n + kTile - 1) / kTile;
  const std::size_t table = (std::size_t(1) << passes.radix_bits) * tiles;
  WorkspaceCarver carver;
  carver.take<K>(passes.count > 1 ? n : 0);
  carver.take<V>(passes.count > 1 ? n : 0);
  carver.take<S>(table);
  carver.take<unsigned char>(blocked::workspace_bytes<S>(table, table_scan_config(config)));
  return carver.used();
}

template <class K, class V>
std::size_t workspace_bytes(std::size_t n, int begin_bit, int end_bit, const SortConfig& config) {
  // The table holds at most n counts in all, so 32-bit counters suffice below 2^32 items.
  return detail::fits_32bit_counts(n)
             ? workspace_bytes_for<K, V, std::uint32_t>(n, begin_bit, end_bit, config)
             : workspace_bytes_for<K, V, std::uint64_t>(n, begin_bit, end_bit, config);
}

template <class S, class K, class V>
void sort_pairs_with(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                     std::size_t n, int begin_bit, int end_bit, void* workspace,
                     cudaStream_t stream, const SortConfig& config) {
  const Passes passes = passes_of(begin_bit, end_bit, config);
  const ScanConfig scan_config = table_scan_config(config);
  const std::size_t tiles = (n + kTile - 1) / kTile;
  require(tiles <= 0x7fffffffu, "prim::classic::detail::radix_sort_lsd::sort_pairs",
          [&] { return "n = " + std::to_string(n) + " needs more tiles than one grid holds"; });
  const std::size_t max_table = (std::size_t(1) << passes.radix_bits) * tiles;
  WorkspaceCarver carver(workspace);
  K* keys_tmp = carver.take<K>(passes.count > 1 ? n : 0);
  V* values_tmp = carver.take<V>(passes.count > 1 ? n : 0);
  S* table = carver.take<S>(max_table);
  void* scan_workspace =
      carver.take<unsigned char>(blocked::workspace_bytes<S>(max_table, scan_config));

  const K* keys_src = keys_in;
  const V* values_src = values_in;
  for (int pass = 0; pass < passes.count; ++pass) {
    const int bit = begin_bit + pass * passes.radix_bits;
    const int bits = end_bit - bit < passes.radix_bits ? end_bit - bit : passes.radix_bits;
    const unsigned radix = 1u << bits;
    const bool to_out = detail::pass_writes_output(pass, passes.count);
    K* keys_dst = to_out ? keys_out : keys_tmp;
    V* values_dst = to_out ? values_out : values_tmp;

    digit_histogram_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
        keys_src, n, bit, radix, table, tiles);
    PRIM_LAUNCH_CHECK("radix_sort_lsd::digit_histogram_kernel");
    blocked::scan<false>(table, table, radix * tiles, S(0), Plus{}, scan_workspace, stream,
                         scan_config);
    digit_scatter_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
        keys_src, values_src, keys_dst, values_dst, n, bit, radix, table, tiles);
    PRIM_LAUNCH_CHECK("radix_sort_lsd::digit_scatter_kernel");
    keys_src = keys_dst;
    values_src = values_dst;
  }
}

// Sorts (key, value) pairs by key bits [begin_bit, end_bit); the dispatcher has checked the
// arguments and the workspace size.
template <class K, class V>
void sort_pairs(const K* keys_in, K* keys_out, const V* values_in, V* values_out, std::size_t n,
                int begin_bit, int end_bit, void* workspace, cudaStream_t stream,
                const SortConfig& config) {
  detail::with_count_type(n, [&](auto zero) {
    sort_pairs_with<decltype(zero)>(keys_in, keys_out, values_in, values_out, n, begin_bit, end_bit,
                                    workspace, stream, config);
  });
}

}  // namespace prim::classic::detail::radix_sort_lsd
