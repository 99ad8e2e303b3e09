// The stages of the wavefront loops. Each launcher runs its stage body over the slots of its
// paths with the executor's parallel_for (one file per stage). Every stage reads the same
// constants (StageContext: the scene, the film, the per-depth counts, the depth and the seed).
//
// A stage's paths come in one of two ways. Through a path-id array, which maps slots to path
// state indices: slots past the live bound and slots whose id has the dead bit (kDeadBit) are
// skipped, and a stage that ends a path sets the dead bit of its slot (the frame schedule, and
// the stream schedule with separate compaction). Or directly: slot i holds path i, every slot
// below the bound is live, and the shade stage writes the paths that go on, compacted, into the
// next wave's state (the stream schedule's fused compaction).
#pragma once

#include <cstddef>
#include <cstdint>

#include "execution/executor.h"
#include "integrator/path/path_state.h"
#include "integrator/path/path_step.h"

namespace raystream {

// What every stage kernel reads besides its paths.
struct StageContext {
  SceneView scene;
  FilmView film;
  DepthCounts counts;
  int max_depth = 1;  // bounces at most
  std::uint64_t seed = 0;
};

// Frame schedule: sample `sample` of every pixel from first_pixel on (a render resumed within a
// pass starts there). Slot i holds the path of pixel i (state index i, ids[i] = i; slots below
// first_pixel get the dead bit), and *live_count = n.
void generate_camera_paths(const Executor& ex, const StageContext& k, const PathState& paths,
                           std::uint32_t* ids, std::size_t n, std::size_t* live_count,
                           std::uint32_t sample, std::uint32_t first_pixel = 0);

// Stream schedule: the device-side counters of the pool.
struct StreamCounters {
  unsigned long long issued = 0;  // samples started so far, in order: pixel-major within a sample
  std::size_t live = 0;           // paths that survived the last wave, in slots [0, live)
  std::size_t active = 0;         // paths of this wave: live + regenerated, in slots [0, active)
  std::size_t shadow = 0;         // shadow rays queued by this wave's shade stage
  std::size_t survivors = 0;      // fused compaction: the paths this wave's shade stage kept
  // Samples are issued while issued < min(limit, total): the host lowers the limit to stop
  // issuing (a spent time budget, a checkpoint) without knowing how far the queued waves got.
  unsigned long long limit = ~0ull;
};

// Stream schedule, queued between waves (one thread): stop issuing samples (limit = issued, so
// the pool drains), or issue again up to the total (limit = all).
void set_stream_limit(const Executor& ex, StreamCounters* counters, bool stop);

// What one wave started with, written by advance_stream.
struct WaveRecord {
  unsigned long long live_in = 0;      // survivors of the previous wave
  unsigned long long regenerated = 0;  // new camera paths started in the freed slots
};

// Stream schedule, before a wave's paths enter (one thread): with `fused` compaction the last
// wave's survivors (counted by its shade stage) become the live paths, and the counts of
// survivors and shadow rays start again from 0; then the counters advance past the samples this
// wave starts in the free slots (issued, active), and the wave's record is written.
void advance_stream(const Executor& ex, StreamCounters* counters, std::size_t pool,
                    unsigned long long total_samples, bool fused, WaveRecord* record);

// Stream schedule with fused compaction, after advance_stream: the last wave's shade stage wrote
// its survivors into slots [0, live) of `paths`; each slot i in [live, active) starts a camera
// path for sample issued_before + (i - live) (sample k is sample k / pixels of pixel k % pixels).
void start_paths(const Executor& ex, const StageContext& k, const PathState& paths,
                 std::size_t pool, const StreamCounters* counters, std::uint32_t pixels);

// Stream schedule with separate compaction, before advance_stream: the paths of the next wave,
// packed into slots [0, active) of `to`: slot i < live takes the carried state of the live path
// ids[i] of `from` (the ids the last compaction kept, in order), and each slot i >= live starts a
// camera path for sample issued + (i - live) until total_samples (or the counters' limit) are
// issued. Afterwards ids[i] = i for every filled slot and i | kDeadBit for the rest of the pool.
void refill_paths(const Executor& ex, const StageContext& k, const PathState& from,
                  const PathState& to, std::uint32_t* ids, std::size_t pool,
                  const StreamCounters* counters, unsigned long long total_samples,
                  std::uint32_t pixels);

// Closest hit of every live slot's path, into its hit record (a miss: t = kNoHit; the shade
// stage ends the path). ids null: slot i is path i, live below the bound. When material_keys is
// not null it receives the hit's material for each slot (key_by_kind: its material's lobe kind,
// for the material queues; a miss: kind 0, the emitters' queue, whose kernel ends it), and
// dead_key for dead slots and slots past the bound (so a sort moves them to the end); with direct
// slots, sort_ids then receives the identity (i, or the dead bit past the bound) to sort with.
void intersect_paths(const Executor& ex, const StageContext& k, const PathState& paths,
                     const std::uint32_t* ids, LiveBound bound, std::uint16_t* material_keys,
                     std::uint16_t dead_key, bool key_by_kind, std::uint32_t* sort_ids);

// Where the shade stage puts what it makes. In place: a path that goes on is stored back in its
// slot, one that ends gets the dead bit in `ids`, and with next-event estimation slot i of the
// shadow queue gets the id of slot i's path when it queued a shadow ray (the shadow fields of
// its state index filled), else the dead bit. Fused (survivors set): a path that goes on is
// written into `next` at a slot reserved from *survivors, and a shadow ray into the shadow fields
// of `paths` at a slot reserved from *shadow_count (reserve_slots: one atomic per block).
struct ShadeTarget {
  std::uint32_t* ids = nullptr;         // in place: the slots' ids (the paths' too)
  std::uint32_t* shadow_ids = nullptr;  // in place, with NEE: the shadow queue
  PathState next;                       // fused
  std::size_t* survivors = nullptr;     // fused
  std::size_t* shadow_count = nullptr;  // fused, with NEE
  // Fused: whose block-wide primitive reserves the slots (thrust: CUB's BlockScan; otherwise the
  // project's BlockReserve): the build's primitives backend.
  PrimitivesBackend backend = PrimitivesBackend::own;
  RAYSTREAM_HD bool fused() const { return survivors != nullptr; }
};

// Escaped paths (the environment), emission, next-event estimation, BSDF sampling, throughput,
// Russian roulette (scatter_path) for the live slots of [0, bound): ids (in place: out.ids; fused:
// null, or the sorted ids). Counts paths_in per depth for every path shaded, paths_out for those
// that go on and shadow_rays for the shadow rays queued. A path that ends ends its sample
// (finish_sample), unless the film takes whole samples and it queued a shadow ray: the shadow
// stage ends it then.
void shade_paths(const Executor& ex, const StageContext& k, const PathState& paths,
                 const std::uint32_t* ids, LiveBound bound, const ShadeTarget& out);

// The shade stage per material queue: after the split (the ids sorted by the lobe kind of their
// hit's material, misses in kind 0's), queue k holds slots [queue_offsets[k],
// queue_offsets[k + 1]) of the n slots (the multisplit's bucket offsets, in executor memory).
// One kernel per lobe kind the scene has, compiled with that lobe alone, shades its queue; an
// empty queue costs only its launch. queue_paths[k] += the size of queue k, for the report.
// Otherwise as shade_paths.
void shade_queues(const Executor& ex, const StageContext& k, const PathState& paths,
                  const std::uint32_t* ids, const unsigned long long* queue_offsets, std::size_t n,
                  unsigned long long* queue_paths, const ShadeTarget& out);

// Traces the queued shadow rays of [0, bound) (any hit): through shadow_ids (in place; dead
// slots skipped) or directly (null: slot i is shadow ray i). An unblocked one adds its light to
// its pixel, or with whole samples to the radiance of its path in `paths_of_targets` (the state
// the shade stage stored the paths that go on into), or ends its ended path's sample.
void trace_shadow_rays(const Executor& ex, const StageContext& k, const PathState& paths,
                       const std::uint32_t* shadow_ids, LiveBound bound,
                       const PathState& paths_of_targets);

// Megakernel schedule: one thread per pixel (from first_pixel on) traces sample `sample` of that
// pixel from the camera to its end in registers, with the same per-path code as the stages, and
// ends the sample on the film. Compiled for a few sets of features (the lobes, textures,
// next-event estimation): the smallest that covers the scene runs, so a scene pays only for the
// features it has.
void trace_megakernel(const Executor& ex, const StageContext& k, std::uint32_t pixels,
                      std::uint32_t sample, std::uint32_t first_pixel = 0);

// Which compiled specialization of the megakernel renders the scene: the smallest whose lobes,
// textures and NEE cover it, for the report.
const char* megakernel_variant(const SceneView& scene);
// The same for the single shade kernel, which is always compiled with next-event estimation.
const char* shade_kernel_variant(const SceneView& scene);

}  // namespace raystream
