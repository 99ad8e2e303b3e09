#include <utility>

#include "integrator/schedules/bounce.h"
#include "integrator/stages/stages.h"

namespace raystream {

WavefrontBounce::WavefrontBounce(const RenderContext& c, std::size_t slots, bool compact)
    : c_(c),
      sort_(c.settings.sort_by_material),
      ids_a_(c.ex, "path ids", slots, &c.tally),
      ids_b_(c.ex, "path ids (second)", slots, &c.tally),
      keys_a_(c.ex, "material keys", sort_ ? slots : 0, &c.tally),
      keys_b_(c.ex, "material keys (sorted)", sort_ ? slots : 0, &c.tally),
      shadow_a_(c.ex, "shadow ray ids", c.view.nee ? slots : 0, &c.tally),
      shadow_b_(c.ex, "shadow ray ids (compacted)", c.view.nee ? slots : 0, &c.tally),
      ids_(ids_a_.data()),
      spare_(ids_b_.data()) {
  // Shadow rays are compacted into their queue even when the paths are not.
  reserve_workspace(c, workspace_, slots, compact || c.view.nee);
}

std::size_t WavefrontBounce::workspace_device_bytes() {
  return c_.ex.gpu() ? workspace_.size() + c_.primitives.extra_device_bytes(workspace_) : 0;
}

void WavefrontBounce::run(const PathState& paths, const BounceCounts& counts,
                          const StageMarks& marks) {
  const RenderContext& c = c_;
  const cudaStream_t stream = c.ex.stream;
  const LiveBound& bound = counts.bound;
  const std::size_t slots = bound.n;

  marks.begin(Stage::intersect);
  intersect_paths(c.ex, c.view, paths, ids_, bound, sort_ ? keys_a_.data() : nullptr, c.dead_key,
                  c.film, c.depth_counts);
  marks.end(Stage::intersect);

  if (sort_) {
    // Over every slot: dead slots and slots past the bound carry the largest key and end up
    // last, so the live ones stay in [0, live count).
    marks.begin(Stage::sort);
    c.primitives.sort_by_material(keys_a_.data(), keys_b_.data(), ids_, spare_, slots, c.key_bits,
                                  c.settings.material_multisplit, workspace_, stream);
    std::swap(ids_, spare_);
    marks.end(Stage::sort);
  }

  marks.begin(Stage::shade);
  shade_paths(c.ex, c.view, paths, ids_, c.view.nee ? shadow_a_.data() : nullptr, bound,
              c.settings.depth, c.settings.seed, c.film, c.depth_counts);
  marks.end(Stage::shade);

  if (c.view.nee) {
    // The queued shadow rays packed to the front (their count on the device), then traced.
    marks.begin(Stage::shadow);
    c.primitives.compact_live(shadow_a_.data(), shadow_b_.data(), slots, bound.count, counts.shadow,
                              workspace_, stream);
    trace_shadow_rays(c.ex, c.view, paths, shadow_b_.data(), LiveBound{counts.shadow, slots},
                      c.film);
    marks.end(Stage::shadow);
  }

  if (counts.live_out) {
    // The ids of the paths still alive, in order, to the front.
    marks.begin(Stage::compact);
    c.primitives.compact_live(ids_, spare_, slots, bound.count, counts.live_out, workspace_,
                              stream);
    std::swap(ids_, spare_);
    marks.end(Stage::compact);
  }
}

}  // namespace raystream
