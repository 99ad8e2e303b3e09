// An array in executor memory: cudaMalloc on the GPU executor, the host heap on the CPU one.
// Allocated once per render; a failed allocation throws std::runtime_error naming the buffer and
// its size.
#pragma once

#include <cstddef>
#include <string>

#include "execution/executor.h"

namespace raystream {

// Device bytes allocated by the renderer's buffers, for the peak-memory statistic.
struct MemoryTally {
  std::size_t bytes = 0;
};

class RawBuffer {
 public:
  RawBuffer() = default;
  RawBuffer(const Executor& ex, const char* what, std::size_t bytes, MemoryTally* tally);
  ~RawBuffer();
  RawBuffer(RawBuffer&& other) noexcept;
  RawBuffer& operator=(RawBuffer&& other) noexcept;
  RawBuffer(const RawBuffer&) = delete;
  RawBuffer& operator=(const RawBuffer&) = delete;

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void release();
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  bool gpu_ = false;
};

template <class T>
class Buffer {
 public:
  Buffer() = default;
  Buffer(const Executor& ex, const char* what, std::size_t count, MemoryTally* tally)
      : raw_(ex, what, count * sizeof(T), tally), count_(count) {}
  T* data() const { return static_cast<T*>(raw_.data()); }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return raw_.bytes(); }

 private:
  RawBuffer raw_;
  std::size_t count_ = 0;
};

// Host memory the GPU copies into while the host goes on: page-locked (cudaMallocHost) on the
// GPU executor, the heap on the CPU one.
class RawHostBuffer {
 public:
  RawHostBuffer(const Executor& ex, const char* what, std::size_t bytes);
  ~RawHostBuffer();
  RawHostBuffer(const RawHostBuffer&) = delete;
  RawHostBuffer& operator=(const RawHostBuffer&) = delete;
  void* data() const { return data_; }

 private:
  void* data_ = nullptr;
  bool pinned_ = false;
};

template <class T>
class HostBuffer {
 public:
  HostBuffer(const Executor& ex, const char* what, std::size_t count)
      : raw_(ex, what, count * sizeof(T)), count_(count) {}
  T* data() const { return static_cast<T*>(raw_.data()); }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  T& operator[](std::size_t i) const { return data()[i]; }

 private:
  RawHostBuffer raw_;
  std::size_t count_;
};

}  // namespace raystream
