// The part of the renderer compiled once per primitives backend (PRIM_BACKEND, set by
// primitives_select_backend in CMake): compaction, material sort and the BVH build's code sort
// through prim::selected.
// Kept small: it is built twice. render_entry.cpp hands these to the wavefront loop.
#include <cstddef>
#include <cstdint>

#include "execution/path_ids.h"
#include "execution/path_primitives.h"
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

// The multisplit's bucket: the material key itself (keys < 2^key_bits <= 32).
struct KeyIsBucket {
  __host__ __device__ unsigned operator()(std::uint16_t key) const { return key; }
};

// The last bit the code sort sorts by. Thrust sorts whole keys (thrust::stable_sort_by_key, CUB's
// radix sort); given a part of the key, the Thrust backend would first copy the field out and
// gather afterwards. The codes' bits above code_bits are zero, so sorting the whole key gives the
// same order with the idiomatic call. The own sort takes the range and skips those bits.
constexpr int sort_end_bit(int code_bits) {
#if PRIM_BACKEND == PRIM_BACKEND_THRUST
  (void)code_bits;
  return 32;
#else
  return code_bits;
#endif
}

class BackendPathPrimitives final : public PathPrimitives {
 public:
  PrimitivesBackend backend() const override {
#if PRIM_BACKEND == PRIM_BACKEND_THRUST
    return PrimitivesBackend::thrust;
#else
    return PrimitivesBackend::own;
#endif
  }

  std::size_t workspace_bytes(std::size_t n, bool compact, int key_bits,
                              bool multisplit) const override {
    const std::size_t compact_bytes =
        compact ? prim::selected::compact_workspace_bytes<std::uint32_t>(n) : 0;
    std::size_t sort_bytes = 0;
    if (key_bits > 0 && multisplit && key_bits <= kMultisplitKeyBits) {
      sort_bytes = prim::selected::multisplit_workspace_bytes<std::uint16_t, std::uint32_t>(
          n, 1 << key_bits);
    } else if (key_bits > 0) {
      sort_bytes =
          prim::selected::sort_pairs_workspace_bytes<std::uint16_t, std::uint32_t>(n, 0, key_bits);
    }
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
                        int key_bits, bool multisplit, unsigned long long* bucket_offsets,
                        prim::Workspace& ws, cudaStream_t stream) const override {
    if (multisplit && key_bits <= kMultisplitKeyBits) {
      prim::selected::multisplit_pairs(keys_in, keys_out, ids_in, ids_out, n, 1 << key_bits,
                                       KeyIsBucket{}, bucket_offsets, ws, stream);
    } else {
      prim::selected::sort_pairs(keys_in, keys_out, ids_in, ids_out, n, 0, key_bits, ws, stream);
    }
  }

  std::size_t code_sort_workspace_bytes(std::size_t n, int code_bits) const override {
    return prim::selected::sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(
        n, 0, sort_end_bit(code_bits));
  }

  void sort_codes(const std::uint32_t* codes_in, std::uint32_t* codes_out,
                  const std::uint32_t* ids_in, std::uint32_t* ids_out, std::size_t n, int code_bits,
                  prim::Workspace& ws, cudaStream_t stream) const override {
    prim::selected::sort_pairs(codes_in, codes_out, ids_in, ids_out, n, 0, sort_end_bit(code_bits),
                               ws, stream);
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
