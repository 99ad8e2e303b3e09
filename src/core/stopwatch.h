// Host wall-clock time for the report's phases (a steady clock: never goes back).
#pragma once

#include <chrono>

namespace raystream {

using SteadyTime = std::chrono::steady_clock::time_point;

inline SteadyTime steady_now() {
  return std::chrono::steady_clock::now();
}

inline double milliseconds_since(SteadyTime start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace raystream
