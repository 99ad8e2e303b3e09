// Per-tile status for single-pass scans with decoupled look-back (Merrill & Garland 2016).
// Every tile publishes its aggregate (flag A) as soon as it knows it, and its inclusive prefix
// (flag P) once the look-back has found its exclusive prefix. Flag 0 (X) means "nothing yet": the
// status storage is zeroed before each launch.
//
//   PackedTileStatus<T>  sizeof(T) <= 4: flag and value in one 64-bit word, published and read
//                        with single 64-bit relaxed accesses, so a reader never sees a flag
//                        without its value.
//   CountTileStatus      unsigned long long counts below 2^62: flag in the top 2 bits.
//   SplitTileStatus<T>   any other T: a flag array, and one value array per flag so a value is
//                        written once; the value is stored before the flag is released and read
//                        after the flag is acquired.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "primitives/workspace.h"

namespace prim::agent {

enum TileFlag : unsigned { kTileInvalid = 0, kTileAggregate = 1, kTileInclusive = 2 };

namespace status_detail {
__device__ __forceinline__ unsigned long long load_relaxed(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_relaxed(unsigned long long* p, unsigned long long v) {
  asm volatile("st.relaxed.gpu.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ unsigned load_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void store_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.u32 [%0], %1;" : : "l"(p), "r"(v) : "memory");
}
}  // namespace status_detail

template <class T>
struct PackedTileStatus {
  static_assert(sizeof(T) <= 4, "PackedTileStatus holds values of at most 4 bytes");
  unsigned long long* words = nullptr;

  // Carves the status of `tiles` tiles; everything carved here must be zeroed before a launch.
  static PackedTileStatus carve(WorkspaceCarver& carver, std::size_t tiles) {
    return {carver.take<unsigned long long>(tiles)};
  }
  // Bytes at the start of the carved storage to zero before a launch.
  static std::size_t reset_bytes(std::size_t tiles) { return (tiles * 8 + 255) / 256 * 256; }
  __device__ __forceinline__ void publish(long long tile, unsigned flag, const T& value) const {
    unsigned bits = 0;
    memcpy(&bits, &value, sizeof(T));
    status_detail::store_relaxed(words + tile,
                                 (static_cast<unsigned long long>(flag) << 32) | bits);
  }
  __device__ __forceinline__ void load(long long tile, unsigned& flag, T& value) const {
    const unsigned long long word = status_detail::load_relaxed(words + tile);
    flag = static_cast<unsigned>(word >> 32);
    const unsigned bits = static_cast<unsigned>(word);
    memcpy(&value, &bits, sizeof(T));
  }
};

struct CountTileStatus {
  static constexpr int kShift = 62;
  static constexpr unsigned long long kMask = (1ull << kShift) - 1;
  unsigned long long* words = nullptr;

  static CountTileStatus carve(WorkspaceCarver& carver, std::size_t tiles) {
    return {carver.take<unsigned long long>(tiles)};
  }
  static std::size_t reset_bytes(std::size_t tiles) { return (tiles * 8 + 255) / 256 * 256; }
  __device__ __forceinline__ void publish(long long tile, unsigned flag,
                                          unsigned long long value) const {
    status_detail::store_relaxed(words + tile,
                                 (static_cast<unsigned long long>(flag) << kShift) | value);
  }
  __device__ __forceinline__ void load(long long tile, unsigned& flag,
                                       unsigned long long& value) const {
    const unsigned long long word = status_detail::load_relaxed(words + tile);
    flag = static_cast<unsigned>(word >> kShift);
    value = word & kMask;
  }
};

template <class T>
struct SplitTileStatus {
  unsigned* flags = nullptr;
  T* aggregates = nullptr;
  T* inclusives = nullptr;

  // Only the flags (carved first) need zeroing; the values are written before their flag.
  static SplitTileStatus carve(WorkspaceCarver& carver, std::size_t tiles) {
    SplitTileStatus s;
    s.flags = carver.take<unsigned>(tiles);
    s.aggregates = carver.take<T>(tiles);
    s.inclusives = carver.take<T>(tiles);
    return s;
  }
  static std::size_t reset_bytes(std::size_t tiles) { return (tiles * 4 + 255) / 256 * 256; }
  __device__ __forceinline__ void publish(long long tile, unsigned flag, const T& value) const {
    (flag == kTileAggregate ? aggregates : inclusives)[tile] = value;
    status_detail::store_release(flags + tile, flag);  // orders the value store before the flag
  }
  __device__ __forceinline__ void load(long long tile, unsigned& flag, T& value) const {
    flag = status_detail::load_acquire(flags + tile);  // orders the value load after the flag
    if (flag == kTileAggregate) value = aggregates[tile];
    if (flag == kTileInclusive) value = inclusives[tile];
  }
};

template <class T>
using TileStatusFor = std::conditional_t<sizeof(T) <= 4, PackedTileStatus<T>, SplitTileStatus<T>>;

}  // namespace prim::agent
