// A caching device allocator for Thrust's temporary storage (the pattern of Thrust's
// custom_temporary_allocation example): freed blocks are kept by size and handed out again, so
// repeated calls of the same size allocate nothing after the first.
//
//   thrust::exclusive_scan(thrust::cuda::par_nosync(ws.caching_allocator()).on(stream), ...);
#pragma once

#include <cstddef>
#include <map>

namespace prim {

class CachingAllocator {
 public:
  using value_type = char;

  CachingAllocator() = default;
  ~CachingAllocator();
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;

  char* allocate(std::ptrdiff_t bytes);
  void deallocate(char* ptr, std::size_t bytes);

  std::size_t bytes_held() const { return bytes_held_; }    // cached + in use
  std::size_t allocations() const { return allocations_; }  // cudaMalloc calls so far

 private:
  std::multimap<std::size_t, char*> free_blocks_;
  std::map<char*, std::size_t> used_blocks_;
  std::size_t bytes_held_ = 0;
  std::size_t allocations_ = 0;
};

}  // namespace prim
