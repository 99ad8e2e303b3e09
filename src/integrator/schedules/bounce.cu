#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "integrator/schedules/bounce.h"
#include "integrator/stages/stages.h"
#include "materials/bsdf.h"

namespace raystream {

// The set-up every schedule shares (schedules.h).
void record_allocation_time(RenderContext& c) {
  c.stats.startup.allocate_ms = milliseconds_since(c.schedule_start);
}

void reserve_workspace(const RenderContext& c, prim::Workspace& workspace, std::size_t n,
                       bool compact, int sort_bits, bool multisplit) {
  if (!c.ex.gpu() || !(compact || sort_bits > 0)) return;
  const std::size_t bytes = c.primitives.workspace_bytes(n, compact, sort_bits, multisplit);
  try {
    workspace.reserve(bytes);
  } catch (const prim::Error& e) {
    throw std::runtime_error("out of GPU memory allocating the primitives workspace (" +
                             std::to_string(bytes) + " bytes): " + e.what());
  }
}

WavefrontBounce::WavefrontBounce(const RenderContext& c, std::size_t slots, bool compact,
                                 bool fused)
    : c_(c),
      k_(c.stages),
      queues_(c.settings.shade == ShadeMode::queues),
      sort_(!queues_ && c.settings.sort_by_material),
      sort_bits_(queues_ ? material_key_bits(kBsdfKindCount)
                 : sort_ ? c.key_bits
                         : 0),
      // Fused compaction without a sort works on the state's slots directly.
      ids_a_(c.ex, "path ids", !fused || sort_bits_ > 0 ? slots : 0, &c.tally),
      ids_b_(c.ex, "path ids (second)", !fused || sort_bits_ > 0 ? slots : 0, &c.tally),
      keys_a_(c.ex, "material keys", sort_bits_ > 0 ? slots : 0, &c.tally),
      keys_b_(c.ex, "material keys (sorted)", sort_bits_ > 0 ? slots : 0, &c.tally),
      queue_offsets_(c.ex, "material queue bounds", (1u << kMultisplitKeyBits) + 1, &c.tally),
      queue_paths_(c.ex, "material queue paths", queues_ ? kBsdfKindCount : 0, &c.tally),
      shadow_a_(c.ex, "shadow ray ids", c.stages.scene.nee && !fused ? slots : 0, &c.tally),
      shadow_b_(c.ex, "shadow ray ids (compacted)", c.stages.scene.nee && !fused ? slots : 0,
                &c.tally),
      ids_(ids_a_.data()),
      spare_(ids_b_.data()) {
  // Shadow rays are compacted into their queue even when the paths are not (unless fused).
  reserve_workspace(c, workspace_, slots, !fused && (compact || c.stages.scene.nee), sort_bits_,
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
  const bool fused = counts.next != nullptr;
  const bool nee = k_.scene.nee;

  // Shade queues: the keys are the hits' lobe kinds and the dead slots' key kBsdfKindCount.
  const std::uint16_t dead_key = queues_ ? static_cast<std::uint16_t>(kBsdfKindCount) : c.dead_key;
  marks.begin(Stage::intersect);
  intersect_paths(c.ex, k_, paths, fused ? nullptr : ids_, bound,
                  sort_bits_ > 0 ? keys_a_.data() : nullptr, dead_key, queues_,
                  fused && sort_bits_ > 0 ? ids_ : nullptr);
  marks.end(Stage::intersect);

  if (sort_bits_ > 0) {
    // Over every slot: dead slots and slots past the bound carry the largest key and end up
    // last, so the live ones stay in [0, live count), in queue order when split.
    marks.begin(Stage::sort);
    c.primitives.sort_by_material(keys_a_.data(), keys_b_.data(), ids_, spare_, slots, sort_bits_,
                                  queues_ || c.settings.material_multisplit, queue_offsets_.data(),
                                  workspace_, stream);
    std::swap(ids_, spare_);
    marks.end(Stage::sort);
  }

  marks.begin(Stage::shade);
  ShadeTarget out;
  if (fused) {
    out.next = *counts.next;
    out.survivors = counts.live_out;
    out.shadow_count = nee ? counts.shadow : nullptr;
    out.backend = c.primitives.backend();
  } else {
    out.ids = ids_;
    out.shadow_ids = nee ? shadow_a_.data() : nullptr;
  }
  // Fused: the paths in slot order, or in the sorted ids' order.
  const std::uint32_t* shade_ids = fused && sort_bits_ == 0 ? nullptr : ids_;
  if (queues_) {
    // Without compaction dead slots lie within the bound, in no queue: their shadow slots must
    // hold the dead bit already (with compaction every slot below the bound is in a queue).
    if (out.shadow_ids && !counts.live_out)
      fill_bytes(c.ex, out.shadow_ids, 0xFF, slots * sizeof(std::uint32_t));
    shade_queues(c.ex, k_, paths, shade_ids, queue_offsets_.data(), slots, queue_paths_.data(),
                 out);
  } else {
    shade_paths(c.ex, k_, paths, shade_ids, bound, out);
  }
  marks.end(Stage::shade);

  if (nee) {
    marks.begin(Stage::shadow);
    if (fused) {
      // The shade stage wrote the shadow rays compacted: traced in their slot order.
      trace_shadow_rays(c.ex, k_, paths, nullptr, LiveBound{counts.shadow, slots}, *counts.next);
    } else {
      // The queued shadow rays packed to the front (their count on the device), then traced.
      c.primitives.compact_live(shadow_a_.data(), shadow_b_.data(), slots, bound.count,
                                counts.shadow, workspace_, stream);
      trace_shadow_rays(c.ex, k_, paths, shadow_b_.data(), LiveBound{counts.shadow, slots}, paths);
    }
    marks.end(Stage::shadow);
  }

  if (counts.live_out && !fused) {
    // The ids of the paths still alive, in order, to the front.
    marks.begin(Stage::compact);
    c.primitives.compact_live(ids_, spare_, slots, bound.count, counts.live_out, workspace_,
                              stream);
    std::swap(ids_, spare_);
    marks.end(Stage::compact);
  }
}

}  // namespace raystream
