// Dispatch of the device-wide scan (prim::own::exclusive_scan / inclusive_scan, scan.cuh): checks
// the arguments, sizes the tiles and the workspace, resets the tile status and launches the
// single-pass look-back kernel (kernels/scan_lookback.cuh, which describes the algorithm).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "primitives/block/tile_lookback.cuh"
#include "primitives/block/tile_shape.cuh"
#include "primitives/block/tile_status.cuh"
#include "primitives/config.h"
#include "primitives/detail/arguments.h"
#include "primitives/device/dependent_launch.cuh"
#include "primitives/error.h"
#include "primitives/kernels/scan_lookback.cuh"
#include "primitives/workspace.h"

namespace prim::detail::lookback {

using TileShape = block::LookbackShape;

template <class T>
TileShape tile_shape(std::size_t n, const ScanConfig& config, const char* function) {
  return block::lookback_shape<T>(n, config, function);
}

// Workspace: the tile status; the first `reset` bytes (the flags) are zeroed per call.
template <class T>
struct Layout {
  block::TileStatusFor<T> status;
  std::size_t reset = 0;
  std::size_t bytes = 0;

  Layout(void* workspace, std::size_t tiles) {
    WorkspaceCarver carver(workspace);
    status = block::TileStatusFor<T>::carve(carver, tiles);
    bytes = carver.used();
    reset = block::TileStatusFor<T>::reset_bytes(tiles);
  }
};

template <class T>
std::size_t workspace_bytes(std::size_t n, const ScanConfig& config) {
  return Layout<T>(nullptr, tile_shape<T>(n, config, "prim::own scan (lookback)").tiles).bytes;
}

template <bool Inclusive, int ITEMS, class T, class Op>
void launch(const T* in, T* out, std::size_t n, T identity, Op op, void* workspace,
            cudaStream_t stream, const TileShape& shape) {
  constexpr int kVec = block::vector_width<T, ITEMS>();
  const Layout<T> layout(workspace, shape.tiles);
  const bool aligned = reinterpret_cast<std::uintptr_t>(in) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(out) % 16 == 0;
  const bool single = shape.tiles == 1;  // one launch only: nothing to look back on
  if (single) {
    scan_kernel<Inclusive, ITEMS, kVec><<<1, shape.threads, 0, stream>>>(
        in, out, n, identity, op, layout.status, aligned, shape.schedule);
    PRIM_LAUNCH_CHECK("lookback::scan_kernel");
    return;
  }
  // The status is zeroed by a kernel that lets the scan's blocks launch meanwhile; they wait
  // for it before they publish.
  zero_for_dependent(workspace, layout.reset, stream);
  launch_dependent("lookback::scan_kernel",
                   scan_kernel<Inclusive, ITEMS, kVec, T, Op, block::TileStatusFor<T>>,
                   dim3(static_cast<unsigned>(shape.tiles)), dim3(shape.threads), 0, stream, in,
                   out, n, identity, op, layout.status, aligned, shape.schedule);
}

// d_out may equal d_in: every tile reads its items before it writes them, and no tile reads
// another tile's items.
template <bool Inclusive, class T, class Op>
void scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, void* workspace,
          cudaStream_t stream, const ScanConfig& config) {
  const TileShape shape = tile_shape<T>(n, config, "prim::own scan (lookback)");
  if (shape.items == 1) {
    launch<Inclusive, 1>(d_in, d_out, n, identity, op, workspace, stream, shape);
  } else {
    launch<Inclusive, block::default_items_per_thread<T>()>(d_in, d_out, n, identity, op, workspace,
                                                            stream, shape);
  }
}

}  // namespace prim::detail::lookback

namespace prim::detail {

// The public scans' entry: argument checks, the workspace size, then the look-back scan.
template <bool Inclusive, class T, class Op>
void dispatch_scan(const char* function, const T* d_in, T* d_out, std::size_t n, T identity, Op op,
                   Workspace& ws, cudaStream_t stream, const ScanConfig& config) {
  static_assert(std::is_trivially_copyable_v<T>, "scan needs a trivially copyable T");
  if (!check_scan_arguments(function, d_in, d_out, n)) return;
  ws.require(lookback::workspace_bytes<T>(n, config), function);
  lookback::scan<Inclusive>(d_in, d_out, n, identity, op, ws.data(), stream, config);
}

}  // namespace prim::detail
