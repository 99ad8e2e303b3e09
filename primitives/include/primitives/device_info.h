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
};

// Throws prim::Error when no device is usable.
const DeviceInfo& device_info();

// True when a CUDA device is present and the build has code for it (never throws).
bool cuda_device_available();

}  // namespace prim
