// Binned SAH build, top down: at each node the primitives' centroids are binned along each axis,
// the split plane of least SAH cost between bins is taken, and the range is partitioned in place.
// A node becomes a leaf when no split is cheaper than testing its primitives and it holds at
// most kBvhMaxLeafSize of them. Near the depth limit, and where all centroids coincide, splits
// fall back to the median, which keeps the tree within kBvhMaxDepth levels.
#include "geometry/bvh_build.h"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

namespace raystream {
namespace {

int ceil_log2(std::size_t n) {
  int bits = 0;
  while ((std::size_t(1) << bits) < n) ++bits;
  return bits;
}

class Builder {
 public:
  explicit Builder(const std::vector<Aabb>& bounds) : bounds_(bounds) {
    const std::size_t n = bounds.size();
    centroids_.resize(n);
    bvh_.order.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      centroids_[i] = bounds[i].center();
      bvh_.order[i] = static_cast<std::int32_t>(i);
    }
    bvh_.nodes.reserve(n > 0 ? 2 * n - 1 : 0);
  }

  Bvh run() {
    if (!bounds_.empty()) build(0, static_cast<int>(bounds_.size()), 0);
    return std::move(bvh_);
  }

 private:
  // Builds the subtree over order[begin, end) at depth `level`; returns its root's index.
  int build(int begin, int end, int level) {
    const int index = static_cast<int>(bvh_.nodes.size());
    bvh_.nodes.emplace_back();
    std::int32_t* order = bvh_.order.data();
    Aabb box, centers;
    for (int i = begin; i < end; ++i) {
      box.grow(bounds_[order[i]]);
      centers.grow(centroids_[order[i]]);
    }
    bvh_.nodes[index].lo = box.lo;
    bvh_.nodes[index].hi = box.hi;
    bvh_.depth = std::max(bvh_.depth, level);
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
      bvh_.nodes[index].offset = begin;
      bvh_.nodes[index].count = count;
      ++bvh_.leaves;
      return index;
    }
    build(begin, mid, level + 1);  // the first child is the next node
    const int second = build(mid, end, level + 1);
    bvh_.nodes[index].offset = second;
    bvh_.nodes[index].count = 0;
    return index;
  }

  // Splits order[begin, end) in two equal halves by centroid along `axis` (in index order when
  // the centroids are all equal). Returns the middle.
  int median_split(int begin, int end, int axis, bool by_position) {
    const int mid = begin + (end - begin) / 2;
    if (by_position) {
      std::int32_t* order = bvh_.order.data();
      std::nth_element(order + begin, order + mid, order + end,
                       [&](std::int32_t a, std::int32_t b) {
                         return centroids_[a][axis] < centroids_[b][axis];
                       });
    }
    return mid;
  }

  // The binned SAH split of order[begin, end): partitions it and returns the middle, or -1 when
  // `may_stop` and keeping a leaf is no more costly than any split.
  int sah_split(int begin, int end, const Aabb& box, const Aabb& centers, bool may_stop) {
    std::int32_t* order = bvh_.order.data();
    const int count = end - begin;
    float best_cost = 3.0e38f;
    int best_axis = -1, best_bin = -1;
    for (int axis = 0; axis < 3; ++axis) {
      const float lo = centers.lo[axis];
      const float extent = centers.hi[axis] - lo;
      if (!(extent > 0.0f)) continue;
      const float scale = static_cast<float>(kSahBins) / extent;
      std::array<Aabb, kSahBins> bin_box;
      std::array<int, kSahBins> bin_count{};
      for (int i = begin; i < end; ++i) {
        const int b = bin_of(centroids_[order[i]][axis], lo, scale);
        bin_box[b].grow(bounds_[order[i]]);
        ++bin_count[b];
      }
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
    std::int32_t* middle = std::partition(order + begin, order + end, [&](std::int32_t p) {
      return bin_of(centroids_[p][best_axis], lo, scale) <= best_bin;
    });
    return static_cast<int>(middle - order);
  }

  static int bin_of(float c, float lo, float scale) {
    const int b = static_cast<int>((c - lo) * scale);
    return std::min(std::max(b, 0), kSahBins - 1);
  }

  const std::vector<Aabb>& bounds_;
  std::vector<glm::vec3> centroids_;
  Bvh bvh_;
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
