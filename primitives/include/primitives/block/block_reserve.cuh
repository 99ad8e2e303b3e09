// Block-wide compaction into a device-wide output: each thread says whether it keeps an item (in
// each of up to two streams), and gets the index its item takes in that stream's output. Inside a
// block the kept items are ranked by a scan of the keep flags (warp ballots, then a scan of the
// warp counts: BlockScan); the block reserves its run of output indices with one atomic add on
// the stream's device counter. So a kernel that decides which items survive writes them compacted
// where it decides, with one atomic per block and no second pass (CUB's BlockScan inside a
// kernel, as its examples use it for stream compaction).
//
//   block of 8 threads, keep flags  1 0 1 1 0 0 1 0, counter 40 before the block's atomic
//   -> indices 40 . 41 42 . . 43 .   and the counter is 44 afterwards
//
// Order: within a block, kept items take consecutive indices in thread order; blocks take their
// runs in the order their atomics land, so the output order across blocks is not fixed (the
// output is a set, as a work queue is). Every thread of the block must call reserve together
// (it contains __syncthreads), threads past the end of the input passing keep = false; the block
// size must be a multiple of 32. The caller owns the shared memory (TempStorage), which may be
// reused after a __syncthreads.
#pragma once

#include <cuda_runtime.h>

#include "primitives/block/block_scan.cuh"
#include "primitives/warp/warp_shuffle.cuh"

namespace prim::block {

template <class Counter = unsigned long long>
struct BlockReserve {
  // Up to two streams at once: per thread and stream, whether it keeps its item and, after
  // reserve, the item's index in that stream's output (undefined where not kept).
  struct Counts {
    Counter first = 0, second = 0;
  };
  struct TempStorage {
    typename BlockScan<Counts>::TempStorage scan;
  };

  // Reserves an output index for the calling thread's item in each stream it keeps one in:
  // first_index from *first_counter, second_index from *second_counter (which may be null when
  // no thread keeps a second item). Returns the block's totals.
  __device__ __forceinline__ static Counts reserve(TempStorage& storage, bool keep_first,
                                                   Counter* first_counter, Counter& first_index,
                                                   bool keep_second, Counter* second_counter,
                                                   Counter& second_index) {
    const unsigned lanes_first = __ballot_sync(warp::kFullMask, keep_first);
    const unsigned lanes_second = __ballot_sync(warp::kFullMask, keep_second);
    const unsigned before = warp::lanemask_lt();
    Counts warp_counts;
    warp_counts.first = static_cast<Counter>(__popc(lanes_first));
    warp_counts.second = static_cast<Counter>(__popc(lanes_second));
    const auto add = [](const Counts& a, const Counts& b) {
      Counts c;
      c.first = a.first + b.first;
      c.second = a.second + b.second;
      return c;
    };
    // Warp 0 reserves the block's runs: lane 0 adds the block's counts to the counters and
    // broadcasts where the runs begin.
    const auto reserve_runs = [&](const Counts& block_counts) {
      Counts base;
      if (warp::lane_id() == 0) {
        if (block_counts.first > 0) base.first = atomicAdd(first_counter, block_counts.first);
        if (block_counts.second > 0) base.second = atomicAdd(second_counter, block_counts.second);
      }
      return warp::shuffle_idx(base, 0);
    };
    const Counts warp_base =
        BlockScan<Counts>::warp_base(storage.scan, warp_counts, Counts{}, add, reserve_runs);
    first_index = warp_base.first + static_cast<Counter>(__popc(lanes_first & before));
    second_index = warp_base.second + static_cast<Counter>(__popc(lanes_second & before));
    return storage.scan.tile_aggregate();
  }

  // One stream.
  __device__ __forceinline__ static Counter reserve(TempStorage& storage, bool keep,
                                                    Counter* counter, Counter& index) {
    Counter unused = 0;
    return reserve(storage, keep, counter, index, false, nullptr, unused).first;
  }
};

}  // namespace prim::block
