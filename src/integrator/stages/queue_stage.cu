// Stage: the bounds of the material queues after the split (find_queue_offsets, stages.h).
#include "integrator/backend/parallel_for.cuh"
#include "integrator/stages/stages.h"
#include "materials/bsdf.h"

namespace raystream {

namespace {

struct QueueOffsetsBody {
  const std::uint16_t* keys;
  std::size_t n;
  std::size_t* offsets;
  unsigned long long* paths;

  // The first of the sorted keys >= key.
  RAYSTREAM_HD std::size_t lower_bound(std::uint16_t key) const {
    std::size_t lo = 0, hi = n;
    while (lo < hi) {
      const std::size_t mid = lo + (hi - lo) / 2;
      if (keys[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
    return lo;
  }

  RAYSTREAM_HD void operator()(std::size_t k) const {
    const std::size_t begin = lower_bound(static_cast<std::uint16_t>(k));
    offsets[k] = begin;
    if (k < static_cast<std::size_t>(kBsdfKindCount) && paths) {
      const std::size_t size = lower_bound(static_cast<std::uint16_t>(k + 1)) - begin;
#if defined(__CUDA_ARCH__)
      atomicAdd(paths + k, static_cast<unsigned long long>(size));
#else
      paths[k] += size;  // one thread per kind
#endif
    }
  }
};

}  // namespace

void find_queue_offsets(const Executor& ex, const std::uint16_t* sorted_keys, std::size_t n,
                        std::size_t* queue_offsets, unsigned long long* queue_paths) {
  parallel_for(ex, "queue offsets", static_cast<std::size_t>(kBsdfKindCount) + 1,
               QueueOffsetsBody{sorted_keys, n, queue_offsets, queue_paths});
}

}  // namespace raystream
