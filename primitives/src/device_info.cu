#include <map>
#include <mutex>
#include <tuple>
#include <utility>

#include "primitives/device_info.h"
#include "primitives/error.h"

namespace prim {

const DeviceInfo& device_info() {
  // A map: the references handed out stay valid when another thread adds its device.
  static std::mutex mutex;
  static std::map<int, DeviceInfo> cache;
  std::lock_guard<std::mutex> lock(mutex);
  int device = 0;
  PRIM_CUDA_CHECK(cudaGetDevice(&device));
  DeviceInfo& info = cache[device];
  if (info.device < 0) {
    cudaDeviceProp prop{};
    PRIM_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    info.device = device;
    info.sm_count = prop.multiProcessorCount;
    info.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
    info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    info.shared_bytes_per_block = prop.sharedMemPerBlock;
    info.shared_bytes_per_block_optin = prop.sharedMemPerBlockOptin;
  }
  return info;
}

namespace {
__global__ void probe_kernel() {}

std::mutex kernel_mutex;
int current_device() {
  int device = 0;
  PRIM_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}
}  // namespace

int kernel_binary_version(const void* kernel) {
  static std::map<std::pair<const void*, int>, int> cache;
  const auto key = std::make_pair(kernel, current_device());
  std::lock_guard<std::mutex> lock(kernel_mutex);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  cudaFuncAttributes attributes{};
  PRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  cache.emplace(key, attributes.binaryVersion);
  return attributes.binaryVersion;
}

int kernel_blocks_per_sm(const void* kernel, int block_threads, std::size_t shared_bytes) {
  static std::map<std::tuple<const void*, int, int, std::size_t>, int> cache;
  const auto key = std::make_tuple(kernel, current_device(), block_threads, shared_bytes);
  std::lock_guard<std::mutex> lock(kernel_mutex);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  int blocks = 0;
  PRIM_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads, shared_bytes));
  cache.emplace(key, blocks);
  return blocks;
}

void allow_dynamic_shared(const void* kernel, std::size_t shared_bytes) {
  static std::map<std::pair<const void*, int>, std::size_t> allowed;
  const auto key = std::make_pair(kernel, current_device());
  std::lock_guard<std::mutex> lock(kernel_mutex);
  auto it = allowed.find(key);
  if (it != allowed.end() && it->second >= shared_bytes) return;
  PRIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(shared_bytes)));
  allowed[key] = shared_bytes;
}

bool cuda_device_available() {
  int count = 0;
  cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return false;
  }
  // A device the build has no code for (older than the CUDA architectures compiled in) cannot run
  // the kernels: the attributes of a kernel of this library are then unavailable.
  cudaFuncAttributes attributes{};
  status = cudaFuncGetAttributes(&attributes, probe_kernel);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

}  // namespace prim
