#include <cstring>

#include "execution/executor.h"
#include "primitives/error.h"

namespace raystream {

void fill_bytes(const Executor& ex, void* ptr, int value, std::size_t bytes) {
  if (bytes == 0) return;
  if (ex.gpu()) {
    PRIM_CUDA_CHECK(cudaMemsetAsync(ptr, value, bytes, ex.stream));
  } else {
    std::memset(ptr, value, bytes);
  }
}

void copy_to_host(const Executor& ex, void* host, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  if (ex.gpu()) {
    PRIM_CUDA_CHECK(cudaMemcpyAsync(host, src, bytes, cudaMemcpyDeviceToHost, ex.stream));
    PRIM_CUDA_CHECK(cudaStreamSynchronize(ex.stream));
  } else {
    std::memcpy(host, src, bytes);
  }
}

void copy_to_host_async(const Executor& ex, void* host, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  if (ex.gpu()) {
    PRIM_CUDA_CHECK(cudaMemcpyAsync(host, src, bytes, cudaMemcpyDeviceToHost, ex.stream));
  } else {
    std::memcpy(host, src, bytes);
  }
}

void copy_from_host(const Executor& ex, void* dst, const void* host, std::size_t bytes) {
  if (bytes == 0) return;
  if (ex.gpu()) {
    PRIM_CUDA_CHECK(cudaMemcpyAsync(dst, host, bytes, cudaMemcpyHostToDevice, ex.stream));
    PRIM_CUDA_CHECK(cudaStreamSynchronize(ex.stream));  // the host buffer may go away
  } else {
    std::memcpy(dst, host, bytes);
  }
}

void copy_within(const Executor& ex, void* dst, const void* src, std::size_t bytes) {
  if (bytes == 0) return;
  if (ex.gpu()) {
    PRIM_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, ex.stream));
  } else {
    std::memcpy(dst, src, bytes);
  }
}

void synchronize(const Executor& ex) {
  if (ex.gpu()) PRIM_CUDA_CHECK(cudaStreamSynchronize(ex.stream));
}

}  // namespace raystream
