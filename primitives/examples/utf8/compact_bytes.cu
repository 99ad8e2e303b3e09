// Encode by compaction: prim::classic::compact_if drops the FF padding bytes (FF never occurs in
// UTF-8).
#include "primitives/classic/compact.cuh"
#include "utf8_kernels.h"

namespace utf8::detail {
namespace {
struct NotPadding {
  __host__ __device__ bool operator()(std::uint8_t b) const { return b != 0xFFu; }
};
}  // namespace

std::size_t compact_bytes_workspace_bytes(std::size_t n,
                                          const prim::classic::CompactConfig& config) {
  return prim::classic::compact_workspace_bytes<std::uint8_t>(n, config);
}

void compact_bytes(const std::uint8_t* padded, std::size_t n, std::uint8_t* out,
                   std::size_t* d_count, prim::Workspace& ws, cudaStream_t stream,
                   const prim::classic::CompactConfig& config) {
  prim::classic::compact_if(padded, out, n, NotPadding{}, d_count, ws, stream, config);
}

}  // namespace utf8::detail
