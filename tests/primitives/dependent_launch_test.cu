// The programmatic-dependent-launch helpers (primitives/device/dependent_launch.cuh): the zeroing
// kernel at every alignment and size, and a dependent that reads what the kernels ahead wrote.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "device_buffer.h"
#include "primitives/device/dependent_launch.cuh"

namespace prim_test {
namespace {

TEST(ZeroForDependent, ZeroesExactlyTheRangeAtEveryAlignment) {
  const std::size_t sizes[] = {0, 1, 2, 15, 16, 17, 31, 33, 255, 256, 4096 + 7, (1u << 20) + 3};
  const std::size_t capacity = (1u << 20) + 64;
  DeviceBuffer<unsigned char> buffer(capacity);
  for (std::size_t offset = 0; offset < 18; ++offset) {
    for (std::size_t size : sizes) {
      SCOPED_TRACE(testing::Message() << "offset " << offset << ", " << size << " bytes");
      buffer.poison();
      prim::detail::zero_for_dependent(buffer.get() + offset, size, 0);
      PRIM_CUDA_CHECK(cudaDeviceSynchronize());
      const std::vector<unsigned char> bytes = buffer.download(capacity);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < capacity; ++i) {
        const bool inside = i >= offset && i < offset + size;
        wrong += bytes[i] != (inside ? 0 : kPoisonByte);
      }
      EXPECT_EQ(wrong, 0u);
    }
  }
}

__global__ void fill_kernel(unsigned* out, std::size_t n, unsigned value) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = value;
}

// Waits for the kernels ahead, then copies what they wrote: the zeroed counters and the filled
// items, through loads the compiler may not move above the wait.
__global__ void dependent_copy_kernel(const unsigned* counters, const unsigned* items,
                                      unsigned* out, std::size_t n) {
  prim::detail::griddep_wait();
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = counters[i] + items[i];
}

TEST(LaunchDependent, SeesTheZeroingAndTheWorkBeforeIt) {
  const std::size_t n = (1u << 22) + 5;  // enough blocks that some start before the zeroing ends
  DeviceBuffer<unsigned> counters(n), items(n), out(n);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE(testing::Message() << "round " << round);
    counters.poison();
    out.poison();
    fill_kernel<<<1024, 256>>>(items.get(), n, 7u + round);
    prim::detail::zero_for_dependent(counters.get(), n * sizeof(unsigned), 0);
    prim::detail::launch_dependent("dependent_copy_kernel", dependent_copy_kernel,
                                   dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, 0,
                                   counters.get(), items.get(), out.get(), n);
    PRIM_CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<unsigned> got = out.download(n);
    std::size_t wrong = 0;
    for (unsigned v : got) wrong += v != 7u + round;
    EXPECT_EQ(wrong, 0u);
  }
}

}  // namespace
}  // namespace prim_test
