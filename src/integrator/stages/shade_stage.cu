// Stage: emission, next-event estimation, BSDF sampling, throughput update and Russian roulette
// (scatter_path). A path that queues a shadow ray writes it to its state slot's shadow fields and
// its id to the shadow queue's slot; the other slots of the queue get the dead bit (the shadow
// stage, shadow_stage.cu, traces the queue once compaction has packed it). A path that ends here
// ends its sample (finish_sample), unless the film takes whole samples and it queued a shadow
// ray: the shadow stage ends it then.
// At depth 0 the hit goes to the first-hit AOVs when the film keeps them.
#include "integrator/backend/parallel_for.cuh"
#include "integrator/stages/stages.h"

namespace raystream {

namespace {

template <class Lobe>
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
    PathSample p = paths.load<PathSample>(id);
    const SurfaceHit hit = paths.load<SurfaceHit>(id);
    const int depth = p.depth;
    record_first_hit(film, scene, p, hit);
    ShadowRay shadow;
    const bool goes_on = scatter_path<Lobe>(p, scene, hit, max_depth, seed, shadow);
    const bool shadowed = shadow.queued && shadow_ids;
    // Whole samples: a path that ends with a shadow ray queued ends in the shadow stage.
    const bool ends_in_shadow_stage = shadowed && !goes_on && film.whole_samples();
    if (shadowed) {
      shadow.ends = ends_in_shadow_stage ? 1 : 0;
      paths.store(id, shadow);
      shadow_ids[i] = id;
      if (counts.shadow_rays) count_depth(counts.shadow_rays, depth);
    }
    if (!goes_on) {
      if (ends_in_shadow_stage) {
        paths.radiance[id] = p.radiance;
      } else {
        finish_sample(film, p.pixel, p.radiance);
      }
      ids[i] = id | kDeadBit;
      return;
    }
    count_depth(counts.paths_out, depth);
    paths.store_bounce(id, p);
  }
};

}  // namespace

void shade_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                 std::uint32_t* ids, std::uint32_t* shadow_ids, LiveBound bound, int max_depth,
                 std::uint64_t seed, const FilmView& film, const DepthCounts& counts) {
  // The smallest specialization that covers the scene's lobes and textures.
  if (ClassicLobes::covers(scene.lobe_mask, scene.textured, scene.rough))
    parallel_for(ex, "shade stage", bound.n,
                 ShadeBody<ClassicLobes>{scene, paths, ids, shadow_ids, bound, max_depth, seed,
                                         film, counts});
  else
    parallel_for(
        ex, "shade stage", bound.n,
        ShadeBody<AnyLobe>{scene, paths, ids, shadow_ids, bound, max_depth, seed, film, counts});
}

void shade_queues(const Executor& ex, const SceneView& scene, const PathState& paths,
                  std::uint32_t* ids, std::uint32_t* shadow_ids, const std::size_t* queue_offsets,
                  std::size_t n, int max_depth, std::uint64_t seed, const FilmView& film,
                  const DepthCounts& counts) {
  // Every slot of a queue holds a path that intersect left alive: no bound to check.
  const LiveBound all{nullptr, n};
  for_each_lobe([&](auto lobe) {
    using Lobe = decltype(lobe);
    parallel_for_range(
        ex, "shade queue", n, queue_offsets + static_cast<int>(Lobe::kKind),
        ShadeBody<Lobe>{scene, paths, ids, shadow_ids, all, max_depth, seed, film, counts});
  });
}

}  // namespace raystream
