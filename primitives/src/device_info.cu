#include <map>
#include <mutex>
#include <tuple>
#include <utility>

#include "primitives/device_info.h"
#include "primitives/error.h"

namespace prim {
namespace {

__global__ void probe_kernel() {}

int current_device() {
  int device = 0;
  PRIM_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

// The kernel facts below: one map per question, keyed by kernel and device (and block shape),
// filled by `query` the first time a key is asked.
std::mutex kernel_mutex;
template <class Key, class Query>
int cached(std::map<Key, int>& cache, const Key& key, Query query) {
  std::lock_guard<std::mutex> lock(kernel_mutex);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, query()).first;
  return it->second;
}

}  // namespace

const DeviceInfo& device_info() {
  // A map: the references handed out stay valid when another thread adds its device.
  static std::mutex mutex;
  static std::map<int, DeviceInfo> cache;
  const int device = current_device();
  std::lock_guard<std::mutex> lock(mutex);
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
    info.cooperative_launch = prop.cooperativeLaunch != 0;
  }
  return info;
}

int kernel_binary_version(const void* kernel) {
  static std::map<std::pair<const void*, int>, int> cache;
  return cached(cache, std::make_pair(kernel, current_device()), [&] {
    cudaFuncAttributes attributes{};
    PRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    return attributes.binaryVersion;
  });
}

int kernel_blocks_per_sm(const void* kernel, int block_threads, std::size_t shared_bytes) {
  static std::map<std::tuple<const void*, int, int, std::size_t>, int> cache;
  const auto key = std::make_tuple(kernel, current_device(), block_threads, shared_bytes);
  return cached(cache, key, [&] {
    int blocks = 0;
    PRIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block_threads,
                                                                  shared_bytes));
    return blocks;
  });
}

std::size_t cooperative_grid_limit(const void* kernel, int block_threads,
                                   std::size_t shared_bytes) {
  const DeviceInfo& info = device_info();
  if (!info.cooperative_launch) return 0;
  return std::size_t(info.sm_count) *
         std::size_t(kernel_blocks_per_sm(kernel, block_threads, shared_bytes));
}

void allow_dynamic_shared(const void* kernel, std::size_t shared_bytes) {
  // The largest limit set so far per kernel and device; only a larger request calls the driver.
  static std::map<std::pair<const void*, int>, std::size_t> allowed;
  const auto key = std::make_pair(kernel, current_device());
  std::lock_guard<std::mutex> lock(kernel_mutex);
  std::size_t& limit = allowed[key];
  if (limit >= shared_bytes) return;
  PRIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(shared_bytes)));
  limit = shared_bytes;
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
