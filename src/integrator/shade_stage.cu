// Stage: emission, BSDF sampling, throughput update and Russian roulette (scatter_path).
#include "integrator/parallel_for.cuh"
#include "integrator/stages.h"

namespace raystream {

namespace {

struct ShadeBody {
  const MaterialData* materials;
  PathState paths;
  std::uint32_t* ids;
  LiveBound bound;
  int max_depth;
  std::uint64_t seed;
  FilmView film;
  DepthCounts counts;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    if (i >= live_slots(bound)) return;
    const std::uint32_t id = ids[i];
    if (!is_live_id(id)) return;
    PathSample p;
    p.ray.direction = paths.direction[id];
    p.throughput = paths.throughput[id];
    p.radiance = paths.radiance[id];
    p.pixel = paths.pixel[id];
    p.sample = paths.sample[id];
    p.depth = paths.depth[id];
    const int depth = p.depth;
    if (!scatter_path(p, materials[paths.hit_material[id]], paths.hit_point[id],
                      paths.hit_normal[id], max_depth, seed)) {
      deposit(film, p.pixel, p.radiance);
      ids[i] = id | kDeadBit;
      return;
    }
    count_depth(counts.paths_out, depth);
    paths.origin[id] = p.ray.origin;
    paths.direction[id] = p.ray.direction;
    paths.throughput[id] = p.throughput;
    paths.depth[id] = p.depth;
  }
};

}  // namespace

void shade_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                 std::uint32_t* ids, LiveBound bound, int max_depth, std::uint64_t seed,
                 const FilmView& film, const DepthCounts& counts) {
  parallel_for(ex, "shade stage", bound.n,
               ShadeBody{scene.materials, paths, ids, bound, max_depth, seed, film, counts});
}

}  // namespace raystream
