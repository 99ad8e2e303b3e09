#include <cstdint>

#include "primitives/device/dependent_launch.cuh"

namespace prim::detail {
namespace {

// Lets the dependent start at once: it waits for this kernel's end before it reads what is zeroed.
__global__ void zero_kernel(unsigned char* p, std::size_t bytes) {
  griddep_launch_dependents();
  // Bytes up to the first 16-byte boundary, 16-byte words, then the bytes after the last word.
  const std::size_t head = (16 - reinterpret_cast<std::uintptr_t>(p) % 16) % 16;
  const std::size_t lead = head < bytes ? head : bytes;
  const std::size_t words = (bytes - lead) / 16;
  const std::size_t tail_start = lead + words * 16;
  const std::size_t thread = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  uint4* w = reinterpret_cast<uint4*>(p + lead);
  for (std::size_t i = thread; i < words; i += threads) w[i] = make_uint4(0, 0, 0, 0);
  if (thread < lead) p[thread] = 0;
  if (thread < bytes - tail_start) p[tail_start + thread] = 0;
}

}  // namespace

void zero_for_dependent(void* p, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  constexpr unsigned kThreads = 256;
  const std::size_t words = bytes / 16 + 1;
  std::size_t blocks = (words + kThreads - 1) / kThreads;
  if (blocks > 1024) blocks = 1024;
  zero_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      static_cast<unsigned char*>(p), bytes);
  PRIM_LAUNCH_CHECK("zero_for_dependent");
}

}  // namespace prim::detail
