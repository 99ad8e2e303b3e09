// Stage: the shadow rays of next-event estimation, packed to the front of their records (fused
// compaction) or of their queue of ids (separate compaction): each one that sees its light adds
// its contribution to its pixel, or, where the film takes whole samples (the variance AOV), to
// its path's radiance; a path that ended at this bounce then ends its sample here
// (finish_sample), with all its light.
#include "execution/parallel_for.cuh"
#include "integrator/path/alpha_test.h"
#include "integrator/stages/stages.h"

namespace raystream {

namespace {

// Alpha: the alpha test compiled in (the scene has materials that cut their surfaces).
template <bool Alpha>
struct ShadowBody {
  SceneGeometry geometry;
  AlphaTest alpha;
  FilmView film;
  PathState paths;
  const std::uint32_t* shadow_ids;  // null: slot i is shadow ray i
  LiveBound bound;
  PathState targets;  // whole samples: where the paths that go on are

  RAYSTREAM_HD RAYSTREAM_INLINE void operator()(std::size_t i) const {
    if (i >= live_slots(bound)) return;
    const std::uint32_t id = shadow_ids ? shadow_ids[i] : static_cast<std::uint32_t>(i);
    if (!is_live_id(id)) return;
    const bool whole = film.whole_samples();
    if (film.count_samples && !whole) return;  // that mode counts the paths' ends only
    ShadowRay r = paths.load_shadow(id, whole);
    // Counting samples, the light does not matter: only the ends do.
    bool sees = false;
    if (!film.count_samples) {
      if constexpr (Alpha) {
        float through = 1.0f;
        AlphaTest a = alpha;
        a.transmittance = &through;
        a.light = r.light;
        sees = sees_light(geometry, r.ray(), r.light, a) && through > 0.0f;
        r.radiance *= through;
      } else {
        sees = sees_light(geometry, r.ray(), r.light);
      }
    }
    if (!whole) {
      if (sees) deposit(film, r.pixel, r.radiance);
      return;
    }
    if (r.target == kDeadBit) {
      glm::vec3 radiance = r.path_radiance;
      if (sees) gather(film, r.pixel, radiance, r.radiance);
      finish_sample(film, r.pixel, radiance);
    } else if (sees) {
      gather(film, r.pixel, targets.radiance[r.target], r.radiance);
    }
  }
};

}  // namespace

void trace_shadow_rays(const Executor& ex, const StageContext& k, const PathState& paths,
                       const std::uint32_t* shadow_ids, LiveBound bound,
                       const PathState& paths_of_targets) {
  if (k.scene.lobes.alpha)
    parallel_for(ex, "shadow stage", bound.n,
                 ShadowBody<true>{k.scene.geometry, alpha_test(k.scene), k.film, paths, shadow_ids,
                                  bound, paths_of_targets});
  else
    parallel_for(ex, "shadow stage", bound.n,
                 ShadowBody<false>{k.scene.geometry, AlphaTest{}, k.film, paths, shadow_ids, bound,
                                   paths_of_targets});
}

}  // namespace raystream
