// The per-element math of the linear BVH (LBVH): Morton codes of primitive centroids, and the
// hierarchy over the sorted codes by Karras, "Maximizing parallelism in the construction of BVHs,
// octrees, and k-d trees" (HPG 2012), where every internal node finds its own range and split
// from the codes alone. __host__ __device__: the builder's stages (geometry/lbvh_build.cu) run
// them as CUDA kernels or as OpenMP loops.
//
// Codes have 30 bits, 10 per axis: with the bit for large primitives (lbvh_sort_key) they are the
// radix sort's keys, and the primitives' own sort takes keys of at most 32 bits (4 passes of
// 8-bit digits; 63-bit codes would take 64-bit keys and twice the passes). Where two primitives
// share a key the hierarchy splits them by their positions in the sorted order (Karras's
// tie-break), so equal keys still give a balanced subtree. Every level below the root lengthens
// the common prefix of the keys (key and position, 63 bits of which the top one is always 0) by at
// least one bit, so the tree is at most 62 levels deep, within kBvhMaxDepth.
#pragma once

#include <cmath>
#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "geometry/bvh.h"

namespace raystream {

inline constexpr int kMortonBits = 30;
inline constexpr int kMortonAxisBits = kMortonBits / 3;

// A box of the build (lo <= hi component-wise for a real box).
struct LbvhBox {
  glm::vec3 lo{3.0e38f};
  glm::vec3 hi{-3.0e38f};
};

RAYSTREAM_HD inline LbvhBox box_union(const LbvhBox& a, const LbvhBox& b) {
  LbvhBox u;
  u.lo = glm::vec3(fminf(a.lo.x, b.lo.x), fminf(a.lo.y, b.lo.y), fminf(a.lo.z, b.lo.z));
  u.hi = glm::vec3(fmaxf(a.hi.x, b.hi.x), fmaxf(a.hi.y, b.hi.y), fmaxf(a.hi.z, b.hi.z));
  return u;
}

// Surface area, 0 for a box that is empty or flat.
RAYSTREAM_HD inline float box_area(const LbvhBox& b) {
  const glm::vec3 e = b.hi - b.lo;
  if (!(e.x >= 0.0f && e.y >= 0.0f && e.z >= 0.0f)) return 0.0f;
  return 2.0f * (e.x * e.y + e.y * e.z + e.z * e.x);
}

// True for a box whose corners are finite and ordered (a point is a box).
RAYSTREAM_HD inline bool box_valid(const LbvhBox& b) {
  const float limit = 3.0e38f;
  return b.lo.x <= b.hi.x && b.lo.y <= b.hi.y && b.lo.z <= b.hi.z && fabsf(b.lo.x) < limit &&
         fabsf(b.lo.y) < limit && fabsf(b.lo.z) < limit && fabsf(b.hi.x) < limit &&
         fabsf(b.hi.y) < limit && fabsf(b.hi.z) < limit;
}

// The box grown so that the box test cannot cull a hit that the primitive's own test accepts: the
// triangle test's edge slack, a cube's faces lying on its box, and rounding. Both builders pad the
// same way.
RAYSTREAM_HD inline LbvhBox padded_box(const LbvhBox& b) {
  const glm::vec3 extent = b.hi - b.lo;
  const glm::vec3 magnitude(fmaxf(fabsf(b.lo.x), fabsf(b.hi.x)),
                            fmaxf(fabsf(b.lo.y), fabsf(b.hi.y)),
                            fmaxf(fabsf(b.lo.z), fabsf(b.hi.z)));
  const float pad = 1.0e-5f * fmaxf(extent.x, fmaxf(extent.y, extent.z)) +
                    1.0e-6f * fmaxf(magnitude.x, fmaxf(magnitude.y, magnitude.z));
  LbvhBox p;
  p.lo = b.lo - glm::vec3(pad);
  p.hi = b.hi + glm::vec3(pad);
  return p;
}

// The 10 low bits of v spread to every third bit (bit k moves to bit 3k).
RAYSTREAM_HD inline std::uint32_t spread_bits_10(std::uint32_t v) {
  v &= 0x3FFu;
  v = (v | (v << 16)) & 0x030000FFu;
  v = (v | (v << 8)) & 0x0300F00Fu;
  v = (v | (v << 4)) & 0x030C30C3u;
  v = (v | (v << 2)) & 0x09249249u;
  return v;
}

// The Morton code of point p in the grid of 2^10 cells per axis over [lo, lo + 1 / scale]
// (x in the highest bit of each triple). One scale for all three axes keeps the cells cubes: a
// flat scene then spends no top-level splits across its thin axis. Points outside clamp to the
// grid; a zero scale (all centroids in one point) gives code 0.
RAYSTREAM_HD inline std::uint32_t morton_code(const glm::vec3& p, const glm::vec3& lo,
                                              float scale) {
  constexpr float kCells = static_cast<float>(1 << kMortonAxisBits);
  std::uint32_t cell[3];
  for (int axis = 0; axis < 3; ++axis) {
    // fminf/fmaxf also turn a NaN into a cell at the grid's edge.
    const float c = fminf(fmaxf((p[axis] - lo[axis]) * scale * kCells, 0.0f), kCells - 1.0f);
    cell[axis] = static_cast<std::uint32_t>(c);
  }
  return (spread_bits_10(cell[0]) << 2) | (spread_bits_10(cell[1]) << 1) | spread_bits_10(cell[2]);
}

// The sort key: the Morton code behind one bit that sets apart primitives at least
// 1 / kLbvhLargeFraction of the widest centroid extent across. Sorted among the others by their
// centroids, such a primitive (a floor under a scene of small triangles) would widen every box
// from the root down to its leaf; set apart, the hierarchy's first split puts the large ones in a
// subtree of their own, as a SAH build would keep them near the root.
inline constexpr int kLbvhKeyBits = kMortonBits + 1;
inline constexpr float kLbvhLargeFraction = 16.0f;

RAYSTREAM_HD inline std::uint32_t lbvh_sort_key(std::uint32_t code, const LbvhBox& box,
                                                float widest_extent) {
  const glm::vec3 e = box.hi - box.lo;
  const bool large = fmaxf(e.x, fmaxf(e.y, e.z)) * kLbvhLargeFraction >= widest_extent;
  return code | (large ? (1u << kMortonBits) : 0u);
}

RAYSTREAM_HD inline int count_leading_zeros(std::uint32_t v) {
#if defined(__CUDA_ARCH__)
  return __clz(static_cast<int>(v));
#else
  return v == 0 ? 32 : __builtin_clz(v);
#endif
}

// Karras's delta: the length of the common prefix of the keys of sorted items i and j, where an
// item's key is its code followed by its position (so equal codes still differ); -1 when j is
// outside [0, n).
RAYSTREAM_HD inline int lbvh_common_prefix(const std::uint32_t* codes, long long n, long long i,
                                           long long j) {
  if (j < 0 || j >= n) return -1;
  const std::uint32_t a = codes[i], b = codes[j];
  if (a != b) return count_leading_zeros(a ^ b);
  return 32 + count_leading_zeros(static_cast<std::uint32_t>(i) ^ static_cast<std::uint32_t>(j));
}

// Internal node i (0 <= i < n - 1) of the hierarchy over n >= 2 sorted keys: the sorted items it
// covers, [first, last], and its split: its first child covers [first, split] and its second
// [split + 1, last]. A child covering one item is that item's leaf; any other is internal node
// `split` (first child) or `split + 1` (second child). Node 0 is the root.
struct LbvhSplit {
  int first = 0, last = 0, split = 0;
};

RAYSTREAM_HD inline LbvhSplit lbvh_split(const std::uint32_t* codes, long long n, long long i) {
  // The direction of the range: towards the neighbour sharing the longer prefix.
  const int d =
      lbvh_common_prefix(codes, n, i, i + 1) - lbvh_common_prefix(codes, n, i, i - 1) > 0 ? 1 : -1;
  // The range extends while the prefix stays longer than the one shared with the other side.
  const int min_prefix = lbvh_common_prefix(codes, n, i, i - d);
  long long reach = 2;
  while (lbvh_common_prefix(codes, n, i, i + reach * d) > min_prefix) reach *= 2;
  long long length = 0;
  for (long long step = reach / 2; step >= 1; step /= 2)
    if (lbvh_common_prefix(codes, n, i, i + (length + step) * d) > min_prefix) length += step;
  const long long j = i + length * d;
  // The split: the last item (from i's end) that shares more than the range's common prefix.
  const int node_prefix = lbvh_common_prefix(codes, n, i, j);
  long long s = 0;
  long long step = length;
  do {
    step = (step + 1) / 2;
    if (lbvh_common_prefix(codes, n, i, i + (s + step) * d) > node_prefix) s += step;
  } while (step > 1);
  LbvhSplit r;
  r.first = static_cast<int>(d > 0 ? i : j);
  r.last = static_cast<int>(d > 0 ? j : i);
  r.split = static_cast<int>(i + s * d + (d < 0 ? -1 : 0));
  return r;
}

}  // namespace raystream
