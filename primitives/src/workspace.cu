#include <string>

#include "primitives/caching_allocator.h"
#include "primitives/workspace.h"

namespace prim {

Workspace::Workspace() = default;
Workspace::Workspace(std::size_t bytes) {
  reserve(bytes);
}
Workspace::~Workspace() {
  allocator_.reset();
  if (data_) cudaFree(data_);
}
Workspace::Workspace(Workspace&& other) noexcept
    : data_(other.data_), bytes_(other.bytes_), allocator_(std::move(other.allocator_)) {
  other.data_ = nullptr;
  other.bytes_ = 0;
}
Workspace& Workspace::operator=(Workspace&& other) noexcept {
  if (this != &other) {
    if (data_) cudaFree(data_);
    data_ = other.data_;
    bytes_ = other.bytes_;
    allocator_ = std::move(other.allocator_);
    other.data_ = nullptr;
    other.bytes_ = 0;
  }
  return *this;
}

void Workspace::reserve(std::size_t bytes) {
  if (bytes <= bytes_) return;
  void* fresh = nullptr;
  PRIM_CUDA_CHECK(cudaMalloc(&fresh, bytes));
  if (data_) PRIM_CUDA_CHECK(cudaFree(data_));
  data_ = fresh;
  bytes_ = bytes;
}

void Workspace::require(std::size_t bytes, const char* function) const {
  if (bytes > bytes_) {
    throw Error(std::string(function) + ": workspace too small (needs " + std::to_string(bytes) +
                " bytes, has " + std::to_string(bytes_) + ")");
  }
}

CachingAllocator& Workspace::caching_allocator() {
  if (!allocator_) allocator_ = std::make_unique<CachingAllocator>();
  return *allocator_;
}

CachingAllocator::~CachingAllocator() {
  for (auto& block : free_blocks_) cudaFree(block.second);
  for (auto& block : used_blocks_) cudaFree(block.first);
}

char* CachingAllocator::allocate(std::ptrdiff_t bytes) {
  std::size_t size = static_cast<std::size_t>(bytes);
  auto hit = free_blocks_.lower_bound(size);
  // Reuse a cached block unless it is more than twice the request (keeps waste bounded).
  if (hit != free_blocks_.end() && hit->first <= 2 * size + 4096) {
    char* ptr = hit->second;
    used_blocks_.emplace(ptr, hit->first);
    free_blocks_.erase(hit);
    return ptr;
  }
  void* ptr = nullptr;
  PRIM_CUDA_CHECK(cudaMalloc(&ptr, size ? size : 1));
  ++allocations_;
  bytes_held_ += size;
  used_blocks_.emplace(static_cast<char*>(ptr), size);
  return static_cast<char*>(ptr);
}

void CachingAllocator::deallocate(char* ptr, std::size_t) {
  auto it = used_blocks_.find(ptr);
  if (it == used_blocks_.end()) return;
  free_blocks_.emplace(it->second, ptr);
  used_blocks_.erase(it);
}

}  // namespace prim
