// Building the BVH on the host: binned surface area heuristic over primitive bounding boxes,
// flattened depth-first into 32-byte nodes (see bvh.h).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

#include "geometry/bvh.h"

namespace raystream {

struct Aabb {
  glm::vec3 lo{3.0e38f};
  glm::vec3 hi{-3.0e38f};

  void grow(const glm::vec3& p) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  void grow(const Aabb& b) {
    lo = glm::min(lo, b.lo);
    hi = glm::max(hi, b.hi);
  }
  bool empty() const { return !(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z); }
  // Surface area (0 for an empty box).
  float area() const {
    if (empty()) return 0.0f;
    const glm::vec3 e = hi - lo;
    return 2.0f * (e.x * e.y + e.y * e.z + e.z * e.x);
  }
  glm::vec3 center() const { return 0.5f * (lo + hi); }
};

// Cost model of the SAH (and of the reported cost): a node visit costs kSahTraversalCost, a
// primitive test costs kSahIntersectionCost.
inline constexpr float kSahTraversalCost = 1.0f;
inline constexpr float kSahIntersectionCost = 1.0f;
inline constexpr int kSahBins = 32;
inline constexpr int kBvhMaxLeafSize = 8;

struct Bvh {
  std::vector<BvhNode> nodes;
  // Primitive indices (into the bounds given to build_bvh) in leaf order: leaf ranges index this.
  std::vector<std::int32_t> order;
  std::size_t leaves = 0;
  int depth = 0;          // levels below the root (a lone leaf: 0)
  double sah_cost = 0.0;  // expected cost of a ray through the root box, in the units above
};

// Builds the hierarchy over primitives with the given bounds (finite, non-empty boxes; at most
// 2^31 - 1). Zero primitives give an empty tree (no nodes). The tree is at most kBvhMaxDepth deep.
// Throws StopRequested when a stop is asked for during the build (core/stop_request.h).
Bvh build_bvh(const std::vector<Aabb>& bounds);

// The SAH cost of a built tree: sum over interior nodes of traversal cost * area / root area,
// plus over leaves of intersection cost * count * area / root area.
double bvh_sah_cost(const std::vector<BvhNode>& nodes);

}  // namespace raystream
