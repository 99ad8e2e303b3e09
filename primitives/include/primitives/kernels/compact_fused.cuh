// The fused compaction's kernels (host side: device/dispatch_compact.cuh): select_kernel, in which
// block b selects tile b with agent::AgentSelect (agent/agent_select.cuh, which describes the
// algorithm), and the chained stable partition's second kernel, reverse_rejected_kernel.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "primitives/agent/agent_select.cuh"
#include "primitives/agent/tile_lookback.cuh"
#include "primitives/agent/tile_status.cuh"
#include "primitives/detail/grid_dependency.cuh"
#include "primitives/tuning.h"

namespace prim::detail::compact_fused {

// Dynamic shared memory: the staging area, one tile of T plus the slack for shifted 16-byte
// stores where it fits (device/dispatch_compact.cuh). Held to tuning::lookback_max_registers<T>()
// registers, as the look-back scan is (agent/agent_scan.cuh).
template <agent::Rejected R, bool ONE_WAVE, int ITEMS, int VEC, class T, class Selector>
__global__ void __maxnreg__(tuning::lookback_max_registers<T>())
    select_kernel(const T* __restrict__ in, T* __restrict__ out, std::size_t max_n,
                  const std::size_t* d_n, Selector selector, std::size_t* d_count,
                  agent::CountTileStatus status, bool aligned, bool out_aligned,
                  agent::LookbackSchedule schedule) {
  using Agent = agent::AgentSelect<R, ONE_WAVE, ITEMS, VEC, T, Selector>;
  __shared__ typename Agent::TempStorage storage;
  extern __shared__ uint4 staging_vectors[];
  Agent(storage, staging_vectors, in, out, selector, d_count, status, schedule)
      .consume_tile(max_n, d_n, aligned, out_aligned);
}

// Reverses out[kept, n) in place, kept = *d_count, n = min(*d_n, max_n) (max_n without d_n).
// Items of a multiple of 4 bytes (aligned to 4) are swapped a 4-byte word at a time, consecutive
// threads on consecutive words, so that a warp reads and writes 128 contiguous bytes at each end
// (item by item, a warp's accesses to a 48-byte item's members would stride 48 bytes). Each
// thread has kReverseUnroll words of each end in flight at once: with one, the swap ran well
// below a copy's bandwidth.
template <class T>
using ReverseWord = std::conditional_t<sizeof(T) % 4 == 0 && alignof(T) >= 4, unsigned, T>;
inline constexpr int kReverseUnroll = 4;

template <class T>
__global__ void reverse_rejected_kernel(T* out, std::size_t max_n, const std::size_t* d_n,
                                        const std::size_t* d_count) {
  using Word = ReverseWord<T>;
  constexpr std::size_t kWords = sizeof(T) / sizeof(Word);
  griddep_wait();  // the selection ahead writes *d_count and the run
  const std::size_t n = d_n && *d_n < max_n ? *d_n : max_n;
  const std::size_t kept = *d_count;
  const std::size_t half_words = (n - kept) / 2 * kWords;
  Word* front = reinterpret_cast<Word*>(out + kept);
  Word* back = reinterpret_cast<Word*>(out + n - 1);  // item n - 1 - i is back - i * kWords
  // Word w of the front run and its mirror, word w % kWords of item n - 1 - w / kWords.
  auto mirror = [&](std::size_t w) -> Word& {
    const std::size_t item = w / kWords;
    return *(back - item * kWords + (w - item * kWords));
  };
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x * kReverseUnroll;
  for (std::size_t base =
           blockIdx.x * static_cast<std::size_t>(blockDim.x) * kReverseUnroll + threadIdx.x;
       base < half_words; base += stride) {
    Word a[kReverseUnroll], b[kReverseUnroll];
#pragma unroll
    for (int u = 0; u < kReverseUnroll; ++u) {
      const std::size_t w = base + static_cast<std::size_t>(u) * blockDim.x;
      if (w < half_words) {
        a[u] = front[w];
        b[u] = mirror(w);
      }
    }
#pragma unroll
    for (int u = 0; u < kReverseUnroll; ++u) {
      const std::size_t w = base + static_cast<std::size_t>(u) * blockDim.x;
      if (w < half_words) {
        front[w] = b[u];
        mirror(w) = a[u];
      }
    }
  }
}

}  // namespace prim::detail::compact_fused
