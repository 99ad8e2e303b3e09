// The renderer's entry point: one call renders a scene with the chosen executor and reports
// per-bounce statistics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace raystream {

enum class ExecutorKind { gpu, cpu };

// How the paths are scheduled. stream: a pool of path slots kept full by starting new samples in
// the slots that ended paths free, one wave after another; frame: one sample per pixel per frame,
// bounce by bounce until the frame's paths have ended; megakernel: one thread per sample traces
// the whole path (no path state in memory, no compaction), the baseline.
enum class Schedule { stream, frame, megakernel };

// Which stages get CUDA event pairs (the CPU executor reads a steady clock). sampled: every 16th
// wave (stream) or frame (frame), plus the start of every wave or frame; all: every one; off: only
// the render's total.
enum class StageTiming { sampled, all, off };

// Which builder makes the BVH. automatic: the LBVH on the GPU executor, the SAH build on the CPU
// executor; sah: the binned SAH build on the host (the reference, and the CPU executor's);
// lbvh: Morton codes sorted by the primitives' radix sort and Karras's hierarchy emission, run
// on the executor (CUDA kernels on the GPU, the same stages as OpenMP loops on the CPU).
enum class BvhBuilder { automatic, sah, lbvh };
inline constexpr int kTimingSamplePeriod = 16;

// How the wavefronts shade. queues: the live paths are split into one queue per BSDF lobe kind
// (the multisplit of the path ids by kind), and one kernel per kind, compiled with that lobe
// alone, shades its queue; single: one kernel shades every path, dispatching on each material
// (compiled for the smallest set of lobes that covers the scene); automatic: queues in the stream
// schedule for scenes the small set does not cover (the single kernel would carry every lobe),
// single otherwise (renders/shading/RESULTS.md has the measurements behind the rule).
enum class ShadeMode { automatic, queues, single };

inline const char* shade_mode_name(ShadeMode mode) {
  return mode == ShadeMode::single ? "single" : mode == ShadeMode::queues ? "queues" : "auto";
}

inline const char* schedule_name(Schedule schedule) {
  return schedule == Schedule::frame        ? "frame"
         : schedule == Schedule::megakernel ? "megakernel"
                                            : "stream";
}
inline const char* stage_timing_name(StageTiming timing) {
  return timing == StageTiming::all ? "all" : timing == StageTiming::off ? "off" : "sampled";
}

// The film of a render as sums over its samples, per pixel, row-major from the top: what the
// image, the AOVs and a checkpoint are made of. Sample number k of a render is sample k / pixels
// of pixel k % pixels; a render's samples are a range of these numbers.
struct FilmState {
  int width = 0, height = 0;
  std::vector<float> sums;            // 3 per pixel: the samples' radiance summed
  std::vector<std::uint32_t> counts;  // per pixel: the samples it got
  // 3 per pixel: each sample's radiance squared, summed (the variance AOV); empty: not kept.
  std::vector<float> squares;
  // kFirstHitValues per pixel, summed over the samples whose camera ray hit a surface: albedo
  // (3), shading normal (3), distance from where the ray started, and the count of such
  // samples; empty: not kept.
  std::vector<float> first_hits;
  std::size_t pixels() const { return std::size_t(width) * std::size_t(height); }
};
inline constexpr int kFirstHitValues = 8;

// What a render keeps on its film beyond the radiance and the sample counts.
struct FilmLayers {
  bool first_hits = false;  // albedo, normal and depth of the first hit (the AOVs)
  bool squares = false;     // squared samples (the variance AOV)
};

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

// Why a render ended before its last sample.
enum class StopReason { none, time_budget, requested };
inline const char* stop_reason_name(StopReason r) {
  return r == StopReason::time_budget ? "time budget" : r == StopReason::requested ? "signal" : "";
}

// Per path depth (bounce), summed over the render: paths that traced a ray at this depth and
// paths that went on to the next. Stage milliseconds per bounce exist in the frame schedule only
// (a stream wave mixes depths); with sampled timing they are estimated from the timed frames.
struct BounceStats {
  int bounce = 0;
  std::uint64_t paths_in = 0;
  std::uint64_t paths_out = 0;
  std::uint64_t shadow_rays = 0;  // shadow rays queued at this depth
  double intersect_ms = 0, sort_ms = 0, shade_ms = 0, shadow_ms = 0, compact_ms = 0;
};

// The stages of a wave, in order (the frame schedule has no regenerate).
enum class Stage { regenerate = 0, intersect, sort, shade, shadow, compact };
inline constexpr int kStageCount = 6;

// One wave of the stream schedule.
struct WaveStats {
  std::uint64_t live_in = 0;      // survivors of the previous wave
  std::uint64_t regenerated = 0;  // camera paths started in freed slots
  std::uint64_t paths_out = 0;    // survivors of this wave
  double ms = -1;                 // GPU time of the wave (-1: not timed)
  bool stages_timed = false;      // stage_ms measured for this wave
  double stage_ms[kStageCount] = {0, 0, 0, 0, 0, 0};
};

// The acceleration structure of a render (built before the first frame).
struct BvhStats {
  bool built = false;            // false: brute force (RenderSettings::use_bvh off)
  std::string builder;           // "sah" (on the host) or "lbvh" (on the executor); "" unbuilt
  std::string sort;              // lbvh: the radix sort's backend ("own", "thrust", "cpu")
  std::uint64_t primitives = 0;  // triangles + spheres + cubes
  std::uint64_t triangles = 0;
  std::uint64_t nodes = 0, leaves = 0;
  int depth = 0;        // levels below the root
  double sah_cost = 0;  // SAH cost (node visit = primitive test = 1) of a ray through the root
  // Wall time of the build, the primitives reordered into leaf order included (sah: on the host;
  // lbvh: from the primitives in executor memory to the finished tree, waited for).
  double build_ms = 0;
  std::uint64_t tree_bytes = 0;        // nodes and primitive references as the render keeps them
  std::uint64_t primitive_bytes = 0;   // the primitives' intersection and shading data
  std::uint64_t build_peak_bytes = 0;  // lbvh: executor memory the build held at its peak
};

// Where the time between the command and the first wave went, in milliseconds. The loader fills
// the first three (scene/scene_loader.h), render() the rest; 0 where a phase did not run.
struct StartupStats {
  double scene_ms = 0;     // the whole load: JSON, OBJ and MTL files, textures, mesh transforms
  double obj_ms = 0;       // of which reading and parsing OBJ files
  double meshes_ms = 0;    // of which mesh triangles to world space (vertices and normals)
  double context_ms = 0;   // GPU: the CUDA context, made while the scene loaded (0: not ahead)
  double device_ms = 0;    // GPU: creating the CUDA context (unless made ahead) and the stream
  double prepare_ms = 0;   // triangles into the intersection's form, objects, the light table
  double bvh_ms = 0;       // the BVH build (BvhStats::build_ms)
  double upload_ms = 0;    // scene data copied into executor memory
  double allocate_ms = 0;  // path state, film, queues and workspace (the schedule's set-up)
};

struct RenderStats {
  std::string schedule;  // "stream", "frame" or "megakernel"
  std::string timing;    // "sampled", "all" or "off" ("off" for the megakernel: it has no stages)
  std::string backend;   // primitives backend: "own" or "thrust" ("cpu" on the CPU executor)
  std::string executor;  // "gpu" or "cpu"
  std::string device;    // GPU name or "CPU (N threads)"
  int spp = 0;           // samples per pixel asked (the passes over the image of the range)
  // Samples rendered by this run (spp x width x height unless stopped early or resumed); on the
  // film: these and those of the film it resumed. Per pixel: the fewest and most on the film.
  std::uint64_t samples = 0;
  std::uint64_t film_samples = 0;
  std::uint32_t pixel_samples_min = 0, pixel_samples_max = 0;
  std::string stopped;  // why the render stopped early: "time budget", "signal"; "" when not
  int width = 0, height = 0, depth = 0;
  std::size_t pool = 0;              // stream: path slots; frame: width x height; megakernel: 0
  std::vector<BounceStats> bounces;  // one per depth
  std::vector<WaveStats> waves;      // stream schedule: every wave that had work
  std::vector<double> frame_ms;      // frame and megakernel schedules: each frame's time
  int timed_units = 0;               // waves or frames whose stages were timed
  // Milliseconds per stage over the whole render (estimated from the timed waves or frames when
  // timing is sampled; 0 when off).
  double stage_ms[kStageCount] = {0, 0, 0, 0, 0, 0};
  double total_ms = 0;              // wall time of the render loop (split: the slowest share's)
  double wall_ms = 0;               // split renders: wall time including every share's set-up
  double host_queue_ms = 0;         // stream: host time spent queuing the waves' launches
  std::uint64_t path_segments = 0;  // rays traced: paths_in summed over depths
  std::uint64_t shadow_rays = 0;    // shadow rays traced (next-event estimation)
  std::string integrator;           // "path" (NEE + MIS) or "bsdf"
  // What ran (settings_that_run), whatever was asked: the megakernel neither sorts nor compacts,
  // the stream schedule always compacts, scenes of too many materials for the multisplit sort by
  // the radix sort.
  bool sort_by_material = false;
  bool material_multisplit = false;
  bool compact = false;
  std::string shade;  // "queues", "single", or "megakernel" (it shades in place)
  // single and megakernel: the compiled specialization that ran (its lobes, NEE), for the report.
  std::string kernel_variant;
  // shade queues: the paths each lobe kind's queue shaded over the render, by kind (BsdfKind:
  // none, then the lobes in materials/material_data.h's order), with the kinds' names.
  std::vector<std::uint64_t> queue_paths;
  std::vector<std::string> queue_names;
  std::size_t peak_device_bytes = 0;  // peak GPU memory in use (0 on the CPU)
  BvhStats bvh;
  StartupStats startup;
  // A render split across devices or processes: each share's own statistics, in order. The
  // fields above then hold the sums (paths, segments, stage times), the peak over the shares,
  // and total_ms the wall time of the whole render.
  std::vector<RenderStats> shares;
  int first_sample = 0;   // this share's first sample index
  int device_index = -1;  // the CUDA device of this share (-1: the CPU executor)
  int rank = -1;          // the process of this share (MPI), -1 when not split across processes
};

struct Image {
  int width = 0, height = 0;
  std::vector<float> rgb;  // linear radiance, mean over samples, row-major from the top
};

struct RenderResult {
  Image image;     // the film's mean per pixel (film_image)
  FilmState film;  // the sums behind it
  // Per share: the next sample number to render (all below it, in the share's range, are done).
  std::vector<std::uint64_t> next_samples;
  RenderStats stats;
};

// A film of no samples with the given layers.
FilmState empty_film(int width, int height, const FilmLayers& layers);

// The mean radiance per pixel: sums / counts (0 for a pixel with no sample).
Image film_image(const FilmState& film);

// The fewest and most samples of any pixel, and their sum, into the statistics.
void count_film_samples(const FilmState& film, RenderStats& stats);

// Adds the samples [begin, end) of a render to the per-pixel counts (sample k is pixel
// k % counts.size()). Every schedule ends such a range, so the counts are not kept per sample.
void add_sample_range(std::vector<std::uint32_t>& counts, unsigned long long begin,
                      unsigned long long end);

// Throws std::runtime_error (with a clear message) on failure, e.g. out of GPU memory.
RenderResult render(const Scene& scene, const RenderSettings& settings);

// The samples [first_sample, first_sample + spp) cut into `shares` contiguous ranges of whole
// passes, as even as can be: share k gets [first(k), first(k + 1)), the first shares one more
// when spp does not divide. The last shares are empty when spp < shares.
int share_first_sample(const RenderSettings& settings, int share, int shares);

// Renders the scene's samples split across CUDA devices (one host thread, stream, set of buffers
// and workspace each), and sums the films: the image equals the one-device image up to the
// order of the floating-point additions. `devices` lists CUDA device ordinals; with the CPU
// executor, each entry is a share rendered one after the other (for tests). The progress
// callback sees the sum over the shares. Throws naming the device whose share failed.
RenderResult render_split(const Scene& scene, const RenderSettings& settings,
                          const std::vector<int>& devices);

// The ordinals of every usable CUDA device (empty without one).
std::vector<int> all_gpu_devices();

// Makes `device` the CUDA device of this thread's renders; throws when it does not exist.
void set_gpu_device(int device);

// Creates `device`'s CUDA context now, from any thread, rather than at the render's first CUDA
// call; does nothing where that fails (the render reports it). Returns the milliseconds it took.
// raystream does this while the scene loads: neither needs the other.
double create_gpu_context(int device);

// Adds `share`'s film (and so its image) and statistics into `total`, and its progress after
// total's. Used for device shares and for the processes of an MPI run.
void add_share(RenderResult& total, const RenderResult& share);

// Adds one film into another of the same size and layers (throws std::runtime_error otherwise).
void add_film(FilmState& total, const FilmState& film);

// The statistics part of add_share: sums and the per-share entry.
void add_share_stats(RenderStats& total, const RenderStats& share);

// True when a CUDA device can be used.
bool gpu_available();

// The primitives backend this binary was built with: "own" or "thrust".
const char* primitives_backend_name();

}  // namespace raystream
