// The stages of the wavefront loops. Each launcher runs its stage body over the slots of the
// path-id array with the executor's parallel_for (one file per stage).
//
// `ids` maps slots to path state indices; slots past the live bound, and slots whose id has the
// dead bit (kDeadBit), are skipped. A stage that ends a path deposits its radiance on the film
// and sets the dead bit of its slot.
#pragma once

#include <cstddef>
#include <cstdint>

#include "integrator/backend/executor.h"
#include "integrator/path/path_state.h"
#include "integrator/path/path_step.h"

namespace raystream {

// Frame schedule: sample `sample` of every pixel from first_pixel on (a render resumed within a
// pass starts there). Slot i holds the path of pixel i (state index i, ids[i] = i; slots below
// first_pixel get the dead bit), and *live_count = n.
void generate_camera_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                           std::uint32_t* ids, std::size_t n, std::size_t* live_count,
                           std::uint32_t sample, std::uint64_t seed, std::uint32_t first_pixel = 0);

// Stream schedule: the device-side counters of the pool.
struct StreamCounters {
  unsigned long long issued = 0;  // samples started so far, in order: pixel-major within a sample
  std::size_t live = 0;           // paths that survived the last wave, in ids[0, live)
  std::size_t active = 0;         // paths of this wave: live + regenerated, in ids[0, active)
  std::size_t shadow = 0;         // shadow rays queued by this wave's shade stage
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

// Stream schedule: the paths of the next wave, packed into slots [0, active) of `to`: slot i < live
// takes the carried state of the live path ids[i] of `from` (the ids the last compaction kept,
// in order), and each slot i >= live starts a camera path for sample issued + (i - live) until
// total_samples (or the counters' limit) are issued (sample k is sample k / pixels of pixel k %
// pixels). Afterwards ids[i] = i for every filled slot and i | kDeadBit for the rest of the pool,
// so every stage reads the state of `to` in slot order.
void refill_paths(const Executor& ex, const SceneView& scene, const PathState& from,
                  const PathState& to, std::uint32_t* ids, std::size_t pool,
                  const StreamCounters* counters, unsigned long long total_samples,
                  std::uint32_t pixels, std::uint64_t seed);

// Stream schedule, after refill_paths: advances the counters past the samples it started
// (issued, active) and writes the wave's record. One thread.
void advance_stream(const Executor& ex, StreamCounters* counters, std::size_t pool,
                    unsigned long long total_samples, WaveRecord* record);

// Closest hit of every live path. A path that escapes the scene ends. When material_keys is not
// null it receives the hit's material for each slot (key_by_kind: its material's lobe kind, for
// the material queues), and dead_key for dead slots and slots past the bound (so a sort moves
// them to the end). Counts paths_in per depth.
void intersect_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                     std::uint32_t* ids, LiveBound bound, std::uint16_t* material_keys,
                     std::uint16_t dead_key, const FilmView& film, const DepthCounts& counts,
                     bool key_by_kind = false);

// Emission, next-event estimation, BSDF sampling, throughput, Russian roulette (scatter_path).
// Counts paths_out per depth for the paths that go on. With shadow_ids (next-event estimation),
// slot i of the shadow queue gets the id of slot i's path when it queued a shadow ray (its
// shadow fields filled, counted in shadow_rays), else the dead bit: compaction then packs the
// queue like the paths.
void shade_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                 std::uint32_t* ids, std::uint32_t* shadow_ids, LiveBound bound, int max_depth,
                 std::uint64_t seed, const FilmView& film, const DepthCounts& counts);

// The shade stage per material queue: after the split (the ids sorted by the lobe kind of their
// hit's material), queue k holds slots [queue_offsets[k], queue_offsets[k + 1]) of the n slots
// (offsets in executor memory, written by queue_offsets). One kernel per lobe kind, compiled with
// that lobe alone, shades its queue; an empty queue costs only its launch. Otherwise as
// shade_paths; the shadow queue's slots outside every queue must already hold the dead bit.
void shade_queues(const Executor& ex, const SceneView& scene, const PathState& paths,
                  std::uint32_t* ids, std::uint32_t* shadow_ids, const std::size_t* queue_offsets,
                  std::size_t n, int max_depth, std::uint64_t seed, const FilmView& film,
                  const DepthCounts& counts);

// The queues' bounds after the split: for each kind k in [0, kBsdfKindCount], queue_offsets[k] =
// the first of the n sorted keys >= k (keys: the lobe kinds, kBsdfKindCount for dead slots), and
// queue_paths[k] (k < kBsdfKindCount) += the size of queue k, for the report.
void find_queue_offsets(const Executor& ex, const std::uint16_t* sorted_keys, std::size_t n,
                        std::size_t* queue_offsets, unsigned long long* queue_paths);

// Traces the queued shadow rays (any hit) and adds the unblocked ones' radiance to their paths'
// pixels.
void trace_shadow_rays(const Executor& ex, const SceneView& scene, const PathState& paths,
                       const std::uint32_t* shadow_ids, LiveBound bound, const FilmView& film);

// Megakernel schedule: one thread per pixel (from first_pixel on) traces sample `sample` of that
// pixel from the camera to its end in registers, with the same per-path code as the stages, and
// ends the sample on the film. Compiled for a few sets of features (the lobes, textures,
// next-event estimation): the smallest that covers the scene runs, so a scene pays only for the
// features it has.
void trace_megakernel(const Executor& ex, const SceneView& scene, std::uint32_t pixels,
                      std::uint32_t sample, int max_depth, std::uint64_t seed, const FilmView& film,
                      const DepthCounts& counts, std::uint32_t first_pixel = 0);

// Which compiled specialization of the megakernel (and of the single shade kernel) renders the
// scene: the smallest whose lobes, textures and NEE cover it, for the report.
const char* megakernel_variant(const SceneView& scene);

}  // namespace raystream
