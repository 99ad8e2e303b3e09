// The bounce, written once: over the slots of a path-id array,
//
//   intersect -> split into material queues -> shade each queue -> [shadow rays] -> [compact]
//   intersect -> [sort by material] -> shade              -> [shadow rays] -> [compact]   (single)
//
// with the buffers it needs (the two id arrays it swaps between, the sort keys, the queues'
// bounds, the shadow-ray queue, the primitives' workspace). The stream schedule runs one per wave
// after its refill, the frame schedule one per depth after its camera paths: a schedule owns only
// how paths enter and how it times. Whether shadow rays are traced is the scene view's `nee`,
// decided once.
#pragma once

#include <cstddef>
#include <cstdint>

#include "integrator/backend/buffer.h"
#include "integrator/path/path_state.h"
#include "integrator/schedules/schedules.h"
#include "integrator/schedules/stage_timeline.h"
#include "primitives/workspace.h"

namespace raystream {

// Where a bounce's stage timing goes: stage s begins at slot first + 2 s and ends one slot later
// on `timeline` (null: the bounce is not timed).
struct StageMarks {
  StageTimeline* timeline = nullptr;
  int first = 0;
  void begin(Stage s) const {
    if (timeline) timeline->mark(first + 2 * static_cast<int>(s));
  }
  void end(Stage s) const {
    if (timeline) timeline->mark(first + 2 * static_cast<int>(s) + 1);
  }
};

// The counts one bounce reads and writes, all in executor memory.
struct BounceCounts {
  LiveBound bound;                  // the slots launched over, and the count of those in use
  std::size_t* shadow = nullptr;    // the shadow-ray queue's count, written by its compaction
  std::size_t* live_out = nullptr;  // the survivors' count; null: the ids are not compacted
};

class WavefrontBounce {
 public:
  // Buffers for up to `slots` slots; `compact`: whether run() may be asked to compact the ids.
  WavefrontBounce(const RenderContext& context, std::size_t slots, bool compact);

  // The id array the bounce works on: the schedule fills it with the paths that enter.
  std::uint32_t* ids() const { return ids_; }

  // One bounce of the live paths of ids()[0, counts.bound): intersect (escaped paths end),
  // optionally sort the ids by material, shade (ended paths deposit and get the dead bit; with
  // NEE, shadow rays are queued, packed and traced), and, when counts.live_out is set, compact
  // the live ids to the front. Afterwards ids() points at the bounce's result.
  void run(const PathState& paths, const BounceCounts& counts, const StageMarks& marks);

  // Device bytes of the primitives' workspace (for the peak-memory statistic).
  std::size_t workspace_device_bytes();

  // The statistics the bounce keeps: the paths each material queue shaded (waits for the device).
  void report(RenderStats& stats) const;

 private:
  const RenderContext& c_;
  bool queues_;    // shade per material queue (the ids split by lobe kind)
  bool sort_;      // sort the ids by material id (shade single)
  int sort_bits_;  // bits of the keys split or sorted (0: neither)
  Buffer<std::uint32_t> ids_a_, ids_b_;
  Buffer<std::uint16_t> keys_a_, keys_b_;
  Buffer<std::size_t> queue_offsets_;       // kBsdfKindCount + 1 bounds
  Buffer<unsigned long long> queue_paths_;  // kBsdfKindCount totals
  Buffer<std::uint32_t> shadow_a_, shadow_b_;
  prim::Workspace workspace_;
  std::uint32_t* ids_;    // the slots the stages work on
  std::uint32_t* spare_;  // where sort and compaction write
};

}  // namespace raystream
