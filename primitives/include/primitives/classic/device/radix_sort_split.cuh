// Radix sort variant 'split_1bit': LSD sort by one stable split per key bit, built on scan.
//
// For each bit b in [begin_bit, end_bit), the classic split moves the keys whose bit is 0 to the
// front and those whose bit is 1 to the back, each group in input order:
//
//   e[i] = !bit(key[i])                      (flag kernel)
//   f    = exclusive scan of e               (false items before i; config.scan, any variant)
//   totalFalses = f[n-1] + e[n-1]
//   t[i] = i - f[i] + totalFalses            (true items go after all false items, in order)
//   d[i] = bit ? t[i] : f[i];  out[d[i]] = in[i]   (scatter kernel, keys and values together)
//
//   keys = [3, 1, 2, 0], bit 0: e = [0, 0, 1, 1], f = [0, 0, 0, 1], totalFalses = 2
//   d = [2, 3, 0, 1] -> [2, 0, 3, 1];   bit 1: -> [0, 1, 2, 3]
//
// Because every split is stable, after the last bit the keys are sorted by [begin_bit, end_bit)
// and equal keys keep their input order. Cost per bit: a flag launch (reads n keys, writes n
// counters), the scan's launches, a scatter launch (reads n keys, n values, n counters, writes n
// keys and n values at scattered addresses). Counters are 32-bit below 2^32 items, 64-bit above.
//
// Buffers: passes ping-pong between keys_out / values_out and workspace copies, ordered so that
// the last pass lands in the outputs; the inputs are only read.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "primitives/classic/detail/grid.cuh"
#include "primitives/classic/detail/scan_into.cuh"
#include "primitives/classic/variants.h"
#include "primitives/error.h"
#include "primitives/operators.h"
#include "primitives/tuning.h"
#include "primitives/workspace.h"

namespace prim::classic::detail::radix_sort_split {

template <class K>
__host__ __device__ inline bool key_bit(K key, int bit) {
  return (static_cast<std::uint32_t>(key) >> bit) & 1u;
}

// e[i] = 1 when bit `bit` of key i is 0. Reads n keys, writes n counters.
template <class S, class K>
__global__ void false_flags_kernel(const K* __restrict__ keys, S* __restrict__ e, std::size_t n,
                                   int bit) {
  for (std::size_t i = detail::grid_first(); i < n; i += detail::grid_stride()) {
    e[i] = key_bit(keys[i], bit) ? S(0) : S(1);
  }
}

// The split's scatter: item i goes to f[i] (bit 0) or i - f[i] + totalFalses (bit 1), where
// totalFalses = f[n-1] + e[n-1] is recomputed by every thread from two cached loads. Reads n
// keys, n values and n counters; writes n keys and n values, each group to its own contiguous
// run (so writes of neighbouring threads mostly stay neighbours).
template <class S, class K, class V>
__global__ void split_scatter_kernel(const K* __restrict__ keys_in, const V* __restrict__ values_in,
                                     K* __restrict__ keys_out, V* __restrict__ values_out,
                                     const S* __restrict__ f, std::size_t n, int bit) {
  const std::size_t total_falses =
      static_cast<std::size_t>(f[n - 1]) + (key_bit(keys_in[n - 1], bit) ? 0 : 1);
  for (std::size_t i = detail::grid_first(); i < n; i += detail::grid_stride()) {
    const K key = keys_in[i];
    const std::size_t falses_before = f[i];
    const std::size_t d = key_bit(key, bit) ? i - falses_before + total_falses : falses_before;
    keys_out[d] = key;
    values_out[d] = values_in[i];
  }
}

template <class K, class V, class S>
std::size_t workspace_bytes_for(std::size_t n, int begin_bit, int end_bit,
                                const SortConfig& config) {
  WorkspaceCarver carver;
  const bool ping_pong = end_bit - begin_bit > 1;
  carver.take<K>(ping_pong ? n : 0);
  carver.take<V>(ping_pong ? n : 0);
  carver.take<S>(n);  // e, scanned in place into f
  carver.take<unsigned char>(detail::scan_workspace_bytes<S>(n, config.scan));
  return carver.used();
}

template <class K, class V>
std::size_t workspace_bytes(std::size_t n, int begin_bit, int end_bit, const SortConfig& config) {
  return detail::fits_32bit_counts(n)
             ? workspace_bytes_for<K, V, std::uint32_t>(n, begin_bit, end_bit, config)
             : workspace_bytes_for<K, V, std::uint64_t>(n, begin_bit, end_bit, config);
}

template <class S, class K, class V>
void sort_pairs_with(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                     std::size_t n, int begin_bit, int end_bit, void* workspace,
                     cudaStream_t stream, const SortConfig& config) {
  const int passes = end_bit - begin_bit;
  WorkspaceCarver carver(workspace);
  K* keys_tmp = carver.take<K>(passes > 1 ? n : 0);
  V* values_tmp = carver.take<V>(passes > 1 ? n : 0);
  S* f = carver.take<S>(n);
  void* scan_workspace =
      carver.take<unsigned char>(detail::scan_workspace_bytes<S>(n, config.scan));
  const int threads = tuning::kGlobalScanThreads;
  const unsigned blocks = detail::grid_blocks(n, threads);

  const K* keys_src = keys_in;
  const V* values_src = values_in;
  for (int pass = 0; pass < passes; ++pass) {
    const int bit = begin_bit + pass;
    const bool to_out = detail::pass_writes_output(pass, passes);
    K* keys_dst = to_out ? keys_out : keys_tmp;
    V* values_dst = to_out ? values_out : values_tmp;
    false_flags_kernel<<<blocks, threads, 0, stream>>>(keys_src, f, n, bit);
    PRIM_LAUNCH_CHECK("radix_sort_split::false_flags_kernel");
    detail::exclusive_scan_into(f, f, n, S(0), Plus{}, scan_workspace, stream, config.scan);
    split_scatter_kernel<<<blocks, threads, 0, stream>>>(keys_src, values_src, keys_dst, values_dst,
                                                         f, n, bit);
    PRIM_LAUNCH_CHECK("radix_sort_split::split_scatter_kernel");
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

}  // namespace prim::classic::detail::radix_sort_split
