// Fused compaction inside a stage: a thread that keeps an item (a surviving path, a shadow ray)
// gets the index it takes in the compacted output, from a count in executor memory. On the GPU
// every thread of the block calls it together (parallel_for_blocks), and the block ranks its kept
// items by a block-wide scan and reserves them with one atomic add per stream (the primitives'
// BlockReserve); on the CPU each kept item takes the next index with an atomic add.
#pragma once

#include <cstddef>

#include "core/host_device.h"
#include "primitives/block/block_reserve.cuh"

namespace raystream {

static_assert(sizeof(std::size_t) == sizeof(unsigned long long), "counts are 64-bit");

// Reserves first (from *first_count) when keep_first and second (from *second_count) when
// keep_second; second_count may be null when nothing keeps a second item. GPU: every thread of
// the block calls it, keep flags false past the input.
RAYSTREAM_HD inline void reserve_slots(bool keep_first, std::size_t* first_count,
                                       std::size_t& first, bool keep_second,
                                       std::size_t* second_count, std::size_t& second) {
#if defined(__CUDA_ARCH__)
  using Reserve = prim::block::BlockReserve<unsigned long long>;
  __shared__ Reserve::TempStorage storage;
  unsigned long long a = 0, b = 0;
  Reserve::reserve(storage, keep_first, reinterpret_cast<unsigned long long*>(first_count), a,
                   keep_second, reinterpret_cast<unsigned long long*>(second_count), b);
  first = static_cast<std::size_t>(a);
  second = static_cast<std::size_t>(b);
  __syncthreads();  // the storage may be used again (a block striding over its range)
#else
  if (keep_first) first = __atomic_fetch_add(first_count, std::size_t(1), __ATOMIC_RELAXED);
  if (keep_second) second = __atomic_fetch_add(second_count, std::size_t(1), __ATOMIC_RELAXED);
#endif
}

}  // namespace raystream
