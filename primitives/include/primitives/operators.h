// Associative operators with their identities, usable on host and device.
#pragma once

#include <cuda_runtime.h>

namespace prim {

struct Plus {
  template <class T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return a + b;
  }
};
struct Max {
  template <class T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return a < b ? b : a;
  }
};
struct Min {
  template <class T>
  __host__ __device__ T operator()(const T& a, const T& b) const {
    return b < a ? b : a;
  }
};

// Flag predicate for compact_flags: keeps item i when flags[i] != 0.
struct NonZero {
  template <class F>
  __host__ __device__ bool operator()(const F& f) const {
    return f != F(0);
  }
};

}  // namespace prim
