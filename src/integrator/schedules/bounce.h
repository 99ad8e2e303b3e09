// The bounce, written once: over the live paths,
//
//   intersect -> split into material queues -> shade each queue -> [shadow rays] -> [compact]
//   intersect -> [sort by material] -> shade              -> [shadow rays] -> [compact]   (single)
//
// with the buffers it needs (the two id arrays it swaps between, the sort keys, the queues'
// bounds, the shadow-ray queue, the primitives' workspace). Two ways to remove the ended paths:
// separate, over the slots of a path-id array (the shade stage marks ended paths, a compaction
// pass packs the live ids: the frame schedule, which reports it per bounce); or fused (the stream
// schedule): the live paths are the first slots of the state, and the shade stage writes the
// ones that go on, compacted, into the next wave's state, and the shadow rays into their records
// (the compact stage is then part of shade). The stream schedule runs one per wave after its
// paths enter, the frame schedule one per depth after its camera paths: a schedule owns only how
// paths enter and how it times. Whether shadow rays are traced is the scene view's `nee`,
// decided once.
#pragma once

#include <cstddef>
#include <cstdint>

#include "execution/buffer.h"
#include "integrator/path/path_state.h"
#include "integrator/schedules/schedules.h"
#include "integrator/schedules/stage_timeline.h"
#include "integrator/stages/stages.h"
#include "primitives/workspace.h"

namespace raystream {

// The counts one bounce reads and writes, all in executor memory.
struct BounceCounts {
  LiveBound bound;                  // the slots launched over, and the count of those in use
  std::size_t* shadow = nullptr;    // the shadow rays' count, written by their compaction
  std::size_t* live_out = nullptr;  // the survivors' count; null: the paths are not compacted
  // Fused compaction: the state the paths that go on are written into (slots [0, *live_out)).
  const PathState* next = nullptr;
};

class WavefrontBounce {
 public:
  // Buffers for up to `slots` slots; `compact`: whether run() may be asked to compact the ids;
  // `fused`: whether it is asked to compact in the shade stage (then it needs no shadow queue).
  WavefrontBounce(const RenderContext& context, std::size_t slots, bool compact, bool fused);

  // The id array the bounce works on: the schedule fills it with the paths that enter.
  std::uint32_t* ids() const { return ids_; }

  // One bounce of the live paths: separate (counts.next null), those of ids()[0, counts.bound):
  // intersect, optionally sort the ids by material, shade (escaped and ended paths end their
  // samples and get the dead bit; with NEE, shadow rays are queued, packed and traced), and,
  // when counts.live_out is set, compact the live ids to the front; afterwards ids() points at
  // the bounce's result. Fused: slots [0, counts.bound) of `paths`; the paths that go on are
  // written into *counts.next at slots counted by *counts.live_out, which must start at 0, as
  // must *counts.shadow.
  void run(const PathState& paths, const BounceCounts& counts, const StageMarks& marks);

  // Device bytes of the primitives' workspace (for the peak-memory statistic).
  std::size_t workspace_device_bytes();

  // The statistics the bounce keeps: the paths each material queue shaded (waits for the device).
  void report(RenderStats& stats) const;

 private:
  const RenderContext& c_;
  StageContext k_;
  bool queues_;    // shade per material queue (the ids split by lobe kind)
  bool sort_;      // sort the ids by material id (shade single)
  int sort_bits_;  // bits of the keys split or sorted (0: neither)
  Buffer<std::uint32_t> ids_a_, ids_b_;
  Buffer<std::uint16_t> keys_a_, keys_b_;
  Buffer<unsigned long long> queue_offsets_;  // the multisplit's bucket bounds
  Buffer<unsigned long long> queue_paths_;  // kBsdfKindCount totals
  Buffer<std::uint32_t> shadow_a_, shadow_b_;
  prim::Workspace workspace_;
  std::uint32_t* ids_;    // the slots the stages work on
  std::uint32_t* spare_;  // where sort and compaction write
};

}  // namespace raystream
