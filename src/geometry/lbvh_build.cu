// The LBVH build's stages (lbvh_build.h), in order:
//   1. centroid bounds: every primitive's box checked and its centroid folded into the bounds
//   2. sort keys: Morton codes of the centroids behind a bit for large primitives, with the
//      primitives' indices
//   3. the (code, index) pairs sorted by the primitives' radix sort
//   4. every internal node's range and split from the sorted codes (Karras 2012)
//   5. bottom up from the leaves: boxes, SAH costs and which subtrees become leaves; the second
//      of a node's two children to finish goes on to the node (one atomic counter per node);
//      then treelet restructuring, the nodes sorted by height and done one height at a time
//   6. depth-first positions by pointer jumping: each internal node adds up its offset below its
//      ancestors in log2(depth) rounds (internal nodes lie at most 61 levels deep: 6 rounds)
//   7. the nodes written at their positions, and the leaf slot of every primitive
// Node ids: internal node i (0 <= i < n - 1, the root 0) is id i, leaf k (sorted item k) is id
// n - 1 + k.
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "core/stopwatch.h"
#include "execution/atomics.h"
#include "execution/parallel_for.cuh"
#include "geometry/bvh_build.h"
#include "geometry/lbvh_build.h"
#include "geometry/scene_geometry.h"
#include "primitives/error.h"
#include "primitives/warp/warp_reduce.cuh"

namespace raystream {

namespace {

constexpr std::uint32_t kNone = 0xFFFFFFFFu;
// Pointer-jumping rounds: 2^6 levels cover the deepest internal node the keys allow (61 levels).
constexpr int kJumpRounds = 6;

// Unsigned values whose order is the floats' order (for atomic min and max of floats).
RAYSTREAM_HD inline std::uint32_t ordered_bits(float f) {
  std::uint32_t u;
  memcpy(&u, &f, sizeof u);
  return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

RAYSTREAM_HD inline float from_ordered_bits(std::uint32_t u) {
  u = (u & 0x80000000u) ? (u & 0x7FFFFFFFu) : ~u;
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}

// What the host reads back once the tree is done.
struct Summary {
  std::uint32_t centroid_lo[3];  // ordered_bits
  std::uint32_t centroid_hi[3];  // ordered_bits
  std::uint32_t bad_primitive;   // the first primitive whose box is empty or not finite
  std::uint32_t depth;           // levels below the root
  std::uint32_t unfinished;      // 1: an internal node did not reach the root while jumping
  std::uint32_t nodes;           // nodes of the laid-out tree
  std::uint32_t root_collapsed;  // 1: the whole tree is one leaf
  float root_cost;               // the SAH cost of the root, times its area
  float root_area;
};

struct InitSummary {
  Summary* summary;
  RAYSTREAM_HD void operator()(std::size_t) const {
    Summary s;
    for (int axis = 0; axis < 3; ++axis) {
      s.centroid_lo[axis] = kNone;
      s.centroid_hi[axis] = 0;
    }
    s.bad_primitive = kNone;
    s.depth = 0;
    s.unfinished = 0;
    s.nodes = 0;
    s.root_collapsed = 0;
    s.root_cost = 0.0f;
    s.root_area = 0.0f;
    *summary = s;
  }
};

// A primitive's world box (unpadded), from its triangle or its object box.
struct PrimitiveBoxes {
  const TriangleGeometry* triangles;
  std::size_t triangle_count;
  const LbvhBox* objects;

  RAYSTREAM_HD LbvhBox operator()(std::size_t p) const {
    if (p >= triangle_count) return objects[p - triangle_count];
    const TriangleGeometry t = load_triangle(triangles, static_cast<int>(p));
    const glm::vec3 a = t.v0, b = t.v0 + t.e1, c = t.v0 + t.e2;
    LbvhBox box;
    box.lo = glm::vec3(fminf(a.x, fminf(b.x, c.x)), fminf(a.y, fminf(b.y, c.y)),
                       fminf(a.z, fminf(b.z, c.z)));
    box.hi = glm::vec3(fmaxf(a.x, fmaxf(b.x, c.x)), fmaxf(a.y, fmaxf(b.y, c.y)),
                       fmaxf(a.z, fmaxf(b.z, c.z)));
    return box;
  }
};

RAYSTREAM_HD inline glm::vec3 centroid(const LbvhBox& b) {
  return 0.5f * (b.lo + b.hi);
}

// Stage 1. Thread t folds primitives t, t + threads, ... (GPU: neighbouring threads read
// neighbouring primitives) or one contiguous run of `per_thread` (CPU), then one atomic per warp
// (GPU; the thread count is a multiple of 256, so every lane takes part) or per thread (CPU).
struct CentroidBounds {
  PrimitiveBoxes boxes;
  std::size_t n;
  std::size_t threads;
  std::size_t per_thread;
  Summary* summary;

  RAYSTREAM_HD void operator()(std::size_t t) const {
    std::uint32_t lo[3] = {kNone, kNone, kNone}, hi[3] = {0, 0, 0};
    std::uint32_t bad = kNone;
    auto fold = [&](std::size_t p) {
      const LbvhBox b = boxes(p);
      if (!box_valid(b)) {
        if (bad == kNone) bad = static_cast<std::uint32_t>(p);
        return;
      }
      const glm::vec3 c = centroid(b);
      for (int axis = 0; axis < 3; ++axis) {
        const std::uint32_t bits = ordered_bits(c[axis]);
        lo[axis] = bits < lo[axis] ? bits : lo[axis];
        hi[axis] = bits > hi[axis] ? bits : hi[axis];
      }
    };
#if defined(__CUDA_ARCH__)
    for (std::size_t p = t; p < n; p += threads) fold(p);
    for (int axis = 0; axis < 3; ++axis) {
      lo[axis] = prim::warp::reduce_min(lo[axis]);
      hi[axis] = prim::warp::reduce_max(hi[axis]);
    }
    bad = prim::warp::reduce_min(bad);
    if ((threadIdx.x & 31) != 0) return;
#else
    const std::size_t begin = t * per_thread;
    const std::size_t end = begin + per_thread < n ? begin + per_thread : n;
    for (std::size_t p = begin; p < end; ++p) fold(p);
#endif
    for (int axis = 0; axis < 3; ++axis) {
      if (lo[axis] != kNone) atomic_min(&summary->centroid_lo[axis], lo[axis]);
      if (hi[axis] != 0) atomic_max(&summary->centroid_hi[axis], hi[axis]);
    }
    if (bad != kNone) atomic_min(&summary->bad_primitive, bad);
  }
};

// Stage 2.
struct MortonCodes {
  PrimitiveBoxes boxes;
  const Summary* summary;
  std::uint32_t* codes;
  std::uint32_t* ids;

  RAYSTREAM_HD void operator()(std::size_t p) const {
    glm::vec3 lo, hi;
    for (int axis = 0; axis < 3; ++axis) {
      lo[axis] = from_ordered_bits(summary->centroid_lo[axis]);
      hi[axis] = from_ordered_bits(summary->centroid_hi[axis]);
    }
    const glm::vec3 extent = hi - lo;
    const float widest = fmaxf(extent.x, fmaxf(extent.y, extent.z));
    // Every centroid in one point (or no valid box at all: the build fails later): one code.
    const float scale = widest > 0.0f && widest < 3.0e38f ? 1.0f / widest : 0.0f;
    const LbvhBox box = boxes(p);
    codes[p] = lbvh_sort_key(morton_code(centroid(box), lo, scale), box, widest);
    ids[p] = static_cast<std::uint32_t>(p);
  }
};

// Stage 4.
struct EmitHierarchy {
  const std::uint32_t* codes;  // sorted
  long long n;
  std::int32_t* child;   // [2 i], [2 i + 1]: internal node i's first and second child ids
  std::int32_t* parent;  // by id; the root's is -1

  RAYSTREAM_HD void operator()(std::size_t index) const {
    const long long i = static_cast<long long>(index);
    const LbvhSplit s = lbvh_split(codes, n, i);
    const int leaves = static_cast<int>(n - 1);
    const int first = s.first == s.split ? leaves + s.split : s.split;
    const int second = s.last == s.split + 1 ? leaves + s.split + 1 : s.split + 1;
    child[2 * i] = first;
    child[2 * i + 1] = second;
    parent[first] = static_cast<std::int32_t>(i);
    parent[second] = static_cast<std::int32_t>(i);
    if (i == 0) parent[0] = -1;
  }
};

// What stage 5 finds for an internal node: its box, its SAH cost (times the area, in the units of
// kSahTraversalCost and kSahIntersectionCost) and its primitives (the nodes of its laid-out
// subtree go to TreeView::sizes).
struct NodeRecord {
  glm::vec3 lo;
  float cost;
  glm::vec3 hi;
  std::int32_t count;
};
static_assert(sizeof(NodeRecord) == 32, "two 16-byte loads");

struct Subtree {
  LbvhBox box;
  float cost = 0.0f;
  std::int32_t count = 1;
  std::int32_t size = 1;    // nodes once laid out
  std::int32_t height = 0;  // levels below it, before collapsing
};

// Reads what another thread may have just written in stage 5: past L1, which does not see other
// SMs' writes (on the host the counters' atomics order the threads).
template <class T>
RAYSTREAM_HD inline T load_shared(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldcg(p);
#else
  return *p;
#endif
}

struct TreeView {
  long long n;
  std::int32_t* child;
  std::int32_t* parent;
  const std::uint32_t* ids;  // sorted: leaf k's primitive
  PrimitiveBoxes boxes;
  NodeRecord* records;    // by internal node
  std::int32_t* sizes;    // by internal node: laid-out nodes; -1: collapsed into a leaf
  std::uint8_t* heights;  // by internal node: levels below it, before collapsing

  RAYSTREAM_HD bool leaf(int id) const { return id >= n - 1; }

  // Child 0 (first) or 1 of internal node id; `coherent` as in subtree().
  RAYSTREAM_HD int child_of(int id, int which, bool coherent) const {
    return coherent ? load_shared(child + 2 * id + which) : child[2 * id + which];
  }

  // A node's subtree. `coherent`: read what another thread may have just written (stage 5).
  RAYSTREAM_HD Subtree subtree(int id, bool coherent) const {
    Subtree s;
    if (leaf(id)) {
      s.box = padded_box(boxes(ids[id - (n - 1)]));
      s.cost = kSahIntersectionCost * box_area(s.box);
      return s;
    }
    NodeRecord r;
    std::int32_t size;
#if defined(__CUDA_ARCH__)
    if (coherent) {
      const float4 a = __ldcg(reinterpret_cast<const float4*>(records + id));
      const float4 b = __ldcg(reinterpret_cast<const float4*>(records + id) + 1);
      r.lo = glm::vec3(a.x, a.y, a.z);
      r.cost = a.w;
      r.hi = glm::vec3(b.x, b.y, b.z);
      r.count = __float_as_int(b.w);
    } else {
      r = records[id];
    }
#else
    r = records[id];
#endif
    size = coherent ? load_shared(sizes + id) : sizes[id];
    s.height = coherent ? load_shared(heights + id) : heights[id];
    s.box.lo = r.lo;
    s.box.hi = r.hi;
    s.cost = r.cost;
    s.count = r.count;
    s.size = size < 0 ? 1 : size;
    return s;
  }

  RAYSTREAM_HD bool collapsed(int id) const {
    return !leaf(id) && sizes[id] < 0;
  }
};

// A node of n primitives over a box of the given area, split into subtrees costing `children`:
// a leaf when it holds at most kBvhMaxLeafSize primitives and testing them all costs no more than
// the split (the SAH build's rule). Its cost is the leaf's or the split's, so the root's cost is
// the SAH cost of the collapsed tree.
struct NodeChoice {
  float cost;
  bool collapse;
};

RAYSTREAM_HD inline NodeChoice choose_node(float area, std::int32_t count, float children) {
  const float split_cost = kSahTraversalCost * area + children;
  const float leaf_cost = kSahIntersectionCost * static_cast<float>(count) * area;
  const bool collapse = count <= kBvhMaxLeafSize && leaf_cost <= split_cost;
  return NodeChoice{collapse ? leaf_cost : split_cost, collapse};
}

// Treelet restructuring (Karras and Aila, "Fast parallel construction of high-quality bounding
// volume hierarchies", HPG 2013), one pass. The treelet under `root`: its two children, then
// repeatedly the treelet leaf of largest area that is an internal node replaced by its children,
// up to kTreeletLeaves leaves. Dynamic programming over the subsets of those leaves finds the
// binary tree over them of least SAH cost (each subset: the best split into two, or a leaf where
// choose_node takes one). When it costs less than `current` and leaves the subtree no taller than
// `height` levels (so the tree never grows deeper than the hierarchy the keys gave), the
// treelet's internal nodes are rewired into it: the root keeps its id, the others are reused.
constexpr int kTreeletLeaves = 7;
constexpr int kTreeletMinPrimitives = 8;  // smaller subtrees keep their topology

RAYSTREAM_HD inline int lowest_bit(int x) {
  int i = 0;
  while (!(x & (1 << i))) ++i;
  return i;
}

// The treelet under `root`: its two children, then repeatedly the treelet leaf of largest area
// that is an internal node replaced by its children. Fills its leaves, their subtrees and its
// internal nodes (the root first); returns its leaf count.
RAYSTREAM_HD __forceinline__ int form_treelet(const TreeView& tree, int root,
                                              int (&leaves)[kTreeletLeaves],
                                              Subtree (&data)[kTreeletLeaves],
                                              int (&internal)[kTreeletLeaves - 1]) {
  int m = 2, k = 1;
  internal[0] = root;
  for (int c = 0; c < 2; ++c) {
    leaves[c] = tree.child_of(root, c, true);
    data[c] = tree.subtree(leaves[c], true);
  }
  while (m < kTreeletLeaves) {
    int grow = -1;
    float largest = -1.0f;
    for (int i = 0; i < m; ++i) {
      const float area = box_area(data[i].box);
      if (!tree.leaf(leaves[i]) && area > largest) {
        largest = area;
        grow = i;
      }
    }
    if (grow < 0) break;
    const int node = leaves[grow];
    internal[k++] = node;
    leaves[grow] = tree.child_of(node, 0, true);
    data[grow] = tree.subtree(leaves[grow], true);
    leaves[m] = tree.child_of(node, 1, true);
    data[m] = tree.subtree(leaves[m], true);
    ++m;
  }
  return m;
}

// The dynamic programming over the subsets of the treelet's m leaves. cost[s]: the least cost of
// a subtree over the leaves in subset s; part[s]: the subset of its first child (bit 7 set: the
// subtree is best a leaf). A subset's parts are smaller numbers.
RAYSTREAM_HD __forceinline__ void best_treelet_splits(const Subtree (&data)[kTreeletLeaves], int m,
                                                      float (&cost)[1 << kTreeletLeaves],
                                                      std::uint8_t (&part)[1 << kTreeletLeaves]) {
  const int full = (1 << m) - 1;
  for (int i = 0; i < m; ++i) {
    cost[1 << i] = data[i].cost;
    part[1 << i] = 0;
  }
  for (int s = 3; s <= full; ++s) {
    if ((s & (s - 1)) == 0) continue;
    LbvhBox box;
    std::int32_t count = 0;
    for (int i = 0; i < m; ++i) {
      if (s & (1 << i)) {
        box = box_union(box, data[i].box);
        count += data[i].count;
      }
    }
    // Each split once: the first part holds the lowest leaf.
    const int low = s & -s, rest = s ^ low;
    float best = 3.0e38f;
    int best_part = low;
    for (int sub = (rest - 1) & rest;; sub = (sub - 1) & rest) {
      const int p = low | sub;
      const float c = cost[p] + cost[s ^ p];
      if (c < best) {
        best = c;
        best_part = p;
      }
      if (sub == 0) break;
    }
    const NodeChoice choice = choose_node(box_area(box), count, best);
    cost[s] = choice.cost;
    part[s] = static_cast<std::uint8_t>(best_part | (choice.collapse ? 0x80 : 0));
  }
}

// Where subset s (of more than one leaf) is among the new internal nodes.
RAYSTREAM_HD __forceinline__ int index_of_set(const int (&sets)[kTreeletLeaves - 1], int s) {
  int j = 0;
  while (sets[j] != s) ++j;
  return j;
}

// The new internal nodes in depth-first order (sets[0] is the whole treelet); returns their count.
RAYSTREAM_HD __forceinline__ int order_treelet_nodes(
    const std::uint8_t (&part)[1 << kTreeletLeaves], int full, int (&sets)[kTreeletLeaves - 1],
    int (&stack)[kTreeletLeaves]) {
  int count_sets = 0;
  int top = 0;
  stack[top++] = full;
  while (top > 0) {
    const int s = stack[--top];
    sets[count_sets++] = s;
    const int p = part[s] & 0x7F, q = s ^ p;
    if (q & (q - 1)) stack[top++] = q;
    if (p & (p - 1)) stack[top++] = p;
  }
  return count_sets;
}

// The heights of the new internal nodes (children after parents in their order, so computed
// backwards).
RAYSTREAM_HD __forceinline__ void treelet_heights(const std::uint8_t (&part)[1 << kTreeletLeaves],
                                                  const Subtree (&data)[kTreeletLeaves],
                                                  const int (&sets)[kTreeletLeaves - 1],
                                                  int count_sets,
                                                  int (&heights)[kTreeletLeaves - 1]) {
  auto height_of = [&](int s) {
    return (s & (s - 1)) ? heights[index_of_set(sets, s)] : data[lowest_bit(s)].height;
  };
  for (int j = count_sets - 1; j >= 0; --j) {
    const int p = part[sets[j]] & 0x7F;
    const int hp = height_of(p), hq = height_of(sets[j] ^ p);
    heights[j] = 1 + (hp > hq ? hp : hq);
  }
}

// Rewires the treelet's internal nodes into the new tree, children first, and records every new
// node below the root (built[j]: the subtree of sets[j]).
RAYSTREAM_HD __forceinline__ void rewire_treelet(
    const TreeView& tree, const int (&leaves)[kTreeletLeaves],
    const Subtree (&data)[kTreeletLeaves], const int (&internal)[kTreeletLeaves - 1],
    const float (&cost)[1 << kTreeletLeaves], const std::uint8_t (&part)[1 << kTreeletLeaves],
    const int (&sets)[kTreeletLeaves - 1], int count_sets, const int (&heights)[kTreeletLeaves - 1],
    Subtree (&built)[kTreeletLeaves - 1]) {
  auto id_of = [&](int s) {
    return (s & (s - 1)) ? internal[index_of_set(sets, s)] : leaves[lowest_bit(s)];
  };
  auto subtree_of = [&](int s) {
    return (s & (s - 1)) ? built[index_of_set(sets, s)] : data[lowest_bit(s)];
  };
  for (int j = count_sets - 1; j >= 0; --j) {
    const int s = sets[j];
    const int p = part[s] & 0x7F, q = s ^ p;
    const int id = internal[j], a = id_of(p), b = id_of(q);
    tree.child[2 * id] = a;
    tree.child[2 * id + 1] = b;
    tree.parent[a] = id;
    tree.parent[b] = id;
    if (j == 0) break;
    const Subtree sa = subtree_of(p), sb = subtree_of(q);
    Subtree& t = built[j];
    t.box = box_union(sa.box, sb.box);
    t.cost = cost[s];
    t.count = sa.count + sb.count;
    t.size = (part[s] & 0x80) ? 1 : 1 + sa.size + sb.size;
    t.height = heights[j];
    NodeRecord r;
    r.lo = t.box.lo;
    r.hi = t.box.hi;
    r.cost = t.cost;
    r.count = t.count;
    tree.records[id] = r;
    tree.sizes[id] = (part[s] & 0x80) ? -1 : t.size;
    tree.heights[id] = static_cast<std::uint8_t>(t.height);
  }
}

// The restructuring of the treelet under `root` (above). Writes every treelet node below the
// root; the caller writes the root's record.
RAYSTREAM_HD inline bool restructure_treelet(const TreeView& tree, int root, float current,
                                             int height) {
  int leaves[kTreeletLeaves];
  Subtree data[kTreeletLeaves];
  int internal[kTreeletLeaves - 1];
  const int m = form_treelet(tree, root, leaves, data, internal);
  if (m < 3) return false;  // two leaves have one topology

  float cost[1 << kTreeletLeaves];
  std::uint8_t part[1 << kTreeletLeaves];
  const int full = (1 << m) - 1;
  best_treelet_splits(data, m, cost, part);
  if (!(cost[full] < current * (1.0f - 1.0e-6f))) return false;

  // The helpers' scratch arrays (stack, built) are declared here with the others: declared in the
  // inlined helpers, they would change how the kernel's local memory is laid out.
  int sets[kTreeletLeaves - 1];
  int stack[kTreeletLeaves];
  const int count_sets = order_treelet_nodes(part, full, sets, stack);
  int heights[kTreeletLeaves - 1] = {};
  treelet_heights(part, data, sets, count_sets, heights);
  if (heights[0] > height) return false;

  Subtree built[kTreeletLeaves - 1];
  rewire_treelet(tree, leaves, data, internal, cost, part, sets, count_sets, heights, built);
  return true;
}

// Stage 5's work at one internal node whose children are done: its box, cost, size and height,
// after restructuring its treelet (when `treelets` and it holds kTreeletMinPrimitives or more).
RAYSTREAM_HD inline void fit_node(const TreeView& tree, Summary* summary, int node, bool treelets) {
  Subtree a = tree.subtree(tree.child_of(node, 0, true), true);
  Subtree b = tree.subtree(tree.child_of(node, 1, true), true);
  const LbvhBox box = box_union(a.box, b.box);
  const float area = box_area(box);
  const std::int32_t count = a.count + b.count;
  NodeChoice choice = choose_node(area, count, a.cost + b.cost);
  const int height = 1 + (a.height > b.height ? a.height : b.height);
  if (treelets && count >= kTreeletMinPrimitives &&
      restructure_treelet(tree, node, choice.cost, height)) {
    a = tree.subtree(tree.child_of(node, 0, true), true);
    b = tree.subtree(tree.child_of(node, 1, true), true);
    choice = choose_node(area, count, a.cost + b.cost);
  }
  NodeRecord r;
  r.lo = box.lo;
  r.hi = box.hi;
  r.cost = choice.cost;
  r.count = count;
  tree.records[node] = r;
  const std::int32_t size = choice.collapse ? 1 : 1 + a.size + b.size;
  tree.sizes[node] = choice.collapse ? -1 : size;
  tree.heights[node] = static_cast<std::uint8_t>(1 + (a.height > b.height ? a.height : b.height));
  if (node == 0) {
    summary->root_cost = r.cost;
    summary->root_area = area;
    summary->nodes = static_cast<std::uint32_t>(size);
    summary->root_collapsed = choice.collapse ? 1u : 0u;
  }
}

// Stage 5a, one thread per leaf: the second child to finish goes on to the parent and fits it,
// without treelets, so that every internal node has its height.
struct BottomUp {
  TreeView tree;
  std::uint32_t* counters;  // by internal node, zeroed
  Summary* summary;

  RAYSTREAM_HD void operator()(std::size_t k) const {
    int node = tree.parent[static_cast<int>(tree.n - 1) + static_cast<int>(k)];
    while (node >= 0) {
      if (arrive(counters + node) == 0) return;  // the other child is not done yet
      fit_node(tree, summary, node, false);
      node = tree.parent[node];
    }
  }
};

// Stage 5b's sort keys: the internal nodes that restructure their treelets by height (a node's
// descendants are lower), the others first under key 0.
constexpr int kLevelKeyBits = 8;  // heights are at most 62 (the keys' 31 bits and 30 of index)
constexpr int kLevels = 1 << kLevelKeyBits;

struct LevelKeys {
  TreeView tree;
  std::uint32_t* keys;
  std::uint32_t* ids;
  RAYSTREAM_HD void operator()(std::size_t i) const {
    const bool restructures = tree.records[i].count >= kTreeletMinPrimitives;
    keys[i] = restructures ? tree.heights[i] : 0u;
    ids[i] = static_cast<std::uint32_t>(i);
  }
};

// Where each height's nodes start among the sorted keys: starts[h], h in [0, kLevels].
struct LevelStarts {
  const std::uint32_t* keys;  // sorted
  std::size_t count;
  std::uint32_t* starts;
  RAYSTREAM_HD void operator()(std::size_t i) const {
    const std::uint32_t below = i == 0 ? 0u : keys[i - 1] + 1, key = keys[i];
    for (std::uint32_t h = i == 0 ? 0u : below; h <= key; ++h)
      starts[h] = static_cast<std::uint32_t>(i);
    if (i + 1 == count)
      for (std::uint32_t h = key + 1; h <= kLevels; ++h) starts[h] = static_cast<std::uint32_t>(count);
  }
};

// Stage 5b, one thread per node of one height: refits it with its treelet. The nodes of a height
// have disjoint subtrees, and every node below them was done in an earlier height, so all lanes
// of a warp do a treelet each (climbing from the leaves, a warp's lanes mostly wait on the one
// whose node is ready).
struct LevelFit {
  TreeView tree;
  const std::uint32_t* nodes;  // this height's
  Summary* summary;
  RAYSTREAM_HD void operator()(std::size_t k) const {
    fit_node(tree, summary, static_cast<int>(nodes[k]), true);
  }
};

// Stage 6. An internal node's place relative to `ancestor`: `position` nodes and `slot` leaf
// slots (primitives) after it in depth-first order, `depth` levels below it, and whether a node
// in between (the ancestor included) was collapsed into a leaf, which hides this one.
struct Jump {
  std::int32_t ancestor;
  std::int32_t position;
  std::int32_t slot;
  std::int32_t depth_hidden;  // depth << 1 | hidden
};

struct StartJumps {
  TreeView tree;
  Jump* jumps;

  RAYSTREAM_HD void operator()(std::size_t index) const {
    const int i = static_cast<int>(index);
    Jump j{0, 0, 0, 0};
    if (i != 0) {
      const int p = tree.parent[i];
      const int first = tree.child[2 * p];
      if (first == i) {
        j.position = 1;
      } else {
        const Subtree s = tree.subtree(first, false);
        j.position = 1 + s.size;
        j.slot = s.count;
      }
      j.ancestor = p;
      j.depth_hidden = (1 << 1) | (tree.collapsed(p) ? 1 : 0);
    }
    jumps[i] = j;
  }
};

struct JumpRound {
  const Jump* in;
  Jump* out;
  RAYSTREAM_HD void operator()(std::size_t i) const {
    const Jump self = in[i];
    const Jump up = in[self.ancestor];
    Jump j;
    j.ancestor = up.ancestor;
    j.position = self.position + up.position;
    j.slot = self.slot + up.slot;
    j.depth_hidden = (((self.depth_hidden >> 1) + (up.depth_hidden >> 1)) << 1) |
                     ((self.depth_hidden | up.depth_hidden) & 1);
    out[i] = j;
  }
};

// Stage 7, one thread per node id.
struct WriteNodes {
  TreeView tree;
  const Jump* jumps;  // after the last round: relative to the root
  BvhNode* nodes;
  std::int32_t* order;    // leaf slot -> primitive
  std::int32_t* slot_of;  // primitive -> leaf slot
  Summary* summary;

  RAYSTREAM_HD void operator()(std::size_t index) const {
    const int id = static_cast<int>(index);
    if (!tree.leaf(id)) {
      const Jump j = jumps[id];
      if (j.ancestor != 0) summary->unfinished = 1;
      if (j.depth_hidden & 1) return;
      const Subtree s = tree.subtree(id, false);
      BvhNode node;
      node.lo = s.box.lo;
      node.hi = s.box.hi;
      if (tree.collapsed(id)) {
        node.offset = j.slot;
        node.count = s.count;
      } else {
        node.offset = j.position + 1 + tree.subtree(tree.child[2 * id], false).size;
        node.count = 0;
      }
      nodes[j.position] = node;
      atomic_max(&summary->depth, static_cast<std::uint32_t>(j.depth_hidden >> 1));
      return;
    }
    const int p = tree.parent[id];
    const Jump up = jumps[p];
    const int first = tree.child[2 * p];
    int position = up.position + 1, slot = up.slot;
    if (first != id) {
      const Subtree s = tree.subtree(first, false);
      position += s.size;
      slot += s.count;
    }
    const std::int32_t primitive = static_cast<std::int32_t>(tree.ids[id - (tree.n - 1)]);
    order[slot] = primitive;
    slot_of[primitive] = slot;
    if ((up.depth_hidden & 1) || tree.collapsed(p)) return;
    const Subtree s = tree.subtree(id, false);
    BvhNode node;
    node.lo = s.box.lo;
    node.hi = s.box.hi;
    node.offset = slot;
    node.count = 1;
    nodes[position] = node;
    atomic_max(&summary->depth, static_cast<std::uint32_t>((up.depth_hidden >> 1) + 1));
  }
};

// One primitive: the tree is one leaf.
struct SingleLeaf {
  PrimitiveBoxes boxes;
  BvhNode* nodes;
  std::int32_t* order;
  std::int32_t* slot_of;
  Summary* summary;
  RAYSTREAM_HD void operator()(std::size_t) const {
    const LbvhBox b = padded_box(boxes(0));
    BvhNode node;
    node.lo = b.lo;
    node.hi = b.hi;
    node.offset = 0;
    node.count = 1;
    nodes[0] = node;
    order[0] = 0;
    slot_of[0] = 0;
    summary->nodes = 1;
    summary->root_collapsed = 1;
    summary->root_area = box_area(b);
    summary->root_cost = kSahIntersectionCost * summary->root_area;
  }
};

template <class T>
struct GatherBySlot {
  const std::int32_t* order;
  std::size_t triangle_count;
  const T* in;
  T* out;
  RAYSTREAM_HD void operator()(std::size_t slot) const {
    const std::size_t p = static_cast<std::size_t>(order[slot]);
    out[slot] = p < triangle_count ? in[p] : T{};
  }
};

struct References {
  const std::int32_t* order;
  std::size_t triangle_count;
  std::int32_t* references;
  RAYSTREAM_HD void operator()(std::size_t slot) const {
    const std::size_t p = static_cast<std::size_t>(order[slot]);
    references[slot] = p < triangle_count ? static_cast<std::int32_t>(slot)
                                          : object_reference(static_cast<int>(p - triangle_count));
  }
};

std::size_t round_up(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

// Times the build's steps where LbvhOptions::times asks for it: lap(step) waits for what was
// queued and records the time since the previous lap.
class StageClock {
 public:
  StageClock(const Executor& ex, LbvhStageTimes* times) : ex_(ex), times_(times) {}
  void lap(const char* step) {
    if (!times_) return;
    synchronize(ex_);
    times_->stages.emplace_back(step, milliseconds_since(start_));
    start_ = steady_now();
  }

 private:
  const Executor& ex_;
  LbvhStageTimes* times_;
  SteadyTime start_ = steady_now();
};

// The build's steps, in the order of the stages (build_lbvh calls them).

void check_primitive_count(std::size_t n) {
  if (n == 0) throw std::invalid_argument("build_lbvh: no primitives");
  if (n > kLbvhMaxPrimitives)
    throw std::invalid_argument("build_lbvh: too many primitives (" + std::to_string(n) +
                                ", at most 2^30)");
}

// Stage 1, which checks every box, also for a single primitive.
void find_centroid_bounds(const Executor& ex, const PrimitiveBoxes& boxes, std::size_t n,
                          Summary* summary) {
  const std::size_t per_thread = ex.gpu() ? 16 : 4096;
  const std::size_t threads = ex.gpu() ? round_up((n + per_thread - 1) / per_thread, kStageThreads)
                                       : (n + per_thread - 1) / per_thread;
  parallel_for(ex, "lbvh: centroid bounds", threads,
               CentroidBounds{boxes, n, threads, per_thread, summary});
}

// The radix sort's workspace and its bytes, counted in the build's memory until the build
// returns. It is freed with the build's last buffers: freeing it earlier would wait for the GPU
// (it is not stream-ordered).
struct SortWorkspace {
  prim::Workspace workspace;
  std::size_t bytes = 0;
};

void reserve_sort_workspace(const Executor& ex, const PathPrimitives& primitives, std::size_t n,
                            SortWorkspace& sort, BuildMemory& memory) {
  sort.bytes = primitives.code_sort_workspace_bytes(n, kLbvhKeyBits);
  if (ex.gpu() && sort.bytes > 0) {
    try {
      sort.workspace.reserve(sort.bytes);
    } catch (const prim::Error& e) {
      throw std::runtime_error("out of GPU memory allocating the radix sort's workspace (" +
                               std::to_string(sort.bytes) +
                               " bytes) for the BVH build: " + e.what());
    }
  }
  memory.add(sort.bytes);
}

// The primitives' sort keys and ids, in key order.
struct SortedKeys {
  BuildBuffer<std::uint32_t> codes;
  BuildBuffer<std::uint32_t> ids;
};

// Stages 2 and 3; the unsorted keys and ids are freed on return.
SortedKeys sort_keys(const Executor& ex, const PathPrimitives& primitives,
                     const PrimitiveBoxes& boxes, std::size_t n, const Summary* summary,
                     SortWorkspace& sort, BuildMemory& memory, StageClock& clock) {
  SortedKeys sorted{BuildBuffer<std::uint32_t>(ex, "Morton codes (sorted)", n, memory),
                    BuildBuffer<std::uint32_t>(ex, "primitive ids (sorted)", n, memory)};
  BuildBuffer<std::uint32_t> codes(ex, "Morton codes", n, memory);
  BuildBuffer<std::uint32_t> ids(ex, "primitive ids", n, memory);
  parallel_for(ex, "lbvh: morton codes", n, MortonCodes{boxes, summary, codes.data(), ids.data()});
  clock.lap("sort keys");
  reserve_sort_workspace(ex, primitives, n, sort, memory);
  clock.lap("sort workspace");
  primitives.sort_codes(codes.data(), sorted.codes.data(), ids.data(), sorted.ids.data(), n,
                        kLbvhKeyBits, sort.workspace, ex.stream);
  // Thrust's temporaries come from the workspace's caching allocator, which keeps them.
  const std::size_t cached = ex.gpu() ? primitives.extra_device_bytes(sort.workspace) : 0;
  memory.add(cached);
  sort.bytes += cached;
  return sorted;
}

// The hierarchy's buffers: by internal node, but the parents by node id.
struct Hierarchy {
  BuildBuffer<std::int32_t> child;
  BuildBuffer<std::int32_t> parent;
  BuildBuffer<NodeRecord> records;
  BuildBuffer<std::int32_t> sizes;
  BuildBuffer<std::uint8_t> heights;

  TreeView view(const SortedKeys& keys, const PrimitiveBoxes& boxes, std::size_t n) const {
    return TreeView{static_cast<long long>(n),
                    child.data(),
                    parent.data(),
                    keys.ids.data(),
                    boxes,
                    records.data(),
                    sizes.data(),
                    heights.data()};
  }
};

// Stage 4; the sorted codes are freed once it is queued.
Hierarchy emit_hierarchy(const Executor& ex, SortedKeys& keys, std::size_t n, BuildMemory& memory) {
  const std::size_t internal = n - 1;
  Hierarchy h{BuildBuffer<std::int32_t>(ex, "node children", 2 * internal, memory),
              BuildBuffer<std::int32_t>(ex, "node parents", 2 * n - 1, memory),
              BuildBuffer<NodeRecord>(ex, "node boxes and costs", internal, memory),
              BuildBuffer<std::int32_t>(ex, "subtree sizes", internal, memory),
              BuildBuffer<std::uint8_t>(ex, "subtree heights", internal, memory)};
  parallel_for(
      ex, "lbvh: hierarchy", internal,
      EmitHierarchy{keys.codes.data(), static_cast<long long>(n), h.child.data(), h.parent.data()});
  keys.codes.release();
  return h;
}

// Stage 5: the tree fitted bottom up (5a); with treelets, the internal nodes sorted by height by
// the primitives' radix sort and refitted one height after another with their treelets (5b). The
// host reads the heights' starts (some hundred bytes) to size each height's launch.
void fit_bottom_up(const Executor& ex, const PathPrimitives& primitives, const TreeView& view,
                   Summary* summary, bool treelets, SortWorkspace& sort, BuildMemory& memory,
                   StageClock& clock) {
  const std::size_t internal = static_cast<std::size_t>(view.n - 1);
  BuildBuffer<std::uint32_t> counters(ex, "node counters", internal, memory);
  fill_bytes(ex, counters.data(), 0, counters.bytes());
  parallel_for(ex, "lbvh: bottom up", static_cast<std::size_t>(view.n),
               BottomUp{view, counters.data(), summary});
  clock.lap("bottom up");
  if (!treelets) return;
  BuildBuffer<std::uint32_t>& keys = counters;  // done with
  BuildBuffer<std::uint32_t> ids(ex, "nodes by height", internal, memory);
  BuildBuffer<std::uint32_t> sorted_keys(ex, "heights (sorted)", internal, memory);
  BuildBuffer<std::uint32_t> sorted_ids(ex, "nodes by height (sorted)", internal, memory);
  BuildBuffer<std::uint32_t> starts(ex, "height starts", kLevels + 1, memory);
  parallel_for(ex, "lbvh: level keys", internal, LevelKeys{view, keys.data(), ids.data()});
  primitives.sort_codes(keys.data(), sorted_keys.data(), ids.data(), sorted_ids.data(), internal,
                        kLevelKeyBits, sort.workspace, ex.stream);
  parallel_for(ex, "lbvh: level starts", internal,
               LevelStarts{sorted_keys.data(), internal, starts.data()});
  std::uint32_t host_starts[kLevels + 1];
  copy_to_host(ex, host_starts, starts.data(), sizeof host_starts);
  for (int h = 1; h < kLevels; ++h) {
    const std::uint32_t begin = host_starts[h], end = host_starts[h + 1];
    if (end > begin)
      parallel_for(ex, "lbvh: treelets", end - begin,
                   LevelFit{view, sorted_ids.data() + begin, summary});
  }
  clock.lap("treelets");
}

// Stage 6's two buffers of positions, which the rounds read and write in turn; `last` is the one
// the last round wrote.
struct Positions {
  BuildBuffer<Jump> a;
  BuildBuffer<Jump> b;
  const Jump* last = nullptr;
};

Positions find_positions(const Executor& ex, const TreeView& view, BuildMemory& memory) {
  const std::size_t internal = static_cast<std::size_t>(view.n - 1);
  Positions p{BuildBuffer<Jump>(ex, "node positions", internal, memory),
              BuildBuffer<Jump>(ex, "node positions (second)", internal, memory)};
  parallel_for(ex, "lbvh: layout start", internal, StartJumps{view, p.a.data()});
  Jump* in = p.a.data();
  Jump* out = p.b.data();
  for (int round = 0; round < kJumpRounds; ++round) {
    parallel_for(ex, "lbvh: layout round", internal, JumpRound{in, out});
    std::swap(in, out);
  }
  p.last = in;
  return p;
}

// The nodes as built (room for the most nodes n primitives can give), and the tree's leaf order
// and leaf slots.
BuildBuffer<BvhNode> allocate_nodes(const Executor& ex, std::size_t n, LbvhTree& tree,
                                    BuildMemory& memory) {
  BuildBuffer<BvhNode> built(ex, "BVH nodes (as built)", 2 * n - 1, memory);
  tree.order = BuildBuffer<std::int32_t>(ex, "BVH leaf order", n, memory);
  tree.slot_of = BuildBuffer<std::int32_t>(ex, "BVH leaf slots", n, memory);
  return built;
}

// Reads the summary of the finished tree (this waits for the stages) and checks it.
Summary read_summary(const Executor& ex, const Summary* summary, std::size_t n) {
  Summary s;
  copy_to_host(ex, &s, summary, sizeof s);
  if (s.bad_primitive != kNone)
    throw std::invalid_argument("build_lbvh: primitive " + std::to_string(s.bad_primitive) +
                                " has an empty or non-finite bounding box");
  if (s.unfinished)
    throw std::runtime_error("build_lbvh: the tree is deeper than its layout allows");
  if (s.nodes == 0 || s.nodes > 2 * n - 1)
    throw std::runtime_error("build_lbvh: the tree came out with " + std::to_string(s.nodes) +
                             " nodes for " + std::to_string(n) + " primitives");
  return s;
}

// Exactly as many nodes as the tree has, for the render to keep.
void keep_nodes(const Executor& ex, std::size_t nodes, BuildBuffer<BvhNode>& built, LbvhTree& tree,
                BuildMemory& memory, MemoryTally* tally) {
  tree.nodes = Buffer<BvhNode>(ex, "BVH nodes", nodes, tally);
  memory.add(tree.nodes.bytes());
  copy_within(ex, tree.nodes.data(), built.data(), nodes * sizeof(BvhNode));
  built.release();
}

double sah_cost(const Summary& s, std::size_t n) {
  return s.root_area > 0.0f
             ? static_cast<double>(s.root_cost) / static_cast<double>(s.root_area)
             : (s.root_collapsed ? static_cast<double>(n) * kSahIntersectionCost : 0.0);
}

}  // namespace

RawBuildBuffer::RawBuildBuffer(const Executor& ex, const char* what, std::size_t bytes,
                               BuildMemory& memory)
    : bytes_(bytes), stream_(ex.stream), gpu_(ex.gpu()) {
  if (bytes == 0) return;
  if (gpu_) {
    cudaError_t status = cudaMallocAsync(&data_, bytes, stream_);
    if (status == cudaErrorNotSupported) {
      // A device or driver without memory pools: plain allocations, freed with a wait.
      cudaGetLastError();
      async_ = false;
      status = cudaMalloc(&data_, bytes);
    }
    if (status != cudaSuccess) {
      cudaGetLastError();
      data_ = nullptr;
      throw std::runtime_error(std::string(status == cudaErrorMemoryAllocation
                                               ? "out of GPU memory allocating "
                                               : "GPU allocation failed for ") +
                               what + " (" + std::to_string(bytes) +
                               " bytes) in the BVH build: " + cudaGetErrorString(status));
    }
  } else {
    data_ = std::malloc(bytes);
    if (!data_)
      throw std::runtime_error(std::string("out of host memory allocating ") + what + " (" +
                               std::to_string(bytes) + " bytes) for the BVH build");
  }
  memory_ = &memory;
  memory.add(bytes);
}

void RawBuildBuffer::release() {
  if (data_) {
    if (gpu_ && async_) {
      cudaFreeAsync(data_, stream_);  // queued behind the stages that use it
    } else if (gpu_) {
      cudaFree(data_);
    } else {
      std::free(data_);
    }
  }
  if (memory_) memory_->remove(bytes_);
  data_ = nullptr;
  bytes_ = 0;
  memory_ = nullptr;
}

BuildPoolHold::BuildPoolHold(const Executor& ex) {
  if (!ex.gpu()) return;
  int device = 0;
  cudaMemPool_t pool = nullptr;
  std::uint64_t keep = ~std::uint64_t(0);
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess ||
      cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold_) != cudaSuccess ||
      cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) {
    cudaGetLastError();  // no pools: the build's buffers come and go as without the hold
    return;
  }
  pool_ = pool;
}

void BuildPoolHold::release() {
  if (!pool_) return;
  if (cudaMemPoolSetAttribute(pool_, cudaMemPoolAttrReleaseThreshold, &threshold_) != cudaSuccess ||
      cudaMemPoolTrimTo(pool_, static_cast<std::size_t>(threshold_)) != cudaSuccess)
    cudaGetLastError();
  pool_ = nullptr;
}

LbvhTree build_lbvh(const Executor& ex, const PathPrimitives& primitives,
                    const LbvhPrimitives& input, BuildMemory& memory, MemoryTally* tally,
                    const LbvhOptions& options) {
  const std::size_t n = input.count();
  check_primitive_count(n);
  StageClock clock(ex, options.times);
  const PrimitiveBoxes boxes{input.triangles, input.triangle_count, input.object_boxes};
  BuildBuffer<Summary> summary(ex, "the build's summary", 1, memory);
  parallel_for(ex, "lbvh: start", 1, InitSummary{summary.data()});
  clock.lap("start");
  find_centroid_bounds(ex, boxes, n, summary.data());  // stage 1, also for a single primitive
  clock.lap("centroid bounds");

  LbvhTree tree;
  BuildBuffer<BvhNode> built;
  SortWorkspace sort;
  if (n == 1) {
    built = allocate_nodes(ex, n, tree, memory);
    parallel_for(
        ex, "lbvh: one leaf", 1,
        SingleLeaf{boxes, built.data(), tree.order.data(), tree.slot_of.data(), summary.data()});
  } else {  // stages 2 to 7 (the file's header)
    SortedKeys keys = sort_keys(ex, primitives, boxes, n, summary.data(), sort, memory, clock);
    clock.lap("radix sort");
    const Hierarchy hierarchy = emit_hierarchy(ex, keys, n, memory);
    clock.lap("hierarchy");
    const TreeView view = hierarchy.view(keys, boxes, n);
    fit_bottom_up(ex, primitives, view, summary.data(), options.treelets, sort, memory, clock);
    const Positions positions = find_positions(ex, view, memory);
    clock.lap("positions");
    built = allocate_nodes(ex, n, tree, memory);
    parallel_for(ex, "lbvh: write nodes", 2 * n - 1,
                 WriteNodes{view, positions.last, built.data(), tree.order.data(),
                            tree.slot_of.data(), summary.data()});
    clock.lap("write nodes");
  }

  const Summary s = read_summary(ex, summary.data(), n);
  clock.lap("read summary");
  const std::size_t nodes = s.nodes;
  keep_nodes(ex, nodes, built, tree, memory, tally);
  synchronize(ex);
  clock.lap("keep nodes");
  memory.remove(sort.bytes);  // with the workspace, on return
  tree.leaves = (nodes + 1) / 2;
  tree.depth = static_cast<int>(s.depth);
  tree.sah_cost = sah_cost(s, n);
  return tree;
}

void gather_in_leaf_order(const Executor& ex, const LbvhTree& tree, std::size_t triangle_count,
                          const TriangleGeometry* in, TriangleGeometry* out) {
  parallel_for(ex, "lbvh: triangles in leaf order", tree.order.size(),
               GatherBySlot<TriangleGeometry>{tree.order.data(), triangle_count, in, out});
}

void gather_in_leaf_order(const Executor& ex, const LbvhTree& tree, std::size_t triangle_count,
                          const TriangleShading* in, TriangleShading* out) {
  parallel_for(ex, "lbvh: triangle shading in leaf order", tree.order.size(),
               GatherBySlot<TriangleShading>{tree.order.data(), triangle_count, in, out});
}

void write_primitive_references(const Executor& ex, const LbvhTree& tree,
                                std::size_t triangle_count, std::int32_t* references) {
  parallel_for(ex, "lbvh: primitive references", tree.order.size(),
               References{tree.order.data(), triangle_count, references});
}

}  // namespace raystream
