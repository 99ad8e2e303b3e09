// Decode kernels: one block per tile of 4096 bytes, one thread per 16 bytes.
#include <cstdint>

#include "block_tools.cuh"
#include "primitives/error.h"
#include "utf8_kernels.h"
#include "utf8_rules.h"

namespace utf8::detail {
namespace {

// Bytes [q, q + 4) of the input, little-endian; bytes at or past n read 0.
__device__ __forceinline__ std::uint32_t load_word(const std::uint8_t* in, std::size_t n,
                                                   std::size_t q, bool vector_loads) {
  if (vector_loads && q + 4 <= n) return __ldg(reinterpret_cast<const unsigned int*>(in + q));
  std::uint32_t word = 0;
  for (int b = 0; b < 4; ++b) {
    if (q + b < n) word |= std::uint32_t(in[q + b]) << (8 * b);
  }
  return word;
}

// The window [p - 4, p + 20) of the thread owning [p, p + 16). Its own 16 bytes come in one
// 16-byte load; the 4 bytes before and after come from the neighbouring lanes by shuffle, and
// from memory at the warp's two ends. Every lane of the warp calls it (shuffles).
// vector_loads: the input is 16-byte aligned, so in + p is (p is a multiple of 16).
__device__ __forceinline__ ByteWindow load_window(const std::uint8_t* in, std::size_t n,
                                                  std::size_t p, bool vector_loads) {
  ByteWindow w;
  if (vector_loads && p + kSpanBytes <= n) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(in + p));
    w.word[1] = v.x;
    w.word[2] = v.y;
    w.word[3] = v.z;
    w.word[4] = v.w;
  } else {
#pragma unroll
    for (int i = 0; i < 4; ++i) w.word[1 + i] = load_word(in, n, p + 4 * i, vector_loads);
  }
  const int lane = threadIdx.x & 31;
  std::uint32_t before = __shfl_up_sync(kFullMask, w.word[4], 1);
  std::uint32_t after = __shfl_down_sync(kFullMask, w.word[1], 1);
  if (lane == 0) before = p == 0 ? 0u : load_word(in, n, p - 4, vector_loads);
  if (lane == 31) after = load_word(in, n, p + kSpanBytes, vector_loads);
  w.word[0] = before;
  w.word[5] = after;
  return w;
}

__device__ __forceinline__ int own_bytes(std::size_t n, std::size_t p) {
  return p >= n ? 0 : (n - p >= std::size_t(kSpanBytes) ? kSpanBytes : int(n - p));
}

__device__ __forceinline__ std::uint32_t first_invalid_of(const SpanMasks& m, std::size_t p) {
  // p < n <= 2^32 - 1 wherever a unit is invalid, so the offset fits.
  return m.invalid ? std::uint32_t(p) + std::uint32_t(__ffs(m.invalid) - 1) : kNoOffset;
}

__global__ void __launch_bounds__(kThreads)
    decode_count_kernel(const std::uint8_t* __restrict__ in, std::size_t n, bool vector_loads,
                        std::uint32_t* __restrict__ tile_sizes, std::size_t tiles,
                        DeviceResult* __restrict__ result) {
  __shared__ std::uint32_t s_warp[kThreads / 32];
  const std::size_t tile = blockIdx.x;
  const std::size_t p = tile * kDecodeTile + threadIdx.x * std::size_t(kSpanBytes);
  const ByteWindow w = load_window(in, n, p, vector_loads);
  const SpanMasks m = classify_span(w, own_bytes(n, p));
  const std::uint32_t units = block_sum<kThreads>(__popc(m.starts), s_warp);
  if (threadIdx.x == 0) {
    tile_sizes[tile] = units;
    if (tile == 0) tile_sizes[tiles] = 0;  // the exclusive scan turns it into the total
  }
  record_first_invalid(first_invalid_of(m, p), &result->first_invalid);
}

__global__ void __launch_bounds__(kThreads)
    decode_write_kernel(const std::uint8_t* __restrict__ in, std::size_t n, bool vector_loads,
                        const std::uint32_t* __restrict__ tile_offsets, std::size_t tiles,
                        std::uint32_t* __restrict__ out, DeviceResult* __restrict__ result) {
  // A tile holds at most one unit per byte; 3 more words for the alignment shift; a pad word
  // after every 32 (padded_index).
  constexpr std::uint32_t kStaged = kDecodeTile + 3;
  __shared__ std::uint32_t s_out[kStaged + kStaged / 32 + 1];
  __shared__ std::uint32_t s_warp[kThreads / 32];
  const std::size_t tile = blockIdx.x;
  const std::size_t p = tile * kDecodeTile + threadIdx.x * std::size_t(kSpanBytes);
  const ByteWindow w = load_window(in, n, p, vector_loads);
  const SpanMasks m = classify_span(w, own_bytes(n, p));
  std::uint32_t total;
  const std::uint32_t offset = block_exclusive_sum<kThreads>(__popc(m.starts), s_warp, total);
  std::uint32_t* dst = out + tile_offsets[tile];
  const std::uint32_t shift = (reinterpret_cast<std::uintptr_t>(dst) >> 2) & 3u;
  const std::uint32_t first = shift + offset;
  emit_span(w, m.starts,
            [&](int j, std::uint32_t value) { s_out[padded_index(first + j)] = value; });
  __syncthreads();
  store_staged_padded(s_out, shift, total, dst);
  if (tile == 0 && threadIdx.x == 0) result->count = tile_offsets[tiles];
}

__global__ void __launch_bounds__(kThreads)
    decode_mark_kernel(const std::uint8_t* __restrict__ in, std::size_t n, bool vector_loads,
                       std::uint32_t* __restrict__ marked, DeviceResult* __restrict__ result) {
  const std::size_t p = blockIdx.x * kDecodeTile + threadIdx.x * std::size_t(kSpanBytes);
  const ByteWindow w = load_window(in, n, p, vector_loads);
  const int own = own_bytes(n, p);
  const SpanMasks m = classify_span(w, own);
  std::uint32_t v[kSpanBytes];
#pragma unroll
  for (int k = 0; k < kSpanBytes; ++k) {
    v[k] = (m.starts >> k) & 1u
               ? read_unit(w.byte(k), w.byte(k + 1), w.byte(k + 2), w.byte(k + 3)).value
               : kNoUnit;
  }
  if (own == kSpanBytes) {  // marked is the codec's own 256-byte aligned buffer
    uint4* dst = reinterpret_cast<uint4*>(marked + p);
#pragma unroll
    for (int q = 0; q < 4; ++q)
      dst[q] = make_uint4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
  } else {
#pragma unroll
    for (int k = 0; k < kSpanBytes; ++k) {
      if (k < own) marked[p + k] = v[k];
    }
  }
  record_first_invalid(first_invalid_of(m, p), &result->first_invalid);
}

bool aligned16(const void* p) {
  return (reinterpret_cast<std::uintptr_t>(p) & 15u) == 0;
}

}  // namespace

void launch_decode_count(const std::uint8_t* in, std::size_t n, std::uint32_t* tile_sizes,
                         DeviceResult* result, cudaStream_t stream) {
  const std::size_t tiles = decode_tiles(n);
  decode_count_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
      in, n, aligned16(in), tile_sizes, tiles, result);
  PRIM_LAUNCH_CHECK("decode_count_kernel");
}

void launch_decode_write(const std::uint8_t* in, std::size_t n, const std::uint32_t* tile_offsets,
                         std::uint32_t* out, DeviceResult* result, cudaStream_t stream) {
  const std::size_t tiles = decode_tiles(n);
  decode_write_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(
      in, n, aligned16(in), tile_offsets, tiles, out, result);
  PRIM_LAUNCH_CHECK("decode_write_kernel");
}

void launch_decode_mark(const std::uint8_t* in, std::size_t n, std::uint32_t* marked,
                        DeviceResult* result, cudaStream_t stream) {
  const std::size_t tiles = decode_tiles(n);
  decode_mark_kernel<<<static_cast<unsigned>(tiles), kThreads, 0, stream>>>(in, n, aligned16(in),
                                                                            marked, result);
  PRIM_LAUNCH_CHECK("decode_mark_kernel");
}

}  // namespace utf8::detail
