// Block-wide compaction into device-wide outputs: each thread says whether it keeps an item in
// each of `Streams` output streams, and gets the index its item takes in that stream's output.
// Inside the block the kept items are ranked by warp ballots and a scan of the warps' counts; the
// block reserves its run of output indices with one atomic add per stream on the stream's device
// counter. So a kernel that decides which items survive writes them compacted where it decides,
// with one atomic per block and stream and no second pass (the use CUB's examples make of
// cub::BlockScan with a prefix callback, as a building block of its own).
//
//   block of 8 threads, keep flags  1 0 1 1 0 0 1 0, counter 40 before the block's atomic
//   -> indices 40 . 41 42 . . 43 .   and the counter is 44 afterwards
//
// In CUB's style: a BlockReserve is constructed on the TempStorage the caller owns (in shared
// memory), its block size a template parameter checked at compile time (a multiple of 32, at most
// 1024), the number of streams another.
//
//   using Reserve = prim::block::BlockReserve<256, 2>;
//   __shared__ Reserve::TempStorage storage;
//   const bool keep[2] = {survives, queues_shadow_ray};
//   unsigned long long* const counters[2] = {survivors, shadow_rays};
//   unsigned long long index[2];
//   Reserve(storage).reserve(keep, counters, index);
//
// Order: within a block, kept items take consecutive indices in thread order; blocks take their
// runs in the order their atomics land, so the output order across blocks is not fixed (the
// output is a set, as a work queue is). Every thread of the block must call reserve together
// (it contains __syncthreads), threads past the end of the input passing keep = false: a kernel
// whose threads may return early must not call it. The storage may be reused after a
// __syncthreads.
#pragma once

#include <cuda_runtime.h>

#include "primitives/warp/warp_scan.cuh"
#include "primitives/warp/warp_shuffle.cuh"

namespace prim::block {

// One count per stream: a warp's kept items, a block's totals, where a warp's runs begin.
template <int Streams, class Counter>
struct StreamCounts {
  Counter v[Streams];

  __host__ __device__ static StreamCounts zero() {
    StreamCounts c;
    for (int s = 0; s < Streams; ++s) c.v[s] = 0;
    return c;
  }
  __host__ __device__ StreamCounts operator+(const StreamCounts& b) const {
    StreamCounts c;
    for (int s = 0; s < Streams; ++s) c.v[s] = v[s] + b.v[s];
    return c;
  }
};

template <int BlockThreads, int Streams = 1, class Counter = unsigned long long>
class BlockReserve {
  static_assert(BlockThreads > 0 && BlockThreads % warp::kWarpThreads == 0,
                "BlockReserve: the block size must be a multiple of the warp size");
  static_assert(BlockThreads <= 1024, "BlockReserve: at most 1024 threads a block");
  static_assert(Streams >= 1, "BlockReserve: at least one output stream");
  static constexpr int kWarps = BlockThreads / warp::kWarpThreads;

 public:
  using Counts = StreamCounts<Streams, Counter>;
  struct TempStorage {
    Counts warp_base[kWarps];  // where each warp's runs begin
    Counts block_total;
  };

  __device__ __forceinline__ explicit BlockReserve(TempStorage& storage) : storage_(storage) {}

  // For each stream s: when keep[s], index[s] is the index of the calling thread's item in that
  // stream's output, reserved from *counters[s] (undefined where not kept; counters[s] may be null
  // when no thread of the block keeps an item in s). Returns the block's totals.
  __device__ __forceinline__ Counts reserve(const bool (&keep)[Streams],
                                            Counter* const (&counters)[Streams],
                                            Counter (&index)[Streams]) {
    unsigned lanes[Streams];
    Counts mine;
    for (int s = 0; s < Streams; ++s) {
      lanes[s] = __ballot_sync(warp::kFullMask, keep[s]);
      mine.v[s] = static_cast<Counter>(__popc(lanes[s]));
    }
    const int warp_index = static_cast<int>(threadIdx.x) / warp::kWarpThreads;
    const int lane = warp::lane_id();
    if (lane == 0) storage_.warp_base[warp_index] = mine;
    __syncthreads();
    if (warp_index == 0) {
      // Warp 0 scans the warps' counts, reserves the block's runs (lane 0, one atomic per stream
      // that keeps anything) and writes where each warp's runs begin.
      const Counts zero = Counts::zero();
      const Counts count = lane < kWarps ? storage_.warp_base[lane] : zero;
      Counts total;
      const Counts before = warp::exclusive_scan(
          count, zero, [](const Counts& a, const Counts& b) { return a + b; }, total);
      Counts base = zero;
      if (lane == 0)
        for (int s = 0; s < Streams; ++s)
          if (total.v[s] > 0) base.v[s] = atomicAdd(counters[s], total.v[s]);
      base = warp::shuffle_idx(base, 0);
      if (lane < kWarps) storage_.warp_base[lane] = base + before;
      if (lane == 0) storage_.block_total = total;
    }
    __syncthreads();
    const unsigned lower = warp::lanemask_lt();
    for (int s = 0; s < Streams; ++s)
      index[s] =
          storage_.warp_base[warp_index].v[s] + static_cast<Counter>(__popc(lanes[s] & lower));
    return storage_.block_total;
  }

 private:
  TempStorage& storage_;
};

}  // namespace prim::block
