#include <cstdlib>
#include <new>
#include <stdexcept>
#include <utility>

#include "execution/buffer.h"

namespace raystream {

namespace {

std::string describe(const char* what, std::size_t bytes) {
  return std::string(what) + " (" + std::to_string(bytes) + " bytes, " +
         std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB)";
}

}  // namespace

RawBuffer::RawBuffer(const Executor& ex, const char* what, std::size_t bytes, MemoryTally* tally)
    : bytes_(bytes), gpu_(ex.gpu()) {
  if (bytes == 0) return;
  if (gpu_) {
    const cudaError_t status = cudaMalloc(&data_, bytes);
    if (status != cudaSuccess) {
      cudaGetLastError();  // clear the error so later calls do not report it again
      data_ = nullptr;
      std::size_t free_bytes = 0, total_bytes = 0;
      std::string free_text;
      if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess)
        free_text = "; " + std::to_string(free_bytes >> 20) + " MiB of " +
                    std::to_string(total_bytes >> 20) + " MiB free";
      throw std::runtime_error(
          std::string(status == cudaErrorMemoryAllocation ? "out of GPU memory"
                                                          : "cudaMalloc failed") +
          " allocating " + describe(what, bytes) + ": " + cudaGetErrorString(status) + free_text);
    }
    if (tally) tally->bytes += bytes;
  } else {
    data_ = std::malloc(bytes);
    if (!data_) throw std::runtime_error("out of host memory allocating " + describe(what, bytes));
  }
}

RawBuffer::~RawBuffer() {
  release();
}

RawBuffer::RawBuffer(RawBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      gpu_(other.gpu_) {}

RawBuffer& RawBuffer::operator=(RawBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    gpu_ = other.gpu_;
  }
  return *this;
}

void RawBuffer::release() {
  if (!data_) return;
  if (gpu_) {
    cudaFree(data_);  // in a destructor: nothing sensible to do with a failure
  } else {
    std::free(data_);
  }
  data_ = nullptr;
}

RawHostBuffer::RawHostBuffer(const Executor& ex, const char* what, std::size_t bytes)
    : pinned_(ex.gpu()) {
  if (bytes == 0) return;
  if (pinned_) {
    const cudaError_t status = cudaMallocHost(&data_, bytes);
    if (status != cudaSuccess) {
      cudaGetLastError();
      data_ = nullptr;
      throw std::runtime_error("cudaMallocHost failed allocating " + describe(what, bytes) +
                               " of page-locked host memory: " + cudaGetErrorString(status));
    }
  } else {
    data_ = std::malloc(bytes);
    if (!data_) throw std::runtime_error("out of host memory allocating " + describe(what, bytes));
  }
}

RawHostBuffer::~RawHostBuffer() {
  if (!data_) return;
  if (pinned_) {
    cudaFreeHost(data_);
  } else {
    std::free(data_);
  }
}

}  // namespace raystream
