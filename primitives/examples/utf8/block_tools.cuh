// Block-wide helpers of the codec's kernels: sums, first-invalid reduction, staged stores.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace utf8::detail {

inline constexpr unsigned kFullMask = 0xFFFFFFFFu;
inline constexpr std::uint32_t kNoOffset = 0xFFFFFFFFu;

// Exclusive prefix sum of x over the block's threads, *total = the block's sum. Every thread of
// the block calls it once per kernel (s_warp is not reused); s_warp holds kThreads / 32 words.
template <int kThreads>
__device__ __forceinline__ std::uint32_t block_exclusive_sum(std::uint32_t x, std::uint32_t* s_warp,
                                                             std::uint32_t& total) {
  constexpr int kWarps = kThreads / 32;
  static_assert(kThreads % 32 == 0 && kWarps <= 32, "block of whole warps, at most 1024 threads");
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  std::uint32_t inclusive = x;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const std::uint32_t y = __shfl_up_sync(kFullMask, inclusive, d);
    if (lane >= d) inclusive += y;
  }
  if (lane == 31) s_warp[warp] = inclusive;
  __syncthreads();
  if (warp == 0) {
    // Each lane reads its own word before the shuffles and writes it after: no race in warp 0,
    // and the other warps wait at the barrier below.
    std::uint32_t v = lane < kWarps ? s_warp[lane] : 0u;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const std::uint32_t y = __shfl_up_sync(kFullMask, v, d);
      if (lane >= d) v += y;
    }
    if (lane < kWarps) s_warp[lane] = v;  // inclusive sums of the warps' totals
  }
  __syncthreads();
  total = s_warp[kWarps - 1];
  return (warp == 0 ? 0u : s_warp[warp - 1]) + inclusive - x;
}

// The block's sum of x, valid in thread 0 only. Called once per kernel by every thread.
template <int kThreads>
__device__ __forceinline__ std::uint32_t block_sum(std::uint32_t x, std::uint32_t* s_warp) {
  constexpr int kWarps = kThreads / 32;
  const std::uint32_t warp_sum = __reduce_add_sync(kFullMask, x);
  if ((threadIdx.x & 31) == 0) s_warp[threadIdx.x >> 5] = warp_sum;
  __syncthreads();
  std::uint32_t sum = 0;
  if (threadIdx.x == 0) {
#pragma unroll
    for (int w = 0; w < kWarps; ++w) sum += s_warp[w];
  }
  return sum;
}

// Lowers *first to the smallest candidate of the warp (kNoOffset = none). All 32 lanes call it.
__device__ __forceinline__ void record_first_invalid(std::uint32_t candidate,
                                                     unsigned long long* first) {
  const std::uint32_t smallest = __reduce_min_sync(kFullMask, candidate);
  if ((threadIdx.x & 31) == 0 && smallest != kNoOffset) {
    atomicMin(first, static_cast<unsigned long long>(smallest));
  }
}

// The elements to store to the `count` elements from dst were staged in s[shift, shift + count),
// where shift = (dst's address mod 16) / sizeof(T). So s[e] belongs at the 16-byte aligned
// address base = dst - shift plus e elements: whole 16-byte chunks go out as one vector store,
// the partial first and last chunks element by element (they share memory with other tiles).
// s is 16-byte aligned and holds whole chunks. Every thread of the block calls it.
template <class T>
__device__ __forceinline__ void store_staged(const T* s, std::uint32_t shift, std::uint32_t count,
                                             T* dst) {
  constexpr std::uint32_t kPerChunk = 16 / sizeof(T);
  T* base = reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(dst) - shift * sizeof(T));
  const std::uint32_t end = shift + count;
  const std::uint32_t chunks = (end + kPerChunk - 1) / kPerChunk;
  for (std::uint32_t c = threadIdx.x; c < chunks; c += blockDim.x) {
    const std::uint32_t lo = c * kPerChunk;
    const std::uint32_t hi = lo + kPerChunk;
    if (lo >= shift && hi <= end) {
      reinterpret_cast<uint4*>(base)[c] = reinterpret_cast<const uint4*>(s)[c];
    } else {
      for (std::uint32_t e = lo < shift ? shift : lo; e < (hi < end ? hi : end); ++e)
        base[e] = s[e];
    }
  }
}

// Code points staged at padded_index(e): one unused word after every 32, so that threads writing
// 16 consecutive code points each (ASCII text) hit 32 different banks instead of 2.
__device__ __forceinline__ std::uint32_t padded_index(std::uint32_t e) {
  return e + (e >> 5);
}

// store_staged for code points staged at padded_index(e). A chunk's 4 elements start at a multiple
// of 4, so they lie in one group of 32 and are consecutive in s.
__device__ __forceinline__ void store_staged_padded(const std::uint32_t* s, std::uint32_t shift,
                                                    std::uint32_t count, std::uint32_t* dst) {
  std::uint32_t* base = dst - shift;
  const std::uint32_t end = shift + count;
  const std::uint32_t chunks = (end + 3) / 4;
  for (std::uint32_t c = threadIdx.x; c < chunks; c += blockDim.x) {
    const std::uint32_t lo = 4 * c;
    const std::uint32_t hi = lo + 4;
    if (lo >= shift && hi <= end) {
      const std::uint32_t i = padded_index(lo);
      reinterpret_cast<uint4*>(base)[c] = make_uint4(s[i], s[i + 1], s[i + 2], s[i + 3]);
    } else {
      for (std::uint32_t e = lo < shift ? shift : lo; e < (hi < end ? hi : end); ++e) {
        base[e] = s[padded_index(e)];
      }
    }
  }
}

}  // namespace utf8::detail
