// The flattened bounding volume hierarchy as traversal sees it: 32-byte nodes in depth-first
// order. An interior node's first child is the next node and its second child is at `offset`; a
// leaf's primitives are primitives[offset, offset + count) of the primitive-reference array.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "geometry/ray.h"

namespace raystream {

struct BvhNode {
  glm::vec3 lo{0.0f};
  std::int32_t offset = 0;  // interior: index of the second child; leaf: first primitive
  glm::vec3 hi{0.0f};
  std::int32_t count = 0;  // 0: interior node; > 0: leaf with `count` primitives
};
static_assert(sizeof(BvhNode) == 32, "BVH nodes are 32 bytes");

// Traversal keeps a stack of this many nodes; the builder keeps the tree shallower.
inline constexpr int kBvhStackSize = 64;
inline constexpr int kBvhMaxDepth = kBvhStackSize - 1;

// Reads node i: on the device as two 16-byte loads through the read-only cache (the nodes never
// change during a render), on the host as a plain copy.
RAYSTREAM_HD inline BvhNode load_bvh_node(const BvhNode* nodes, int i) {
#if defined(__CUDA_ARCH__)
  const float4* p = reinterpret_cast<const float4*>(nodes + i);
  const float4 a = __ldg(p);
  const float4 b = __ldg(p + 1);
  BvhNode n;
  n.lo = glm::vec3(a.x, a.y, a.z);
  n.offset = __float_as_int(a.w);
  n.hi = glm::vec3(b.x, b.y, b.z);
  n.count = __float_as_int(b.w);
  return n;
#else
  return nodes[i];
#endif
}

// Where the ray (origin o, reciprocal direction inv_d) enters the node's box within
// [t_min, t_max], or kNoHit when it misses the box there.
RAYSTREAM_HD inline float bvh_box_entry(const BvhNode& node, const glm::vec3& o,
                                        const glm::vec3& inv_d, float t_min, float t_max) {
  const float tx0 = (node.lo.x - o.x) * inv_d.x, tx1 = (node.hi.x - o.x) * inv_d.x;
  const float ty0 = (node.lo.y - o.y) * inv_d.y, ty1 = (node.hi.y - o.y) * inv_d.y;
  const float tz0 = (node.lo.z - o.z) * inv_d.z, tz1 = (node.hi.z - o.z) * inv_d.z;
  // fminf/fmaxf drop a NaN operand (0 * inf, a ray in a slab's plane): that slab then does not
  // constrain the interval.
  const float near = fmaxf(fmaxf(fminf(tx0, tx1), fminf(ty0, ty1)), fmaxf(fminf(tz0, tz1), t_min));
  const float far = fminf(fminf(fmaxf(tx0, tx1), fmaxf(ty0, ty1)), fminf(fmaxf(tz0, tz1), t_max));
  // A little slack: rounding must not cull a flat box (a triangle in an axis plane).
  return near <= far * 1.00000024f ? near : kNoHit;
}

// 1 / d per component, with zero components replaced by a tiny value of the same sign so the
// slab arithmetic stays finite.
RAYSTREAM_HD inline glm::vec3 reciprocal_direction(const glm::vec3& d) {
  glm::vec3 r;
  for (int axis = 0; axis < 3; ++axis) {
    const float c = fabsf(d[axis]) > 1.0e-30f ? d[axis] : copysignf(1.0e-30f, d[axis]);
    r[axis] = 1.0f / c;
  }
  return r;
}

}  // namespace raystream
