// Dispatch of the device-wide scan (prim::own::exclusive_scan / inclusive_scan, scan.cuh): checks
// the arguments, sizes the tiles and the workspace, resets the tile status and launches the
// single-pass look-back kernel (kernels/scan_lookback.cuh; agent/agent_scan.cuh describes the
// algorithm).
//
// Status reset: the tile flags must be zero before a tile publishes. The workspace is shared with
// every other primitive, so its old contents are arbitrary; an epoch stamped into the flags cannot
// tell a stale flag of this scan from a stray bit pattern left by another primitive, and a kernel
// that cleans up after itself breaks as soon as a different call uses the same bytes in between.
// So each call zeroes the flags, 8 bytes per tile rounded up to 256 (1 KiB at 2^20 int32, 256 KiB
// at 2^28): no extra pass over the data, and correct whatever ran before. The zeroing is a kernel
// of its own (zero_for_dependent) and the scan is its programmatic dependent
// (device/dependent_launch.cuh): the scan's blocks launch while it runs, load and scan their
// tiles, and wait for it only before they publish, where a cudaMemsetAsync before a plain launch
// would hold the launch until the memset ends. A single tile needs no reset: it runs alone, and
// what it publishes nobody reads.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "primitives/agent/tile_status.cuh"
#include "primitives/block/block_load.cuh"
#include "primitives/config.h"
#include "primitives/detail/arguments.h"
#include "primitives/device/dependent_launch.cuh"
#include "primitives/device/lookback_shape.cuh"
#include "primitives/error.h"
#include "primitives/kernels/scan_lookback.cuh"
#include "primitives/tuning.h"
#include "primitives/workspace.h"

namespace prim::detail::lookback {

using TileShape = LookbackShape;

template <class T>
TileShape tile_shape(std::size_t n, const ScanConfig& config, const char* function) {
  return lookback_shape<T>(n, config, function);
}

// Workspace: the tile status; the first `reset` bytes (the flags) are zeroed per call.
template <class T>
struct Layout {
  agent::TileStatusFor<T> status;
  std::size_t reset = 0;
  std::size_t bytes = 0;

  Layout(void* workspace, std::size_t tiles) {
    WorkspaceCarver carver(workspace);
    status = agent::TileStatusFor<T>::carve(carver, tiles);
    bytes = carver.used();
    reset = agent::TileStatusFor<T>::reset_bytes(tiles);
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
                   scan_kernel<Inclusive, ITEMS, kVec, T, Op, agent::TileStatusFor<T>>,
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
    launch<Inclusive, tuning::lookback_items_per_thread<T>()>(d_in, d_out, n, identity, op,
                                                              workspace, stream, shape);
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
