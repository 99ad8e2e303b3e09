// Tile shape of the single-pass kernels: how many items a thread holds and how wide its loads are.
//
//   int32:   16 items per thread, 4 per 16-byte load     (tile = 512 threads x 16 = 8192 items)
//   uint8:   16 items per thread, 16 per 16-byte load
//   int64:    8 items per thread, 2 per 16-byte load
//   48-byte:  1 item per thread, scalar loads
#pragma once

#include <cstddef>

#include "primitives/tuning.h"

namespace prim::block {

// Items of T per 16-byte vector when T tiles 16 bytes exactly, else 1 (scalar accesses).
template <class T>
constexpr int vector_width() {
  return (sizeof(T) <= 16 && 16 % sizeof(T) == 0) ? static_cast<int>(16 / sizeof(T)) : 1;
}

// The vector width of a thread's ITEMS items of T: vector_width<T>() where the items fill whole
// vectors, else 1.
template <class T, int ITEMS>
constexpr int vector_width() {
  return ITEMS % vector_width<T>() == 0 ? vector_width<T>() : 1;
}

// True when VEC items of T make one 16-byte vector.
template <class T, int VEC>
constexpr bool vectorizable() {
  return VEC * sizeof(T) == 16;
}

// Items per thread: four 16-byte loads for 4- and 8-byte T, one or two for smaller T, and about
// 64 bytes for larger T.
template <class T>
constexpr int default_items_per_thread() {
  if constexpr (sizeof(T) <= 4) {
    return tuning::kLookbackItemsPerThread;
  } else if constexpr (sizeof(T) == 8) {
    return tuning::kLookbackItemsPerThread / 2;
  } else {
    return sizeof(T) >= 64 ? 1 : static_cast<int>(64 / sizeof(T));
  }
}

// Register cap (__maxnreg__) of the look-back kernels for items of T (see tuning.h).
template <class T>
constexpr int lookback_max_registers() {
  return sizeof(T) <= 4 ? tuning::kLookbackMaxRegisters : 64;
}

}  // namespace prim::block
