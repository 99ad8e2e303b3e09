// Workspace: device temporary storage owned by the caller, sized once, reused by every call.
//
//   prim::Workspace ws(prim::own::scan_workspace_bytes<int>(n));   // the only allocation
//   prim::own::exclusive_scan(d_in, d_out, n, 0, prim::Plus{}, ws, stream);  // allocates nothing
//
// A call that needs more than the workspace holds throws prim::Error naming the call and both
// sizes. The Thrust backend draws its temporaries from the workspace's caching allocator, which
// keeps freed blocks for reuse, so its steady state allocates nothing either.
#pragma once

#include <cstddef>
#include <memory>

#include "primitives/error.h"

namespace prim {

class CachingAllocator;  // thrust/caching_allocator.cuh

class Workspace {
 public:
  Workspace();
  explicit Workspace(std::size_t bytes);
  ~Workspace();
  Workspace(Workspace&&) noexcept;
  Workspace& operator=(Workspace&&) noexcept;
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  // Grows the buffer to at least `bytes` (the one place where device memory is allocated).
  void reserve(std::size_t bytes);
  void* data() const { return data_; }
  std::size_t size() const { return bytes_; }

  // Throws prim::Error "<function>: workspace too small (needs N bytes, has M)".
  void require(std::size_t bytes, const char* function) const;

  // Used by the Thrust backend; created on first use.
  CachingAllocator& caching_allocator();

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  std::unique_ptr<CachingAllocator> allocator_;
};

// Bump allocator over a workspace buffer, used inside a call to carve out temporaries with
// 256-byte alignment. The same sequence of take() calls sizes the workspace (data == nullptr).
class WorkspaceCarver {
 public:
  explicit WorkspaceCarver(void* data = nullptr) : base_(static_cast<char*>(data)) {}
  template <class T>
  T* take(std::size_t count) {
    std::size_t offset = used_;
    used_ += (count * sizeof(T) + 255) / 256 * 256;
    return base_ ? reinterpret_cast<T*>(base_ + offset) : nullptr;
  }
  std::size_t used() const { return used_; }

 private:
  char* base_;
  std::size_t used_ = 0;
};

}  // namespace prim
