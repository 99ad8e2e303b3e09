// Warp shuffles for any trivially copyable T, moved as 32-bit words.
//
//   lane:                    0  1  2  3 ...
//   x:                       a  b  c  d ...
//   shuffle_up(x, 1)     ->  a  a  b  c ...   (lanes below delta keep their own value)
//   shuffle_down(x, 1)   ->  b  c  d  . ...   (lanes at 32 - delta and above keep their own)
//   shuffle_idx(x, 0)    ->  a  a  a  a ...
//
// Every lane of the warp must call these together (full mask).
#pragma once

#include <cuda_runtime.h>

#include <cstring>

namespace prim::warp {

inline constexpr unsigned kFullMask = 0xffffffffu;
inline constexpr int kWarpThreads = 32;

__device__ __forceinline__ int lane_id() {
  return static_cast<int>(threadIdx.x) & (kWarpThreads - 1);
}

// Bits of the lanes below the calling lane.
__device__ __forceinline__ unsigned lanemask_lt() {
  return (1u << lane_id()) - 1u;
}

namespace detail {
template <class T, class Shuffle>
__device__ __forceinline__ T shuffle_words(const T& x, Shuffle shuffle) {
  constexpr int kWords = static_cast<int>((sizeof(T) + 3) / 4);
  unsigned words[kWords] = {};
  memcpy(words, &x, sizeof(T));
#pragma unroll
  for (int i = 0; i < kWords; ++i) words[i] = shuffle(words[i]);
  T out;
  memcpy(&out, words, sizeof(T));
  return out;
}
}  // namespace detail

template <class T>
__device__ __forceinline__ T shuffle_up(const T& x, int delta) {
  return detail::shuffle_words(x,
                               [delta](unsigned w) { return __shfl_up_sync(kFullMask, w, delta); });
}

template <class T>
__device__ __forceinline__ T shuffle_down(const T& x, int delta) {
  return detail::shuffle_words(
      x, [delta](unsigned w) { return __shfl_down_sync(kFullMask, w, delta); });
}

template <class T>
__device__ __forceinline__ T shuffle_idx(const T& x, int source_lane) {
  return detail::shuffle_words(
      x, [source_lane](unsigned w) { return __shfl_sync(kFullMask, w, source_lane); });
}

}  // namespace prim::warp
