// The LBVH build of a scene step by step, as SceneUpload runs it (the scene's triangles copied in
// the scene's order, the tree built, the triangles and their shading gathered into the leaves'
// order, the primitive references written): the report's BVH time of the first build in the
// process (cold: the build's kernels load and its memory pool grows then), the median of later
// builds (warm), and the time of each step of the build (each waited for before the next).
//
//   lbvh_bench [--cpu] [--runs N] [--cold-steps] [--no-pool-hold] [SCENE]
//
// SCENE defaults to scenes/bunnies_1m.json; --cpu builds on the CPU executor; --runs sets the
// warm builds (default 10); --cold-steps times the steps of the first build too (otherwise its
// total alone, as the report gives it); --no-pool-hold lets the memory pool give its memory back
// at every synchronization (BuildPoolHold, lbvh_build.h), as the build did before.
// `scripts/bench.py startup` runs it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/stopwatch.h"
#include "execution/buffer.h"
#include "execution/executor.h"
#include "execution/path_primitives.h"
#include "geometry/lbvh_build.h"
#include "geometry/scene_acceleration.h"
#include "io/scene/scene_loader.h"

namespace raystream {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// One build as SceneUpload::upload_with_lbvh runs it; returns the report's BVH milliseconds
// (the tree and the gathers, not the two copies from the host). With `steps`, every step's time.
double build_once(const Executor& ex, const PathPrimitives& primitives,
                  const SceneAcceleration& acc, const std::vector<LbvhBox>& object_boxes,
                  LbvhStageTimes* steps, bool pool_hold) {
  const std::size_t triangle_count = acc.triangles.size();
  const std::size_t slots = triangle_count + object_boxes.size();
  BuildMemory memory;
  BuildPoolHold hold(ex);
  if (!pool_hold) hold.release();
  BuildBuffer<TriangleGeometry> triangles_in(ex, "triangles (scene order)", triangle_count, memory);
  BuildBuffer<LbvhBox> boxes(ex, "object boxes", object_boxes.size(), memory);
  copy_from_host(ex, triangles_in.data(), acc.triangles.data(), triangles_in.bytes());
  copy_from_host(ex, boxes.data(), object_boxes.data(), boxes.bytes());

  SteadyTime start = steady_now();
  LbvhPrimitives input;
  input.triangles = triangles_in.data();
  input.triangle_count = triangle_count;
  input.object_boxes = boxes.data();
  input.object_count = object_boxes.size();
  LbvhOptions options;
  options.times = steps;
  LbvhTree tree = build_lbvh(ex, primitives, input, memory, nullptr, options);
  SteadyTime lap = steady_now();
  Buffer<TriangleGeometry> triangles(ex, "triangles", slots, nullptr);
  gather_in_leaf_order(ex, tree, triangle_count, triangles_in.data(), triangles.data());
  triangles_in.release();
  boxes.release();
  synchronize(ex);
  double ms = milliseconds_since(start);
  if (steps) steps->stages.emplace_back("triangles in leaf order", milliseconds_since(lap));

  BuildBuffer<TriangleShading> shading_in(ex, "shading (scene order)", triangle_count, memory);
  copy_from_host(ex, shading_in.data(), acc.shading.data(), shading_in.bytes());

  start = steady_now();
  Buffer<TriangleShading> shading(ex, "shading", slots, nullptr);
  gather_in_leaf_order(ex, tree, triangle_count, shading_in.data(), shading.data());
  shading_in.release();
  Buffer<std::int32_t> references(ex, "references", slots, nullptr);
  write_primitive_references(ex, tree, triangle_count, references.data());
  tree.order.release();
  tree.slot_of.release();
  synchronize(ex);
  hold.release();
  ms += milliseconds_since(start);
  if (steps) steps->stages.emplace_back("shading and references", milliseconds_since(start));
  return ms;
}

int run(int argc, char** argv) {
  bool gpu = true, cold_steps = false, pool_hold = true;
  int runs = 10;
  std::string scene_path = "scenes/bunnies_1m.json";
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--cpu") == 0) {
      gpu = false;
    } else if (std::strcmp(argv[i], "--cold-steps") == 0) {
      cold_steps = true;
    } else if (std::strcmp(argv[i], "--no-pool-hold") == 0) {
      pool_hold = false;
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (argv[i][0] != '-') {
      scene_path = argv[i];
    } else {
      std::fprintf(
          stderr, "usage: lbvh_bench [--cpu] [--runs N] [--cold-steps] [--no-pool-hold] [SCENE]\n");
      return 2;
    }
  }
  std::vector<std::string> warnings;
  const Scene scene = load_scene(scene_path, warnings);
  const SceneAcceleration acc = build_scene_acceleration(scene, false);
  std::vector<LbvhBox> object_boxes(scene.objects.size());
  for (std::size_t k = 0; k < scene.objects.size(); ++k)
    object_world_bounds(scene.objects[k], object_boxes[k].lo, object_boxes[k].hi);

  Executor ex;
  ex.kind = gpu ? ExecutorKind::gpu : ExecutorKind::cpu;
  if (gpu) {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::fprintf(stderr, "lbvh_bench: no CUDA device (--cpu builds on the CPU executor)\n");
      return 1;
    }
    cudaFree(nullptr);  // the context, before anything is timed
    if (cudaStreamCreateWithFlags(&ex.stream, cudaStreamNonBlocking) != cudaSuccess) {
      std::fprintf(stderr, "lbvh_bench: cudaStreamCreateWithFlags failed\n");
      return 1;
    }
  }
  const PathPrimitives& primitives =
      gpu ? own_primitives::path_primitives() : cpu_path_primitives();
  std::printf(
      "lbvh_bench: %s, %zu primitives (%zu triangles), %s executor (radix sort: %s), "
      "pool hold %s\n",
      scene_path.c_str(), acc.triangles.size() + object_boxes.size(), acc.triangles.size(),
      gpu ? "gpu" : "cpu", primitives_backend_name(primitives.backend()),
      !gpu        ? "-"
      : pool_hold ? "on"
                  : "off");

  LbvhStageTimes cold;
  const double cold_ms =
      build_once(ex, primitives, acc, object_boxes, cold_steps ? &cold : nullptr, pool_hold);
  std::vector<double> warm;
  for (int r = 0; r < runs; ++r)
    warm.push_back(build_once(ex, primitives, acc, object_boxes, nullptr, pool_hold));
  // The steps' times over the warm builds, in the build's order.
  std::vector<const char*> order;
  std::map<std::string, std::vector<double>> step_ms;
  for (int r = 0; r < runs; ++r) {
    LbvhStageTimes steps;
    build_once(ex, primitives, acc, object_boxes, &steps, pool_hold);
    for (const auto& [name, ms] : steps.stages) {
      if (r == 0) order.push_back(name);
      step_ms[name].push_back(ms);
    }
  }
  std::printf("build_ms cold %.2f warm %.2f (median of %d)\n", cold_ms, median(warm), runs);
  std::printf("%-24s %10s %10s\n", "step", "cold ms", "warm ms");
  double cold_sum = 0.0, warm_sum = 0.0;
  for (const char* name : order) {
    double cold_step = -1.0;
    for (const auto& [cold_name, ms] : cold.stages)
      if (std::strcmp(cold_name, name) == 0) cold_step = ms;
    const double warm_step = median(step_ms[name]);
    cold_sum += cold_step > 0.0 ? cold_step : 0.0;
    warm_sum += warm_step;
    if (cold_step >= 0.0)
      std::printf("%-24s %10.3f %10.3f\n", name, cold_step, warm_step);
    else
      std::printf("%-24s %10s %10.3f\n", name, "-", warm_step);
  }
  if (cold_steps)
    std::printf("%-24s %10.3f %10.3f\n", "sum of the steps", cold_sum, warm_sum);
  else
    std::printf("%-24s %10s %10.3f\n", "sum of the steps", "-", warm_sum);
  if (gpu) cudaStreamDestroy(ex.stream);
  return 0;
}

}  // namespace
}  // namespace raystream

int main(int argc, char** argv) {
  try {
    return raystream::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lbvh_bench: %s\n", e.what());
    return 1;
  }
}
