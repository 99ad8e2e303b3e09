// render_wavefront: validates the settings, uploads the scene, runs the chosen schedule
// (schedules.h) and turns the film into the image. The loops themselves live in
// frame_schedule.cu, stream_schedule.cu and megakernel_schedule.cu.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "integrator/backend/buffer.h"
#include "integrator/backend/executor.h"
#include "integrator/path/path_state.h"
#include "integrator/scene_upload.h"
#include "integrator/schedules/schedules.h"
#include "integrator/stages/stages.h"
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

void record_allocation_time(RenderContext& c) {
  c.stats.startup.allocate_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - c.schedule_start)
          .count();
}

void reserve_workspace(const RenderContext& c, prim::Workspace& workspace, std::size_t n,
                       bool compact, int sort_bits, bool multisplit) {
  if (!c.ex.gpu() || !(compact || sort_bits > 0)) return;
  const std::size_t bytes = c.primitives.workspace_bytes(n, compact, sort_bits, multisplit);
  try {
    workspace.reserve(bytes);
  } catch (const prim::Error& e) {
    throw std::runtime_error("out of GPU memory allocating the primitives workspace (" +
                             std::to_string(bytes) + " bytes): " + e.what());
  }
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
  if (s.first_sample < 0 || s.first_sample > std::numeric_limits<int>::max() - s.spp)
    fail("the first sample index must be in [0, 2^31 - spp), got " +
         std::to_string(s.first_sample));
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
  if (pixels >= kMaxPathSlots)
    fail("the image has too many pixels (" + std::to_string(pixels) + ")");
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

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

static_assert(sizeof(FirstHitSums) == kFirstHitValues * sizeof(float), "first-hit layout");

// The film's layers, copied to the host (waits for the executor), with the counts of the
// samples on it: `counts` (a resumed film's, or none) and those of [begin, next_sample).
FilmState download_film(const Executor& ex, const FilmView& view, int width, int height,
                        const std::vector<std::uint32_t>* counts, unsigned long long begin,
                        unsigned long long next_sample) {
  FilmState f;
  f.width = width;
  f.height = height;
  const std::size_t n = f.pixels();
  f.sums.resize(3 * n);
  if (counts)
    f.counts = *counts;
  else
    f.counts.assign(n, 0u);
  add_sample_range(f.counts, begin, next_sample);
  copy_to_host(ex, f.sums.data(), view.sums, n * sizeof(glm::vec3));
  if (view.squares) {
    f.squares.resize(3 * n);
    copy_to_host(ex, f.squares.data(), view.squares, n * sizeof(glm::vec3));
  }
  if (view.first_hits) {
    f.first_hits.resize(kFirstHitValues * n);
    copy_to_host(ex, f.first_hits.data(), view.first_hits, n * sizeof(FirstHitSums));
  }
  return f;
}

// A resumed render's film into the executor's buffers: the layers the render keeps must be
// there (a layer the film has and the render does not keep is left out).
void upload_film(const Executor& ex, const FilmState& f, const FilmView& view, int width,
                 int height) {
  const std::size_t n = std::size_t(width) * std::size_t(height);
  if (f.width != width || f.height != height || f.sums.size() != 3 * n || f.counts.size() != n)
    throw std::runtime_error("render: the resumed film is " + std::to_string(f.width) + "x" +
                             std::to_string(f.height) + ", the render " + std::to_string(width) +
                             "x" + std::to_string(height));
  if ((view.squares && f.squares.size() != 3 * n) ||
      (view.first_hits && f.first_hits.size() != kFirstHitValues * n))
    throw std::runtime_error("render: the resumed film lacks a layer this render keeps");
  copy_from_host(ex, view.sums, f.sums.data(), n * sizeof(glm::vec3));
  if (view.squares) copy_from_host(ex, view.squares, f.squares.data(), n * sizeof(glm::vec3));
  if (view.first_hits)
    copy_from_host(ex, view.first_hits, f.first_hits.data(), n * sizeof(FirstHitSums));
}

}  // namespace

RenderSettings settings_that_run(const RenderSettings& asked, const Scene& scene) {
  const int material_count = static_cast<int>(scene.materials.size());
  RenderSettings s = asked;
  if (asked.shade == ShadeMode::automatic) {
    unsigned lobes = 0u;
    bool textured = false, rough = false;
    for (const Material& material : scene.materials) {
      const MaterialData m = make_material_data(material);
      lobes |= lobe_bit(static_cast<BsdfKind>(m.kind));
      textured = textured || m.texture >= 0;
      rough = rough || is_rough(m);
    }
    s.shade = asked.schedule == Schedule::stream && !ClassicLobes::covers(lobes, textured, rough)
                  ? ShadeMode::queues
                  : ShadeMode::single;
  }
  // The queues' split is the sort of the wavefronts that shade by queue.
  s.sort_by_material = asked.sort_by_material && asked.schedule != Schedule::megakernel &&
                       s.shade == ShadeMode::single;
  s.material_multisplit = s.sort_by_material && asked.material_multisplit &&
                          material_key_bits(material_count) <= kMultisplitKeyBits;
  s.compact =
      asked.schedule == Schedule::stream || (asked.schedule == Schedule::frame && asked.compact);
  if (asked.schedule == Schedule::megakernel) s.timing = StageTiming::off;
  return s;
}

RenderResult render_wavefront(const Scene& scene, const RenderSettings& asked,
                              const PathPrimitives& gpu_primitives,
                              const WavefrontOptions& options) {
  const int width = asked.width != 0 ? asked.width : scene.camera.width;  // 0: the scene's
  const int height = asked.height != 0 ? asked.height : scene.camera.height;
  validate(scene, asked, width, height);
  const RenderSettings settings = settings_that_run(asked, scene);
  const bool gpu = settings.executor == ExecutorKind::gpu;
  if (gpu && !gpu_available())
    throw std::runtime_error("render: the GPU executor was asked for but no CUDA device is usable");

  auto start = std::chrono::steady_clock::now();
  if (gpu) PRIM_CUDA_CHECK(cudaFree(nullptr));  // the CUDA context, if nothing made it yet
  Stream stream(gpu);
  const double device_ms = gpu ? milliseconds_since(start) : 0.0;
  Executor ex;
  ex.kind = settings.executor;
  ex.stream = stream.get();
  const PathPrimitives& primitives = gpu ? gpu_primitives : cpu_path_primitives();
  const std::size_t n = std::size_t(width) * std::size_t(height);
  const int depth = settings.depth;
  const int material_count = static_cast<int>(scene.materials.size());

  MemoryTally tally;
  const std::size_t primitives_in_scene = scene.objects.size() + scene.triangles.size();
  SceneBvh bvh = SceneBvh::none;
  if (settings.use_bvh && primitives_in_scene > 0 &&
      primitives_in_scene >= settings.bvh_min_primitives) {
    const bool lbvh = settings.bvh_builder == BvhBuilder::lbvh ||
                      (settings.bvh_builder == BvhBuilder::automatic && gpu);
    bvh = lbvh ? SceneBvh::lbvh : SceneBvh::sah;
  }
  const SceneUpload upload(ex, scene, bvh, primitives, width, height, &tally);
  const FilmLayers layers = settings.layers;
  Buffer<glm::vec3> film(ex, "film", n, &tally);
  Buffer<glm::vec3> film_squares(ex, "film squared samples", layers.squares ? n : 0, &tally);
  Buffer<FirstHitSums> film_first_hits(ex, "film first hits", layers.first_hits ? n : 0, &tally);
  Buffer<unsigned long long> depth_counts(ex, "per-depth path counts", 3 * std::size_t(depth),
                                          &tally);
  fill_bytes(ex, depth_counts.data(), 0, depth_counts.bytes());
  const FilmView film_view{film.data(), settings.count_samples,
                           layers.squares ? film_squares.data() : nullptr,
                           layers.first_hits ? film_first_hits.data() : nullptr};
  if (settings.initial_film) {
    upload_film(ex, *settings.initial_film, film_view, width, height);
  } else {
    fill_bytes(ex, film.data(), 0, film.bytes());
    if (layers.squares) fill_bytes(ex, film_squares.data(), 0, film_squares.bytes());
    if (layers.first_hits) fill_bytes(ex, film_first_hits.data(), 0, film_first_hits.bytes());
  }

  // The sample numbers of this render: its passes, from where a resumed render stopped.
  const unsigned long long range_begin =
      static_cast<unsigned long long>(n) * static_cast<unsigned long long>(settings.first_sample);
  const unsigned long long range_end =
      range_begin +
      static_cast<unsigned long long>(n) * static_cast<unsigned long long>(settings.spp);
  unsigned long long begin = range_begin;
  if (!settings.resume_at.empty()) {
    begin = settings.resume_at.front();
    if (settings.resume_at.size() != 1 || begin < range_begin || begin > range_end)
      throw std::runtime_error("render: the resumed progress does not fit this render's samples");
  }  // The samples on the film before this render (a resumed film's); its own are [begin, next).
  const std::vector<std::uint32_t>* initial_counts =
      settings.initial_film ? &settings.initial_film->counts : nullptr;

  RenderResult result;
  RenderStats& stats = result.stats;
  stats.schedule = schedule_name(settings.schedule);
  stats.timing = stage_timing_name(settings.timing);
  stats.backend = gpu ? gpu_primitives.name() : primitives.name();  // "cpu": prim::cpu
  stats.executor = gpu ? "gpu" : "cpu";
  stats.device = device_name(ex);
  stats.spp = settings.spp;
  stats.width = width;
  stats.height = height;
  stats.depth = depth;
  stats.bounces.resize(depth);
  for (int b = 0; b < depth; ++b) stats.bounces[b].bounce = b;
  stats.bvh = upload.bvh_stats();
  stats.startup = upload.startup();
  stats.startup.device_ms = device_ms;
  stats.integrator = settings.nee ? "path" : "bsdf";
  stats.sort_by_material = settings.sort_by_material;
  stats.material_multisplit = settings.material_multisplit;
  stats.compact = settings.compact;
  stats.shade =
      settings.schedule == Schedule::megakernel ? "megakernel" : shade_mode_name(settings.shade);
  SceneView view = upload.view();
  view.nee = settings.nee && view.lights.count > 0;
  view.lobe_mask = 0u;
  view.textured = false;
  view.rough = false;
  for (const Material& material : scene.materials) {
    const MaterialData m = make_material_data(material);
    view.lobe_mask |= lobe_bit(static_cast<BsdfKind>(m.kind));
    view.textured = view.textured || m.texture >= 0;
    view.rough = view.rough || is_rough(m);
  }
  view.geometry.object_uvs = view.textured ? 1 : 0;
  if (settings.schedule == Schedule::megakernel || settings.shade == ShadeMode::single)
    stats.kernel_variant = megakernel_variant(view);

  // The budget, the signal and the checkpoints, polled by the schedule between waves or frames.
  auto render_start = std::chrono::steady_clock::now();
  auto last_checkpoint = render_start;
  StopReason stopped = StopReason::none;
  RenderControl control;
  control.stop = [&] {
    if (stopped == StopReason::none) {
      if (settings.stop_requested && settings.stop_requested()) {
        stopped = StopReason::requested;
      } else if (settings.time_budget_s > 0 &&
                 milliseconds_since(render_start) >= 1000.0 * settings.time_budget_s) {
        stopped = StopReason::time_budget;
      }
    }
    return stopped != StopReason::none;
  };
  control.budget_ends_within = [&](double ms) {
    if (stopped == StopReason::none && settings.time_budget_s > 0 &&
        milliseconds_since(render_start) + ms >= 1000.0 * settings.time_budget_s)
      stopped = StopReason::time_budget;
    return stopped != StopReason::none;
  };
  if (settings.on_checkpoint && settings.checkpoint_interval_s > 0) {
    control.checkpoint_due = [&] {
      return milliseconds_since(last_checkpoint) >= 1000.0 * settings.checkpoint_interval_s;
    };
    control.checkpoint = [&](unsigned long long next_sample) {
      settings.on_checkpoint(
          download_film(ex, film_view, width, height, initial_counts, begin, next_sample),
          std::vector<std::uint64_t>{next_sample});
      last_checkpoint = std::chrono::steady_clock::now();
    };
  }

  RenderContext context{ex,
                        settings,
                        primitives,
                        view,
                        film_view,
                        DepthCounts{depth_counts.data(), depth_counts.data() + depth,
                                    depth_counts.data() + 2 * depth},
                        static_cast<std::uint32_t>(n),
                        material_key_bits(material_count),
                        static_cast<std::uint16_t>(material_count),
                        tally,
                        stats,
                        std::chrono::steady_clock::now(),
                        begin,
                        range_end,
                        &control};

  if (settings.on_loop_start) settings.on_loop_start();
  render_start = last_checkpoint = std::chrono::steady_clock::now();
  context.schedule_start = render_start;
  switch (settings.schedule) {
    case Schedule::stream:
      run_stream_schedule(context);
      break;
    case Schedule::frame:
      run_frame_schedule(context, FrameScheduleOptions{options.cpu_live_slots_only});
      break;
    case Schedule::megakernel:
      run_megakernel_schedule(context);
      break;
  }
  std::vector<unsigned long long> counts(3 * std::size_t(depth));
  copy_to_host(ex, counts.data(), depth_counts.data(), depth_counts.bytes());  // waits
  stats.total_ms = milliseconds_since(render_start);
  // The build's temporaries came and went before the render's buffers.
  if (gpu) {
    stats.peak_device_bytes =
        std::max<std::size_t>(stats.peak_device_bytes, upload.bvh_stats().build_peak_bytes);
  }
  for (int b = 0; b < depth; ++b) {
    stats.bounces[b].paths_in = counts[b];
    stats.bounces[b].paths_out = counts[depth + b];
    stats.bounces[b].shadow_rays = counts[2 * depth + b];
    stats.path_segments += counts[b];
    stats.shadow_rays += counts[2 * depth + b];
  }
  // A render asked to stop that had nothing left to do stopped for no reason.
  if (context.next_sample >= range_end) stopped = StopReason::none;
  stats.stopped = stop_reason_name(stopped);
  stats.samples = context.next_sample - begin;

  result.film =
      download_film(ex, film_view, width, height, initial_counts, begin, context.next_sample);
  result.next_samples = {context.next_sample};
  count_film_samples(result.film, stats);
  result.image = film_image(result.film);
  if (settings.count_samples) {  // the test mode's image is the sums: samples per pixel
    for (std::size_t k = 0; k < result.image.rgb.size(); ++k)
      result.image.rgb[k] = result.film.sums[k];
  }
  return result;
}

}  // namespace raystream
