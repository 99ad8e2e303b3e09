// Scan variants 'blocked_brent_kung' and 'blocked_blelloch': a shared-memory scan per tile,
// recursive scan of the tile sums, uniform add.
//
// Each block scans one tile of block_threads * items_per_thread consecutive items:
//   1. load the tile into shared memory with coalesced reads (identity past the end of the input);
//   2. thread coarsening: each thread reduces its own items_per_thread consecutive items
//      sequentially in registers, giving one total per thread;
//   3. the block scans the block_threads totals in shared memory with a tree: Brent-Kung (reduce
//      up, then distribute partial sums down, inclusive) or Blelloch (reduce up, clear the root,
//      sweep down, exclusive); both index shared memory with a padding of one slot per 32
//      (CONFLICT_FREE_OFFSET), so the tree's strided accesses do not collide in the 32 banks;
//   4. each thread rescans its items seeded with its thread prefix and writes them back to shared
//      memory, from where the tile is stored with coalesced writes. The tile total goes to the
//      workspace.
// When there is more than one tile, the tile totals are scanned (exclusive) by the same code,
// recursively until one tile holds them, and each tile then adds its prefix (uniform add).
//
//   in = [3, 1, 7, 0 | 4, 1, 6, 3], tile 4, +   tiles: [3, 4, 11, 11 | 4, 5, 11, 14]
//   tile sums [11, 14] -> exclusive [0, 11]     add:   [3, 4, 11, 11 | 15, 16, 22, 25]
//
// Cost: one launch per level of the recursion plus one uniform add per level below the top
// (n = 2^26 with 1024-item tiles: 3 scan launches, 2 adds). Bytes: the first level reads n and
// writes n elements, the uniform add reads and writes them again (about 4n in all, the 2n floor
// being the lookback variant's); the tile sums are n/tile elements. The prefix is always the left
// operand, so non-commutative operators work; d_out == d_in is fine (a block loads its whole tile
// before it writes it). Indices are 64-bit: any n up to 2^31 * tile.
//
// ScanConfig::block_threads (a power of two, 32..1024) and items_per_thread (1..16) override the
// defaults of primitives/tuning.h at run time; shared memory is dynamic, (tile + block_threads)
// elements plus padding, opted in past 48 KiB where the device allows it.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstddef>
#include <string>

#include "primitives/classic/detail/grid.cuh"
#include "primitives/classic/variants.h"
#include "primitives/device_info.h"
#include "primitives/error.h"
#include "primitives/tuning.h"
#include "primitives/workspace.h"

namespace prim::classic::detail::blocked {

inline constexpr int kLogNumBanks = 5;  // 32 banks of 4 bytes
inline constexpr int kMaxItemsPerThread = 16;
inline constexpr int kMaxLevels = 16;  // tiles hold >= 32 items: 13 levels reach 2^64

// Shared-memory index with one padding slot every 32 elements (GPU Gems 3, ch. 39): indices that
// differ by a multiple of 32 land in different banks.
__host__ __device__ constexpr std::size_t conflict_free(std::size_t i) {
  return i + (i >> kLogNumBanks);
}
// Elements of shared memory for an array of `count` elements indexed through conflict_free.
__host__ __device__ constexpr std::size_t padded_size(std::size_t count) {
  return conflict_free(count - 1) + 1;
}

enum class Tree { brent_kung, blelloch };

struct Shape {
  int block_threads;
  int items_per_thread;
  std::size_t tile() const { return std::size_t(block_threads) * items_per_thread; }
};

// The tile shape of `config` (0 = the default of primitives/tuning.h), validated.
inline Shape shape_of(const ScanConfig& config, const char* function) {
  Shape s{
      config.block_threads > 0 ? config.block_threads : tuning::kBlockedScanThreads,
      config.items_per_thread > 0 ? config.items_per_thread : tuning::kBlockedScanItemsPerThread};
  const bool power_of_two = (s.block_threads & (s.block_threads - 1)) == 0;
  require(
      config.block_threads >= 0 && s.block_threads >= 32 && s.block_threads <= 1024 && power_of_two,
      function, [&] {
        return "block_threads " + std::to_string(config.block_threads) +
               " must be a power of two in [32, 1024] (or 0 for the default)";
      });
  require(config.items_per_thread >= 0 && s.items_per_thread <= kMaxItemsPerThread, function, [&] {
    return "items_per_thread " + std::to_string(config.items_per_thread) +
           " must be in [1, 16] (or 0 for the default)";
  });
  return s;
}

template <class T>
std::size_t shared_bytes(const Shape& s) {
  return (padded_size(s.tile()) + padded_size(s.block_threads)) * sizeof(T);
}

// Scans the block_threads values s[conflict_free(0 .. block_threads-1)] in place. Brent-Kung
// leaves the inclusive scan, Blelloch the exclusive scan; `total` receives the sum of all.
// Every thread of the block calls this (it contains barriers).
template <Tree kTree, class T, class Op>
__device__ void scan_block_totals(T* s, T identity, Op op, T& total) {
  const int bt = blockDim.x;
  const int t = threadIdx.x;
  // Up-sweep (both trees): at stride d, thread t adds the left subtree ending at (2t+1)d - 1 into
  // the node (2t+2)d - 1; bt / 2d threads are active.
  for (int d = 1; d < bt; d *= 2) {
    const int node = (t + 1) * 2 * d - 1;
    if (node < bt) s[conflict_free(node)] = op(s[conflict_free(node - d)], s[conflict_free(node)]);
    __syncthreads();
  }
  total = s[conflict_free(bt - 1)];
  if (kTree == Tree::brent_kung) {
    // Distribute: the node at (t+1)2d - 1 holds a complete prefix; pass it to the node d to its
    // right, which so far holds only the sum of the d values ending there.
    for (int d = bt / 4; d >= 1; d /= 2) {
      const int node = (t + 1) * 2 * d - 1;
      if (node + d < bt) {
        s[conflict_free(node + d)] = op(s[conflict_free(node)], s[conflict_free(node + d)]);
      }
      __syncthreads();
    }
  } else {
    __syncthreads();  // every thread has read the total before the root is cleared
    if (t == 0) s[conflict_free(bt - 1)] = identity;
    __syncthreads();
    // Down-sweep: a node's value is the prefix of everything left of its subtree; the left child
    // gets it unchanged, the right child gets it combined with the left child's subtree sum.
    for (int d = bt / 2; d >= 1; d /= 2) {
      const int node = (t + 1) * 2 * d - 1;
      if (node < bt) {
        const T left = s[conflict_free(node - d)];
        s[conflict_free(node - d)] = s[conflict_free(node)];
        s[conflict_free(node)] = op(s[conflict_free(node)], left);
      }
      __syncthreads();
    }
  }
}

// Scans one tile per block (steps 1-4 above) and writes the tile total to tile_sums[blockIdx.x]
// unless tile_sums is null. Reads and writes each element once; in and out may alias.
// Launch: one block per tile, block_threads threads, shared_bytes<T>() dynamic shared memory.
template <Tree kTree, class T, class Op>
__global__ void __launch_bounds__(detail::kMaxBlockThreads)
    scan_tiles_kernel(const T* in, T* out, std::size_t n, T* tile_sums, bool inclusive, T identity,
                      Op op, int items_per_thread) {
  static_assert(alignof(T) <= 16, "the blocked scan aligns shared memory to 16 bytes");
  extern __shared__ __align__(16) unsigned char shared_raw[];
  const int bt = blockDim.x;
  const int ipt = items_per_thread;
  const int t = threadIdx.x;
  const std::size_t tile = std::size_t(bt) * ipt;
  T* s_tile = reinterpret_cast<T*>(shared_raw);
  T* s_tree = s_tile + padded_size(tile);
  const std::size_t base = std::size_t(blockIdx.x) * tile;
  const std::size_t count = n - base < tile ? n - base : tile;

  // 1. Coalesced load.
  for (std::size_t j = t; j < tile; j += bt) {
    s_tile[conflict_free(j)] = j < count ? in[base + j] : identity;
  }
  __syncthreads();

  // 2. Thread t reduces its items t*ipt .. t*ipt + ipt - 1.
  const int first = t * ipt;
  T acc = s_tile[conflict_free(first)];
  for (int k = 1; k < ipt; ++k) acc = op(acc, s_tile[conflict_free(first + k)]);
  s_tree[conflict_free(t)] = acc;
  __syncthreads();

  // 3. Scan of the thread totals.
  T total = identity;
  scan_block_totals<kTree>(s_tree, identity, op, total);
  T prefix = identity;  // everything in the tile before thread t's items
  if (kTree == Tree::brent_kung) {
    prefix = t == 0 ? identity : s_tree[conflict_free(t - 1)];
  } else {
    prefix = s_tree[conflict_free(t)];
  }

  // 4. Rescan the thread's items from its prefix, in place in shared memory (each thread touches
  //    only its own slots), then store the tile coalesced.
  for (int k = 0; k < ipt; ++k) {
    const std::size_t j = conflict_free(first + k);
    const T x = s_tile[j];
    const T excl = prefix;
    prefix = op(prefix, x);
    s_tile[j] = inclusive ? prefix : excl;
  }
  __syncthreads();
  for (std::size_t j = t; j < count; j += bt) out[base + j] = s_tile[conflict_free(j)];
  if (t == 0 && tile_sums != nullptr) tile_sums[blockIdx.x] = total;
}

// Uniform add: every item of tile b >= 1 becomes op(tile_prefix[b], item). Launch one block per
// tile after the first (tile b = blockIdx.x + 1). Reads and writes n - tile elements.
template <class T, class Op>
__global__ void __launch_bounds__(detail::kMaxBlockThreads)
    add_tile_prefix_kernel(T* out, std::size_t n, const T* __restrict__ tile_prefix,
                           std::size_t tile, Op op) {
  const std::size_t b = std::size_t(blockIdx.x) + 1;
  const T prefix = tile_prefix[b];
  const std::size_t end = n - b * tile < tile ? n : (b + 1) * tile;
  for (std::size_t i = b * tile + threadIdx.x; i < end; i += blockDim.x) {
    out[i] = op(prefix, out[i]);
  }
}

// Number of tile-sum arrays the recursion needs for n items, and their sizes.
struct Levels {
  int count = 0;
  std::size_t sums[kMaxLevels] = {};
};
inline Levels levels_of(std::size_t n, std::size_t tile) {
  Levels levels;
  for (std::size_t items = n; items > tile; items = levels.sums[levels.count++]) {
    levels.sums[levels.count] = (items + tile - 1) / tile;
  }
  return levels;
}

template <class T>
std::size_t workspace_bytes(std::size_t n, const ScanConfig& config) {
  const Shape shape = shape_of(config, "prim::classic::detail::blocked::workspace_bytes");
  const Levels levels = levels_of(n, shape.tile());
  WorkspaceCarver carver;
  for (int l = 0; l < levels.count; ++l) carver.take<T>(levels.sums[l]);
  return carver.used();
}

// Scans `n` items of level `level` (0 = the caller's array) and, when they span several tiles,
// recurses on the tile sums and adds them back.
template <Tree kTree, class T, class Op>
void scan_level(const T* in, T* out, std::size_t n, bool inclusive, T identity, Op op,
                const Shape& shape, std::size_t shared, T* const* sums, int level,
                cudaStream_t stream) {
  const std::size_t tile = shape.tile();
  const std::size_t tiles = (n + tile - 1) / tile;
  require(tiles <= std::size_t(INT_MAX), "prim::classic::detail::blocked::scan",
          [&] { return "n = " + std::to_string(n) + " needs more tiles than one grid holds"; });
  T* tile_sums = tiles > 1 ? sums[level] : nullptr;
  scan_tiles_kernel<kTree><<<static_cast<unsigned>(tiles), shape.block_threads, shared, stream>>>(
      in, out, n, tile_sums, inclusive, identity, op, shape.items_per_thread);
  PRIM_LAUNCH_CHECK("scan_tiles_kernel");
  if (tiles > 1) {
    scan_level<kTree>(tile_sums, tile_sums, tiles, false, identity, op, shape, shared, sums,
                      level + 1, stream);
    add_tile_prefix_kernel<<<static_cast<unsigned>(tiles - 1), shape.block_threads, 0, stream>>>(
        out, n, tile_sums, tile, op);
    PRIM_LAUNCH_CHECK("add_tile_prefix_kernel");
  }
}

template <Tree kTree, class T, class Op>
void scan_with_tree(const T* d_in, T* d_out, std::size_t n, bool inclusive, T identity, Op op,
                    void* workspace, cudaStream_t stream, const Shape& shape) {
  const char* function = "prim::classic::detail::blocked::scan";
  const std::size_t shared = shared_bytes<T>(shape);
  constexpr std::size_t kDefaultSharedLimit = 48 * 1024;
  if (shared > kDefaultSharedLimit) {
    const std::size_t optin = device_info().shared_bytes_per_block_optin;
    require(shared <= optin, function, [&] {
      return "a tile of " + std::to_string(shape.block_threads) + " x " +
             std::to_string(shape.items_per_thread) + " items of " + std::to_string(sizeof(T)) +
             " bytes needs " + std::to_string(shared) +
             " bytes of shared memory; the device allows " + std::to_string(optin);
    });
    allow_dynamic_shared(reinterpret_cast<const void*>(scan_tiles_kernel<kTree, T, Op>), shared);
  }
  const Levels levels = levels_of(n, shape.tile());
  WorkspaceCarver carver(workspace);
  T* sums[kMaxLevels] = {};
  for (int l = 0; l < levels.count; ++l) sums[l] = carver.take<T>(levels.sums[l]);
  scan_level<kTree>(d_in, d_out, n, inclusive, identity, op, shape, shared, sums, 0, stream);
}

template <bool Inclusive, class T, class Op>
void scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, void* workspace,
          cudaStream_t stream, const ScanConfig& config) {
  const Shape shape = shape_of(config, "prim::classic::detail::blocked::scan");
  if (config.algorithm == ScanAlgorithm::blocked_blelloch) {
    scan_with_tree<Tree::blelloch>(d_in, d_out, n, Inclusive, identity, op, workspace, stream,
                                   shape);
  } else {
    scan_with_tree<Tree::brent_kung>(d_in, d_out, n, Inclusive, identity, op, workspace, stream,
                                     shape);
  }
}

}  // namespace prim::classic::detail::blocked
