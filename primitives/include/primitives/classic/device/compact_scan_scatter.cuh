// Compaction variant 'scan_scatter': flags, exclusive scan of the flags, scatter.
//
//   in    = [5, 2, 8, 1, 9, 4], keep x > 3
//   flags = [1, 0, 1, 0, 1, 1]          (flag kernel)
//   pos   = [0, 1, 1, 2, 2, 3]          (exclusive scan with config.scan, any ScanAlgorithm)
//   count = pos[n-1] + flags[n-1] = 4   (one-thread kernel, written to *d_count on the device)
//   kept item i      -> out[pos[i]]                  = [5, 8, 9, 4]
//   rejected item i  -> out[count + (i - pos[i])]    (partition only: i - pos[i] rejected before i)
//
// Both placements keep input order, so compaction and partition are stable.
//
// Counter type: positions are 32-bit while n < 2^32 and 64-bit beyond. Positions are at most n,
// so 32 bits are exact there, and they halve the bytes of the flag array and of its scan; the
// 64-bit path exists only for arrays past 4 G items.
//
// Cost: the flag kernel reads n items and writes n counters; the scan moves the counters (2 x 4n
// bytes for lookback, more for the lineage scans) in its own launches; the scatter reads n items
// and n counters and writes n items (kept only, unless partitioning). The scatter evaluates the
// selector again rather than keeping the flags (the selector is a pure function of the item and
// its index), which saves a second counter array. Launches: 3 + the scan's.
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

namespace prim::classic::detail::compact_scan_scatter {

// flags[i] = selector(in[i], i) ? 1 : 0. Reads n items, writes n counters.
template <class S, class T, class Selector>
__global__ void flag_kernel(const T* __restrict__ in, S* __restrict__ flags, std::size_t n,
                            Selector selector) {
  for (std::size_t i = detail::grid_first(); i < n; i += detail::grid_stride()) {
    flags[i] = selector(in[i], i) ? S(1) : S(0);
  }
}

// *count = pos[n-1] + flag(n-1): the number of selected items. One thread.
template <class S, class T, class Selector>
__global__ void count_kernel(const T* __restrict__ in, const S* __restrict__ pos, std::size_t n,
                             Selector selector, std::size_t* count) {
  *count = static_cast<std::size_t>(pos[n - 1]) + (selector(in[n - 1], n - 1) ? 1 : 0);
}

// Writes selected item i to out[pos[i]] and, when partitioning, rejected item i to
// out[count + i - pos[i]]. Reads n items and n counters, writes the kept (or all) items.
template <bool Partition, class S, class T, class Selector>
__global__ void scatter_kernel(const T* __restrict__ in, const S* __restrict__ pos,
                               T* __restrict__ out, std::size_t n, Selector selector,
                               const std::size_t* __restrict__ count) {
  const std::size_t kept = Partition ? *count : 0;
  for (std::size_t i = detail::grid_first(); i < n; i += detail::grid_stride()) {
    const T item = in[i];
    const std::size_t p = pos[i];
    if (selector(item, i)) {
      out[p] = item;
    } else if (Partition) {
      out[kept + (i - p)] = item;
    }
  }
}

template <class S>
std::size_t workspace_bytes_for(std::size_t n, const CompactConfig& config) {
  WorkspaceCarver carver;
  carver.take<S>(n);  // flags, scanned in place into positions
  carver.take<unsigned char>(detail::scan_workspace_bytes<S>(n, config.scan));
  return carver.used();
}

template <class T>
std::size_t workspace_bytes(std::size_t n, const CompactConfig& config) {
  return detail::fits_32bit_counts(n) ? workspace_bytes_for<std::uint32_t>(n, config)
                                      : workspace_bytes_for<std::uint64_t>(n, config);
}

template <bool Partition, class S, class T, class Selector>
void select_with(const T* d_in, T* d_out, std::size_t n, Selector selector, std::size_t* d_count,
                 void* workspace, cudaStream_t stream, const CompactConfig& config) {
  WorkspaceCarver carver(workspace);
  S* pos = carver.take<S>(n);
  void* scan_workspace =
      carver.take<unsigned char>(detail::scan_workspace_bytes<S>(n, config.scan));
  const int threads = tuning::kGlobalScanThreads;
  const unsigned blocks = detail::grid_blocks(n, threads);

  flag_kernel<<<blocks, threads, 0, stream>>>(d_in, pos, n, selector);
  PRIM_LAUNCH_CHECK("compact_scan_scatter::flag_kernel");
  detail::exclusive_scan_into(pos, pos, n, S(0), Plus{}, scan_workspace, stream, config.scan);
  count_kernel<<<1, 1, 0, stream>>>(d_in, pos, n, selector, d_count);
  PRIM_LAUNCH_CHECK("compact_scan_scatter::count_kernel");
  scatter_kernel<Partition><<<blocks, threads, 0, stream>>>(d_in, pos, d_out, n, selector, d_count);
  PRIM_LAUNCH_CHECK("compact_scan_scatter::scatter_kernel");
}

// Partition == false: keep selected items in order. Partition == true: selected items first,
// then the others, both in order. selector(item, index) -> bool. Writes the selected count to
// *d_count.
template <bool Partition, class T, class Selector>
void select(const T* d_in, T* d_out, std::size_t n, Selector selector, std::size_t* d_count,
            void* workspace, cudaStream_t stream, const CompactConfig& config) {
  detail::with_count_type(n, [&](auto zero) {
    select_with<Partition, decltype(zero)>(d_in, d_out, n, selector, d_count, workspace, stream,
                                           config);
  });
}

}  // namespace prim::classic::detail::compact_scan_scatter
