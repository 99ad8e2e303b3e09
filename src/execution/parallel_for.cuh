// parallel_for: runs body(i) for i in [0, n) as a CUDA kernel on the executor's stream or as an
// OpenMP loop on the host. The body is a functor with a __host__ __device__ operator().
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <type_traits>

#include "core/host_device.h"
#include "execution/executor.h"
#include "primitives/device_info.h"
#include "primitives/error.h"

namespace raystream {

inline constexpr int kStageThreads = 256;
inline constexpr long long kSerialBelow = 2048;  // CPU executor: slots below which one thread runs

// MinBlocks: blocks of kStageThreads that must fit on an SM at once, which caps the registers
// per thread (65536 / (256 * MinBlocks)); 1 leaves the choice to the compiler.
template <int MinBlocks, class Body>
__global__ void __launch_bounds__(kStageThreads, MinBlocks)
    parallel_for_kernel(std::size_t n, Body body) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) body(i);
}

// `name` names the stage in the error a failed launch throws.
template <int MinBlocks = 1, class Body>
void parallel_for(const Executor& ex, const char* name, std::size_t n, const Body& body) {
  if (n == 0) return;
  if (ex.gpu()) {
    const std::size_t blocks = (n + kStageThreads - 1) / kStageThreads;
    parallel_for_kernel<MinBlocks>
        <<<static_cast<unsigned>(blocks), kStageThreads, 0, ex.stream>>>(n, body);
    // PRIM_LAUNCH_CHECK with the stage's name given at run time.
    ::prim::check_cuda(cudaGetLastError(), name, __FILE__, __LINE__);
  } else {
    const long long count = static_cast<long long>(n);
    // Small loops run on one thread: starting the team would cost more than the work.
#pragma omp parallel for schedule(static) if (count > kSerialBelow)
    for (long long i = 0; i < count; ++i) body(static_cast<std::size_t>(i));
  }
}

template <int MinBlocks, class Body>
__global__ void __launch_bounds__(kStageThreads, MinBlocks)
    parallel_for_blocks_kernel(std::size_t n, Body body);
template <int MinBlocks, class Count, class Body>
__global__ void __launch_bounds__(kStageThreads, MinBlocks)
    parallel_for_range_kernel(const Count* range, Body body);

// Proof that every thread of a block runs the body together, and the block's shared memory (the
// body's TempStorage): only the block launchers below make one, so a block-wide collective that
// takes it (reserve_slots) cannot be called from a kernel whose threads may return early, such as
// parallel_for's. On the CPU each call has storage of its own (collectives there need none).
template <class Storage>
class WholeBlock {
 public:
  RAYSTREAM_HD Storage& storage() const { return *storage_; }

 private:
  RAYSTREAM_HD explicit WholeBlock(Storage* storage) : storage_(storage) {}
  Storage* storage_;

  template <int MinBlocks, class Body>
  friend __global__ void parallel_for_blocks_kernel(std::size_t, Body);
  template <int MinBlocks, class Count, class Body>
  friend __global__ void parallel_for_range_kernel(const Count*, Body);
  template <class Body>
  friend void run_block_body_on_host(const Body&, std::size_t);
};

// A body of the block launchers that declares `TempStorage` is called body(i, valid, block) with a
// WholeBlock of it; any other body(i, valid).
template <class Body, class = void>
struct HasBlockStorage : std::false_type {
  using type = char;  // a byte of shared memory no one uses
};
template <class Body>
struct HasBlockStorage<Body, std::void_t<typename Body::TempStorage>> : std::true_type {
  using type = typename Body::TempStorage;
};

template <class Body>
void run_block_body_on_host(const Body& body, std::size_t i) {
  if constexpr (HasBlockStorage<Body>::value) {
    typename Body::TempStorage storage;
    body(i, true, WholeBlock<typename Body::TempStorage>(&storage));
  } else {
    body(i, true);
  }
}

template <int MinBlocks, class Body>
__global__ void __launch_bounds__(kStageThreads, MinBlocks)
    parallel_for_blocks_kernel(std::size_t n, Body body) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if constexpr (HasBlockStorage<Body>::value) {
    __shared__ typename Body::TempStorage storage;
    body(i, i < n, WholeBlock<typename Body::TempStorage>(&storage));
  } else {
    body(i, i < n);
  }
}

// body(i, valid) for every thread of the blocks that cover [0, n), valid = i < n: for bodies
// that use block-wide collectives (reserve_slots), which every thread of a block must reach.
// On the CPU, body(i, true) for i in [0, n) in an OpenMP loop.
template <int MinBlocks = 1, class Body>
void parallel_for_blocks(const Executor& ex, const char* name, std::size_t n, const Body& body) {
  if (n == 0) return;
  if (ex.gpu()) {
    const std::size_t blocks = (n + kStageThreads - 1) / kStageThreads;
    parallel_for_blocks_kernel<MinBlocks>
        <<<static_cast<unsigned>(blocks), kStageThreads, 0, ex.stream>>>(n, body);
    ::prim::check_cuda(cudaGetLastError(), name, __FILE__, __LINE__);
  } else {
    const long long count = static_cast<long long>(n);
#pragma omp parallel for schedule(static) if (count > kSerialBelow)
    for (long long i = 0; i < count; ++i) run_block_body_on_host(body, static_cast<std::size_t>(i));
  }
}

template <int MinBlocks, class Count, class Body>
__global__ void __launch_bounds__(kStageThreads, MinBlocks)
    parallel_for_range_kernel(const Count* range, Body body) {
  using Storage = typename HasBlockStorage<Body>::type;
  __shared__ Storage storage;
  (void)storage;
  const std::size_t begin = static_cast<std::size_t>(range[0]);
  const std::size_t end = static_cast<std::size_t>(range[1]);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  // The block strides as a whole, so that every thread of it takes every step (block-wide
  // collectives in the body); a thread past the end passes valid = false.
  for (std::size_t first = begin + static_cast<std::size_t>(blockIdx.x) * blockDim.x; first < end;
       first += stride) {
    const std::size_t i = first + threadIdx.x;
    if constexpr (HasBlockStorage<Body>::value) {
      body(i, i < end, WholeBlock<Storage>(&storage));
      __syncthreads();  // the next step may use the storage again
    } else {
      body(i, i < end);
    }
  }
}

// body(i, valid) for i in [range[0], range[1]), a range in executor memory that the device wrote
// (no host round trip), at most n long: a kernel of one wave of blocks (as many as the SMs hold
// at once, fewer for small n), each block striding over the range; an empty range costs only the
// launch. Every thread of a block takes each step together (valid: i inside the range), so the
// body may use block-wide collectives. On the CPU, an OpenMP loop over the range.
template <int MinBlocks = 1, class Count, class Body>
void parallel_for_range(const Executor& ex, const char* name, std::size_t n, const Count* range,
                        const Body& body) {
  if (n == 0) return;
  if (ex.gpu()) {
    static const std::size_t wave =
        static_cast<std::size_t>(prim::device_info().sm_count) * (2048 / kStageThreads);
    const std::size_t blocks = std::min((n + kStageThreads - 1) / kStageThreads, wave);
    parallel_for_range_kernel<MinBlocks>
        <<<static_cast<unsigned>(blocks), kStageThreads, 0, ex.stream>>>(range, body);
    ::prim::check_cuda(cudaGetLastError(), name, __FILE__, __LINE__);
  } else {
    const long long begin = static_cast<long long>(range[0]);
    const long long end = static_cast<long long>(range[1]);
#pragma omp parallel for schedule(static) if (end - begin > kSerialBelow)
    for (long long i = begin; i < end; ++i)
      run_block_body_on_host(body, static_cast<std::size_t>(i));
  }
}

}  // namespace raystream
