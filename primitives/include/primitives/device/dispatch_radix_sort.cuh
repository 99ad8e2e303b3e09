// Dispatch of the radix sort (prim::own::sort_pairs, radix_sort.cuh): checks the arguments, plans
// the passes and portions, carves the workspace and launches the onesweep kernels
// (kernels/radix_sort_onesweep.cuh; agent/agent_radix_sort_onesweep.cuh describes the algorithm).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "primitives/agent/agent_radix_sort_histogram.cuh"
#include "primitives/agent/agent_radix_sort_onesweep.cuh"
#include "primitives/config.h"
#include "primitives/detail/sort_arguments.h"
#include "primitives/device/dependent_launch.cuh"
#include "primitives/device_info.h"
#include "primitives/error.h"
#include "primitives/kernels/radix_sort_onesweep.cuh"
#include "primitives/workspace.h"

namespace prim::detail::radix_sort_onesweep {

namespace onesweep = agent::onesweep;  // the tile, the staging and the digits

struct Plan {
  int radix_bits = 8;
  int radix = 256;
  int passes = 0;
  std::size_t tiles = 0;  // over the whole input
  std::size_t portions = 0;
  std::size_t portion_tiles = 0;  // tiles in a full portion
};

inline Plan make_plan(std::size_t n, int radix_bits, int passes) {
  Plan p;
  p.radix_bits = radix_bits;
  p.radix = 1 << p.radix_bits;
  p.passes = passes;
  p.tiles = (n + onesweep::kTile - 1) / onesweep::kTile;
  p.portions =
      p.tiles == 0 ? 0 : (p.tiles + onesweep::kTilesPerPortion - 1) / onesweep::kTilesPerPortion;
  p.portion_tiles = p.tiles < onesweep::kTilesPerPortion ? p.tiles : onesweep::kTilesPerPortion;
  return p;
}

inline Plan make_plan(std::size_t n, int begin_bit, int end_bit, const SortConfig& config) {
  const char* function = "prim::own::sort_pairs (onesweep)";
  require(
      config.radix_bits == 0 || config.radix_bits == 4 || config.radix_bits == 8, function,
      [&] { return "radix_bits " + std::to_string(config.radix_bits) + " must be 4 or 8 (or 0)"; });
  const int radix_bits = config.radix_bits ? config.radix_bits : (end_bit - begin_bit <= 4 ? 4 : 8);
  return make_plan(n, radix_bits, (end_bit - begin_bit + radix_bits - 1) / radix_bits);
}

// Workspace: [done counter | histograms | status] zeroed per sort (outside one wave, which uses
// only the status and needs it unzeroed), then offsets and the ping-pong copies.
template <class K, class V>
struct Layout {
  unsigned* done_counter = nullptr;       // the histogram blocks' (the last one computes offsets)
  unsigned* histograms = nullptr;         // [passes][portions][radix]
  unsigned* status = nullptr;             // [passes][portions][portion_tiles][radix]
  unsigned long long* offsets = nullptr;  // [passes][portions][radix]: output start per digit
  K* keys = nullptr;                      // ping-pong copies, when passes > 1
  V* values = nullptr;
  std::size_t reset = 0;
  std::size_t bytes = 0;

  Layout(void* workspace, std::size_t n, const Plan& p) {
    WorkspaceCarver carver(workspace);
    const std::size_t slots = static_cast<std::size_t>(p.passes) * p.portions;
    done_counter = carver.take<unsigned>(1);
    histograms = carver.take<unsigned>(slots * p.radix);
    status = carver.take<unsigned>(slots * p.portion_tiles * p.radix);
    reset = carver.used();
    offsets = carver.take<unsigned long long>(slots * p.radix);
    if (p.passes > 1) {
      keys = carver.take<K>(n);
      values = carver.take<V>(n);
    }
    bytes = carver.used();
  }
};

template <class K, class V>
std::size_t workspace_bytes(std::size_t n, int begin_bit, int end_bit, const SortConfig& config) {
  if (n == 0 || begin_bit >= end_bit) return 0;
  return Layout<K, V>(nullptr, n, make_plan(n, begin_bit, end_bit, config)).bytes;
}

// One-wave passes (AgentRadixSortOnesweep's ONE_WAVE): a sort of one pass, or a multisplit, of
// digits of at most onesweep::kOneWaveMaxBits bits runs as one cooperative pass when its tiles fit
// on the GPU at once, at most this many (0 where the device has no cooperative launch).
template <int RADIX_BITS, class K, class V, class Digit>
std::size_t one_wave_tiles() {
  static_assert(RADIX_BITS <= onesweep::kOneWaveMaxBits);
  const void* kernel = reinterpret_cast<const void*>(pass_kernel<RADIX_BITS, true, K, V, Digit>);
  constexpr std::size_t shared_bytes = onesweep::staging_bytes<K, V>();
  if (shared_bytes > 32 * 1024) allow_dynamic_shared(kernel, shared_bytes);  // as in run()
  return cooperative_grid_limit(kernel, onesweep::kThreads, shared_bytes);
}

// The histogram kernel (and the digit offsets, and the multisplit's bucket offsets when `buckets`
// > 0), then the passes; or, where the tiles fit on the GPU at once, one cooperative pass alone.
template <int RADIX_BITS, class K, class V, class Digit>
void run(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out, std::size_t n,
         Digit digit, const Plan& p, const Layout<K, V>& layout, unsigned long long* bucket_offsets,
         int buckets, cudaStream_t stream) {
  constexpr int kRadix = 1 << RADIX_BITS;
  constexpr std::size_t shared_bytes = onesweep::staging_bytes<K, V>();
  if constexpr (RADIX_BITS <= onesweep::kOneWaveMaxBits) {
    if (p.passes == 1 && p.portions == 1 && p.tiles <= one_wave_tiles<RADIX_BITS, K, V, Digit>()) {
      // Refused where the GPU holds fewer blocks than its SM count promised: the chained path.
      if (launch_cooperative_if_it_fits(
              "onesweep pass_kernel (one wave)", pass_kernel<RADIX_BITS, true, K, V, Digit>,
              dim3(static_cast<unsigned>(p.tiles)), dim3(onesweep::kThreads), shared_bytes, stream,
              d_keys_in, d_keys_out, d_values_in, d_values_out, n, std::size_t(0), digit, 0,
              layout.offsets, layout.status, bucket_offsets, buckets))
        return;
    }
  }
  zero_for_dependent(layout.done_counter, layout.reset, stream);
  const auto chained_pass = pass_kernel<RADIX_BITS, false, K, V, Digit>;
  // The kernel's static shared memory (about 19 KiB for 8-bit digits) counts against the same
  // 48 KiB default limit, so raise the dynamic limit well before the dynamic part alone reaches it.
  if (shared_bytes > 32 * 1024)
    allow_dynamic_shared(reinterpret_cast<const void*>(chained_pass), shared_bytes);

  // The histogram grid is at most one wave of resident blocks, each looping over its share. The
  // blocks an SM holds come from the occupancy calculator: at 35 registers three blocks of 512
  // threads fit, not the four that the thread count alone allows, and a grid sized for four ran
  // in more than one wave, its SMs idle much of the kernel's time.
  const std::size_t per_block = std::size_t(onesweep::kThreads) * onesweep::kHistogramUnroll;
  const std::size_t portion_blocks =
      (p.portion_tiles * onesweep::kTile + per_block - 1) / per_block;
  const int blocks_per_sm = kernel_blocks_per_sm(
      reinterpret_cast<const void*>(histogram_kernel<RADIX_BITS, K, Digit>), onesweep::kThreads, 0);
  const std::size_t wave =
      std::size_t(device_info().sm_count) * std::size_t(blocks_per_sm > 0 ? blocks_per_sm : 1);
  const unsigned hist_blocks = static_cast<unsigned>(portion_blocks < wave ? portion_blocks : wave);
  launch_dependent("onesweep histogram_kernel", histogram_kernel<RADIX_BITS, K, Digit>,
                   dim3(hist_blocks, static_cast<unsigned>(p.portions)), dim3(onesweep::kThreads),
                   0, stream, d_keys_in, n, digit, p.passes, p.portions, layout.histograms,
                   layout.done_counter, layout.offsets, bucket_offsets, buckets);

  // Ping-pong so that the last pass writes the outputs.
  const K* keys_src = d_keys_in;
  const V* values_src = d_values_in;
  bool to_out = p.passes % 2 == 1;
  for (int pass = 0; pass < p.passes; ++pass) {
    K* keys_dst = to_out ? d_keys_out : layout.keys;
    V* values_dst = to_out ? d_values_out : layout.values;
    for (std::size_t portion = 0; portion < p.portions; ++portion) {
      const std::size_t slot = std::size_t(pass) * p.portions + portion;
      const std::size_t portion_start = portion * onesweep::kTilesPerPortion * onesweep::kTile;
      const std::size_t tiles_left = p.tiles - portion * onesweep::kTilesPerPortion;
      const std::size_t tiles =
          tiles_left < onesweep::kTilesPerPortion ? tiles_left : onesweep::kTilesPerPortion;
      const unsigned long long* offsets = layout.offsets + slot * kRadix;
      unsigned* status = layout.status + slot * p.portion_tiles * kRadix;
      if (slot == 0) {
        // Right after the histogram kernel: the first pass loads, ranks and looks back while
        // the histogram kernel ends (AgentRadixSortOnesweep's griddep_wait).
        launch_dependent("onesweep pass_kernel", chained_pass, dim3(static_cast<unsigned>(tiles)),
                         dim3(onesweep::kThreads), shared_bytes, stream, keys_src, keys_dst,
                         values_src, values_dst, n, portion_start, digit, pass, offsets, status,
                         nullptr, 0);
      } else {
        chained_pass<<<static_cast<unsigned>(tiles), onesweep::kThreads, shared_bytes, stream>>>(
            keys_src, keys_dst, values_src, values_dst, n, portion_start, digit, pass, offsets,
            status, nullptr, 0);
        PRIM_LAUNCH_CHECK("onesweep pass_kernel");
      }
    }
    keys_src = keys_dst;
    values_src = values_dst;
    to_out = !to_out;
  }
}

template <class K, class V>
void sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                std::size_t n, int begin_bit, int end_bit, void* workspace, cudaStream_t stream,
                const SortConfig& config) {
  static_assert(alignof(K) <= 16 && alignof(V) <= 16, "staging assumes alignment <= 16");
  const Plan p = make_plan(n, begin_bit, end_bit, config);
  const Layout<K, V> layout(workspace, n, p);
  if (p.radix_bits == 4) {
    run<4>(d_keys_in, d_keys_out, d_values_in, d_values_out, n,
           onesweep::RadixDigit<4>{begin_bit, end_bit}, p, layout, nullptr, 0, stream);
  } else {
    run<8>(d_keys_in, d_keys_out, d_values_in, d_values_out, n,
           onesweep::RadixDigit<8>{begin_bit, end_bit}, p, layout, nullptr, 0, stream);
  }
}

}  // namespace prim::detail::radix_sort_onesweep

namespace prim::detail {

// The public sort's entry: argument checks, the workspace size, then the onesweep sort.
template <class K, class V>
void dispatch_sort_pairs(const char* function, const K* d_keys_in, K* d_keys_out,
                         const V* d_values_in, V* d_values_out, std::size_t n, int begin_bit,
                         int end_bit, Workspace& ws, cudaStream_t stream,
                         const SortConfig& config) {
  if (!check_sort_pairs_arguments(function, d_keys_in, d_keys_out, d_values_in, d_values_out, n,
                                  begin_bit, end_bit))
    return;
  ws.require(radix_sort_onesweep::workspace_bytes<K, V>(n, begin_bit, end_bit, config), function);
  radix_sort_onesweep::sort_pairs(d_keys_in, d_keys_out, d_values_in, d_values_out, n, begin_bit,
                                  end_bit, ws.data(), stream, config);
}

}  // namespace prim::detail
