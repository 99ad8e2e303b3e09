// Stage: emission, next-event estimation, BSDF sampling, throughput update and Russian roulette
// (scatter_path). A path that queues a shadow ray writes it to its state slot's shadow fields and
// its id to the shadow queue's slot; the other slots of the queue get the dead bit.
#include "integrator/parallel_for.cuh"
#include "integrator/stages.h"

namespace raystream {

namespace {

struct ShadeBody {
  SceneView scene;
  PathState paths;
  std::uint32_t* ids;
  std::uint32_t* shadow_ids;  // may be null (no next-event estimation)
  LiveBound bound;
  int max_depth;
  std::uint64_t seed;
  FilmView film;
  DepthCounts counts;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    const std::uint32_t id = i < live_slots(bound) ? ids[i] : kDeadBit;
    if (shadow_ids) shadow_ids[i] = id | kDeadBit;
    if (!is_live_id(id)) return;
    PathSample p;
    p.ray.origin = paths.origin[id];
    p.ray.direction = paths.direction[id];
    p.throughput = paths.throughput[id];
    p.radiance = paths.radiance[id];
    p.pixel = paths.pixel[id];
    p.sample = paths.sample[id];
    p.depth = paths.depth[id];
    p.bsdf_pdf = paths.bsdf_pdf[id];
    SurfaceHit hit;
    hit.point = paths.hit_point[id];
    hit.normal = paths.hit_normal[id];
    hit.material = paths.hit_material[id];
    hit.light = paths.hit_light[id];
    hit.uv = paths.hit_uv[id];
    const int depth = p.depth;
    ShadowRay shadow;
    const bool goes_on = scatter_path(p, scene, hit, max_depth, seed, shadow);
    if (shadow.queued && shadow_ids) {
      paths.shadow_origin[id] = shadow.ray.origin;
      paths.shadow_direction[id] = shadow.ray.direction;
      paths.shadow_light[id] = shadow.light;
      paths.shadow_radiance[id] = shadow.radiance;
      shadow_ids[i] = id;
      if (counts.shadow_rays) count_depth(counts.shadow_rays, depth);
    }
    if (!goes_on) {
      deposit(film, p.pixel, p.radiance);
      ids[i] = id | kDeadBit;
      return;
    }
    count_depth(counts.paths_out, depth);
    paths.origin[id] = p.ray.origin;
    paths.direction[id] = p.ray.direction;
    paths.throughput[id] = p.throughput;
    paths.radiance[id] = p.radiance;
    paths.depth[id] = p.depth;
    paths.bsdf_pdf[id] = p.bsdf_pdf;
  }
};

struct ShadowBody {
  SceneGeometry geometry;
  PathState paths;
  const std::uint32_t* shadow_ids;
  LiveBound bound;
  FilmView film;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    if (i >= live_slots(bound) || film.count_samples) return;  // that mode counts paths only
    const std::uint32_t id = shadow_ids[i];
    if (!is_live_id(id)) return;
    Ray ray;
    ray.origin = paths.shadow_origin[id];
    ray.direction = paths.shadow_direction[id];
    if (sees_light(geometry, ray, paths.shadow_light[id]))
      deposit(film, paths.pixel[id], paths.shadow_radiance[id]);
  }
};

}  // namespace

void shade_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                 std::uint32_t* ids, std::uint32_t* shadow_ids, LiveBound bound, int max_depth,
                 std::uint64_t seed, const FilmView& film, const DepthCounts& counts) {
  parallel_for(ex, "shade stage", bound.n,
               ShadeBody{scene, paths, ids, shadow_ids, bound, max_depth, seed, film, counts});
}

void trace_shadow_rays(const Executor& ex, const SceneView& scene, const PathState& paths,
                       const std::uint32_t* shadow_ids, LiveBound bound, const FilmView& film) {
  parallel_for(ex, "shadow stage", bound.n,
               ShadowBody{scene.geometry, paths, shadow_ids, bound, film});
}

}  // namespace raystream
