// The LBVH build run on an executor over host data, and the checks every built tree must pass
// (shared by the CPU and GPU tests).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "geometry/bvh_build.h"
#include "geometry/lbvh.h"
#include "geometry/scene_acceleration.h"
#include "geometry/triangle.h"
#include "execution/buffer.h"
#include "execution/executor.h"
#include "execution/path_primitives.h"
#include "geometry/lbvh_build.h"
#include "scene/scene.h"

namespace raystream::test {

// The primitives of a build: triangles first, then objects by their boxes.
struct BuildInput {
  std::vector<TriangleGeometry> triangles;
  std::vector<LbvhBox> objects;
  std::size_t count() const { return triangles.size() + objects.size(); }
  // Primitive p's box as the build computes it (unpadded).
  LbvhBox box(std::size_t p) const {
    if (p >= triangles.size()) return objects[p - triangles.size()];
    const TriangleGeometry& t = triangles[p];
    const glm::vec3 a = t.v0, b = t.v0 + t.e1, c = t.v0 + t.e2;
    LbvhBox box;
    box.lo = glm::min(a, glm::min(b, c));
    box.hi = glm::max(a, glm::max(b, c));
    return box;
  }
};

// A tree copied back to the host.
struct BuiltTree {
  std::vector<BvhNode> nodes;
  std::vector<std::int32_t> order, slot_of;
  std::size_t leaves = 0;
  int depth = 0;
  double sah_cost = 0.0;
  std::size_t peak_bytes = 0;
};

template <class T>
Buffer<T> to_executor(const Executor& ex, const char* what, const std::vector<T>& host) {
  Buffer<T> b(ex, what, host.size(), nullptr);
  copy_from_host(ex, b.data(), host.data(), host.size() * sizeof(T));
  return b;
}

template <class T>
std::vector<T> to_host(const Executor& ex, const T* data, std::size_t count) {
  std::vector<T> out(count);
  copy_to_host(ex, out.data(), data, count * sizeof(T));
  return out;
}

inline BuiltTree build_tree(const Executor& ex, const PathPrimitives& primitives,
                            const BuildInput& in) {
  const Buffer<TriangleGeometry> triangles = to_executor(ex, "triangles", in.triangles);
  const Buffer<LbvhBox> objects = to_executor(ex, "object boxes", in.objects);
  LbvhPrimitives input;
  input.triangles = triangles.data();
  input.triangle_count = in.triangles.size();
  input.object_boxes = objects.data();
  input.object_count = in.objects.size();
  BuildMemory memory;
  const LbvhTree tree = build_lbvh(ex, primitives, input, memory);
  BuiltTree out;
  out.nodes = to_host(ex, tree.nodes.data(), tree.nodes.size());
  out.order = to_host(ex, tree.order.data(), tree.order.size());
  out.slot_of = to_host(ex, tree.slot_of.data(), tree.slot_of.size());
  out.leaves = tree.leaves;
  out.depth = tree.depth;
  out.sah_cost = tree.sah_cost;
  out.peak_bytes = memory.peak();
  return out;
}

inline bool box_inside(const LbvhBox& inner, const BvhNode& outer) {
  return glm::all(glm::greaterThanEqual(inner.lo, outer.lo)) &&
         glm::all(glm::lessThanEqual(inner.hi, outer.hi));
}

// Every primitive in exactly one leaf slot (order and slot_of inverse permutations), every leaf
// slot in exactly one leaf, the layout depth first (first child next, second child after the
// first's subtree), every node's box around its children's and a leaf's around its primitives',
// leaves of at most kBvhMaxLeafSize primitives, the depth within traversal's stack, and the
// reported numbers those of the nodes.
inline void expect_valid_tree(const BuiltTree& t, const BuildInput& in) {
  const std::size_t n = in.count();
  ASSERT_EQ(t.order.size(), n);
  ASSERT_EQ(t.slot_of.size(), n);
  for (std::size_t slot = 0; slot < n; ++slot) {
    const std::int32_t p = t.order[slot];
    ASSERT_GE(p, 0);
    ASSERT_LT(static_cast<std::size_t>(p), n);
    ASSERT_EQ(static_cast<std::size_t>(t.slot_of[static_cast<std::size_t>(p)]), slot)
        << "primitive " << p;
  }
  ASSERT_FALSE(t.nodes.empty());
  EXPECT_EQ(t.nodes.size(), 2 * t.leaves - 1);
  std::vector<int> covered(n, 0);
  // Walks the tree: (node, depth); returns the index after the subtree.
  std::size_t leaves = 0;
  int deepest = 0;
  std::vector<std::pair<int, int>> stack = {{0, 0}};
  std::vector<int> visited(t.nodes.size(), 0);
  while (!stack.empty()) {
    const auto [index, depth] = stack.back();
    stack.pop_back();
    ASSERT_GE(index, 0);
    ASSERT_LT(static_cast<std::size_t>(index), t.nodes.size());
    ASSERT_EQ(visited[index]++, 0) << "node " << index << " reached twice";
    deepest = std::max(deepest, depth);
    const BvhNode& node = t.nodes[index];
    ASSERT_GE(node.count, 0);
    if (node.count > 0) {
      ++leaves;
      EXPECT_LE(node.count, kBvhMaxLeafSize);
      ASSERT_GE(node.offset, 0);
      ASSERT_LE(static_cast<std::size_t>(node.offset) + node.count, n);
      for (int k = node.offset; k < node.offset + node.count; ++k) {
        ++covered[k];
        const std::size_t p = static_cast<std::size_t>(t.order[k]);
        ASSERT_TRUE(box_inside(in.box(p), node)) << "primitive " << p << " outside leaf " << index;
      }
      continue;
    }
    const int first = index + 1, second = node.offset;
    ASSERT_GT(second, first) << "node " << index;
    ASSERT_LT(static_cast<std::size_t>(second), t.nodes.size());
    for (int c : {first, second}) {
      LbvhBox child;
      child.lo = t.nodes[c].lo;
      child.hi = t.nodes[c].hi;
      ASSERT_TRUE(box_inside(child, node)) << "child " << c << " of " << index;
    }
    stack.push_back({second, depth + 1});
    stack.push_back({first, depth + 1});
  }
  for (std::size_t i = 0; i < t.nodes.size(); ++i) ASSERT_EQ(visited[i], 1) << "node " << i;
  for (std::size_t slot = 0; slot < n; ++slot) ASSERT_EQ(covered[slot], 1) << "slot " << slot;
  EXPECT_EQ(leaves, t.leaves);
  EXPECT_EQ(deepest, t.depth);
  EXPECT_LE(t.depth, kBvhMaxDepth);
  const double cost = bvh_sah_cost(t.nodes);
  EXPECT_NEAR(t.sah_cost, cost, 1e-3 * cost + 1e-9);
}

// n random triangles in a 20-unit cube, of sizes up to `size`.
inline std::vector<TriangleGeometry> random_triangles(std::size_t n, std::uint32_t seed,
                                                      float size = 0.5f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-10.0f, 10.0f), edge(-size, size);
  std::vector<TriangleGeometry> out(n);
  for (TriangleGeometry& t : out) {
    t.v0 = glm::vec3(pos(rng), pos(rng), pos(rng));
    t.e1 = glm::vec3(edge(rng), edge(rng), edge(rng));
    t.e2 = glm::vec3(edge(rng), edge(rng), edge(rng));
  }
  return out;
}

// n random boxes of a type with lo and hi corners (the LBVH's LbvhBox, the SAH build's Aabb).
template <class Box = LbvhBox>
std::vector<Box> random_boxes(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> pos(-10.0f, 10.0f), size(0.0f, 0.5f);
  std::vector<Box> out(n);
  for (Box& b : out) {
    b.lo = glm::vec3(pos(rng), pos(rng), pos(rng));
    b.hi = b.lo + glm::vec3(size(rng), size(rng), size(rng));
  }
  return out;
}

// Two trees (Bvh, BuiltTree) with the same nodes, leaf order and depth.
template <class Tree>
void expect_same_tree(const Tree& a, const Tree& b) {
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    ASSERT_EQ(a.nodes[i].offset, b.nodes[i].offset) << i;
    ASSERT_EQ(a.nodes[i].count, b.nodes[i].count) << i;
    ASSERT_EQ(a.nodes[i].lo, b.nodes[i].lo) << i;
    ASSERT_EQ(a.nodes[i].hi, b.nodes[i].hi) << i;
  }
  EXPECT_EQ(a.order, b.order);
  EXPECT_EQ(a.depth, b.depth);
}

// A scene's primitives as the renderer builds over them.
inline BuildInput scene_input(const Scene& scene) {
  BuildInput in;
  std::vector<TriangleShading> shading;
  triangles_in_scene_order(scene, in.triangles, shading);
  in.objects.resize(scene.objects.size());
  for (std::size_t k = 0; k < scene.objects.size(); ++k)
    object_world_bounds(scene.objects[k], in.objects[k].lo, in.objects[k].hi);
  return in;
}

// The SAH build's cost over the same primitives (padded as the renderer pads them).
inline double sah_build_cost(const BuildInput& in) {
  std::vector<Aabb> bounds(in.count());
  for (std::size_t p = 0; p < in.count(); ++p) {
    const LbvhBox b = padded_box(in.box(p));
    bounds[p].lo = b.lo;
    bounds[p].hi = b.hi;
  }
  return build_bvh(bounds).sah_cost;
}

}  // namespace raystream::test
