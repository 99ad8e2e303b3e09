// Scan variant 'blocked' (see primitives/variants.h). Not implemented yet.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/error.h"
#include "primitives/variants.h"

namespace prim::detail::blocked {

template <class T>
std::size_t workspace_bytes(std::size_t, const ScanConfig&) {
  return 0;
}

template <bool Inclusive, class T, class Op>
void scan(const T*, T*, std::size_t, T, Op, void*, cudaStream_t, const ScanConfig&) {
  throw Error("scan algorithm 'blocked' is not implemented yet");
}

}  // namespace prim::detail::blocked
