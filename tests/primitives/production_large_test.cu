// 2^31 + 1 items through the lookback scan and the fused partition: every offset past 32 bits.
// Inputs are generated and results checked on the device (no 17 GB host copies); the tests skip
// when the device lacks the memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "primitives/compact.cuh"
#include "primitives/scan.cuh"
#include "production_support.h"

namespace prim_production_test {
namespace {

constexpr std::size_t kHuge = (std::size_t(1) << 31) + 1;

bool device_has(std::size_t bytes) {
  std::size_t free_bytes = 0, total = 0;
  PRIM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
  return free_bytes > bytes + (std::size_t(1) << 30);
}

// Mismatch count and the smallest mismatching index, on the device.
struct Mismatches {
  unsigned long long count;
  unsigned long long first;
};

__device__ void report(Mismatches* m, std::size_t i) {
  atomicAdd(&m->count, 1ull);
  atomicMin(&m->first, static_cast<unsigned long long>(i));
}

#define GRID_STRIDE(i, n)                                                           \
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < (n); \
       i += std::size_t(gridDim.x) * blockDim.x)

__global__ void fill_bytes_kernel(std::uint8_t* p, std::size_t n) {
  GRID_STRIDE(i, n) p[i] = static_cast<std::uint8_t>(7 * i + 3);
}
// Inclusive sum mod 256 of (7 j + 3) for j <= i: 7 i (i + 1) / 2 + 3 (i + 1).
__global__ void check_byte_scan_kernel(const std::uint8_t* out, std::size_t n, Mismatches* m) {
  GRID_STRIDE(i, n) {
    const unsigned long long k = i;
    const auto expected = static_cast<std::uint8_t>(7 * (k * (k + 1) / 2) + 3 * (k + 1));
    if (out[i] != expected) report(m, i);
  }
}
__global__ void fill_ones_kernel(long long* p, std::size_t n) {
  GRID_STRIDE(i, n) p[i] = 1;
}
__global__ void check_index_kernel(const long long* out, std::size_t n, Mismatches* m) {
  GRID_STRIDE(i, n) if (out[i] != static_cast<long long>(i)) report(m, i);
}
__global__ void fill_mod_kernel(std::uint8_t* p, std::size_t n) {
  GRID_STRIDE(i, n) p[i] = static_cast<std::uint8_t>(i % 251);
}
// Partition of (i mod 251) by "< 100": kept j holds j mod 100, rejected k holds 100 + k mod 151.
__global__ void check_partition_kernel(const std::uint8_t* out, std::size_t n, std::size_t kept,
                                       Mismatches* m) {
  GRID_STRIDE(i, n) {
    const std::size_t expected = i < kept ? i % 100 : 100 + (i - kept) % 151;
    if (out[i] != expected) report(m, i);
  }
}

struct KeepBelow100 {
  __host__ __device__ bool operator()(std::uint8_t x) const { return x < 100; }
};

class DeviceMismatches {
 public:
  DeviceMismatches() {
    PRIM_CUDA_CHECK(cudaMalloc(&data_, sizeof(Mismatches)));
    const Mismatches none{0, ~0ull};
    PRIM_CUDA_CHECK(cudaMemcpy(data_, &none, sizeof(none), cudaMemcpyHostToDevice));
  }
  ~DeviceMismatches() { cudaFree(data_); }
  Mismatches* get() const { return data_; }
  Mismatches read() const {
    Mismatches m{};
    PRIM_CUDA_CHECK(cudaMemcpy(&m, data_, sizeof(m), cudaMemcpyDeviceToHost));
    return m;
  }

 private:
  Mismatches* data_ = nullptr;
};

constexpr unsigned kBlocks = 4096, kThreads = 256;

TEST(Huge, ByteScanPast32Bits) {
  if (!device_has(2 * kHuge)) GTEST_SKIP() << "needs " << 2 * kHuge << " bytes";
  DeviceArray<std::uint8_t> in(kHuge), out(kHuge);
  fill_bytes_kernel<<<kBlocks, kThreads>>>(in.get(), kHuge);
  PRIM_LAUNCH_CHECK("fill_bytes_kernel");
  prim::Workspace ws(prim::own::scan_workspace_bytes<std::uint8_t>(kHuge));
  prim::own::inclusive_scan(in.get(), out.get(), kHuge, std::uint8_t(0), prim::Plus{}, ws);
  DeviceMismatches bad;
  check_byte_scan_kernel<<<kBlocks, kThreads>>>(out.get(), kHuge, bad.get());
  PRIM_LAUNCH_CHECK("check_byte_scan_kernel");
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  const Mismatches m = bad.read();
  EXPECT_EQ(m.count, 0u) << "first mismatch at " << m.first;
}

TEST(Huge, Int64IndicesInPlace) {
  if (!device_has(8 * kHuge)) GTEST_SKIP() << "needs " << 8 * kHuge << " bytes";
  DeviceArray<long long> data(kHuge);
  fill_ones_kernel<<<kBlocks, kThreads>>>(data.get(), kHuge);
  PRIM_LAUNCH_CHECK("fill_ones_kernel");
  prim::Workspace ws(prim::own::scan_workspace_bytes<long long>(kHuge));
  prim::own::exclusive_scan(data.get(), data.get(), kHuge, 0ll, prim::Plus{}, ws);
  DeviceMismatches bad;
  check_index_kernel<<<kBlocks, kThreads>>>(data.get(), kHuge, bad.get());
  PRIM_LAUNCH_CHECK("check_index_kernel");
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  const Mismatches m = bad.read();
  EXPECT_EQ(m.count, 0u) << "first mismatch at " << m.first;
}

TEST(Huge, BytePartitionPast32Bits) {
  if (!device_has(2 * kHuge)) GTEST_SKIP() << "needs " << 2 * kHuge << " bytes";
  DeviceArray<std::uint8_t> in(kHuge), out(kHuge);
  DeviceArray<std::size_t> count(1);
  fill_mod_kernel<<<kBlocks, kThreads>>>(in.get(), kHuge);
  PRIM_LAUNCH_CHECK("fill_mod_kernel");
  prim::Workspace ws(prim::own::compact_workspace_bytes<std::uint8_t>(kHuge));
  prim::own::stable_partition(in.get(), out.get(), kHuge, KeepBelow100{}, count.get(), ws);
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  const std::size_t kept = read_count(count.get());
  EXPECT_EQ(kept, kHuge / 251 * 100 + std::min<std::size_t>(kHuge % 251, 100));
  DeviceMismatches bad;
  check_partition_kernel<<<kBlocks, kThreads>>>(out.get(), kHuge, kept, bad.get());
  PRIM_LAUNCH_CHECK("check_partition_kernel");
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  const Mismatches m = bad.read();
  EXPECT_EQ(m.count, 0u) << "first mismatch at " << m.first;
}

}  // namespace
}  // namespace prim_production_test
