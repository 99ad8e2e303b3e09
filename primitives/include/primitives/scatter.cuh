// Scatter: d_out[d_map[i]] = d_in[i] for i in [0, n).
//
//   in = [a, b, c, d], map = [2, 0, 3, 1]  ->  out = [b, d, a, c]
//
// The map must be a permutation into d_out's range (or at least hold distinct indices);
// needs no workspace. n == 0 is a no-op.
#pragma once

#include <cstddef>

#include "primitives/device/scatter_kernel.cuh"
#include "primitives/error.h"

namespace prim::own {

template <class T, class I>
void scatter(const T* d_in, const I* d_map, T* d_out, std::size_t n, cudaStream_t stream = 0) {
  if (n == 0) return;
  require(d_in != nullptr, "prim::own::scatter", "d_in is null with n > 0");
  require(d_map != nullptr, "prim::own::scatter", "d_map is null with n > 0");
  require(d_out != nullptr, "prim::own::scatter", "d_out is null with n > 0");
  require(static_cast<const void*>(d_in) != static_cast<const void*>(d_out), "prim::own::scatter",
          "d_out must not alias d_in");
  ::prim::detail::scatter(d_in, d_map, d_out, n, stream);
}

}  // namespace prim::own
