// Stable radix sort of (key, value) pairs by the key bits [begin_bit, end_bit).
// Keys are uint8_t, uint16_t or uint32_t; values any trivially copyable type.
//
//   keys = [3, 1, 2, 1, 0], values = [a, b, c, d, e], bits [0, 2)
//   -> keys_out = [0, 1, 1, 2, 3], values_out = [e, b, d, c, a]   (b stays before d)
//
// Sorting 8 materials is one pass over bits [0, 3). Inputs are left unchanged; outputs must not
// alias inputs. 0 <= begin_bit < end_bit <= 8 * sizeof(K), else prim::Error.
//
// Onesweep (agent/agent_radix_sort_onesweep.cuh, kernels/radix_sort_onesweep.cuh), dispatched by
// device/dispatch_radix_sort.cuh; config sets its digit width. The classic sorts (1-bit split, LSD
// with per-tile histograms) are prim::classic::sort_pairs, primitives/classic/radix_sort.cuh.
#pragma once

#include <cstddef>

#include "primitives/config.h"
#include "primitives/device/dispatch_radix_sort.cuh"
#include "primitives/workspace.h"

namespace prim::own {

template <class K, class V>
std::size_t sort_pairs_workspace_bytes(std::size_t n, int begin_bit, int end_bit,
                                       const SortConfig& config = {}) {
  return ::prim::detail::radix_sort_onesweep::workspace_bytes<K, V>(n, begin_bit, end_bit, config);
}

template <class K, class V>
void sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                std::size_t n, int begin_bit, int end_bit, Workspace& ws, cudaStream_t stream = 0,
                const SortConfig& config = {}) {
  ::prim::detail::dispatch_sort_pairs("prim::own::sort_pairs", d_keys_in, d_keys_out, d_values_in,
                                      d_values_out, n, begin_bit, end_bit, ws, stream, config);
}

}  // namespace prim::own
