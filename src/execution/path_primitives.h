// The backend-dependent steps of the render: removing dead paths, sorting paths by material, and
// the BVH build's sort of Morton codes. The GPU versions call prim::selected and are compiled once
// per primitives backend (path_primitives_backend.cu); the CPU version calls prim::cpu.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "execution/executor_kind.h"
#include "primitives/workspace.h"

namespace raystream {

// Material keys of at most this many bits (32 buckets) can be sorted by the multisplit.
inline constexpr int kMultisplitKeyBits = 5;

// Bits of a material sort key: keys are 0..material_count-1 for hits and material_count for
// dead slots, so ceil(log2(material_count + 1)) bits, at least 1.
constexpr int material_key_bits(int material_count) {
  int bits = 1;
  while ((1 << bits) <= material_count) ++bits;
  return bits;
}

class PathPrimitives {
 public:
  virtual ~PathPrimitives() = default;

  // own, thrust or cpu.
  virtual PrimitivesBackend backend() const = 0;

  // Workspace bytes for compaction of n slots (when compact) and a sort of n slots
  // over key_bits bits (when key_bits > 0; by the multisplit when `multisplit`).
  virtual std::size_t workspace_bytes(std::size_t n, bool compact, int key_bits,
                                      bool multisplit) const = 0;

  // Keeps the slots of ids_in[0, *live) (*live <= n) that are live (no kDeadBit), in order, in
  // ids_out, and writes how many to *count. live and count are executor memory: the counts stay
  // where the kernels read them. Every backend keeps nothing at or past *live, whatever those slots
  // hold, and leaves ids_out past *count as it was. The own and CPU backends read the live slots
  // only; the Thrust backend reads all n slots (CUB takes its item count from the host) and reads
  // *live on the device.
  virtual void compact_live(const std::uint32_t* ids_in, std::uint32_t* ids_out, std::size_t n,
                            const std::size_t* live, std::size_t* count, prim::Workspace& ws,
                            cudaStream_t stream) const = 0;

  // Stable sort of the (material key, path id) pairs of n slots by key bits [0, key_bits): by the
  // radix sort, or with `multisplit` and key_bits <= kMultisplitKeyBits by the multisplit into
  // 2^key_bits buckets (the same order), which also writes the buckets' offsets: bucket b holds
  // the sorted slots [bucket_offsets[b], bucket_offsets[b + 1]) (2^key_bits + 1 values, executor
  // memory; unused by the radix sort).
  virtual void sort_by_material(const std::uint16_t* keys_in, std::uint16_t* keys_out,
                                const std::uint32_t* ids_in, std::uint32_t* ids_out, std::size_t n,
                                int key_bits, bool multisplit, unsigned long long* bucket_offsets,
                                prim::Workspace& ws, cudaStream_t stream) const = 0;

  // Workspace bytes of sort_codes over n pairs.
  virtual std::size_t code_sort_workspace_bytes(std::size_t n, int code_bits) const = 0;

  // Stable sort of n (code, primitive index) pairs by the code bits [0, code_bits) (the LBVH's
  // Morton codes): the own radix sort over those bits, Thrust's sort_by_key over the whole key
  // (the bits above code_bits are zero, so the order is the same), prim::cpu's on the CPU.
  virtual void sort_codes(const std::uint32_t* codes_in, std::uint32_t* codes_out,
                          const std::uint32_t* ids_in, std::uint32_t* ids_out, std::size_t n,
                          int code_bits, prim::Workspace& ws, cudaStream_t stream) const = 0;

  // Device memory the backend holds beyond the workspace (Thrust's cached temporaries).
  virtual std::size_t extra_device_bytes(prim::Workspace&) const { return 0; }
};

// The CPU executor's primitives (prim::cpu, OpenMP).
const PathPrimitives& cpu_path_primitives();

// The GPU primitives of each backend, defined in path_primitives_backend.cu, which is compiled
// once per backend (raystream_stages_own, raystream_stages_thrust). Distinct names, so a test can
// link both libraries and compare the backends in one binary.
namespace own_primitives {
const PathPrimitives& path_primitives();
}
namespace thrust_primitives {
const PathPrimitives& path_primitives();
}

}  // namespace raystream
