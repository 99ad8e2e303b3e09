// What a render reports: per depth, per wave, the BVH, the start-up phases and the totals (the
// report, stats/report.h, prints them and writes them as JSON).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "execution/executor_kind.h"
#include "integrator/api/render_settings.h"

namespace raystream {

// The stages of a wave, in order (the frame schedule has no regenerate).
enum class Stage { regenerate = 0, intersect, sort, shade, shadow, compact };
inline constexpr int kStageCount = 6;
inline constexpr const char* kStageNames[kStageCount] = {"regenerate", "intersect", "sort",
                                                         "shade",      "shadow",    "compact"};

// Per path depth (bounce), summed over the render: paths that traced a ray at this depth and
// paths that went on to the next. Stage milliseconds per bounce exist in the frame schedule only
// (a stream wave mixes depths); with sampled timing they are estimated from the timed frames.
struct BounceStats {
  int bounce = 0;
  std::uint64_t paths_in = 0;
  std::uint64_t paths_out = 0;
  std::uint64_t shadow_rays = 0;      // shadow rays queued at this depth
  double stage_ms[kStageCount] = {};  // by Stage (regenerate: 0)
  double& ms(Stage s) { return stage_ms[static_cast<int>(s)]; }
  double ms(Stage s) const { return stage_ms[static_cast<int>(s)]; }
};

// One wave of the stream schedule.
struct WaveStats {
  std::uint64_t live_in = 0;      // survivors of the previous wave
  std::uint64_t regenerated = 0;  // camera paths started in freed slots
  std::uint64_t paths_out = 0;    // survivors of this wave
  double ms = -1;                 // GPU time of the wave (-1: not timed)
  bool stages_timed = false;      // stage_ms measured for this wave
  double stage_ms[kStageCount] = {0, 0, 0, 0, 0, 0};
};

// The textures as the executor holds them: 8-bit or float RGBA with their mips.
struct TextureStats {
  std::uint64_t images = 0;
  std::uint64_t texels = 0;  // of the images (level 0)
  std::uint64_t bytes = 0;   // every level
};

// The acceleration structure of a render (built before the first frame).
struct BvhStats {
  bool built = false;                          // false: brute force (RenderSettings::use_bvh off)
  BvhBuilder builder = BvhBuilder::automatic;  // sah (host) or lbvh (executor); auto: unbuilt
  PrimitivesBackend sort = PrimitivesBackend::cpu;  // lbvh: the radix sort's backend
  std::uint64_t primitives = 0;                     // triangles + spheres + cubes
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

// Bytes per path of the wavefront's state layout (integrator/path/path_state.h), for the byte
// budget: what a stage must move per path segment follows from these.
struct StateLayout {
  std::uint64_t carried = 0;   // a path between bounces
  std::uint64_t radiance = 0;  // its radiance, carried only for whole samples
  std::uint64_t hit = 0;       // the hit record, intersect to shade
  std::uint64_t shadow = 0;    // a shadow ray (whole samples add a slot and a radiance)
};

struct RenderStats {
  Schedule schedule = Schedule::stream;
  StageTiming timing = StageTiming::sampled;           // off for the megakernel: it has no stages
  PrimitivesBackend backend = PrimitivesBackend::cpu;  // own or thrust; cpu on the CPU executor
  ExecutorKind executor = ExecutorKind::cpu;
  std::string device;  // GPU name or "CPU (N threads)"
  int spp = 0;         // samples per pixel asked (the passes over the image of the range)
  // Samples rendered by this run (spp x width x height unless stopped early or resumed); on the
  // film: these and those of the film it resumed. Per pixel: the fewest and most on the film.
  std::uint64_t samples = 0;
  std::uint64_t film_samples = 0;
  std::uint32_t pixel_samples_min = 0, pixel_samples_max = 0;
  StopReason stopped = StopReason::none;  // why the render stopped before its last sample
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
  bool nee = true;                  // the integrator: path (NEE + MIS) or bsdf (integrator_name)
  // What ran (settings_that_run), whatever was asked: the megakernel neither sorts nor compacts,
  // the stream schedule always compacts, scenes of too many materials for the multisplit sort by
  // the radix sort.
  bool sort_by_material = false;
  bool material_multisplit = false;
  bool compact = false;
  // How ended paths were removed (when compact, and not in the megakernel): fused (stream: in the
  // shade stage) or separate (a compaction pass); compaction_text() words it for the report.
  Compaction compaction = Compaction::separate;
  ShadeMode shade = ShadeMode::single;  // queues or single (the megakernel shades in place)
  // single and megakernel: the compiled specialization that ran (its lobes, NEE), for the report.
  std::string kernel_variant;
  // shade queues: the paths each lobe kind's queue shaded over the render, by kind (BsdfKind:
  // none, then the lobes in materials/material_data.h's order), with the kinds' names.
  std::vector<std::uint64_t> queue_paths;
  std::vector<std::string> queue_names;
  std::size_t peak_device_bytes = 0;  // peak GPU memory in use (0 on the CPU)
  BvhStats bvh;
  TextureStats textures;
  StartupStats startup;
  StateLayout layout;
  // A render split across devices or processes: each share's own statistics, in order. The
  // fields above then hold the sums (paths, segments, stage times), the peak over the shares,
  // and total_ms the wall time of the whole render.
  std::vector<RenderStats> shares;
  int first_sample = 0;   // this share's first sample index
  int device_index = -1;  // the CUDA device of this share (-1: the CPU executor)
  int rank = -1;          // the process of this share (MPI), -1 when not split across processes
};

// How the report and the JSON name what ran: the compaction ("fused", "separate", "off" for the
// frame schedule without it, "" for the megakernel) and the shading ("queues", "single",
// "megakernel").
inline const char* compaction_text(const RenderStats& stats) {
  if (stats.schedule == Schedule::megakernel) return "";
  return stats.compact ? compaction_name(stats.compaction) : "off";
}
inline const char* shading_text(const RenderStats& stats) {
  return stats.schedule == Schedule::megakernel ? schedule_name(Schedule::megakernel)
                                                : shade_mode_name(stats.shade);
}

}  // namespace raystream
