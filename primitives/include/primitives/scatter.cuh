// Scatter: d_out[d_map[i]] = d_in[i] for i in [0, n).
//
//   in = [a, b, c, d], map = [2, 0, 3, 1]  ->  out = [b, d, a, c]
//
// The map must be a permutation into d_out's range (or at least hold distinct indices);
// needs no workspace. n == 0 is a no-op.
#pragma once

#include <cstddef>

#include "primitives/device/dispatch_scatter.cuh"

namespace prim::own {

template <class T, class I>
void scatter(const T* d_in, const I* d_map, T* d_out, std::size_t n, cudaStream_t stream = 0) {
  ::prim::detail::dispatch_scatter("prim::own::scatter", d_in, d_map, d_out, n, stream);
}

}  // namespace prim::own
