// The renderer's entry point: one call renders a scene with the chosen executor and reports
// per-bounce statistics.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace raystream {

enum class ExecutorKind { gpu, cpu };

struct RenderSettings {
  int spp = 1;    // frames; one sample per pixel each
  int depth = 8;  // maximum bounces
  int width = 0;  // image size (taken from the scene's camera by the caller)
  int height = 0;
  bool sort_by_material = false;
  bool compact = true;
  bool use_bvh = true;  // false: every ray tests every primitive (for speedup measurements)
  std::uint64_t seed = 0;
  ExecutorKind executor = ExecutorKind::gpu;
  // Called after each frame on the host (frames done, frames total); may be empty.
  std::function<void(int, int)> on_frame;
};

// Per bounce, summed over all frames; milliseconds from CUDA events (GPU) or a steady clock (CPU).
struct BounceStats {
  int bounce = 0;
  std::uint64_t paths_in = 0;
  std::uint64_t paths_out = 0;
  double intersect_ms = 0, sort_ms = 0, shade_ms = 0, compact_ms = 0;
};

// The acceleration structure of a render (built on the host before the first frame).
struct BvhStats {
  bool built = false;            // false: brute force (RenderSettings::use_bvh off)
  std::uint64_t primitives = 0;  // triangles + spheres + cubes
  std::uint64_t triangles = 0;
  std::uint64_t nodes = 0, leaves = 0;
  int depth = 0;        // levels below the root
  double sah_cost = 0;  // SAH cost (node visit = primitive test = 1) of a ray through the root
  double build_ms = 0;  // host wall time of the build (and of reordering the triangles)
};

struct RenderStats {
  std::string backend;   // primitives backend: "own" or "thrust"
  std::string executor;  // "gpu" or "cpu"
  std::string device;    // GPU name or "CPU (N threads)"
  int frames = 0;
  int width = 0, height = 0, depth = 0;
  std::vector<BounceStats> bounces;
  std::vector<double> frame_ms;       // each frame: GPU time between events, CPU wall time
  double total_ms = 0;                // all frames
  std::uint64_t path_segments = 0;    // sum of paths_in over bounces and frames
  std::size_t peak_device_bytes = 0;  // peak GPU memory in use (0 on the CPU)
  BvhStats bvh;
};

struct Image {
  int width = 0, height = 0;
  std::vector<float> rgb;  // linear radiance, mean over samples, row-major from the top
};

struct RenderResult {
  Image image;
  RenderStats stats;
};

// Throws std::runtime_error (with a clear message) on failure, e.g. out of GPU memory.
RenderResult render(const Scene& scene, const RenderSettings& settings);

// True when a CUDA device can be used.
bool gpu_available();

// The primitives backend this binary was built with: "own" or "thrust".
const char* primitives_backend_name();

}  // namespace raystream
