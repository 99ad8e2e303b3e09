// The codec's one scan: prim::classic::exclusive_scan of uint32 tile sizes, in place.
#include "primitives/classic/scan.cuh"
#include "utf8_kernels.h"

namespace utf8::detail {

std::size_t scan_sizes_workspace_bytes(std::size_t n, const prim::classic::ScanConfig& config) {
  return prim::classic::scan_workspace_bytes<std::uint32_t>(n, config);
}

void scan_sizes(std::uint32_t* sizes, std::size_t n, prim::Workspace& ws, cudaStream_t stream,
                const prim::classic::ScanConfig& config) {
  prim::classic::exclusive_scan(sizes, sizes, n, std::uint32_t(0), prim::Plus{}, ws, stream,
                                config);
}

}  // namespace utf8::detail
