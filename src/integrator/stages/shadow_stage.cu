// Stage: the shadow rays of next-event estimation, packed to the front of their queue by
// compaction: each one that sees its light (sees_light) adds its contribution to its path's pixel.
#include "integrator/backend/parallel_for.cuh"
#include "integrator/stages/stages.h"

namespace raystream {

namespace {

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
    const Ray ray{paths.shadow_origin[id], paths.shadow_direction[id]};
    if (sees_light(geometry, ray, paths.shadow_light[id]))
      deposit(film, paths.pixel[id], paths.shadow_radiance[id]);
  }
};

}  // namespace

void trace_shadow_rays(const Executor& ex, const SceneView& scene, const PathState& paths,
                       const std::uint32_t* shadow_ids, LiveBound bound, const FilmView& film) {
  parallel_for(ex, "shadow stage", bound.n,
               ShadowBody{scene.geometry, paths, shadow_ids, bound, film});
}

}  // namespace raystream
