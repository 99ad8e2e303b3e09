// The part of the renderer compiled once per primitives backend (PRIM_BACKEND, set by
// primitives_select_backend in CMake): compaction and material sort through prim::selected.
// Kept small: it is built twice. render_entry.cpp hands these to the wavefront loop.
#include <cstddef>
#include <cstdint>

#include "integrator/path_primitives.h"
#include "integrator/path_state.h"
#include "primitives/backend.h"

#if PRIM_BACKEND == PRIM_BACKEND_THRUST
#include "primitives/caching_allocator.h"
#endif

#if PRIM_BACKEND == PRIM_BACKEND_OWN
#define RAYSTREAM_PRIMITIVES_NAMESPACE own_primitives
#elif PRIM_BACKEND == PRIM_BACKEND_THRUST
#define RAYSTREAM_PRIMITIVES_NAMESPACE thrust_primitives
#endif

namespace raystream::RAYSTREAM_PRIMITIVES_NAMESPACE {

namespace {

class BackendPathPrimitives final : public PathPrimitives {
 public:
  const char* name() const override { return prim::kBackendName; }

  std::size_t workspace_bytes(std::size_t n, bool compact, int key_bits) const override {
    const std::size_t compact_bytes =
        compact ? prim::selected::compact_workspace_bytes<std::uint32_t>(n) : 0;
    const std::size_t sort_bytes =
        key_bits > 0 ? prim::selected::sort_pairs_workspace_bytes<std::uint16_t, std::uint32_t>(
                           n, 0, key_bits)
                     : 0;
    return compact_bytes > sort_bytes ? compact_bytes : sort_bytes;
  }

  void compact_live(const std::uint32_t* ids_in, std::uint32_t* ids_out, std::size_t n,
                    const std::size_t* live, std::size_t* count, prim::Workspace& ws,
                    cudaStream_t stream) const override {
    // The first *live slots, their count read on the device (the Thrust backend reads all n
    // slots and keeps none at or past *live).
    prim::selected::compact_if(ids_in, ids_out, prim::DeviceItems{live, n}, IsLivePath{}, count, ws,
                               stream);
  }

  void sort_by_material(const std::uint16_t* keys_in, std::uint16_t* keys_out,
                        const std::uint32_t* ids_in, std::uint32_t* ids_out, std::size_t n,
                        int key_bits, prim::Workspace& ws, cudaStream_t stream) const override {
    prim::selected::sort_pairs(keys_in, keys_out, ids_in, ids_out, n, 0, key_bits, ws, stream);
  }

  std::size_t extra_device_bytes(prim::Workspace& ws) const override {
#if PRIM_BACKEND == PRIM_BACKEND_THRUST
    return ws.caching_allocator().bytes_held();
#else
    (void)ws;
    return 0;
#endif
  }
};

}  // namespace

const PathPrimitives& path_primitives() {
  static const BackendPathPrimitives primitives;
  return primitives;
}

}  // namespace raystream::RAYSTREAM_PRIMITIVES_NAMESPACE
