// Stage: closest hit of every live path: BVH traversal over triangles, spheres and cubes (or every
// primitive in turn when the scene has no BVH).
#include "integrator/backend/parallel_for.cuh"
#include "integrator/stages/stages.h"

namespace raystream {

namespace {

// Five blocks of 256 threads per SM: at most 48 registers (with a few spill loads) instead of the
// 56 the traversal would take, so more warps hide the traversal's memory latency; six blocks
// spill too much (the trials: renders/schedules/RESULTS.md).
constexpr int kIntersectMinBlocks = 5;

struct IntersectBody {
  SceneView scene;
  PathState paths;
  std::uint32_t* ids;
  LiveBound bound;
  std::uint16_t* keys;  // may be null
  bool key_by_kind;     // keys: the material's lobe kind, not the material
  std::uint16_t dead_key;
  FilmView film;
  DepthCounts counts;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    const std::uint32_t id = i < live_slots(bound) ? ids[i] : kDeadBit;
    if (!is_live_id(id)) {
      if (keys) keys[i] = dead_key;
      return;
    }
    count_depth(counts.paths_in, paths.depth[id]);
    const Ray ray{paths.origin[id], paths.direction[id]};
    const Hit hit = closest_hit(scene.geometry, ray);
    if (hit.material < 0) {  // escaped: the environment, if any, ends it
      glm::vec3 radiance = paths.radiance[id];
      add_finite(radiance,
                 escaped_radiance(scene, ray.direction, paths.throughput[id], paths.bsdf_pdf[id]));
      finish_sample(film, paths.pixel[id], radiance);
      ids[i] = id | kDeadBit;
      if (keys) keys[i] = dead_key;
      return;
    }
    paths.store(id, surface_hit(ray, hit));
    if (keys)
      keys[i] = static_cast<std::uint16_t>(key_by_kind ? scene.materials[hit.material].kind
                                                       : hit.material);
  }
};

}  // namespace

void intersect_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                     std::uint32_t* ids, LiveBound bound, std::uint16_t* material_keys,
                     std::uint16_t dead_key, const FilmView& film, const DepthCounts& counts,
                     bool key_by_kind) {
  parallel_for<kIntersectMinBlocks>(
      ex, "intersect stage", bound.n,
      IntersectBody{scene, paths, ids, bound, material_keys, key_by_kind, dead_key, film, counts});
}

}  // namespace raystream
