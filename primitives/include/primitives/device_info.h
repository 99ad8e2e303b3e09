// Properties of the current CUDA device that tuning depends on, read once per device.
#pragma once

#include <cstddef>

namespace prim {

struct DeviceInfo {
  int device = -1;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  std::size_t l2_bytes = 0;
  std::size_t shared_bytes_per_block = 0;        // default limit (48 KiB)
  std::size_t shared_bytes_per_block_optin = 0;  // after cudaFuncSetAttribute
  bool cooperative_launch = false;               // grids whose blocks are all resident at once
};

// Throws prim::Error when no device is usable.
const DeviceInfo& device_info();

// True when a CUDA device is present and the build has code for it (never throws).
bool cuda_device_available();

// Facts about a kernel on the current device, queried once per kernel and device (and block
// shape) and cached: the primitives launch every bounce of a render, and the driver queries
// behind these would otherwise run on every call.
//   kernel_binary_version: the architecture of the code that runs (90 for sm_90 machine code;
//     the PTX version when the driver compiles PTX).
//   kernel_blocks_per_sm: resident blocks of `block_threads` threads and `shared_bytes` of
//     dynamic shared memory per SM.
int kernel_binary_version(const void* kernel);
int kernel_blocks_per_sm(const void* kernel, int block_threads, std::size_t shared_bytes);

// The most blocks of `kernel` that a cooperative launch holds on the current device, all resident
// at once: SMs x kernel_blocks_per_sm; 0 where the device has no cooperative launch.
std::size_t cooperative_grid_limit(const void* kernel, int block_threads, std::size_t shared_bytes);

// Lets `kernel` launch with `shared_bytes` of dynamic shared memory on the current device
// (cudaFuncAttributeMaxDynamicSharedMemorySize), calling the driver only when the limit it set
// before for this kernel and device is lower. After a cudaDeviceReset the driver's limit is back
// to its default while this cache still holds the old one.
void allow_dynamic_shared(const void* kernel, std::size_t shared_bytes);

}  // namespace prim
