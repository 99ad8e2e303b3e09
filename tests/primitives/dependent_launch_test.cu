// The programmatic-dependent-launch helpers (primitives/device/dependent_launch.cuh): the zeroing
// kernel at every alignment and size, a dependent that reads what the kernels ahead wrote, and
// cooperative launches that fit the GPU or are refused without harm.
#include <cooperative_groups.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "primitives/device/dependent_launch.cuh"
#include "primitives/device_info.h"
#include "test_support.h"

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

// The cached kernel facts equal the driver's answers, per kernel and per block shape, on every
// call (a cache keyed by the kernel alone would return the first shape's count for the second).
// Each block adds one to the counter, waits at the grid barrier, then reads the total.
__global__ void grid_count_kernel(unsigned* counter, unsigned* seen) {
  if (threadIdx.x == 0) atomicAdd(counter, 1u);
  cooperative_groups::this_grid().sync();
  if (threadIdx.x == 0) seen[blockIdx.x] = atomicAdd(counter, 0u);
}

// The most blocks of grid_count_kernel the GPU holds at once.
unsigned resident_grid_count_blocks() {
  const int per_sm =
      prim::kernel_blocks_per_sm(reinterpret_cast<const void*>(grid_count_kernel), 256, 0);
  return static_cast<unsigned>(prim::device_info().sm_count * per_sm);
}

// A grid the GPU holds at once passes its barrier, every block seeing every block's add.
TEST(LaunchCooperative, RunsAGridThatFits) {
  const unsigned fits = resident_grid_count_blocks();
  ASSERT_GT(fits, 0u);
  DeviceBuffer<unsigned> counter(1), seen(fits);
  PRIM_CUDA_CHECK(cudaMemset(counter.get(), 0, sizeof(unsigned)));
  ASSERT_TRUE(prim::detail::launch_cooperative_if_it_fits("grid_count_kernel", grid_count_kernel,
                                                          dim3(fits), dim3(256), 0, 0,
                                                          counter.get(), seen.get()));
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<unsigned> totals = seen.download(fits);
  for (unsigned b = 0; b < fits; ++b) ASSERT_EQ(totals[b], fits) << "block " << b;
}

// One block more is refused (cudaErrorCooperativeLaunchTooLarge): the helper says so, clears the
// error and leaves the context usable, so that the one-wave callers take their chained paths.
// compute-sanitizer's memcheck counts the refused call as an error, so this runs outside it only.
TEST(LaunchCooperative, RefusesAGridThatDoesNotFitWithoutHarm) {
  if (under_sanitizer()) GTEST_SKIP() << "the refused launch is an API error to memcheck";
  const unsigned fits = resident_grid_count_blocks();
  DeviceBuffer<unsigned> counter(1), seen(fits + 1);
  EXPECT_FALSE(prim::detail::launch_cooperative_if_it_fits("grid_count_kernel", grid_count_kernel,
                                                           dim3(fits + 1), dim3(256), 0, 0,
                                                           counter.get(), seen.get()));
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the refusal is cleared";
  // Any other error throws, naming the kernel (here a block larger than any GPU's), and is cleared.
  try {
    prim::detail::launch_cooperative_if_it_fits("grid_count_kernel", grid_count_kernel, dim3(1),
                                                dim3(4096), 0, 0, counter.get(), seen.get());
    ADD_FAILURE() << "a block of 4096 threads was launched";
  } catch (const prim::Error& e) {
    EXPECT_NE(std::string(e.what()).find("grid_count_kernel"), std::string::npos) << e.what();
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the error is cleared once thrown";
  fill_kernel<<<4, 256>>>(seen.get(), fits, 5u);
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(seen.download(1)[0], 5u);
}

TEST(KernelInfo, CachedAnswersMatchTheDriverPerKernelAndShape) {
  const void* kernels[] = {reinterpret_cast<const void*>(fill_kernel),
                           reinterpret_cast<const void*>(dependent_copy_kernel)};
  const int shapes[] = {1024, 64, 256};
  for (int call = 0; call < 2; ++call) {
    for (const void* kernel : kernels) {
      cudaFuncAttributes attributes{};
      PRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
      EXPECT_EQ(prim::kernel_binary_version(kernel), attributes.binaryVersion);
      for (int threads : shapes) {
        for (std::size_t shared : {std::size_t(0), std::size_t(40) << 10}) {
          SCOPED_TRACE(testing::Message() << threads << " threads, " << shared << " bytes");
          int blocks = 0;
          PRIM_CUDA_CHECK(
              cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared));
          EXPECT_GT(blocks, 0);
          EXPECT_EQ(prim::kernel_blocks_per_sm(kernel, threads, shared), blocks);
        }
      }
    }
  }
}

// Fills `words` words of dynamic shared memory, then each thread reads one from the far end.
__global__ void shared_kernel(unsigned* out, unsigned words) {
  extern __shared__ unsigned shared_words[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) shared_words[i] = i * 3u + 1u;
  __syncthreads();
  out[threadIdx.x] = shared_words[words - 1 - threadIdx.x];
}

// allow_dynamic_shared raises the kernel's limit so a launch with that much dynamic shared memory
// runs, and a later, smaller request does not lower it again.
TEST(KernelInfo, AllowDynamicSharedRaisesTheLimitAndNeverLowersIt) {
  const std::size_t large = std::size_t(96) << 10, small = std::size_t(50) << 10;
  if (prim::device_info().shared_bytes_per_block_optin < large)
    GTEST_SKIP() << "the device allows less than 96 KiB of shared memory per block";
  const void* kernel = reinterpret_cast<const void*>(shared_kernel);
  const unsigned words = static_cast<unsigned>(large / sizeof(unsigned));
  DeviceBuffer<unsigned> out(256);
  for (std::size_t request : {large, small, large}) {
    SCOPED_TRACE(testing::Message() << "after a request of " << request << " bytes");
    prim::allow_dynamic_shared(kernel, request);
    cudaFuncAttributes attributes{};
    PRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    EXPECT_GE(static_cast<std::size_t>(attributes.maxDynamicSharedSizeBytes), large);
    out.poison();
    shared_kernel<<<1, 256, large>>>(out.get(), words);
    PRIM_CUDA_CHECK(cudaGetLastError());
    PRIM_CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<unsigned> got = out.download(256);
    std::size_t wrong = 0;
    for (unsigned t = 0; t < 256; ++t) wrong += got[t] != (words - 1 - t) * 3u + 1u;
    EXPECT_EQ(wrong, 0u);
  }
}

}  // namespace
}  // namespace prim_test
