// What a render is asked to do: RenderSettings, the enums it chooses from with their names, and
// which settings change the image (a checkpoint resumes only a render of the same ones).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "core/enum_names.h"
#include "execution/executor_kind.h"
#include "film/film_state.h"

namespace raystream {

// How the paths are scheduled. stream: a pool of path slots kept full by starting new samples in
// the slots that ended paths free, one wave after another; frame: one sample per pixel per frame,
// bounce by bounce until the frame's paths have ended; megakernel: one thread per sample traces
// the whole path (no path state in memory, no compaction), the baseline.
enum class Schedule { stream, frame, megakernel };
// The names of the command line and the report, in the enum's order (core/enum_names.h).
inline constexpr const char* kScheduleNames[] = {"stream", "frame", "megakernel"};
static_assert(std::size(kScheduleNames) == std::size_t(Schedule::megakernel) + 1);

// Which stages get CUDA event pairs (the CPU executor reads a steady clock). sampled: every 16th
// wave (stream) or frame (frame), plus the start of every wave or frame; all: every one; off: only
// the render's total.
enum class StageTiming { sampled, all, off };
inline constexpr const char* kStageTimingNames[] = {"sampled", "all", "off"};
static_assert(std::size(kStageTimingNames) == std::size_t(StageTiming::off) + 1);
inline constexpr int kTimingSamplePeriod = 16;

// How the stream schedule removes ended paths. fused: the shade stage writes the paths that go on
// and the shadow rays compacted, at slots the primitives' block-level reservation gives, and new
// samples start behind them; separate: the shade stage marks the ended paths, a compaction pass
// packs the live ids and the refill moves the survivors; automatic: fused, in both builds (the
// own build reserves with its BlockReserve, the Thrust build with CUB's BlockScan). The frame
// schedule always compacts in a separate pass (or not at all: RenderSettings::compact).
enum class Compaction { automatic, fused, separate };
inline constexpr const char* kCompactionNames[] = {"auto", "fused", "separate"};
static_assert(std::size(kCompactionNames) == std::size_t(Compaction::separate) + 1);

// Which builder makes the BVH. automatic: the LBVH on the GPU executor, the SAH build on the CPU
// executor; sah: the binned SAH build on the host (the reference, and the CPU executor's);
// lbvh: Morton codes sorted by the primitives' radix sort and Karras's hierarchy emission, run
// on the executor (CUDA kernels on the GPU, the same stages as OpenMP loops on the CPU).
enum class BvhBuilder { automatic, sah, lbvh };
inline constexpr const char* kBvhBuilderNames[] = {"auto", "sah", "lbvh"};
static_assert(std::size(kBvhBuilderNames) == std::size_t(BvhBuilder::lbvh) + 1);

// How the wavefronts shade. queues: the live paths are split into one queue per BSDF lobe kind
// (the multisplit of the path ids by kind), and one kernel per kind, compiled with that lobe
// alone, shades its queue; single: one kernel shades every path, dispatching on each material
// (compiled for the smallest set of lobes that covers the scene); automatic: queues in the stream
// schedule for scenes the small set does not cover (the single kernel would carry every lobe),
// single otherwise (renders/shading/RESULTS.md has the measurements behind the rule).
enum class ShadeMode { automatic, queues, single };
inline constexpr const char* kShadeModeNames[] = {"auto", "queues", "single"};
static_assert(std::size(kShadeModeNames) == std::size_t(ShadeMode::single) + 1);

// The integrators (RenderSettings::nee): path, next-event estimation with MIS (nee); bsdf, BSDF
// sampling alone.
inline constexpr const char* kIntegratorNames[] = {"path", "bsdf"};
inline const char* integrator_name(bool nee) {
  return kIntegratorNames[nee ? 0 : 1];
}

// Why a render ended before its last sample.
enum class StopReason { none, time_budget, requested };
inline constexpr const char* kStopReasonNames[] = {"", "time budget", "signal"};
static_assert(std::size(kStopReasonNames) == std::size_t(StopReason::requested) + 1);

inline const char* schedule_name(Schedule v) {
  return enum_name(v, kScheduleNames);
}
inline const char* stage_timing_name(StageTiming v) {
  return enum_name(v, kStageTimingNames);
}
inline const char* compaction_name(Compaction v) {
  return enum_name(v, kCompactionNames);
}
inline const char* bvh_builder_name(BvhBuilder v) {
  return enum_name(v, kBvhBuilderNames);
}
inline const char* shade_mode_name(ShadeMode v) {
  return enum_name(v, kShadeModeNames);
}
inline const char* stop_reason_name(StopReason v) {
  return enum_name(v, kStopReasonNames);
}

// Called on the host with the film and, per share of the render, the next sample number to
// render: every sample below it (within the share's range) is on the film.
using CheckpointCallback =
    std::function<void(const FilmState& film, const std::vector<std::uint64_t>& next_samples)>;

struct RenderSettings {
  int spp = 1;  // samples per pixel
  // The sample indices rendered: [first_sample, first_sample + spp). A share of a render split
  // across devices or processes; the random numbers follow the sample index, so the shares'
  // films add up to the film of the whole render.
  int first_sample = 0;
  int depth = 8;  // maximum bounces
  int width = 0;  // image size (taken from the scene's camera by the caller)
  int height = 0;
  Schedule schedule = Schedule::stream;
  std::size_t pool = 0;  // stream schedule: path slots (0: sized to fill the device)
  ShadeMode shade = ShadeMode::automatic;  // the wavefronts (the megakernel shades in place)
  // Sort by material id before shading (shade single: the queues split by lobe kind instead).
  bool sort_by_material = false;
  // Sort by material through the multisplit (a stable k-way partition) rather than the radix
  // sort: the same order, for scenes whose keys fit 32 buckets (5 key bits); others sort.
  bool material_multisplit = false;
  // Next-event estimation with MIS (--integrator path); false: BSDF sampling only (bsdf).
  bool nee = true;
  bool compact = true;  // frame schedule: compact after every bounce (stream always compacts)
  // Stream schedule: how ended paths are removed (Compaction).
  Compaction compaction = Compaction::automatic;
  bool use_bvh = true;  // false: every ray tests every primitive (for speedup measurements)
  BvhBuilder bvh_builder = BvhBuilder::automatic;
  // Scenes with fewer primitives than this are intersected without a BVH (testing a handful of
  // primitives beats walking a tree over them, as smallpt's 9 do).
  std::size_t bvh_min_primitives = 17;
  StageTiming timing = StageTiming::sampled;
  std::uint64_t seed = 0;
  ExecutorKind executor = ExecutorKind::gpu;
  // Test mode: every path adds 1 to its pixel when it ends (the image then counts samples).
  bool count_samples = false;
  // Called on the host once the scene is on the device and the buffers are allocated, right
  // before the render loop starts (and its time with it); may be empty. A split render lines its
  // shares up here, so that no share's set-up (a CUDA context, allocations) stalls another's
  // loop.
  std::function<void()> on_loop_start;
  // Called on the host as the render goes (samples per pixel done, in whole passes over the
  // image, and the total); may be empty.
  std::function<void(int, int)> on_progress;

  FilmLayers layers;
  // Seconds of the render loop after which no sample is started (0: no budget): the stream
  // schedule stops issuing samples and lets the paths in flight end, the frame and megakernel
  // schedules stop between frames. The image is the mean over the samples each pixel got.
  double time_budget_s = 0;
  // Polled on the host between waves or frames; true stops the render as a spent budget does
  // (a signal). May be empty.
  std::function<bool()> stop_requested;
  // Every checkpoint_interval_s seconds of the render loop (0: never) the render lets the paths
  // in flight end, hands its film to on_checkpoint, and goes on.
  double checkpoint_interval_s = 0;
  CheckpointCallback on_checkpoint;
  // A resumed render: per share, the next sample number to render (empty: start at the first);
  // the film of the samples before them is initial_film (null: an empty film). render() takes
  // one entry; render_split one per device, and hands initial_film to its first share.
  std::vector<std::uint64_t> resume_at;
  const FilmState* initial_film = nullptr;
};

// How image_settings names spp (a resumed render takes its spp from its checkpoint).
inline constexpr const char* kSppSettingName = "--spp";

// Every field of RenderSettings is in one of the two lists below; settings_test fails on a field
// in neither (field_count), and on a list that disagrees with what the field does.
//
// The settings that change the image, X(field, how a message names it, its text): the checkpoint
// key (image_settings), so a checkpoint resumes only a render of the same ones. spp and seed are
// the whole render's (a share's first_sample is not).
#define RAYSTREAM_IMAGE_SETTINGS(X)       \
  X(width, "width", setting_text)         \
  X(height, "height", setting_text)       \
  X(depth, "depth", setting_text)         \
  X(spp, kSppSettingName, setting_text)   \
  X(seed, "seed", setting_text)           \
  X(nee, "--integrator", integrator_name) \
  X(count_samples, "sample counting", setting_text)
// ...and those that do not: the schedules, pools, sorts, compactions, BVHs and executors trace
// the same samples with the same random numbers (only the order of the film's additions, and so
// their rounding, differs), so a checkpoint resumes under any of them; the film's layers are kept
// or refused by the resume itself; the rest say when to stop, what to call, and where a share or a
// resumed render starts.
#define RAYSTREAM_OTHER_SETTINGS(X) \
  X(first_sample)                   \
  X(schedule)                       \
  X(pool)                           \
  X(shade)                          \
  X(sort_by_material)               \
  X(material_multisplit)            \
  X(compact)                        \
  X(compaction)                     \
  X(use_bvh)                        \
  X(bvh_builder)                    \
  X(bvh_min_primitives)             \
  X(timing)                         \
  X(executor)                       \
  X(on_loop_start)                  \
  X(on_progress)                    \
  X(layers)                         \
  X(time_budget_s)                  \
  X(stop_requested)                 \
  X(checkpoint_interval_s)          \
  X(on_checkpoint)                  \
  X(resume_at)                      \
  X(initial_film)

inline std::string setting_text(bool value) {
  return value ? "on" : "off";
}
template <class Number>
std::string setting_text(Number value) {
  return std::to_string(value);
}

// The settings that change the image as (name, text) pairs, in RAYSTREAM_IMAGE_SETTINGS' order:
// the checkpoint key's settings.
inline std::vector<std::pair<std::string, std::string>> image_settings(const RenderSettings& s) {
  return {
#define RAYSTREAM_IMAGE_SETTING_ENTRY(field, name, text) {name, text(s.field)},
      RAYSTREAM_IMAGE_SETTINGS(RAYSTREAM_IMAGE_SETTING_ENTRY)
#undef RAYSTREAM_IMAGE_SETTING_ENTRY
  };
}

}  // namespace raystream
