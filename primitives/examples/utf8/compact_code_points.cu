// Decode by compaction: prim::classic::compact_if keeps the per-byte entries that hold a code
// point.
#include "primitives/classic/compact.cuh"
#include "utf8_kernels.h"

namespace utf8::detail {
namespace {
struct HoldsUnit {
  __host__ __device__ bool operator()(std::uint32_t v) const { return v != kNoUnit; }
};
}  // namespace

std::size_t compact_code_points_workspace_bytes(std::size_t n,
                                                const prim::classic::CompactConfig& config) {
  return prim::classic::compact_workspace_bytes<std::uint32_t>(n, config);
}

void compact_code_points(const std::uint32_t* marked, std::size_t n, std::uint32_t* out,
                         std::size_t* d_count, prim::Workspace& ws, cudaStream_t stream,
                         const prim::classic::CompactConfig& config) {
  prim::classic::compact_if(marked, out, n, HoldsUnit{}, d_count, ws, stream, config);
}

}  // namespace utf8::detail
