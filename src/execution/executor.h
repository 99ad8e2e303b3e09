// Where the stages run: CUDA kernels on a stream, or OpenMP loops on the host.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "execution/executor_kind.h"

namespace raystream {

struct Executor {
  ExecutorKind kind = ExecutorKind::cpu;
  cudaStream_t stream = nullptr;  // GPU only
  bool gpu() const { return kind == ExecutorKind::gpu; }
};

// Sets `bytes` bytes at `ptr` to `value` (a cudaMemsetAsync on the stream, or memset).
void fill_bytes(const Executor& ex, void* ptr, int value, std::size_t bytes);

// Copies `bytes` bytes from executor memory to the host, waiting for the stream on the GPU.
void copy_to_host(const Executor& ex, void* host, const void* src, std::size_t bytes);

// Queues a copy of `bytes` bytes from executor memory to the host on the stream (GPU: `host`
// must be page-locked, see HostBuffer, and is valid once the stream has passed this point; CPU: a
// memcpy, done on return).
void copy_to_host_async(const Executor& ex, void* host, const void* src, std::size_t bytes);

// Copies `bytes` bytes from the host into executor memory.
void copy_from_host(const Executor& ex, void* dst, const void* host, std::size_t bytes);

// Queues a copy of `bytes` bytes between two places in executor memory (GPU: on the stream).
void copy_within(const Executor& ex, void* dst, const void* src, std::size_t bytes);

// Waits until the stream has done what was queued on it (nothing to wait for on the CPU).
void synchronize(const Executor& ex);

}  // namespace raystream
