#include "execution/host_pages.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace raystream {

void populate_pages(const void* data, std::size_t bytes) {
#if defined(__linux__)
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels answer EINVAL, and nothing happens
#endif
  // Below a few MiB the faults cost less than waking the threads.
  constexpr std::size_t kSmallest = std::size_t(4) << 20;
  constexpr std::size_t kSlice = std::size_t(2) << 20;  // per thread's madvise call, at least
  if (data == nullptr || bytes < kSmallest) return;
  const long page_size = sysconf(_SC_PAGESIZE);
  const std::uintptr_t page = page_size > 0 ? static_cast<std::uintptr_t>(page_size) : 4096;
  // Whole pages inside the range only: the pages at its ends may hold other allocations.
  const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
  if (end <= begin) return;
  const long long slices = static_cast<long long>((end - begin + kSlice - 1) / kSlice);
#pragma omp parallel for schedule(static)
  for (long long s = 0; s < slices; ++s) {
    const std::uintptr_t from = begin + static_cast<std::uintptr_t>(s) * kSlice;
    const std::uintptr_t to = from + kSlice < end ? from + kSlice : end;
    // Failure (an old kernel, memory the system will not map now) leaves the pages to fault on
    // first use, as without the call.
    (void)madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
  }
#else
  (void)data;
  (void)bytes;
#endif
}

}  // namespace raystream
