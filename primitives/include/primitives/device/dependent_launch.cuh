// Programmatic dependent launch (sm_90 and later): a kernel launched with launch_dependent() may
// start its blocks before the kernel ahead of it in the stream has ended, once every block of that
// kernel has called griddep_launch_dependents() or exited. It must call griddep_wait() before it
// touches anything the kernel ahead writes; griddep_wait() returns once that kernel has ended and
// its writes are visible. What runs before the wait overlaps the end of the kernel ahead and the
// launch itself.
//
//   zero_for_dependent(status)            zeroes the look-back status; lets the next kernel start
//   launch_dependent(kernel, ...)         starts, takes nothing from the status before:
//     griddep_wait();                     ... the status is zero from here on
//
// Launched without the attribute, both calls are no-ops and the launch waits as usual;
// launch_dependent() launches code built for an architecture older than sm_90 that way. A
// dependent kernel waits only on the kernel right ahead of it. In a chain (the onesweep sort:
// zeroing -> histogram -> first pass) the middle kernel lets its dependents start only after its
// own wait, so the zeroing kernel has completed before the last kernel starts; the last one reads
// the zeroed words through L2-coherent operations (atomics, ld/st.relaxed.gpu) before its own
// wait. That relies on a completed kernel's writes having reached L2; the documented guarantee
// covers only the kernel right ahead.
// zero_for_dependent() launches nothing for 0 bytes: call it with the bytes to zero.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "primitives/detail/grid_dependency.cuh"
#include "primitives/device_info.h"
#include "primitives/error.h"

namespace prim::detail {

// Zeroes `bytes` bytes at `p` (any alignment) with a kernel that lets the next kernel, launched
// with launch_dependent(), start at once (a cudaMemsetAsync cannot).
void zero_for_dependent(void* p, std::size_t bytes, cudaStream_t stream);

// kernel<<<grid, block, shared_bytes, stream>>>(args...) with the launch attributes asked for;
// returns the launch's error.
template <class... Params, class... Args>
cudaError_t launch_with_attributes(bool dependent, bool cooperative, void (*kernel)(Params...),
                                   dim3 grid, dim3 block, std::size_t shared_bytes,
                                   cudaStream_t stream, Args&&... args) {
  cudaLaunchAttribute attributes[2]{};
  unsigned count = 0;
  // Code built for an architecture older than sm_90 (a PTX of compute_80 run by the JIT, say) has
  // its griddepcontrol instructions compiled out: such a kernel must not start early, so it gets
  // the plain launch.
  if (dependent && kernel_binary_version(reinterpret_cast<const void*>(kernel)) >= 90) {
    attributes[count].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attributes[count++].val.programmaticStreamSerializationAllowed = 1;
  }
  if (cooperative) {
    attributes[count].id = cudaLaunchAttributeCooperative;
    attributes[count++].val.cooperative = 1;
  }
  cudaLaunchConfig_t config{};
  config.gridDim = grid;
  config.blockDim = block;
  config.dynamicSmemBytes = shared_bytes;
  config.stream = stream;
  config.attrs = attributes;
  config.numAttrs = count;
  return cudaLaunchKernelEx(&config, kernel, std::forward<Args>(args)...);
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...) as a programmatic dependent of the kernel
// ahead of it in the stream. `name` goes into the error on a failed launch.
template <class Kernel, class... Args>
void launch_dependent(const char* name, Kernel kernel, dim3 grid, dim3 block,
                      std::size_t shared_bytes, cudaStream_t stream, Args&&... args) {
  check_cuda(launch_with_attributes(true, false, kernel, grid, block, shared_bytes, stream,
                                    std::forward<Args>(args)...),
             name, __FILE__, __LINE__);
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...) launched cooperatively: every block of the
// grid is resident at once (cudaLaunchAttributeCooperative), so blocks may wait for one another
// (cooperative_groups' grid barrier). For a caller that has another path: true when launched;
// false, with the error cleared, when the GPU refuses the grid (cudaErrorCooperativeLaunchTooLarge:
// fewer SMs usable than it reports, under MPS say); any other error throws prim::Error naming
// `name`.
template <class Kernel, class... Args>
bool launch_cooperative_if_it_fits(const char* name, Kernel kernel, dim3 grid, dim3 block,
                                   std::size_t shared_bytes, cudaStream_t stream, Args&&... args) {
  const cudaError_t launched = launch_with_attributes(
      false, true, kernel, grid, block, shared_bytes, stream, std::forward<Args>(args)...);
  if (launched == cudaErrorCooperativeLaunchTooLarge) {
    static_cast<void>(cudaGetLastError());
    return false;
  }
  check_cuda(launched, name, __FILE__, __LINE__);
  return true;
}

}  // namespace prim::detail
