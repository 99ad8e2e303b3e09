// Device memory freed at scope exit, for the utf8 programs.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/error.h"

namespace utf8 {

class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t bytes) {
    PRIM_CUDA_CHECK(cudaMalloc(&data_, bytes ? bytes : 1));
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
};

}  // namespace utf8
