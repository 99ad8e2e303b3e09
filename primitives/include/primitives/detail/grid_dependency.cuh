// The device side of programmatic dependent launch (sm_90 and later; device/dependent_launch.cuh
// has the launches and what the two calls promise). Apart from the launches so that the agents
// (agent/), which wait inside their tile logic, need none of the host side.
#pragma once

#include <cuda_runtime.h>

namespace prim::detail {

// Lets the kernel launched after this one in the stream, as a programmatic dependent, start its
// blocks once every block of this kernel has called it or exited.
__device__ __forceinline__ void griddep_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Returns once the kernel ahead in the stream has ended and its writes are visible.
__device__ __forceinline__ void griddep_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

}  // namespace prim::detail
