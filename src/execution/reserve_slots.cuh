// Fused compaction inside a stage: a thread that keeps an item (a surviving path, a shadow ray)
// gets the index it takes in the compacted output, from a count in executor memory. On the GPU
// every thread of the block calls it together (a body of parallel_for_blocks or
// parallel_for_range, which hands it the WholeBlock it needs), and the block ranks its kept items
// by a block-wide scan and reserves them with one atomic add per stream: with the project's
// BlockReserve (the raystream build) or with CUB's BlockScan and a prefix callback (the
// raystream-thrust build: CUB ships with Thrust), the same kernel around either. On the CPU each
// kept item takes the next index with an atomic add.
#pragma once

#include <cstddef>

#include "core/host_device.h"
#include "execution/executor_kind.h"
#include "execution/parallel_for.cuh"
#include "primitives/block/block_reserve.cuh"

#if defined(__CUDACC__)
#include <cub/block/block_scan.cuh>
#endif

namespace raystream {

static_assert(sizeof(std::size_t) == sizeof(unsigned long long), "counts are 64-bit");

inline constexpr int kReserveStreams = 2;  // the paths that go on, the shadow rays
using OwnReserve = prim::block::BlockReserve<kStageThreads, kReserveStreams>;
using ReserveCounts = OwnReserve::Counts;

#if defined(__CUDACC__)
using CubReserveScan = cub::BlockScan<ReserveCounts, kStageThreads, cub::BLOCK_SCAN_WARP_SCANS>;

// CUB's prefix callback: warp 0 calls it with the block's totals; lane 0 reserves the block's runs
// (one atomic per stream that keeps anything) and its return value is the block's prefix.
struct ReserveRuns {
  unsigned long long* const (&counters)[kReserveStreams];
  __device__ ReserveCounts operator()(const ReserveCounts& total) const {
    ReserveCounts base = ReserveCounts::zero();
    if (threadIdx.x == 0)
      for (int s = 0; s < kReserveStreams; ++s)
        if (total.v[s] > 0) base.v[s] = atomicAdd(counters[s], total.v[s]);
    return base;
  }
};
#endif

// The shared memory of a stage that reserves slots (its body's TempStorage): either primitive's.
union ReserveStorage {
  OwnReserve::TempStorage own;
#if defined(__CUDACC__)
  CubReserveScan::TempStorage cub;
#endif
};

// Reserves first (from *first_count) when keep_first and second (from *second_count) when
// keep_second; second_count may be null when nothing keeps a second item. GPU: every thread of
// the block calls it, keep flags false past the input; the storage may be used again after a
// __syncthreads.
// `backend`: the build's primitives (thrust: CUB's BlockScan; otherwise the own BlockReserve).
RAYSTREAM_HD inline void reserve_slots(WholeBlock<ReserveStorage> block, PrimitivesBackend backend,
                                       bool keep_first, std::size_t* first_count,
                                       std::size_t& first, bool keep_second,
                                       std::size_t* second_count, std::size_t& second) {
#if defined(__CUDA_ARCH__)
  const bool keep[kReserveStreams] = {keep_first, keep_second};
  unsigned long long* const counters[kReserveStreams] = {
      reinterpret_cast<unsigned long long*>(first_count),
      reinterpret_cast<unsigned long long*>(second_count)};
  unsigned long long index[kReserveStreams] = {0, 0};
  if (backend == PrimitivesBackend::thrust) {
    ReserveCounts mine;
    for (int s = 0; s < kReserveStreams; ++s) mine.v[s] = keep[s] ? 1 : 0;
    ReserveCounts before;
    ReserveRuns runs{counters};
    CubReserveScan(block.storage().cub).ExclusiveSum(mine, before, runs);
    for (int s = 0; s < kReserveStreams; ++s) index[s] = before.v[s];
  } else {
    OwnReserve(block.storage().own).reserve(keep, counters, index);
  }
  first = static_cast<std::size_t>(index[0]);
  second = static_cast<std::size_t>(index[1]);
#else
  (void)block;
  (void)backend;
  if (keep_first) first = __atomic_fetch_add(first_count, std::size_t(1), __ATOMIC_RELAXED);
  if (keep_second) second = __atomic_fetch_add(second_count, std::size_t(1), __ATOMIC_RELAXED);
#endif
}

}  // namespace raystream
