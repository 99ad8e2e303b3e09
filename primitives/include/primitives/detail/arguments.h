// Argument checks shared by the own backend's dispatch and the classic variants' dispatchers.
#pragma once

#include <cstddef>

#include "primitives/error.h"

namespace prim::detail {

// Throws prim::Error naming `function` for null pointers with n > 0. Returns false when there is
// nothing to scan (n == 0). d_out == d_in (in place) is allowed.
template <class T>
bool check_scan_arguments(const char* function, const T* d_in, const T* d_out, std::size_t n) {
  if (n == 0) return false;
  require(d_in != nullptr, function, "d_in is null with n > 0");
  require(d_out != nullptr, function, "d_out is null with n > 0");
  return true;
}

// Throws prim::Error naming `function` for a null d_count, a device-side count d_n (may be null)
// that aliases d_count, null items with n > 0 or an output aliasing the input. Returns false when
// there is nothing to select (n == 0): the caller writes *d_count = 0.
template <class T>
bool check_select_arguments(const char* function, const T* d_in, const T* d_out, std::size_t n,
                            const std::size_t* d_n, const std::size_t* d_count) {
  require(d_count != nullptr, function, "d_count is null");
  if (d_n != nullptr) {
    require(d_n != d_count, function, "DeviceItems::d_n must not alias d_count");
  }
  if (n == 0) return false;
  require(d_in != nullptr, function, "d_in is null with n > 0");
  require(d_out != nullptr, function, "d_out is null with n > 0");
  require(static_cast<const void*>(d_in) != static_cast<const void*>(d_out), function,
          "d_out must not alias d_in");
  return true;
}

}  // namespace prim::detail
