// Binned SAH build, top down: at each node the primitives' centroids are binned along each axis,
// the split plane of least SAH cost between bins is taken, and the range is partitioned in place.
// A node becomes a leaf when no split is cheaper than testing its primitives and it holds at
// most kBvhMaxLeafSize of them. Near the depth limit, and where all centroids coincide, splits
// fall back to the median, which keeps the tree within kBvhMaxDepth levels. The top of the tree
// splits into OpenMP tasks; each builds its subtree into its own array, appended when done.
#include "geometry/bvh_build.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <stdexcept>
#include <string>

#include "core/stop_request.h"

namespace raystream {
namespace {

int ceil_log2(std::size_t n) {
  int bits = 0;
  while ((std::size_t(1) << bits) < n) ++bits;
  return bits;
}

struct PrimRef {
  Aabb box;
  glm::vec3 center;
  std::int32_t index;  // into the bounds given to build_bvh
};

// Nodes of one subtree, indexed from its root (0); interior offsets are relative to it too.
struct Subtree {
  std::vector<BvhNode> nodes;
  std::size_t leaves = 0;
  int depth = 0;  // deepest level reached (absolute)
};

// Subtrees over at least this many primitives build their two halves as parallel tasks.
constexpr int kParallelBuildAbove = 8192;

class Builder {
 public:
  explicit Builder(const std::vector<Aabb>& bounds) : bounds_(bounds) {
    const std::size_t n = bounds.size();
    refs_.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      refs_[i].box = bounds[i];
      refs_[i].center = bounds[i].center();
      refs_[i].index = static_cast<std::int32_t>(i);
    }
  }

  Bvh run() {
    Bvh bvh;
    if (!bounds_.empty()) {
      Subtree tree;
      tree.nodes.reserve(2 * bounds_.size() - 1);
#pragma omp parallel
#pragma omp single
      build(tree, 0, static_cast<int>(bounds_.size()), 0);
      // A stop asked for during the build made the subtrees left leaves: the tree is whole but
      // not worth rendering, and the render is not wanted.
      if (stopped_.load()) throw StopRequested();
      bvh.nodes = std::move(tree.nodes);
      bvh.leaves = tree.leaves;
      bvh.depth = tree.depth;
    }
    bvh.order.resize(refs_.size());
    for (std::size_t i = 0; i < refs_.size(); ++i) bvh.order[i] = refs_[i].index;
    return bvh;
  }

 private:
  // Builds the subtree over the primitives [begin, end) at depth `level`, appending its nodes to
  // `out` (depth first: a node's first child follows it).
  void build(Subtree& out, int begin, int end, int level) {
    const int index = static_cast<int>(out.nodes.size());
    out.nodes.emplace_back();
    const PrimRef* refs = refs_.data();
    // Every node polls for a stop (a flag read; no exception may leave an OpenMP task): once one
    // is seen, the subtrees not built yet become leaves, and run() throws.
    if (stopped_.load(std::memory_order_relaxed) || stop_asked()) {
      stopped_.store(true, std::memory_order_relaxed);
      out.nodes[index].offset = begin;
      out.nodes[index].count = end - begin;
      return;
    }
    Aabb box, centers;
    for (int i = begin; i < end; ++i) {
      box.grow(refs[i].box);
      centers.grow(refs[i].center);
    }
    out.nodes[index].lo = box.lo;
    out.nodes[index].hi = box.hi;
    out.depth = std::max(out.depth, level);
    const int count = end - begin;

    const glm::vec3 extent = centers.hi - centers.lo;
    int widest = 0;
    if (extent.y > extent[widest]) widest = 1;
    if (extent.z > extent[widest]) widest = 2;

    int mid = -1;
    if (count == 1) {
      // a leaf
    } else if (!(extent[widest] > 0.0f) ||
               level + ceil_log2(static_cast<std::size_t>(count)) >= kBvhMaxDepth) {
      // All centroids in one point (no plane separates them), or near the depth limit.
      if (count > kBvhMaxLeafSize ||
          level + ceil_log2(static_cast<std::size_t>(count)) >= kBvhMaxDepth) {
        mid = median_split(begin, end, widest, extent[widest] > 0.0f);
      }
    } else {
      mid = sah_split(begin, end, box, centers, count <= kBvhMaxLeafSize);
      if (mid <= begin || mid >= end) {
        mid = count > kBvhMaxLeafSize ? median_split(begin, end, widest, true) : -1;
      }
    }
    if (mid < 0) {
      // Every node keeps level + ceil(log2(count)) <= kBvhMaxDepth (SAH splits only below the
      // limit, median splits halve), so a leaf at the depth limit holds one primitive.
      out.nodes[index].offset = begin;
      out.nodes[index].count = count;
      ++out.leaves;
      return;
    }
    out.nodes[index].count = 0;
    if (count < kParallelBuildAbove) {
      build(out, begin, mid, level + 1);  // the first child is the next node
      out.nodes[index].offset = static_cast<std::int32_t>(out.nodes.size());
      build(out, mid, end, level + 1);
      return;
    }
    // Large: the halves are built as parallel tasks into their own arrays, then appended.
    Subtree first, second;
#pragma omp task shared(first)
    build(first, begin, mid, level + 1);
    build(second, mid, end, level + 1);
#pragma omp taskwait
    if (stopped_.load(std::memory_order_relaxed)) return;  // thrown away: not worth the copies
    append(out, first);
    out.nodes[index].offset = static_cast<std::int32_t>(out.nodes.size());
    append(out, second);
  }

  // Appends a subtree built on its own, shifting its interior nodes' child indices.
  static void append(Subtree& out, const Subtree& part) {
    const std::int32_t base = static_cast<std::int32_t>(out.nodes.size());
    for (BvhNode n : part.nodes) {
      if (n.count == 0) n.offset += base;
      out.nodes.push_back(n);
    }
    out.leaves += part.leaves;
    out.depth = std::max(out.depth, part.depth);
  }

  // Splits the primitives [begin, end) in two equal halves by centroid along `axis` (in index order
  // when the centroids are all equal). Returns the middle.
  int median_split(int begin, int end, int axis, bool by_position) {
    const int mid = begin + (end - begin) / 2;
    if (by_position) {
      PrimRef* refs = refs_.data();
      std::nth_element(
          refs + begin, refs + mid, refs + end,
          [axis](const PrimRef& a, const PrimRef& b) { return a.center[axis] < b.center[axis]; });
    }
    return mid;
  }

  // The binned SAH split of the primitives [begin, end): partitions it and returns the middle, or
  // -1 when `may_stop` and keeping a leaf is no more costly than any split.
  int sah_split(int begin, int end, const Aabb& box, const Aabb& centers, bool may_stop) {
    PrimRef* refs = refs_.data();
    const int count = end - begin;
    float best_cost = 3.0e38f;
    int best_axis = -1, best_bin = -1;
    // One pass bins the centroids along all three axes (an axis of zero extent puts everything
    // in its bin 0, which offers no split).
    float axis_lo[3], axis_scale[3];
    for (int axis = 0; axis < 3; ++axis) {
      const float extent = centers.hi[axis] - centers.lo[axis];
      axis_lo[axis] = centers.lo[axis];
      axis_scale[axis] = extent > 0.0f ? static_cast<float>(kSahBins) / extent : 0.0f;
    }
    std::array<std::array<Aabb, kSahBins>, 3> bins;
    std::array<std::array<int, kSahBins>, 3> counts{};
    for (int i = begin; i < end; ++i) {
      const PrimRef& r = refs[i];
      for (int axis = 0; axis < 3; ++axis) {
        const int b = bin_of(r.center[axis], axis_lo[axis], axis_scale[axis]);
        bins[axis][b].grow(r.box);
        ++counts[axis][b];
      }
    }
    for (int axis = 0; axis < 3; ++axis) {
      if (!(axis_scale[axis] > 0.0f)) continue;
      const std::array<Aabb, kSahBins>& bin_box = bins[axis];
      const std::array<int, kSahBins>& bin_count = counts[axis];
      // right_area[b], right_count[b]: the bins after b (the right side of a split after bin b).
      std::array<float, kSahBins> right_area{};
      std::array<int, kSahBins> right_count{};
      Aabb right;
      int right_n = 0;
      for (int b = kSahBins - 1; b > 0; --b) {
        right.grow(bin_box[b]);
        right_n += bin_count[b];
        right_area[b - 1] = right.area();
        right_count[b - 1] = right_n;
      }
      Aabb left;
      int left_n = 0;
      for (int b = 0; b < kSahBins - 1; ++b) {
        left.grow(bin_box[b]);
        left_n += bin_count[b];
        if (left_n == 0 || right_count[b] == 0) continue;
        // The SAH cost times the node's area (no division: flat nodes have zero area).
        const float cost =
            kSahIntersectionCost * (left.area() * static_cast<float>(left_n) +
                                    right_area[b] * static_cast<float>(right_count[b]));
        if (cost < best_cost) {
          best_cost = cost;
          best_axis = axis;
          best_bin = b;
        }
      }
    }
    if (best_axis < 0) return -1;
    const float area = box.area();
    const float split_cost = kSahTraversalCost * area + best_cost;
    const float leaf_cost = kSahIntersectionCost * static_cast<float>(count) * area;
    if (may_stop && split_cost >= leaf_cost) return -1;
    const float lo = centers.lo[best_axis];
    const float scale = static_cast<float>(kSahBins) / (centers.hi[best_axis] - lo);
    PrimRef* middle = std::partition(refs + begin, refs + end, [&](const PrimRef& p) {
      return bin_of(p.center[best_axis], lo, scale) <= best_bin;
    });
    return static_cast<int>(middle - refs);
  }

  static int bin_of(float c, float lo, float scale) {
    const int b = static_cast<int>((c - lo) * scale);
    return std::min(std::max(b, 0), kSahBins - 1);
  }

  const std::vector<Aabb>& bounds_;
  // The primitives' boxes and centroids, partitioned in place as the tree is built, so each
  // node's passes read memory in order.
  std::vector<PrimRef> refs_;
  std::atomic<bool> stopped_{false};
};

}  // namespace

Bvh build_bvh(const std::vector<Aabb>& bounds) {
  if (bounds.size() > 0x7FFFFFFFu)
    throw std::invalid_argument("build_bvh: too many primitives (" + std::to_string(bounds.size()) +
                                ", at most 2^31 - 1)");
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    const Aabb& b = bounds[i];
    const bool finite = glm::all(glm::lessThan(glm::abs(b.lo), glm::vec3(3.0e38f))) &&
                        glm::all(glm::lessThan(glm::abs(b.hi), glm::vec3(3.0e38f)));
    if (b.empty() || !finite)
      throw std::invalid_argument("build_bvh: primitive " + std::to_string(i) +
                                  " has an empty or non-finite bounding box");
  }
  Bvh bvh = Builder(bounds).run();
  bvh.sah_cost = bvh_sah_cost(bvh.nodes);
  return bvh;
}

double bvh_sah_cost(const std::vector<BvhNode>& nodes) {
  if (nodes.empty()) return 0.0;
  auto area = [](const BvhNode& n) {
    Aabb b;
    b.lo = n.lo;
    b.hi = n.hi;
    return static_cast<double>(b.area());
  };
  const double root = area(nodes[0]);
  if (!(root > 0.0)) return static_cast<double>(nodes[0].count) * kSahIntersectionCost;
  double cost = 0.0;
  for (const BvhNode& n : nodes) {
    const double weight = area(n) / root;
    cost += n.count > 0 ? kSahIntersectionCost * n.count * weight : kSahTraversalCost * weight;
  }
  return cost;
}

}  // namespace raystream
