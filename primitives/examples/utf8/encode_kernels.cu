// Encode kernels: one block per tile of 2048 code points, one thread per 8.
#include <cstdint>

#include "block_tools.cuh"
#include "primitives/error.h"
#include "utf8_kernels.h"
#include "utf8_rules.h"

namespace utf8::detail {
namespace {

// The thread's code points [p, p + 8); those at or past n read 0 (and are not counted).
// vector_loads: the input is 16-byte aligned, so in + p is (p is a multiple of 8).
__device__ __forceinline__ void load_code_points(const std::uint32_t* in, std::size_t n,
                                                 std::size_t p, bool vector_loads,
                                                 std::uint32_t (&c)[kEncodeItems]) {
  static_assert(kEncodeItems == 8, "two 16-byte loads per thread");
  if (vector_loads && p + kEncodeItems <= n) {
    const uint4 a = __ldg(reinterpret_cast<const uint4*>(in + p));
    const uint4 b = __ldg(reinterpret_cast<const uint4*>(in + p) + 1);
    c[0] = a.x, c[1] = a.y, c[2] = a.z, c[3] = a.w;
    c[4] = b.x, c[5] = b.y, c[6] = b.z, c[7] = b.w;
  } else {
#pragma unroll
    for (int k = 0; k < kEncodeItems; ++k) c[k] = p + k < n ? in[p + k] : 0u;
  }
}

__device__ __forceinline__ int own_items(std::size_t n, std::size_t p) {
  return p >= n ? 0 : (n - p >= std::size_t(kEncodeItems) ? kEncodeItems : int(n - p));
}

__global__ void __launch_bounds__(kThreads)
    encode_count_kernel(const std::uint32_t* __restrict__ in, std::size_t n, bool vector_loads,
                        std::uint32_t* __restrict__ tile_sizes, std::size_t tiles,
                        DeviceResult* __restrict__ result) {
  __shared__ std::uint32_t s_warp[kThreads / 32];
  const std::size_t tile = blockIdx.x;
  const std::size_t p = tile * kEncodeTile + threadIdx.x * std::size_t(kEncodeItems);
  std::uint32_t c[kEncodeItems];
  load_code_points(in, n, p, vector_loads, c);
  const int own = own_items(n, p);
  std::uint32_t bytes = 0;
  std::uint32_t bad = kNoOffset;
#pragma unroll
  for (int k = kEncodeItems - 1; k >= 0; --k) {
    if (k < own) {
      bytes += encoded_length(c[k]);
      if (!is_scalar_value(c[k])) bad = std::uint32_t(p) + k;  // p + k < n <= 2^30
    }
  }
  const std::uint32_t tile_bytes = block_sum<kThreads>(bytes, s_warp);
  if (threadIdx.x == 0) {
    tile_sizes[tile] = tile_bytes;
    if (tile == 0) tile_sizes[tiles] = 0;  // the exclusive scan turns it into the total
  }
  record_first_invalid(bad, &result->first_invalid);
}

__global__ void __launch_bounds__(kThreads)
    encode_write_kernel(const std::uint32_t* __restrict__ in, std::size_t n, bool vector_loads,
                        const std::uint32_t* __restrict__ tile_offsets, std::size_t tiles,
                        std::uint8_t* __restrict__ out, DeviceResult* __restrict__ result) {
  // At most 4 bytes per code point; 16 more for the alignment shift.
  __shared__ __align__(16) std::uint8_t s_out[4 * kEncodeTile + 16];
  __shared__ std::uint32_t s_warp[kThreads / 32];
  const std::size_t tile = blockIdx.x;
  const std::size_t p = tile * kEncodeTile + threadIdx.x * std::size_t(kEncodeItems);
  std::uint32_t c[kEncodeItems];
  load_code_points(in, n, p, vector_loads, c);
  const int own = own_items(n, p);
  std::uint32_t bytes = 0;
#pragma unroll
  for (int k = 0; k < kEncodeItems; ++k) bytes += k < own ? encoded_length(c[k]) : 0u;
  std::uint32_t total;
  const std::uint32_t offset = block_exclusive_sum<kThreads>(bytes, s_warp, total);
  std::uint8_t* dst = out + tile_offsets[tile];
  const std::uint32_t shift = reinterpret_cast<std::uintptr_t>(dst) & 15u;
  std::uint8_t* mine = s_out + shift + offset;
#pragma unroll
  for (int k = 0; k < kEncodeItems; ++k) {
    if (k < own) {
      const std::uint32_t packed = encoded_bytes(c[k]);
      const std::uint32_t length = encoded_length(c[k]);
      for (std::uint32_t b = 0; b < length; ++b) *mine++ = std::uint8_t(packed >> (8 * b));
    }
  }
  __syncthreads();
  store_staged(s_out, shift, total, dst);
  if (tile == 0 && threadIdx.x == 0) result->count = tile_offsets[tiles];
}

__global__ void __launch_bounds__(kThreads)
    encode_pad_kernel(const std::uint32_t* __restrict__ in, std::size_t n,
                      std::uint32_t* __restrict__ padded, DeviceResult* __restrict__ result) {
  const std::size_t i = blockIdx.x * std::size_t(kThreads) + threadIdx.x;
  std::uint32_t bad = kNoOffset;
  if (i < n) {
    const std::uint32_t c = in[i];
    padded[i] = padded_bytes(c);
    if (!is_scalar_value(c)) bad = std::uint32_t(i);
  }
  record_first_invalid(bad, &result->first_invalid);
}

bool aligned16(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0;
}

}  // namespace

void launch_encode_count(const std::uint32_t* in, std::size_t n, std::uint32_t* tile_sizes,
                         DeviceResult* result, cudaStream_t stream) {
  const std::size_t tiles = encode_tiles(n);
  encode_count_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
      in, n, aligned16(in), tile_sizes, tiles, result);
  PRIM_LAUNCH_CHECK("encode_count_kernel");
}

void launch_encode_write(const std::uint32_t* in, std::size_t n, const std::uint32_t* tile_offsets,
                         std::uint8_t* out, DeviceResult* result, cudaStream_t stream) {
  const std::size_t tiles = encode_tiles(n);
  encode_write_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
      in, n, aligned16(in), tile_offsets, tiles, out, result);
  PRIM_LAUNCH_CHECK("encode_write_kernel");
}

void launch_encode_pad(const std::uint32_t* in, std::size_t n, std::uint32_t* padded,
                       DeviceResult* result, cudaStream_t stream) {
  const std::size_t blocks = (n + kThreads - 1) / kThreads;
  encode_pad_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(in, n, padded, result);
  PRIM_LAUNCH_CHECK("encode_pad_kernel");
}

}  // namespace utf8::detail
