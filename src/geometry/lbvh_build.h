// The LBVH build on the executor (Karras 2012): Morton codes of the primitives' centroids, sorted
// with the primitives' indices by the primitives' radix sort, the hierarchy emitted from the
// sorted codes, boxes and SAH costs bottom up (one atomic counter per node), then one pass of
// treelet restructuring (Karras and Aila 2013) over the nodes by height, every subtree of at most
// kBvhMaxLeafSize primitives that costs no more as a leaf collapsed into one, and the tree laid
// out depth first in the nodes traversal reads (geometry/bvh.h). Each stage is a
// parallel_for functor: CUDA kernels on the GPU executor, OpenMP loops on the CPU executor. The
// host reads back only where each height starts (to size the treelets' launches) until the tree
// is done.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "execution/buffer.h"
#include "execution/executor.h"
#include "execution/path_primitives.h"
#include "geometry/bvh.h"
#include "geometry/lbvh.h"
#include "geometry/triangle.h"

namespace raystream {

// The primitives to build over, in executor memory: primitive p < triangle_count is triangle p,
// the others are objects, by their world boxes (unpadded).
struct LbvhPrimitives {
  const TriangleGeometry* triangles = nullptr;
  std::size_t triangle_count = 0;
  const LbvhBox* object_boxes = nullptr;
  std::size_t object_count = 0;
  std::size_t count() const { return triangle_count + object_count; }
};

// Executor memory held by the build's buffers: now, and the most at any time.
class BuildMemory {
 public:
  void add(std::size_t bytes) {
    current_ += bytes;
    peak_ = std::max(peak_, current_);
  }
  void remove(std::size_t bytes) { current_ -= std::min(bytes, current_); }
  std::size_t current() const { return current_; }
  std::size_t peak() const { return peak_; }

 private:
  std::size_t current_ = 0;
  std::size_t peak_ = 0;
};

// Temporary executor memory of the build, counted in a BuildMemory while held. On the GPU it
// comes from the stream-ordered allocator (cudaMallocAsync): freeing it queues the free on the
// stream, so the host never waits for the GPU in the middle of the build.
class RawBuildBuffer {
 public:
  RawBuildBuffer() = default;
  RawBuildBuffer(const Executor& ex, const char* what, std::size_t bytes, BuildMemory& memory);
  ~RawBuildBuffer() { release(); }
  RawBuildBuffer(RawBuildBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        bytes_(std::exchange(other.bytes_, 0)),
        stream_(other.stream_),
        gpu_(other.gpu_),
        async_(other.async_),
        memory_(std::exchange(other.memory_, nullptr)) {}
  RawBuildBuffer& operator=(RawBuildBuffer&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      bytes_ = std::exchange(other.bytes_, 0);
      stream_ = other.stream_;
      gpu_ = other.gpu_;
      async_ = other.async_;
      memory_ = std::exchange(other.memory_, nullptr);
    }
    return *this;
  }
  RawBuildBuffer(const RawBuildBuffer&) = delete;
  RawBuildBuffer& operator=(const RawBuildBuffer&) = delete;

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }
  void release();

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  bool gpu_ = false;
  bool async_ = true;  // from cudaMallocAsync (else cudaMalloc)
  BuildMemory* memory_ = nullptr;
};

// While it lives, the stream-ordered allocator's pool (the current device's default pool, which
// RawBuildBuffer draws on) keeps the memory the build frees. By default the pool gives its unused
// memory back at every synchronization, and a buffer allocated after one (the shading's, after
// the tree is read back) has the pool map memory again. release(), or the destructor, restores
// the pool's setting and gives back what it holds unused. Nothing on the CPU executor, or where
// the device has no memory pools.
class BuildPoolHold {
 public:
  explicit BuildPoolHold(const Executor& ex);
  ~BuildPoolHold() { release(); }
  BuildPoolHold(const BuildPoolHold&) = delete;
  BuildPoolHold& operator=(const BuildPoolHold&) = delete;
  void release();

 private:
  cudaMemPool_t pool_ = nullptr;
  std::uint64_t threshold_ = 0;  // the pool's release threshold before
};

template <class T>
class BuildBuffer {
 public:
  BuildBuffer() = default;
  BuildBuffer(const Executor& ex, const char* what, std::size_t count, BuildMemory& memory)
      : raw_(ex, what, count * sizeof(T), memory), count_(count) {}
  T* data() const { return static_cast<T*>(raw_.data()); }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return raw_.bytes(); }
  void release() {
    raw_.release();
    count_ = 0;
  }

 private:
  RawBuildBuffer raw_;
  std::size_t count_ = 0;
};

struct LbvhTree {
  Buffer<BvhNode> nodes;              // depth first (bvh.h), as many as the tree has
  BuildBuffer<std::int32_t> order;    // leaf slot -> primitive: the leaves' ranges index slots
  BuildBuffer<std::int32_t> slot_of;  // primitive -> leaf slot
  std::size_t leaves = 0;
  int depth = 0;          // levels below the root
  double sah_cost = 0.0;  // as bvh_sah_cost computes it
};

// The build's steps timed one by one (a benchmark's view of where the time goes): each step is
// waited for before the next is queued, so the steps add up to a little more than a build that
// is not timed so.
struct LbvhStageTimes {
  std::vector<std::pair<const char*, double>> stages;  // (step, host milliseconds), in order
};

struct LbvhOptions {
  // One pass of treelet restructuring (Karras and Aila 2013), lowest nodes first; false: the
  // hierarchy the sorted keys give, only collapsed.
  bool treelets = true;
  LbvhStageTimes* times = nullptr;  // where given, every step is timed (and waited for)
};

// The most primitives a build takes: its 2n - 1 node ids are 32-bit.
inline constexpr std::size_t kLbvhMaxPrimitives = std::size_t(1) << 30;

// Builds the tree over the primitives (at least one, at most kLbvhMaxPrimitives), counting its
// buffers in `memory` (the nodes, which the render keeps, also in `tally`). Throws
// std::invalid_argument naming the first primitive whose box is empty or not finite,
// std::runtime_error when executor memory runs out (naming what was being allocated).
LbvhTree build_lbvh(const Executor& ex, const PathPrimitives& primitives,
                    const LbvhPrimitives& input, BuildMemory& memory, MemoryTally* tally = nullptr,
                    const LbvhOptions& options = {});

// The scene in the tree's leaf order, which keeps a leaf's triangles next to each other and lets
// traversal skip the reference array in scenes of triangles alone. There is one triangle slot per
// leaf slot: slot k holds the triangle at leaf slot k, or an empty triangle (never referenced)
// where an object is.
void gather_in_leaf_order(const Executor& ex, const LbvhTree& tree, std::size_t triangle_count,
                          const TriangleGeometry* in, TriangleGeometry* out);
void gather_in_leaf_order(const Executor& ex, const LbvhTree& tree, std::size_t triangle_count,
                          const TriangleShading* in, TriangleShading* out);

// The primitive references of the leaf slots (scene_geometry.h): k for a triangle, ~object.
void write_primitive_references(const Executor& ex, const LbvhTree& tree,
                                std::size_t triangle_count, std::int32_t* references);

}  // namespace raystream
