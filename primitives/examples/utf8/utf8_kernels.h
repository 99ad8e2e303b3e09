// Launchers of the codec's kernels and its calls into the primitives library (one translation
// unit each, so every template is instantiated once). Internal to utf8_gpu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "primitives/classic/variants.h"
#include "primitives/workspace.h"
#include "utf8_rules.h"

namespace utf8::detail {

inline constexpr int kThreads = 256;
inline constexpr std::size_t kDecodeTile = std::size_t(kThreads) * kSpanBytes;    // 4096 bytes
inline constexpr int kEncodeItems = 8;                                            // per thread
inline constexpr std::size_t kEncodeTile = std::size_t(kThreads) * kEncodeItems;  // code points

inline std::size_t decode_tiles(std::size_t n) {
  return (n + kDecodeTile - 1) / kDecodeTile;
}
inline std::size_t encode_tiles(std::size_t n) {
  return (n + kEncodeTile - 1) / kEncodeTile;
}

// What a call found, in device memory. first_invalid starts at ~0 (none).
struct DeviceResult {
  std::size_t count;
  unsigned long long first_invalid;
};

// Decode. tile_sizes has decode_tiles(n) + 1 entries; count writes them (the last as 0).
void launch_decode_count(const std::uint8_t* in, std::size_t n, std::uint32_t* tile_sizes,
                         DeviceResult* result, cudaStream_t stream);
void launch_decode_write(const std::uint8_t* in, std::size_t n, const std::uint32_t* tile_offsets,
                         std::uint32_t* out, DeviceResult* result, cudaStream_t stream);
// marked[i] = the code point of the unit starting at byte i, or kNoUnit.
inline constexpr std::uint32_t kNoUnit = 0xFFFFFFFFu;
void launch_decode_mark(const std::uint8_t* in, std::size_t n, std::uint32_t* marked,
                        DeviceResult* result, cudaStream_t stream);

// Encode. tile_sizes has encode_tiles(n) + 1 entries.
void launch_encode_count(const std::uint32_t* in, std::size_t n, std::uint32_t* tile_sizes,
                         DeviceResult* result, cudaStream_t stream);
void launch_encode_write(const std::uint32_t* in, std::size_t n, const std::uint32_t* tile_offsets,
                         std::uint8_t* out, DeviceResult* result, cudaStream_t stream);
// padded[i] = padded_bytes(in[i]) (4 bytes, unused ones FF).
void launch_encode_pad(const std::uint32_t* in, std::size_t n, std::uint32_t* padded,
                       DeviceResult* result, cudaStream_t stream);

// The primitives library: exclusive scan of uint32 sizes (in place).
std::size_t scan_sizes_workspace_bytes(std::size_t n, const prim::classic::ScanConfig& config);
void scan_sizes(std::uint32_t* sizes, std::size_t n, prim::Workspace& ws, cudaStream_t stream,
                const prim::classic::ScanConfig& config);

// compact_if(marked != kNoUnit) -> out, count to *d_count.
std::size_t compact_code_points_workspace_bytes(std::size_t n,
                                                const prim::classic::CompactConfig& config);
void compact_code_points(const std::uint32_t* marked, std::size_t n, std::uint32_t* out,
                         std::size_t* d_count, prim::Workspace& ws, cudaStream_t stream,
                         const prim::classic::CompactConfig& config);

// compact_if(byte != FF) -> out, count to *d_count.
std::size_t compact_bytes_workspace_bytes(std::size_t n,
                                          const prim::classic::CompactConfig& config);
void compact_bytes(const std::uint8_t* padded, std::size_t n, std::uint8_t* out,
                   std::size_t* d_count, prim::Workspace& ws, cudaStream_t stream,
                   const prim::classic::CompactConfig& config);

}  // namespace utf8::detail
