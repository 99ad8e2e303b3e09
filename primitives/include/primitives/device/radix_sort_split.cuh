// Radix sort variant 'split' (see primitives/variants.h). Not implemented yet.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/error.h"
#include "primitives/variants.h"

namespace prim::detail::radix_sort_split {

template <class K, class V>
std::size_t workspace_bytes(std::size_t, int, int, const SortConfig&) {
  return 0;
}

template <class K, class V>
void sort_pairs(const K*, K*, const V*, V*, std::size_t, int, int, void*, cudaStream_t,
                const SortConfig&) {
  throw Error("sort algorithm 'split' is not implemented yet");
}

}  // namespace prim::detail::radix_sort_split
