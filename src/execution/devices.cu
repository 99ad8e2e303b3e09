#include <cuda_runtime.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "execution/devices.h"
#include "primitives/device_info.h"
#include "primitives/error.h"

namespace raystream {

bool gpu_available() {
  return prim::cuda_device_available();
}

std::vector<int> all_gpu_devices() {
  std::vector<int> devices;
  if (!gpu_available()) return devices;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) return devices;
  for (int d = 0; d < count; ++d) devices.push_back(d);
  return devices;
}

void set_gpu_device(int device) {
  int count = 0;
  PRIM_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (device < 0 || device >= count)
    throw std::runtime_error("render: CUDA device " + std::to_string(device) + " does not exist (" +
                             std::to_string(count) + " visible)");
  PRIM_CUDA_CHECK(cudaSetDevice(device));
}

double create_gpu_context(int device) {
  const auto start = std::chrono::steady_clock::now();
  if (cudaSetDevice(device) != cudaSuccess || cudaFree(nullptr) != cudaSuccess) {
    cudaGetLastError();
    return 0.0;
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace raystream
