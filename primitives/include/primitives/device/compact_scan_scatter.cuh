// Compaction variant 'scan_scatter' (see primitives/variants.h). Not implemented yet.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/error.h"
#include "primitives/variants.h"

namespace prim::detail::compact_scan_scatter {

template <class T>
std::size_t workspace_bytes(std::size_t, const CompactConfig&) {
  return 0;
}

// Partition == false: keep selected items in order. Partition == true: selected items first,
// then the others, both in order. selector(item, index) -> bool. Writes the selected count to
// *d_count.
template <bool Partition, class T, class Selector>
void select(const T*, T*, std::size_t, Selector, std::size_t*, void*, cudaStream_t,
            const CompactConfig&) {
  throw Error("compact algorithm 'scan_scatter' is not implemented yet");
}

}  // namespace prim::detail::compact_scan_scatter
