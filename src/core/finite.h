// Finite-value checks for per-path math, on both executors.
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"

namespace raystream {

// False for infinities and NaN (x - x is NaN for both); the build does not use fast math.
RAYSTREAM_HD inline bool is_finite(float x) {
  return x - x == 0.0f;
}

RAYSTREAM_HD inline bool is_finite(const glm::vec3& v) {
  return is_finite(v.x) && is_finite(v.y) && is_finite(v.z);
}

}  // namespace raystream
