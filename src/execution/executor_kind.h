// Where a render's stages run (CUDA kernels on a GPU, or OpenMP loops on the host) and whose
// primitives remove ended paths and sort them, with their names (core/enum_names.h).
#pragma once

#include <cstddef>
#include <iterator>

#include "core/enum_names.h"

namespace raystream {

enum class ExecutorKind { gpu, cpu };
inline constexpr const char* kExecutorKindNames[] = {"gpu", "cpu"};
static_assert(std::size(kExecutorKindNames) == std::size_t(ExecutorKind::cpu) + 1);

inline const char* executor_kind_name(ExecutorKind kind) {
  return enum_name(kind, kExecutorKindNames);
}

// The primitives behind compaction and sorting (execution/path_primitives.h): the project's own
// or Thrust's on the GPU (one per binary), prim::cpu on the CPU executor.
enum class PrimitivesBackend { own, thrust, cpu };
inline constexpr const char* kPrimitivesBackendNames[] = {"own", "thrust", "cpu"};
static_assert(std::size(kPrimitivesBackendNames) == std::size_t(PrimitivesBackend::cpu) + 1);

inline const char* primitives_backend_name(PrimitivesBackend backend) {
  return enum_name(backend, kPrimitivesBackendNames);
}

}  // namespace raystream
