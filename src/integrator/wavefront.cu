// The wavefront loop: per frame, generate camera paths, then per bounce intersect -> (sort by
// material) -> shade -> compact, then accumulate into the film.
//
// Dead paths are tracked in the path-id array: a stage that ends a path writes kDeadPath into its
// slot. With compaction on, the live ids are compacted into the other id buffer and the count
// stays on the device, where the next bounce's kernels read their bound. Kernels are launched
// over all n slots and return early past the bound, so no count ever travels to the host within
// a frame; the own backend's compaction also reads its item count on the device, so it works on
// the live slots only. Counts and stage timings are read back once per frame. (On the CPU executor the count
// is host memory anyway, so there the stages work on the live slots only and a frame stops when
// no path is left; WavefrontOptions can make it run the GPU's way, for tests.)
//
// What is compacted is the id array (4 bytes per path), not the path state; the state is reached
// through the id. Compacting the state itself (about 70 bytes per path) would make the later
// stages' reads contiguous at the price of moving all of it every bounce: a measurement still to
// make on a GPU.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "geometry/camera.h"
#include "geometry/scene_acceleration.h"
#include "geometry/scene_object.h"
#include "integrator/buffer.h"
#include "integrator/executor.h"
#include "integrator/path_state.h"
#include "integrator/stage_timeline.h"
#include "integrator/stages.h"
#include "integrator/wavefront.h"
#include "materials/bsdf.h"
#include "primitives/device_info.h"
#include "primitives/error.h"

namespace raystream {

bool gpu_available() {
  return prim::cuda_device_available();
}

int material_key_bits(int material_count) {
  int bits = 1;
  while ((1 << bits) <= material_count) ++bits;
  return bits;
}

namespace {

void validate(const Scene& scene, const RenderSettings& s, int width, int height) {
  auto fail = [&](const std::string& what) {
    throw std::runtime_error("render: " + what +
                             (scene.path.empty() ? "" : " (" + scene.path + ")"));
  };
  if (width <= 0 || height <= 0)
    fail("the resolution must be positive, got " + std::to_string(width) + "x" +
         std::to_string(height));
  if (s.spp <= 0) fail("samples per pixel must be positive, got " + std::to_string(s.spp));
  if (s.depth <= 0) fail("the depth must be positive, got " + std::to_string(s.depth));
  if (scene.materials.empty()) fail("the scene has no materials");
  if (scene.materials.size() >= 0xFFFFu)
    fail("too many materials (" + std::to_string(scene.materials.size()) + ", at most 65534)");
  for (std::size_t k = 0; k < scene.objects.size(); ++k) {
    const int m = scene.objects[k].material;
    if (m < 0 || m >= static_cast<int>(scene.materials.size()))
      fail("object " + std::to_string(k) + " names material index " + std::to_string(m) +
           ", out of range");
    const glm::vec3 scale = scene.objects[k].scale;
    for (int axis = 0; axis < 3; ++axis)
      if (!(std::fabs(scale[axis]) > 0.0f) || !std::isfinite(scale[axis]))
        fail("object " + std::to_string(k) + " has a zero or non-finite SCALE (it has no inverse)");
  }
  for (std::size_t k = 0; k < scene.triangles.size(); ++k) {
    const int m = scene.triangles[k].material;
    if (m < 0 || m >= static_cast<int>(scene.materials.size()))
      fail("triangle " + std::to_string(k) + " names material index " + std::to_string(m) +
           ", out of range");
  }
  const std::uint64_t pixels = std::uint64_t(width) * std::uint64_t(height);
  if (pixels >= kDeadPath) fail("the image has too many pixels (" + std::to_string(pixels) + ")");
}

// The CUDA stream of a GPU render, destroyed with it.
class Stream {
 public:
  explicit Stream(bool gpu) {
    if (gpu) PRIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
  ~Stream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

std::string device_name(const Executor& ex) {
  if (!ex.gpu()) return "CPU (" + std::to_string(omp_get_max_threads()) + " threads)";
  int device = 0;
  PRIM_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  PRIM_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

// Everything a render allocates, once: the scene, the path state, two id buffers (stages read
// one and sort or compact into the other), two key buffers (sort only), the live count of every
// bounce, the film.
struct RenderBuffers {
  RenderBuffers(const Executor& ex, std::size_t n, int depth, bool sort, std::size_t object_count,
                std::size_t material_count, MemoryTally* tally)
      : objects(ex, "scene objects", object_count, tally),
        materials(ex, "materials", material_count, tally),
        origin(ex, "path origins", n, tally),
        direction(ex, "path directions", n, tally),
        throughput(ex, "path throughputs", n, tally),
        radiance(ex, "path radiance", n, tally),
        hit_point(ex, "hit points", n, tally),
        hit_normal(ex, "hit normals", n, tally),
        hit_material(ex, "hit materials", n, tally),
        ids_a(ex, "path ids", n, tally),
        ids_b(ex, "path ids (second buffer)", n, tally),
        keys_a(ex, "material keys", sort ? n : 0, tally),
        keys_b(ex, "material keys (sorted)", sort ? n : 0, tally),
        live_counts(ex, "live path counts", std::size_t(depth) + 1, tally),
        film(ex, "film", n, tally) {}

  PathState paths() const {
    PathState p;
    p.origin = origin.data();
    p.direction = direction.data();
    p.throughput = throughput.data();
    p.radiance = radiance.data();
    p.hit_point = hit_point.data();
    p.hit_normal = hit_normal.data();
    p.hit_material = hit_material.data();
    return p;
  }

  Buffer<SceneObject> objects;
  Buffer<MaterialData> materials;
  Buffer<glm::vec3> origin, direction, throughput, radiance, hit_point, hit_normal;
  Buffer<std::int32_t> hit_material;
  Buffer<std::uint32_t> ids_a, ids_b;
  Buffer<std::uint16_t> keys_a, keys_b;
  Buffer<std::size_t> live_counts;  // [b]: paths alive entering bounce b
  Buffer<glm::vec3> film;           // sums over frames
};

// One frame of the wavefront loop over prepared buffers.
struct FrameLoop {
  const Executor& ex;
  const RenderSettings& settings;
  const PathPrimitives& primitives;
  prim::Workspace& workspace;
  RenderBuffers& buffers;
  const SceneView& view;
  std::size_t n;
  int key_bits;
  std::uint16_t dead_key;
  bool live_slots_only;  // CPU: work on the live slots, stop when none are left

  void trace(std::uint32_t frame, StageTimeline& timeline) {
    const PathState paths = buffers.paths();
    std::size_t* live_counts = buffers.live_counts.data();
    fill_bytes(ex, live_counts, 0, buffers.live_counts.bytes());
    generate_camera_paths(ex, view, paths, buffers.ids_a.data(), n, live_counts, frame,
                          settings.seed);
    std::uint32_t* ids = buffers.ids_a.data();    // the slots the stages work on
    std::uint32_t* spare = buffers.ids_b.data();  // where sort and compaction write
    for (int bounce = 0; bounce < settings.depth; ++bounce) {
      // The slots this bounce works on: on the GPU all n (the kernels read the live count
      // themselves); on the CPU, where the count is host memory, just the live ones (the slots
      // past them are dead and no later bounce looks at them).
      const std::size_t slots = live_slots_only && settings.compact ? live_counts[bounce] : n;
      LiveBound bound;
      bound.n = slots;
      bound.count = settings.compact ? live_counts + bounce : nullptr;

      timeline.begin(bounce, Stage::intersect);
      intersect_paths(ex, view, paths, ids, bound,
                      settings.sort_by_material ? buffers.keys_a.data() : nullptr, dead_key);
      timeline.end(bounce, Stage::intersect);

      if (settings.sort_by_material) {
        // Over all n slots: dead slots carry the largest key and end up last, so the live ones
        // stay in [0, live count).
        timeline.begin(bounce, Stage::sort);
        primitives.sort_by_material(buffers.keys_a.data(), buffers.keys_b.data(), ids, spare, slots,
                                    key_bits, workspace, ex.stream);
        std::swap(ids, spare);
        timeline.end(bounce, Stage::sort);
      }

      timeline.begin(bounce, Stage::shade);
      shade_paths(ex, view, paths, ids, bound, frame, bounce, settings.seed);
      timeline.end(bounce, Stage::shade);

      timeline.begin(bounce, Stage::compact);
      std::size_t* next_count = live_counts + bounce + 1;
      if (settings.compact) {
        primitives.compact_live(ids, spare, slots, live_counts + bounce, next_count, workspace,
                                ex.stream);
        std::swap(ids, spare);
      } else {
        count_live_paths(ex, ids, slots, next_count);
      }
      timeline.end(bounce, Stage::compact);
      // On the CPU the count is already in host memory: stop once every path has ended. (The
      // GPU loop never reads it within a frame; its kernels return at once past the bound.)
      if (live_slots_only && *next_count == 0) break;
    }
    accumulate_film(ex, paths, buffers.film.data(), n);
  }
};

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

}  // namespace

RenderResult render_wavefront(const Scene& scene, const RenderSettings& settings,
                              const PathPrimitives& gpu_primitives,
                              const WavefrontOptions& options) {
  const int width = settings.width != 0 ? settings.width : scene.camera.width;  // 0: the scene's
  const int height = settings.height != 0 ? settings.height : scene.camera.height;
  validate(scene, settings, width, height);
  const bool gpu = settings.executor == ExecutorKind::gpu;
  if (gpu && !gpu_available())
    throw std::runtime_error("render: the GPU executor was asked for but no CUDA device is usable");

  Stream stream(gpu);
  Executor ex;
  ex.kind = settings.executor;
  ex.stream = stream.get();
  const PathPrimitives& primitives = gpu ? gpu_primitives : cpu_path_primitives();

  const std::size_t n = std::size_t(width) * std::size_t(height);
  const int depth = settings.depth;
  const int material_count = static_cast<int>(scene.materials.size());
  const int key_bits = material_key_bits(material_count);

  // The scene, as the kernels see it: objects, triangles and the BVH over both (built here).
  const SceneAcceleration acceleration = build_scene_acceleration(scene, settings.use_bvh);
  const std::vector<SceneObject>& objects = acceleration.objects;
  std::vector<MaterialData> materials;
  materials.reserve(scene.materials.size());
  for (const Material& m : scene.materials) materials.push_back(make_material_data(m));

  // Host copies of the live counts (page-locked on the GPU), declared before the device buffers:
  // freeing those waits for the device, so no copy into these is pending when they go.
  HostBuffer<std::size_t> counts_a(ex, "live path counts (host)", std::size_t(depth) + 1);
  HostBuffer<std::size_t> counts_b(ex, "live path counts (host)", std::size_t(depth) + 1);
  MemoryTally tally;
  RenderBuffers buffers(ex, n, depth, settings.sort_by_material, objects.size(), materials.size(),
                        &tally);
  Buffer<TriangleGeometry> triangles(ex, "triangles", acceleration.triangles.size(), &tally);
  Buffer<TriangleShading> triangle_shading(ex, "triangle normals and materials",
                                           acceleration.shading.size(), &tally);
  Buffer<BvhNode> bvh_nodes(ex, "BVH nodes", acceleration.nodes.size(), &tally);
  Buffer<std::int32_t> bvh_primitives(ex, "BVH primitive references",
                                      acceleration.primitives.size(), &tally);
  prim::Workspace workspace;
  if (gpu && (settings.compact || settings.sort_by_material)) {
    const std::size_t bytes =
        primitives.workspace_bytes(n, settings.compact, settings.sort_by_material ? key_bits : 0);
    try {
      workspace.reserve(bytes);
    } catch (const prim::Error& e) {
      throw std::runtime_error("out of GPU memory allocating the primitives workspace (" +
                               std::to_string(bytes) + " bytes): " + e.what());
    }
    tally.bytes += workspace.size();
  }
  copy_from_host(ex, buffers.objects.data(), objects.data(), objects.size() * sizeof(SceneObject));
  copy_from_host(ex, buffers.materials.data(), materials.data(),
                 materials.size() * sizeof(MaterialData));
  copy_from_host(ex, triangles.data(), acceleration.triangles.data(), triangles.bytes());
  copy_from_host(ex, triangle_shading.data(), acceleration.shading.data(),
                 triangle_shading.bytes());
  copy_from_host(ex, bvh_nodes.data(), acceleration.nodes.data(), bvh_nodes.bytes());
  copy_from_host(ex, bvh_primitives.data(), acceleration.primitives.data(), bvh_primitives.bytes());
  fill_bytes(ex, buffers.film.data(), 0, buffers.film.bytes());

  SceneView view;
  view.objects = buffers.objects.data();
  view.object_count = static_cast<int>(objects.size());
  view.triangles = triangles.data();
  view.triangle_shading = triangle_shading.data();
  view.triangle_count = static_cast<int>(acceleration.triangles.size());
  view.bvh_nodes = bvh_nodes.data();
  view.bvh_node_count = static_cast<int>(acceleration.nodes.size());
  view.bvh_primitives = bvh_primitives.data();
  view.materials = buffers.materials.data();
  view.material_count = material_count;
  view.camera = make_camera_frame(scene.camera, width, height);

  RenderResult result;
  RenderStats& stats = result.stats;
  stats.backend = gpu ? gpu_primitives.name() : primitives.name();  // "cpu": prim::cpu
  stats.executor = gpu ? "gpu" : "cpu";
  stats.device = device_name(ex);
  stats.width = width;
  stats.height = height;
  stats.depth = depth;
  stats.bounces.resize(depth);
  for (int b = 0; b < depth; ++b) stats.bounces[b].bounce = b;
  stats.bvh.built = !acceleration.nodes.empty();
  stats.bvh.primitives = acceleration.triangles.size() + acceleration.objects.size();
  stats.bvh.triangles = acceleration.triangles.size();
  stats.bvh.nodes = acceleration.nodes.size();
  stats.bvh.leaves = acceleration.leaves;
  stats.bvh.depth = acceleration.depth;
  stats.bvh.sah_cost = acceleration.sah_cost;
  stats.bvh.build_ms = acceleration.build_ms;

  FrameLoop loop{ex,
                 settings,
                 primitives,
                 workspace,
                 buffers,
                 view,
                 n,
                 key_bits,
                 static_cast<std::uint16_t>(material_count),
                 !gpu && options.cpu_live_slots_only};

  // Two timelines and two host copies of the counts: on the GPU the host reads one frame's
  // numbers while the next frame runs, so the device does not wait for the host between frames.
  StageTimeline timeline_a(ex, depth), timeline_b(ex, depth);
  StageTimeline* timelines[2] = {&timeline_a, &timeline_b};
  HostBuffer<std::size_t>* counts[2] = {&counts_a, &counts_b};
  const bool read_one_frame_late = gpu || !options.cpu_live_slots_only;

  // Waits for a frame queued earlier and adds its numbers to the statistics.
  auto finish_frame = [&](int frame) {
    StageTimeline& timeline = *timelines[frame % 2];
    const HostBuffer<std::size_t>& c = *counts[frame % 2];
    timeline.wait_frame_end();
    stats.frame_ms.push_back(timeline.collect(stats.bounces));
    for (int b = 0; b < depth; ++b) {
      stats.bounces[b].paths_in += c[b];
      stats.bounces[b].paths_out += c[b + 1];
      stats.path_segments += c[b];
    }
    stats.frames = frame + 1;
    if (gpu)
      stats.peak_device_bytes =
          std::max(stats.peak_device_bytes, tally.bytes + primitives.extra_device_bytes(workspace));
    if (settings.on_frame) settings.on_frame(frame + 1, settings.spp);
  };

  const auto render_start = std::chrono::steady_clock::now();
  for (int frame = 0; frame < settings.spp; ++frame) {
    StageTimeline& timeline = *timelines[frame % 2];
    timeline.begin_frame();
    loop.trace(static_cast<std::uint32_t>(frame), timeline);
    // Once per frame: the live counts of every bounce travel to the host.
    copy_to_host_async(ex, counts[frame % 2]->data(), buffers.live_counts.data(),
                       buffers.live_counts.bytes());
    timeline.end_frame();
    if (!read_one_frame_late) {
      finish_frame(frame);
    } else if (frame > 0) {
      finish_frame(frame - 1);  // queued before, read while this frame runs
    }
  }
  if (read_one_frame_late) finish_frame(settings.spp - 1);
  stats.total_ms = milliseconds_since(render_start);

  // The film holds sums; the image is the mean.
  std::vector<glm::vec3> sums(n);
  copy_to_host(ex, sums.data(), buffers.film.data(), n * sizeof(glm::vec3));
  Image& image = result.image;
  image.width = width;
  image.height = height;
  image.rgb.resize(3 * n);
  const float scale = 1.0f / static_cast<float>(settings.spp);
  for (std::size_t p = 0; p < n; ++p) {
    image.rgb[3 * p + 0] = sums[p].x * scale;
    image.rgb[3 * p + 1] = sums[p].y * scale;
    image.rgb[3 * p + 2] = sums[p].z * scale;
  }
  return result;
}

}  // namespace raystream
