// Device memory for tests: a buffer with guard items past the end, poisoned before each call so
// that items a primitive fails to write, or writes past the end, show up as mismatches.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "primitives/error.h"

namespace prim_test {

inline constexpr unsigned char kPoisonByte = 0xAB;
inline constexpr std::size_t kGuardItems = 64;

template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t capacity) : capacity_(capacity) {
    PRIM_CUDA_CHECK(cudaMalloc(&data_, (capacity_ + kGuardItems) * sizeof(T)));
    poison();
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return data_; }
  std::size_t capacity() const { return capacity_; }

  // Fills every byte, guard items included, with kPoisonByte.
  void poison() {
    PRIM_CUDA_CHECK(cudaMemset(data_, kPoisonByte, (capacity_ + kGuardItems) * sizeof(T)));
  }
  void upload(const std::vector<T>& items) {
    if (items.size() > capacity_) throw prim::Error("DeviceBuffer::upload: too many items");
    if (!items.empty())
      PRIM_CUDA_CHECK(
          cudaMemcpy(data_, items.data(), items.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  // Waits for the device, then copies the first n items back.
  std::vector<T> download(std::size_t n) const {
    PRIM_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> items(n);
    if (n > 0)
      PRIM_CUDA_CHECK(cudaMemcpy(items.data(), data_, n * sizeof(T), cudaMemcpyDeviceToHost));
    return items;
  }
  // True when the kGuardItems items after the first n still hold the poison.
  bool guard_intact(std::size_t n) const {
    PRIM_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> bytes(kGuardItems * sizeof(T));
    PRIM_CUDA_CHECK(cudaMemcpy(bytes.data(), data_ + n, bytes.size(), cudaMemcpyDeviceToHost));
    for (unsigned char b : bytes)
      if (b != kPoisonByte) return false;
    return true;
  }

 private:
  T* data_ = nullptr;
  std::size_t capacity_;
};

// A device-side count, poisoned before each call.
class DeviceCount {
 public:
  DeviceCount() { PRIM_CUDA_CHECK(cudaMalloc(&data_, sizeof(std::size_t))); }
  ~DeviceCount() { cudaFree(data_); }
  DeviceCount(const DeviceCount&) = delete;
  DeviceCount& operator=(const DeviceCount&) = delete;
  std::size_t* get() const { return data_; }
  void poison() { PRIM_CUDA_CHECK(cudaMemset(data_, kPoisonByte, sizeof(std::size_t))); }
  std::size_t read() const {
    PRIM_CUDA_CHECK(cudaDeviceSynchronize());
    std::size_t value = 0;
    PRIM_CUDA_CHECK(cudaMemcpy(&value, data_, sizeof(value), cudaMemcpyDeviceToHost));
    return value;
  }

 private:
  std::size_t* data_ = nullptr;
};

}  // namespace prim_test
