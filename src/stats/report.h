// The end-of-run report: the per-bounce table and summary on stdout, and the same numbers as JSON
// for scripts (--stats FILE.json). The README documents every field.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "execution/executor_kind.h"
#include "integrator/api/render_stats.h"

namespace raystream {

// What was run, for the report's header and the JSON.
struct RunInfo {
  std::string version;  // raystream's version
  // The primitives backend the binary was built with (own, thrust).
  PrimitivesBackend binary_backend = PrimitivesBackend::own;
  std::string scene;   // scene file
  std::string output;  // image file written
  std::uint64_t seed = 0;
  // main's clock: encoding the image, and from the start to the image encoded (-1: not measured).
  double encode_ms = -1;
  double elapsed_ms = -1;
  // --denoise: the filter that ran ("" when none), where, and its milliseconds: the filter (the
  // kernels on the GPU), the copies of the image there and back (-1: none).
  std::string denoiser;
  ExecutorKind denoise_device = ExecutorKind::cpu;
  double denoise_ms = -1;
  double denoise_transfer_ms = -1;
  std::string resumed_from;  // the checkpoint this render went on from ("" when none)
  std::string checkpoint;    // the checkpoint written ("" when none)
};

// Numbers derived from RenderStats; zero where undefined (no frames, no time).
struct RenderSummary {
  double frame_ms_mean = 0, frame_ms_median = 0, frame_ms_min = 0, frame_ms_max = 0;
  double seconds = 0;                   // total_ms / 1000
  double samples_per_second = 0;        // frames * width * height / seconds
  double path_segments_per_second = 0;  // path_segments / seconds
  double stage_ms[kStageCount] = {};    // by Stage, over the render (regenerate: stream schedule)
  double& ms(Stage s) { return stage_ms[static_cast<int>(s)]; }
  double ms(Stage s) const { return stage_ms[static_cast<int>(s)]; }
};

// Stream schedule: the waves grouped by how full the pool was (active paths / pool).
struct WaveFillClass {
  const char* name = "";        // ">= 90%", "50-90%", "10-50%", "< 10%"
  double lower = 0, upper = 0;  // fill in [lower, upper)
  std::uint64_t waves = 0;
  std::uint64_t paths = 0;        // active paths summed over these waves
  std::uint64_t regenerated = 0;  // new paths started in them
  double ms = 0;                  // GPU time of these waves (timed waves only)
};
std::vector<WaveFillClass> wave_fill_classes(const RenderStats& stats);

RenderSummary summarize(const RenderStats& stats);

// The per-depth table (per sample per pixel), the waves by fill (stream schedule) and the
// summary lines.
void print_report(std::ostream& out, const RenderStats& stats, const RunInfo& info);

// The same numbers as a JSON document (pretty-printed, ends with a newline).
std::string stats_json(const RenderStats& stats, const RunInfo& info);

}  // namespace raystream
