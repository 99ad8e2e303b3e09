// AgentSelect: one tile of the fused compaction and partition (the kernels are
// kernels/compact_fused.cuh, the host side device/dispatch_compact.cuh): compaction and partition
// in one pass over the input, with the kept count published by decoupled look-back (and for a
// stable partition a second, light kernel), or, where all tiles fit on the GPU at once, summed
// after a grid barrier (one wave, below).
//
// Block b takes tile b (agent/tile_lookback.cuh), loads it with 16-byte loads (warp-striped
// arrangement, block/block_load.cuh; wide items: see below), evaluates selector(item, index) in
// registers (no flag array in memory), ranks the kept items with warp ballots and popc, combines
// the warp counts and finds the tile's global offset by look-back over the tiles' kept counts
// (agent/tile_lookback.cuh with 64-bit counts), stages its items in shared memory in output order
// and writes them out with contiguous, coalesced stores. The last tile writes the total to *d_count
// on the device.
//
// The stores are 16-byte vectors when T tiles 16 bytes and the output is 16-byte aligned: the
// kept items are staged `kept_before_tile % VEC` places further into shared memory, so that the
// staged vectors line up with aligned output vectors, and a partition's rejected run is staged
// after them with its own shift; only the partial vectors at the ends of each run are written
// item by item. (A partition's stores of 4-byte items one by one left it behind CUB.)
// The kept flags live in one bit mask and the ranks are recomputed from one count per row, and the
// kernel is held to 40 registers for items of up to 4 bytes (see agent/agent_scan.cuh for that
// and for the look-back pauses). Warp 0 parks its items in its segment of the staging area during
// the look-back (agent::park): without that the chained compaction spilled 24 bytes per thread.
// (The chained partition in CUB's order still spills: 32 bytes per thread with a plain selector,
// 16 with partition_index's gather.) Items are staged without a branch per item (see the
// staging). Long chained grids prefetch the input of the tile 128 ahead, as the scan does
// (agent/agent_scan.cuh), except the partition of vector items (see consume_tile).
//
// Wide items (sizeof(T) a multiple of 4 bytes, VEC of them not one 16-byte vector: 12, 20, 24,
// 32, 48 bytes, and 4- or 8-byte items with one item per thread) would load and store member by
// member, lane after lane sizeof(T) bytes apart: a warp's load of one 48-byte path state member
// touches 1536 bytes to use 128. Instead the tile moves between
// global and shared memory as a flat array of words (16 bytes when sizeof(T) % 16 == 0, else 8
// or 4), each warp access contiguous and coalesced, and the threads take their items from and
// put them into shared memory. The kept items of a tile and its rejected items are each one
// contiguous run of the output, so the stores are word copies too. Bytes moved: the floor's
// (read the tile once, write it once); the shared-memory round trip costs no global traffic.
// (With member accesses the partition of 48-byte items took twice CUB's time.)
//
// Partition (Partition == true): the one-pass partition leaves the rejected items after the kept
// ones in reverse input order, as described next; the stable partition then restores their order.
// Input order would need every rejected item at kept_total + rejected_rank, and kept_total is
// only known when the last tile is done. Rather than read the input twice (a
// counting pass first) or stage rejected items in a workspace as large as the input, the pass
// writes rejected item number r (global, in input order) to out[n - 1 - r], which is known from
// the tile's own prefix (rejected before the tile = tile start - kept before the tile). The
// rejected items then fill [kept_total, n) in reverse order, and a light second kernel reverses
// that range in place (it reads kept_total from d_count, on the device). Extra traffic: one read
// and one write of the rejected items, no host round trip, workspace of 8 bytes per tile.
//
// One wave (ONE_WAVE, device/dispatch_compact.cuh): where every tile of the call fits on the GPU
// at once (three blocks of 512 x 16 int32 per SM: 396 tiles, about 3.2M items on 132 SMs), and
// there are enough tiles for it to pay (tuning.h), the kernel runs as one cooperative launch.
// Tile = block index; each tile publishes its kept count, waits at a grid barrier, and then sums
// all tiles' counts (one load per thread), which gives the kept count before it and the kept
// total at once. No status reset, no look-back, and a stable
// partition writes its rejected items in input order straight away, at kept total + rejected
// before the tile + rank: one pass, no second kernel. Blocks past a device-side count join the
// barrier and leave. Chained, the tile cannot know the kept total until the last tile is done.
//
// Device-side item count: with d_n set, the kernels process the first min(*d_n, n) items, read on
// the device (the grid and the workspace are sized for n). Blocks whose tile starts past that
// count exit at once (one wave: after the grid barrier); no live tile looks back on them or sums
// their counts.
//
// Status reset: as for the lookback scan (device/dispatch_scan.cuh), a kernel zeroes the tile
// status words (8 bytes per tile) before each chained pass, and the selection is its programmatic
// dependent, which loads and ranks its tile before it waits for the zeroing; a single tile needs
// no reset.
#pragma once

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "primitives/agent/tile_lookback.cuh"
#include "primitives/agent/tile_status.cuh"
#include "primitives/block/block_load.cuh"
#include "primitives/block/block_scan.cuh"
#include "primitives/detail/grid_dependency.cuh"
#include "primitives/operators.h"

namespace prim::agent {

// Wide items: sizeof(T) a multiple of 4 bytes, and VEC of them not one 16-byte vector.
template <class T, int VEC>
constexpr bool wide_items() {
  return !block::vectorizable<T, VEC>() && sizeof(T) % 4 == 0;
}

// The word that wide items of T move in: the largest of 16, 8 and 4 bytes that divides sizeof(T).
template <class T>
using WordOf = std::conditional_t<sizeof(T) % 16 == 0, uint4,
                                  std::conditional_t<sizeof(T) % 8 == 0, uint2, unsigned>>;

// The alignment (bytes) in and out must have for the agent's wide or vector accesses.
template <class T, int VEC>
constexpr std::size_t access_alignment() {
  if constexpr (wide_items<T, VEC>()) return sizeof(WordOf<T>);
  return 16;
}

// Block-wide copy of `words` words (at most WORDS per thread); loads all issued before the stores.
template <int WORDS, class Word>
__device__ __forceinline__ void copy_words(const Word* __restrict__ from, Word* __restrict__ to,
                                           unsigned words) {
  Word w[WORDS];
#pragma unroll
  for (int k = 0; k < WORDS; ++k) {
    const unsigned i = k * blockDim.x + threadIdx.x;
    if (i < words) w[k] = from[i];
  }
#pragma unroll
  for (int k = 0; k < WORDS; ++k) {
    const unsigned i = k * blockDim.x + threadIdx.x;
    if (i < words) to[i] = w[k];
  }
}

// One wide item from the staging area (raw Word-aligned storage) into a register copy, and back:
// word accesses on the shared side, memcpy on the item's.
template <class Word, class T>
__device__ __forceinline__ void load_item(T& item, const T* staged) {
  constexpr int kWords = sizeof(T) / sizeof(Word);
  Word w[kWords];
#pragma unroll
  for (int k = 0; k < kWords; ++k) w[k] = reinterpret_cast<const Word*>(staged)[k];
  memcpy(&item, w, sizeof(T));
}
template <class Word, class T>
__device__ __forceinline__ void store_item(T* staged, const T& item) {
  constexpr int kWords = sizeof(T) / sizeof(Word);
  Word w[kWords];
  memcpy(w, &item, sizeof(T));
#pragma unroll
  for (int k = 0; k < kWords; ++k) reinterpret_cast<Word*>(staged)[k] = w[k];
}

// What a selection does with the rejected items: drops them (compaction), writes them after the
// kept ones in reverse input order (a partition, and the chained stable partition before its
// second kernel), or in input order (the one-wave stable partition, which knows the kept total
// before it writes).
enum class Rejected { dropped, reversed, in_order };

// One wave: the kept counts of the tiles before `tile` and of all `tiles` tiles, from the counts
// every tile published before the grid barrier, summed by the whole block into sums[0] and sums[1]
// (zero before the call; complete after the next __syncthreads). Each thread loads a count in
// flight per step of blockDim.x tiles: 396 tiles of 8192 int32 are one load per thread.
__device__ __forceinline__ void sum_kept_counts(const CountTileStatus& status, long long tile,
                                                long long tiles, unsigned long long* sums) {
  unsigned long long before = 0, all = 0;
  for (long long t = threadIdx.x; t < tiles; t += blockDim.x) {
    unsigned flag;
    unsigned long long count;
    status.load(t, flag, count);
    all += count;
    if (t < tile) before += count;
  }
  before = warp::reduce(before, Plus{});
  all = warp::reduce(all, Plus{});
  if (warp::lane_id() == 0) {
    atomicAdd(&sums[0], before);
    atomicAdd(&sums[1], all);
  }
}

// The agent's static shared memory: the block scan of the warps' kept counts, the item count, and
// in one wave the two sums (sum_kept_counts). The chained agent has no sums: its shared memory is
// what it uses.
template <bool ONE_WAVE>
struct SelectTempStorage {
  block::BlockScan<unsigned long long>::TempStorage scan;
  // The item count lives in shared memory rather than in a register for the whole tile (the
  // kernel is held to few registers): it is read at the start and again at the end.
  std::size_t item_count;
  unsigned long long one_wave_sums[2];  // kept before the tile, kept in all tiles
};
template <>
struct SelectTempStorage<false> {
  block::BlockScan<unsigned long long>::TempStorage scan;
  std::size_t item_count;
};

// R: what becomes of the rejected items. ONE_WAVE: launched cooperatively, every tile resident at
// once (the kept counts summed after a grid barrier; no look-back). ITEMS items per thread, VEC of
// them per 16-byte vector (block::vector_width). selector(item, index) -> bool keeps the item.
template <Rejected R, bool ONE_WAVE, int ITEMS, int VEC, class T, class Selector>
struct AgentSelect {
  static constexpr bool kPartition = R != Rejected::dropped;
  static constexpr bool kVectorItems = block::vectorizable<T, VEC>();
  static constexpr bool kWide = wide_items<T, VEC>();
  static constexpr int kSegmentItems = warp::kWarpThreads * ITEMS;  // a warp's items
  using Word = WordOf<T>;
  static constexpr int kTileWordsPerThread = ITEMS * static_cast<int>(sizeof(T) / sizeof(Word));
  using Count = unsigned long long;
  using BlockScanT = block::BlockScan<Count>;
  static_assert(R != Rejected::in_order || ONE_WAVE, "input order needs the kept total first");
  static_assert(alignof(T) <= 16, "staging in shared memory assumes alignof(T) <= 16");
  static_assert(ITEMS <= 32, "the kept flags of a thread live in one 32-bit mask");

  using TempStorage = SelectTempStorage<ONE_WAVE>;

  TempStorage& storage;
  // One tile of T (and the slack for shifted 16-byte stores) in dynamic shared memory, 16-byte
  // aligned: the wide items' round trip, warp 0's parked items, then the tile in output order.
  uint4* staging_vectors;
  T* staged;
  const T* __restrict__ in;
  T* __restrict__ out;
  Selector selector;
  std::size_t* d_count;
  CountTileStatus status;
  LookbackSchedule schedule;

  __device__ __forceinline__ AgentSelect(TempStorage& storage, uint4* staging,
                                         const T* __restrict__ in, T* __restrict__ out,
                                         Selector selector, std::size_t* d_count,
                                         const CountTileStatus& status,
                                         const LookbackSchedule& schedule)
      : storage(storage),
        staging_vectors(staging),
        staged(reinterpret_cast<T*>(staging)),
        in(in),
        out(out),
        selector(selector),
        d_count(d_count),
        status(status),
        schedule(schedule) {}

  // Selects tile blockIdx.x of the first min(*d_n, max_n) items (max_n without d_n); every thread
  // of the block calls it. aligned: `in` has access_alignment(); out_aligned: `out` has it too and
  // the staging has its slack (device/dispatch_compact.cuh).
  __device__ __forceinline__ void consume_tile(std::size_t max_n, const std::size_t* d_n,
                                               bool aligned, bool out_aligned) {
    start_tile(max_n, d_n);
    const int tile = blockIdx.x;

    const unsigned tile_items = blockDim.x * ITEMS;
    const std::size_t tile_start = static_cast<std::size_t>(tile) * tile_items;
    if (tile_start >= storage.item_count) {  // past a device-side count (tile 0 when it is 0)
      if constexpr (ONE_WAVE) cooperative_groups::this_grid().sync();  // every block arrives once
      if (tile == 0 && threadIdx.x == 0) *d_count = 0;
      return;
    }

    const int lane = warp::lane_id();
    const int warp_index = static_cast<int>(threadIdx.x) / warp::kWarpThreads;
    const unsigned tile_valid = static_cast<unsigned>(storage.item_count - tile_start < tile_items
                                                          ? storage.item_count - tile_start
                                                          : tile_items);
    const int segment_offset = warp_index * kSegmentItems;  // within the tile
    const std::size_t segment_start = tile_start + segment_offset;
    const int valid = segment_offset >= static_cast<int>(tile_valid)
                          ? 0
                          : min(static_cast<int>(tile_valid) - segment_offset, kSegmentItems);

    T items[ITEMS];
    load_tile(items, tile_start, tile_valid, segment_offset, valid, lane, aligned);

    detail::griddep_wait();  // chained: the status is zeroed by the kernel ahead
    // Bit i of kept_bits: item i is kept. row_base[r]: kept items of the warp's segment before the
    // lane's first item of row r (a kept item's rank adds the lane's kept items before it in the
    // row). Ranks are recomputed from these when staging, which keeps registers (and so resident
    // blocks) down.
    unsigned kept_bits = 0;
    unsigned row_base[ITEMS / VEC];
    const unsigned warp_kept = rank_items(items, segment_start, valid, lane, kept_bits, row_base);
    const Count warp_base = scan_kept_counts(items, warp_kept, tile, tile_items, lane);

    // (One wave: warp_base holds no tile prefix, and the sums give it and the kept total.)
    const Count kept_before_tile = ONE_WAVE ? one_wave_sum(0) : storage.scan.tile_prefix();
    const unsigned tile_kept = static_cast<unsigned>(storage.scan.tile_aggregate());
    const unsigned warp_offset =
        static_cast<unsigned>(ONE_WAVE ? warp_base : warp_base - kept_before_tile);
    const bool vector_stores = kVectorItems && out_aligned;
    const Runs runs =
        place_runs(kept_before_tile, tile_start, tile_kept, tile_valid, vector_stores);

    stage_tile(items, kept_bits, row_base, warp_offset, runs.shift, runs.rejected_base,
               runs.tile_rejected, segment_offset, valid, lane);
    __syncthreads();

    store_tile(runs, kept_before_tile, tile_kept, tile_valid, vector_stores, out_aligned);
    if (tile_start + tile_items >= storage.item_count && threadIdx.x == 0) {  // the last tile
      *d_count = static_cast<std::size_t>(kept_before_tile + tile_kept);
    }
  }

 private:
  // Where the tile's two runs go: the kept items to out[kept_before_tile, ...), staged from
  // `shift`; a partition's rejected ones to out[rejected_start, ...), staged from rejected_base.
  struct Runs {
    unsigned shift;
    std::size_t rejected_before_tile;
    unsigned tile_rejected;
    std::size_t rejected_start;
    unsigned rejected_base;
  };

  // Thread 0 reads the item count (and, chained, prefetches the tile ahead); the block waits.
  __device__ __forceinline__ void start_tile(std::size_t max_n, const std::size_t* d_n) {
    // *d_n, like the input, was ready before the zeroing kernel ahead started. The prefetch of the
    // tile ahead (agent/agent_scan.cuh) goes here rather than further down, where it made the
    // chained partition spill 20 bytes more. One wave: every tile has started already. The chained
    // partition of vector items (CUB's order, and the stable one's first pass) does not prefetch:
    // it spills (above), and prefetching cost it time, where the partitions of wide items gained
    // (bench/results/RESULTS.md).
    constexpr bool kPrefetch = !ONE_WAVE && !(R == Rejected::reversed && kVectorItems);
    if (threadIdx.x == 0) {
      const std::size_t count = d_n && *d_n < max_n ? *d_n : max_n;
      storage.item_count = count;
      if constexpr (ONE_WAVE) storage.one_wave_sums[0] = storage.one_wave_sums[1] = 0;
      if constexpr (kPrefetch) {
        prefetch_tile_ahead(in, count, std::size_t(blockDim.x) * ITEMS,
                            static_cast<int>(blockIdx.x), schedule.prefetch_tiles);
      }
    }
    __syncthreads();
  }

  // The block scan of the warps' kept counts: returns the kept items before the warp's, from the
  // tile's start (one wave) or the input's (chained: the tile's prefix by look-back). One wave:
  // the tiles' sums follow the grid barrier (one_wave_sum).
  __device__ __forceinline__ Count scan_kept_counts(T (&items)[ITEMS], unsigned warp_kept, int tile,
                                                    unsigned tile_items, int lane) {
    const Count warp_base = BlockScanT::warp_base(
        storage.scan, Count(warp_kept), Count(0), Plus{}, [&](const Count& tile_kept) -> Count {
          if constexpr (ONE_WAVE) {  // the count for the sum after the grid barrier; no look-back
            if (lane == 0) status.publish(tile, kTileAggregate, tile_kept);
            return 0;
          }
          // Warp 0's items wait in its own segment of the staging area, which no other warp reads
          // and the staging below overwrites only after warp_base's second __syncthreads.
          return tile_exclusive_prefix(status, tile, tile_kept, Count(0), Plus{}, schedule, staged,
                                       items, lane);
        });
    if constexpr (ONE_WAVE) {
      cooperative_groups::this_grid().sync();  // every tile has published its count
      sum_kept_counts(status, tile,
                      static_cast<long long>((storage.item_count + tile_items - 1) / tile_items),
                      storage.one_wave_sums);
      __syncthreads();
    }
    return warp_base;
  }

  // 16-byte stores: the tile's kept items go to out[kept_before_tile, ...), which need not start
  // on a multiple of VEC; staging them `shift` places further makes each staged vector one
  // aligned output vector. A partition's rejected run (out[rejected_start, ...), in output order)
  // is staged after the kept one, at rejected_base, with its own shift.
  __device__ __forceinline__ Runs place_runs(Count kept_before_tile, std::size_t tile_start,
                                             unsigned tile_kept, unsigned tile_valid,
                                             bool vector_stores) const {
    Runs runs;
    runs.shift = vector_stores ? static_cast<unsigned>(kept_before_tile % VEC) : 0u;
    runs.rejected_before_tile = tile_start - kept_before_tile;
    runs.tile_rejected = tile_valid - tile_kept;
    runs.rejected_start = R == Rejected::in_order
                              ? one_wave_sum(1) + runs.rejected_before_tile
                              : storage.item_count - runs.rejected_before_tile - runs.tile_rejected;
    // The end of the tile's staging without vector stores.
    runs.rejected_base = tile_kept;
    if (kPartition && vector_stores) {
      runs.rejected_base =
          (runs.shift + tile_kept + VEC - 1) / VEC * VEC + runs.rejected_start % VEC;
    }
    return runs;
  }

  // The staged tile to the output: 16-byte vectors where vector_stores, else store_staged.
  __device__ __forceinline__ void store_tile(const Runs& runs, Count kept_before_tile,
                                             unsigned tile_kept, unsigned tile_valid,
                                             bool vector_stores, bool out_aligned) {
    if (vector_stores) {
      if constexpr (kVectorItems) {
        store_vector_run(out + kept_before_tile, runs.shift, tile_kept);
        if (kPartition)
          store_vector_run(out + runs.rejected_start, runs.rejected_base, runs.tile_rejected);
      }
    } else {
      const unsigned end = kPartition ? tile_valid : tile_kept;
      T* kept_out = out + kept_before_tile;
      // rejected_out[j] for j in [tile_kept, tile_valid): staged item j's place.
      T* rejected_out = R == Rejected::in_order
                            ? out + runs.rejected_start - tile_kept
                            : out + (storage.item_count - runs.rejected_before_tile - tile_valid);
      store_staged(kept_out, rejected_out, tile_kept, end, out_aligned);
    }
  }
  // One wave: sum k of sum_kept_counts (0: kept before the tile, 1: kept in all tiles).
  __device__ __forceinline__ Count one_wave_sum(int k) const {
    if constexpr (ONE_WAVE) {
      return storage.one_wave_sums[k];
    } else {
      return 0;
    }
  }

  // The tile's items into `items`, item i of the lane being element striped_index(i) of its
  // warp's segment: 16-byte vectors where the segment is whole and aligned; wide items through
  // the staging area as words; else item by item (items past `valid` left as they are).
  __device__ __forceinline__ void load_tile(T (&items)[ITEMS], std::size_t tile_start,
                                            unsigned tile_valid, int segment_offset, int valid,
                                            int lane, bool aligned) {
    const std::size_t segment_start = tile_start + segment_offset;
    bool vectorized = false;
    if constexpr (kVectorItems) {
      vectorized = aligned && valid == kSegmentItems;
      // A compaction's items as streaming loads (see store_vector_run); a partition's plain.
      if (vectorized)
        block::load_striped_vector<ITEMS, VEC, !kPartition>(in + segment_start, items, lane);
    } else if constexpr (kWide) {
      vectorized = aligned;  // the same for the whole block
      if (vectorized) {
        copy_words<kTileWordsPerThread>(
            reinterpret_cast<const Word*>(in + tile_start), reinterpret_cast<Word*>(staged),
            tile_valid * static_cast<unsigned>(sizeof(T) / sizeof(Word)));
        __syncthreads();
#pragma unroll
        for (int i = 0; i < ITEMS; ++i) {
          const int index = block::striped_index<VEC>(i, lane);
          if (index < valid) load_item<Word>(items[i], staged + segment_offset + index);
        }
        // The staging overwrites the tile only after warp_base's __syncthreads.
      }
    }
    if (!vectorized)
      block::load_striped_guarded<ITEMS, VEC>(in + segment_start, items, lane, valid);
  }

  // Evaluates the selector on the lane's items: sets bit i of kept_bits for a kept item i and
  // row_base[r] (above); returns the warp's kept count.
  __device__ __forceinline__ unsigned rank_items(const T (&items)[ITEMS], std::size_t segment_start,
                                                 int valid, int lane, unsigned& kept_bits,
                                                 unsigned (&row_base)[ITEMS / VEC]) {
    unsigned warp_kept = 0;
    const unsigned lower_lanes = warp::lanemask_lt();
#pragma unroll
    for (int r = 0; r < ITEMS / VEC; ++r) {
      unsigned before_lane = 0;
      unsigned row_kept = 0;
#pragma unroll
      for (int v = 0; v < VEC; ++v) {
        const int i = r * VEC + v;
        const int index = block::striped_index<VEC>(i, lane);
        const bool keep = index < valid && selector(items[i], segment_start + index);
        kept_bits |= (keep ? 1u : 0u) << i;
        const unsigned ballot = __ballot_sync(warp::kFullMask, keep);
        before_lane += __popc(ballot & lower_lanes);
        row_kept += __popc(ballot);
      }
      row_base[r] = warp_kept + before_lane;
      warp_kept += row_kept;
    }
    return warp_kept;
  }

  // Stage in output order: kept items at their rank (+ shift), rejected ones from the end of
  // their run backwards (see the note at the top of the file), or forwards in input order. Item
  // i sits at tile position pos = segment_offset + index, and a rejected item's rank among the
  // tile's rejected ones is pos - kept_rank, so every slot is kept_rank plus or minus a term
  // that depends on the item alone:
  //   kept:              shift + kept_rank
  //   rejected reversed: (rejected_base + tile_rejected - 1 - pos) + kept_rank
  //   rejected in order: (rejected_base + pos) - kept_rank
  // One select and one predicated store per item, no branch: with a branch per item the warp
  // ran both sides wherever its lanes disagreed.
  __device__ __forceinline__ void stage_tile(const T (&items)[ITEMS], unsigned kept_bits,
                                             const unsigned (&row_base)[ITEMS / VEC],
                                             unsigned warp_offset, unsigned shift,
                                             unsigned rejected_base, unsigned tile_rejected,
                                             int segment_offset, int valid, int lane) {
    const int lane_first = block::striped_index<VEC>(0, lane);  // index = lane_first + const(i)
    const unsigned reversed_end = rejected_base + tile_rejected - 1 - segment_offset - lane_first;
    const unsigned in_order_start = rejected_base + segment_offset + lane_first;
#pragma unroll
    for (int r = 0; r < ITEMS / VEC; ++r) {
      unsigned kept_rank = warp_offset + row_base[r];
#pragma unroll
      for (int v = 0; v < VEC; ++v) {
        const int i = r * VEC + v;
        const int index = block::striped_index<VEC>(i, lane);
        const unsigned offset = static_cast<unsigned>(index - lane_first);  // known at compile time
        const bool keep = (kept_bits >> i) & 1u;
        unsigned at = shift + kept_rank;
        if constexpr (R == Rejected::reversed) {
          at = keep ? at : reversed_end - offset + kept_rank;
        } else if constexpr (R == Rejected::in_order) {
          at = keep ? at : in_order_start + offset - kept_rank;
        }
        if (keep || (kPartition && index < valid)) {
          if constexpr (kWide) {
            store_item<Word>(staged + at, items[i]);
          } else {
            staged[at] = items[i];
          }
        }
        kept_rank += keep ? 1u : 0u;
      }
    }
  }

  // Staged items [first, first + count) to dst[0, count), first % VEC being dst's offset from a
  // 16-byte boundary: whole vectors, and item by item in the partial vectors at both ends.
  __device__ __forceinline__ void store_vector_run(T* dst, unsigned first, unsigned count) {
    const unsigned lead = first % VEC;
    uint4* dst_vectors = reinterpret_cast<uint4*>(dst - lead);
    const unsigned vectors = (lead + count + VEC - 1) / VEC;
    for (unsigned q = threadIdx.x; q < vectors; q += blockDim.x) {
      const unsigned j0 = q * VEC;  // from dst - lead
      if (j0 >= lead && j0 + VEC <= lead + count) {
        // A compaction's output as streaming stores (evict-first), like the scan's; a
        // partition's plain: the stable one's second kernel reads its rejected run again.
        if constexpr (kPartition) {
          dst_vectors[q] = staging_vectors[first / VEC + q];
        } else {
          __stcs(&dst_vectors[q], staging_vectors[first / VEC + q]);
        }
      } else {
#pragma unroll
        for (int v = 0; v < VEC; ++v) {
          const unsigned j = j0 + v;
          if (j >= lead && j < lead + count) (dst - lead)[j] = staged[first - lead + j];
        }
      }
    }
  }

  // Staged items [0, tile_kept) to kept_out, [tile_kept, end) to rejected_out at the same index:
  // as words for wide items with an aligned output, else item by item.
  __device__ __forceinline__ void store_staged(T* kept_out, T* rejected_out, unsigned tile_kept,
                                               unsigned end, bool out_aligned) {
    bool word_stores = false;
    if constexpr (kWide) {
      word_stores = out_aligned;  // the same for the whole block
      if (word_stores) {
        constexpr unsigned kItemWords = sizeof(T) / sizeof(Word);
        const unsigned kept_words = tile_kept * kItemWords;
        const Word* from = reinterpret_cast<const Word*>(staged);
        Word* kept_to = reinterpret_cast<Word*>(kept_out);
        Word* rejected_to = reinterpret_cast<Word*>(rejected_out);
#pragma unroll
        for (int k = 0; k < kTileWordsPerThread; ++k) {
          const unsigned w = k * blockDim.x + threadIdx.x;
          if (w < end * kItemWords) (w < kept_words ? kept_to : rejected_to)[w] = from[w];
        }
      }
    }
    if (!word_stores) {
      for (unsigned j = threadIdx.x; j < end; j += blockDim.x) {
        (j < tile_kept ? kept_out : rejected_out)[j] = staged[j];
      }
    }
  }
};

}  // namespace prim::agent
