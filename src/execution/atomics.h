// Atomic updates of executor memory, one definition for both executors: CUDA atomics in device
// code, GCC atomic builtins or OpenMP atomics on the host (the CPU executor's OpenMP loops).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <type_traits>

#include "core/host_device.h"

namespace raystream {

// One number added to a sum: a float, a double or an unsigned 64-bit integer (what CUDA's
// atomicAdd takes); the sum's type decides, the value converts to it.
template <class T>
struct Same {
  using type = T;
};
template <class T, class = std::enable_if_t<std::is_arithmetic_v<T>>>
RAYSTREAM_HD inline void atomic_add(T* sum, typename Same<T>::type value) {
#if defined(__CUDA_ARCH__)
  atomicAdd(sum, value);
#else
#pragma omp atomic
  *sum += value;
#endif
}

// Three: a colour or a vector of floats or doubles, one channel after the other.
template <class T>
RAYSTREAM_HD inline void atomic_add(glm::vec<3, T>* sum, const glm::vec<3, T>& value) {
  atomic_add(&sum->x, value.x);
  atomic_add(&sum->y, value.y);
  atomic_add(&sum->z, value.z);
}

RAYSTREAM_HD inline void atomic_min(std::uint32_t* p, std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  atomicMin(p, v);
#else
  std::uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v < old &&
         !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

RAYSTREAM_HD inline void atomic_max(std::uint32_t* p, std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  atomicMax(p, v);
#else
  std::uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v > old &&
         !__atomic_compare_exchange_n(p, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
#endif
}

// Adds 1 and returns the old value. What this thread wrote before is visible to the thread that
// comes second, and what the first one wrote is visible to this one after it.
RAYSTREAM_HD inline std::uint32_t arrive(std::uint32_t* counter) {
#if defined(__CUDA_ARCH__)
  __threadfence();
  const std::uint32_t old = atomicAdd(counter, 1u);
  __threadfence();
  return old;
#else
  return __atomic_fetch_add(counter, 1u, __ATOMIC_ACQ_REL);
#endif
}

// counts[key] += 1 for the calling thread. On the GPU the active lanes of a warp that pass the
// same key are counted together with one atomic (a histogram of few keys, such as path depths,
// then costs one atomic per distinct key per warp).
RAYSTREAM_HD inline void count_by_key(unsigned long long* counts, int key) {
#if defined(__CUDA_ARCH__)
  const unsigned active = __activemask();
  const unsigned peers = __match_any_sync(active, key);
  if ((threadIdx.x & 31u) == static_cast<unsigned>(__ffs(peers) - 1))
    atomicAdd(counts + key, static_cast<unsigned long long>(__popc(peers)));
#else
#pragma omp atomic
  counts[key] += 1ull;
#endif
}

}  // namespace raystream
