#include <cstddef>
#include <cstdint>

#include "execution/path_ids.h"
#include "execution/path_primitives.h"
#include "primitives/cpu/cpu_backend.h"

namespace raystream {

namespace {

class CpuPathPrimitives final : public PathPrimitives {
 public:
  PrimitivesBackend backend() const override { return PrimitivesBackend::cpu; }
  std::size_t workspace_bytes(std::size_t, bool, int, bool) const override { return 0; }
  void compact_live(const std::uint32_t* ids_in, std::uint32_t* ids_out, std::size_t n,
                    const std::size_t* live, std::size_t* count, prim::Workspace&,
                    cudaStream_t) const override {
    *count = prim::cpu::compact_if_parallel(ids_in, ids_out, *live < n ? *live : n, IsLivePath{});
  }
  void sort_by_material(const std::uint16_t* keys_in, std::uint16_t* keys_out,
                        const std::uint32_t* ids_in, std::uint32_t* ids_out, std::size_t n,
                        int key_bits, bool multisplit, unsigned long long* bucket_offsets,
                        prim::Workspace&, cudaStream_t) const override {
    if (multisplit && key_bits <= kMultisplitKeyBits) {
      prim::cpu::multisplit_pairs(
          keys_in, keys_out, ids_in, ids_out, n, 1 << key_bits,
          [](std::uint16_t key) { return unsigned(key); }, bucket_offsets);
    } else {
      prim::cpu::sort_pairs_parallel(keys_in, keys_out, ids_in, ids_out, n, 0, key_bits);
    }
  }
  std::size_t code_sort_workspace_bytes(std::size_t, int) const override { return 0; }
  void sort_codes(const std::uint32_t* codes_in, std::uint32_t* codes_out,
                  const std::uint32_t* ids_in, std::uint32_t* ids_out, std::size_t n, int code_bits,
                  prim::Workspace&, cudaStream_t) const override {
    prim::cpu::sort_pairs_parallel(codes_in, codes_out, ids_in, ids_out, n, 0, code_bits);
  }
};

}  // namespace

const PathPrimitives& cpu_path_primitives() {
  static const CpuPathPrimitives primitives;
  return primitives;
}

}  // namespace raystream
