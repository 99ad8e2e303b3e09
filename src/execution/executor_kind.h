// Where a render's stages run: CUDA kernels on a GPU, or OpenMP loops on the host.
#pragma once

namespace raystream {

enum class ExecutorKind { gpu, cpu };

inline const char* executor_kind_name(ExecutorKind kind) {
  return kind == ExecutorKind::gpu ? "gpu" : "cpu";
}

}  // namespace raystream
