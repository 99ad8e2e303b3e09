// Launch helpers shared by the classic variants (naive, work-efficient and blocked scans,
// scan-scatter compaction, split and LSD radix sorts).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>

namespace prim::classic::detail {

// Kernels whose block size is a run-time knob (ScanConfig::block_threads) are compiled for up to
// this many threads (__launch_bounds__), so that any valid size launches whatever T is.
inline constexpr int kMaxBlockThreads = 1024;

// Blocks for a grid-stride loop over `items` with `threads` per block: one thread per item up to
// a cap of 2^21 blocks (the loop covers the rest), and never zero blocks.
inline unsigned grid_blocks(std::size_t items, int threads) {
  const std::size_t cap = std::size_t(1) << 21;
  std::size_t blocks = (items + threads - 1) / threads;
  if (blocks > cap) blocks = cap;
  if (blocks == 0) blocks = 1;
  return static_cast<unsigned>(blocks);
}

// First index and stride of a grid-stride loop, in 64 bits so n may exceed 2^31.
__device__ inline std::size_t grid_first() {
  return std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline std::size_t grid_stride() {
  return std::size_t(gridDim.x) * blockDim.x;
}

// Counters of n items (flags, positions, digit counts) are 32-bit while every count fits, which
// halves the bytes they cost, and 64-bit past 2^32 - 1 items. Callers pick the type at run time
// with this test and instantiate both.
inline bool fits_32bit_counts(std::size_t n) {
  return n <= std::numeric_limits<std::uint32_t>::max();
}

// Runs f(S{}) with S the counter type for n items: std::uint32_t while the counts fit, else
// std::uint64_t.
template <class F>
void with_count_type(std::size_t n, F&& f) {
  if (fits_32bit_counts(n)) {
    f(std::uint32_t{});
  } else {
    f(std::uint64_t{});
  }
}

// The smallest power of two >= n (1 for n <= 1).
inline std::size_t next_pow2(std::size_t n) {
  std::size_t m = 1;
  while (m < n) m <<= 1;
  return m;
}

// Multi-pass algorithms (Hillis-Steele steps, radix sort passes) ping-pong between the output
// and a workspace buffer. Pass `pass` of `passes` writes the output when an even number of
// passes follow it, so the last pass always lands in the output.
inline bool pass_writes_output(int pass, int passes) {
  return (passes - 1 - pass) % 2 == 0;
}

}  // namespace prim::classic::detail
