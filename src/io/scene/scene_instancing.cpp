// Mesh objects' triangles carried to world space: every mesh object's triangles are queued in the
// objects' order (add_triangles) and carried in one parallel pass once all objects are read
// (place_meshes). One pass per object cost a zero-fill and a start of the threads per object: 49
// bunnies, 49 of each.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/stop_request.h"
#include "core/stopwatch.h"
#include "execution/host_pages.h"
#include "io/scene/scene_context.h"

namespace raystream {

void add_triangles(JsonReader& r, const std::string& key, const Object& transform,
                   const std::vector<Triangle>& triangles, const std::string& file, int named,
                   const std::vector<int>* ids, int fallback, MeshPlacements& placements,
                   const std::vector<std::string>& warnings) {
  const glm::mat4 m = object_to_world(transform);
  check_invertible(r, key, m);
  if (placements.triangles + triangles.size() > static_cast<std::size_t>(kMaxTriangles)) {
    r.fail(key + ".FILE",
           "too many triangles in the scene (at most " + std::to_string(kMaxTriangles) + ")");
  }
  MeshPlacement p;
  p.key = key;
  p.file = file;
  p.transform = transform;
  p.triangles = &triangles;
  p.m = m;
  p.normal_matrix = glm::transpose(glm::inverse(glm::mat3(m)));
  p.mirrored = glm::determinant(glm::mat3(m)) < 0.0f;
  p.named = named;
  p.ids = ids;
  p.fallback = fallback;
  p.warning_at = warnings.size();
  placements.queued.push_back(std::move(p));
  placements.triangles += triangles.size();
}

namespace {

// A run of at most 4096 triangles of one queued mesh, place_meshes' unit of work: the mesh's
// [begin, end) go to scene.triangles[out...], with what their transform found.
struct PlacementBlock {
  std::size_t placement, begin, end, out;
  std::size_t dropped = 0;
  bool outside = false, lit = false;
};

std::vector<PlacementBlock> placement_blocks(const MeshPlacements& placements) {
  constexpr std::size_t kBlock = 4096;
  std::vector<PlacementBlock> blocks;
  std::size_t out = 0;
  for (std::size_t i = 0; i < placements.queued.size(); ++i) {
    const std::size_t n = placements.queued[i].triangles->size();
    for (std::size_t b = 0; b < n; b += kBlock) {
      const std::size_t end = std::min(n, b + kBlock);
      blocks.push_back(PlacementBlock{i, b, end, out});
      out += end - b;
    }
  }
  return blocks;
}

// One block's triangles carried to world space (normals by the inverse transpose, the winding
// kept counter-clockwise under a mirroring transform), each with its scene material; keep[k] is
// 0 where triangle k's area vanished (or cannot be computed) after the transform.
void place_block(const MeshPlacement& p, const std::vector<unsigned char>& emitting,
                 PlacementBlock& block, std::vector<Triangle>& out,
                 std::vector<unsigned char>& keep) {
  for (std::size_t i = block.begin; i < block.end; ++i) {
    const Triangle& t = (*p.triangles)[i];
    const std::size_t at = block.out + (i - block.begin);
    Triangle& w = out[at];
    for (int c = 0; c < 3; ++c) {
      w.v[c] = glm::vec3(p.m * glm::vec4(t.v[c], 1.0f));
      if (!in_bounds(w.v[c])) block.outside = true;
      const glm::vec3 n = p.normal_matrix * t.n[c];
      const float length = glm::length(n);
      w.n[c] = length > 0.0f ? n / length : n;
      w.uv[c] = t.uv[c];
      w.uv1[c] = t.uv1[c];
      // Tangents lie in the surface: carried like directions; a mirror turns their handedness.
      const glm::vec3 tangent = glm::mat3(p.m) * glm::vec3(t.t[c]);
      const float tangent_length = glm::length(tangent);
      w.t[c] = tangent_length > 0.0f && std::isfinite(tangent_length)
                   ? glm::vec4(tangent / tangent_length, p.mirrored ? -t.t[c].w : t.t[c].w)
                   : glm::vec4(0.0f);
    }
    if (p.mirrored) reverse_winding(w);
    w.material = p.named >= 0 ? p.named : (t.material >= 0 ? (*p.ids)[t.material] : p.fallback);
    const glm::vec3 face = glm::cross(w.v[1] - w.v[0], w.v[2] - w.v[0]);
    const float area2 = glm::length(face);
    // Collapsed by the transform, or too large for its area to be computed: dropped.
    keep[at] = area2 > 0.0f && std::isfinite(area2);
    if (!keep[at]) {
      ++block.dropped;
    } else if (emitting[static_cast<std::size_t>(w.material)]) {
      block.lit = true;
    }
  }
}

// The warnings from index `before` on (one per entry of `places`, non-decreasing), each moved to
// its place among the earlier ones: the warning of places[k] goes before warnings[places[k]].
void move_warnings_into_place(std::vector<std::string>& warnings, std::size_t before,
                              const std::vector<std::size_t>& places) {
  if (places.empty()) return;
  std::vector<std::string> merged;
  merged.reserve(warnings.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i <= before; ++i) {
    for (; next < places.size() && places[next] == i; ++next)
      merged.push_back(std::move(warnings[before + next]));
    if (i < before) merged.push_back(std::move(warnings[i]));
  }
  warnings = std::move(merged);
}

}  // namespace

bool place_meshes(JsonReader& r, const MeshPlacements& placements, Scene& scene,
                  std::vector<std::string>& warnings) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t total = placements.triangles;
  if (total == 0) return false;
  // Allocated once, its pages mapped on every core (resize's zero-fill then takes no faults).
  reserve_populated(scene.triangles, total);
  scene.triangles.resize(total);
  std::vector<unsigned char> emitting(scene.materials.size());
  for (std::size_t i = 0; i < emitting.size(); ++i) emitting[i] = emits(scene.materials[i]);
  std::vector<PlacementBlock> blocks = placement_blocks(placements);
  std::vector<unsigned char> keep(total);
  // In pieces of about 2^18 triangles (or 4096 blocks, where the meshes are small), polling for a
  // stop between them (no exception may leave an OpenMP loop).
  constexpr std::size_t kPiece = std::size_t(1) << 18;
  constexpr std::size_t kPieceBlocks = 4096;
  for (std::size_t first = 0; first < blocks.size();) {
    poll_stop();
    std::size_t last = first, count = 0;
    while (last < blocks.size() && count < kPiece && last - first < kPieceBlocks) {
      count += blocks[last].end - blocks[last].begin;
      ++last;
    }
    const long long piece_begin = static_cast<long long>(first);
    const long long piece_end = static_cast<long long>(last);
#pragma omp parallel for schedule(dynamic) if (count > 16384)
    for (long long k = piece_begin; k < piece_end; ++k) {
      PlacementBlock& block = blocks[static_cast<std::size_t>(k)];
      place_block(placements.queued[block.placement], emitting, block, scene.triangles, keep);
    }
    first = last;
  }

  std::vector<std::size_t> dropped(placements.queued.size());
  std::size_t dropped_total = 0;
  bool lit = false;
  for (const PlacementBlock& block : blocks) {
    if (block.outside) {
      const MeshPlacement& p = placements.queued[block.placement];
      fail_out_of_bounds(r, p.key, p.transform, "mesh");
    }
    dropped[block.placement] += block.dropped;
    dropped_total += block.dropped;
    lit = lit || block.lit;
  }
  if (dropped_total > 0) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < total; ++i) {
      if (!keep[i]) continue;
      if (kept != i) scene.triangles[kept] = scene.triangles[i];
      ++kept;
    }
    scene.triangles.resize(kept);
  }
  if (placements.times) placements.times->meshes_ms += milliseconds_since(start);

  const std::size_t before = warnings.size();
  std::vector<std::size_t> places;
  for (std::size_t i = 0; i < placements.queued.size(); ++i) {
    if (dropped[i] == 0) continue;
    const MeshPlacement& p = placements.queued[i];
    r.warn(p.key, std::to_string(dropped[i]) + " triangles of " + excerpt(p.file) +
                      " dropped: zero area or an area too large for single precision after the "
                      "transform");
    places.push_back(p.warning_at);
  }
  move_warnings_into_place(warnings, before, places);
  return lit;
}

}  // namespace raystream
