// Stage: the shadow rays of next-event estimation, packed to the front of their queue by
// compaction: each one that sees its light adds its contribution to its path's pixel, or, where
// the film takes whole samples (the variance AOV), to its path's radiance; a path that ended at
// this bounce then ends its sample here (finish_sample), with all its light.
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
    if (i >= live_slots(bound)) return;
    const std::uint32_t id = shadow_ids[i];
    if (!is_live_id(id)) return;
    if (!film.whole_samples()) {
      if (film.count_samples) return;  // that mode counts the paths' ends only
      if (sees_light(geometry, Ray{paths.shadow_origin[id], paths.shadow_direction[id]},
                     paths.shadow_light[id]))
        deposit(film, paths.pixel[id], paths.shadow_radiance[id]);
      return;
    }
    // Counting samples, the light does not matter: only the ends do.
    const bool sees = !film.count_samples &&
                      sees_light(geometry, Ray{paths.shadow_origin[id], paths.shadow_direction[id]},
                                 paths.shadow_light[id]);
    if (paths.shadow_ends[id]) {
      glm::vec3 radiance = paths.radiance[id];
      if (sees) add_finite(radiance, paths.shadow_radiance[id]);
      finish_sample(film, paths.pixel[id], radiance);
    } else if (sees) {
      add_finite(paths.radiance[id], paths.shadow_radiance[id]);
    }
  }
};

}  // namespace

void trace_shadow_rays(const Executor& ex, const SceneView& scene, const PathState& paths,
                       const std::uint32_t* shadow_ids, LiveBound bound, const FilmView& film) {
  parallel_for(ex, "shadow stage", bound.n,
               ShadowBody{scene.geometry, paths, shadow_ids, bound, film});
}

}  // namespace raystream
