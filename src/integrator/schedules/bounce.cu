#include <utility>
#include <vector>

#include "integrator/schedules/bounce.h"
#include "integrator/stages/stages.h"
#include "integrator/wavefront.h"
#include "materials/bsdf.h"

namespace raystream {

WavefrontBounce::WavefrontBounce(const RenderContext& c, std::size_t slots, bool compact)
    : c_(c),
      queues_(c.settings.shade == ShadeMode::queues),
      sort_(!queues_ && c.settings.sort_by_material),
      sort_bits_(queues_ ? material_key_bits(kBsdfKindCount)
                 : sort_ ? c.key_bits
                         : 0),
      ids_a_(c.ex, "path ids", slots, &c.tally),
      ids_b_(c.ex, "path ids (second)", slots, &c.tally),
      keys_a_(c.ex, "material keys", sort_bits_ > 0 ? slots : 0, &c.tally),
      keys_b_(c.ex, "material keys (sorted)", sort_bits_ > 0 ? slots : 0, &c.tally),
      queue_offsets_(c.ex, "material queue bounds", queues_ ? kBsdfKindCount + 1 : 0, &c.tally),
      queue_paths_(c.ex, "material queue paths", queues_ ? kBsdfKindCount : 0, &c.tally),
      shadow_a_(c.ex, "shadow ray ids", c.view.nee ? slots : 0, &c.tally),
      shadow_b_(c.ex, "shadow ray ids (compacted)", c.view.nee ? slots : 0, &c.tally),
      ids_(ids_a_.data()),
      spare_(ids_b_.data()) {
  // Shadow rays are compacted into their queue even when the paths are not.
  reserve_workspace(c, workspace_, slots, compact || c.view.nee, sort_bits_,
                    queues_ || c.settings.material_multisplit);
  if (queues_) fill_bytes(c.ex, queue_paths_.data(), 0, queue_paths_.bytes());
}

void WavefrontBounce::report(RenderStats& stats) const {
  if (!queues_) return;
  std::vector<unsigned long long> paths(kBsdfKindCount);
  copy_to_host(c_.ex, paths.data(), queue_paths_.data(), queue_paths_.bytes());
  stats.queue_paths.assign(paths.begin(), paths.end());
  stats.queue_names.clear();
  for (int k = 0; k < kBsdfKindCount; ++k) stats.queue_names.push_back(lobe_name(k));
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

  // Shade queues: the keys are the hits' lobe kinds and the dead slots' key kBsdfKindCount.
  const std::uint16_t dead_key = queues_ ? static_cast<std::uint16_t>(kBsdfKindCount) : c.dead_key;
  marks.begin(Stage::intersect);
  intersect_paths(c.ex, c.view, paths, ids_, bound, sort_bits_ > 0 ? keys_a_.data() : nullptr,
                  dead_key, c.film, c.depth_counts, queues_);
  marks.end(Stage::intersect);

  if (sort_bits_ > 0) {
    // Over every slot: dead slots and slots past the bound carry the largest key and end up
    // last, so the live ones stay in [0, live count), in queue order when split.
    marks.begin(Stage::sort);
    c.primitives.sort_by_material(keys_a_.data(), keys_b_.data(), ids_, spare_, slots, sort_bits_,
                                  queues_ || c.settings.material_multisplit, workspace_, stream);
    std::swap(ids_, spare_);
    if (queues_)
      find_queue_offsets(c.ex, keys_b_.data(), slots, queue_offsets_.data(), queue_paths_.data());
    marks.end(Stage::sort);
  }

  marks.begin(Stage::shade);
  std::uint32_t* shadow_ids = c.view.nee ? shadow_a_.data() : nullptr;
  if (queues_) {
    // Slots in no queue (ended at intersect, past the bound) queue no shadow ray.
    if (shadow_ids) fill_bytes(c.ex, shadow_ids, 0xFF, slots * sizeof(std::uint32_t));
    shade_queues(c.ex, c.view, paths, ids_, shadow_ids, queue_offsets_.data(), slots,
                 c.settings.depth, c.settings.seed, c.film, c.depth_counts);
  } else {
    shade_paths(c.ex, c.view, paths, ids_, shadow_ids, bound, c.settings.depth, c.settings.seed,
                c.film, c.depth_counts);
  }
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
