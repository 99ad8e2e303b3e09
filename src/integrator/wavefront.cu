// render_wavefront: validates the settings, uploads the scene, runs the chosen schedule
// (schedules.h) and turns the film into the image. The loops themselves live in
// frame_schedule.cu, stream_schedule.cu and megakernel_schedule.cu.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/stopwatch.h"
#include "execution/buffer.h"
#include "execution/devices.h"
#include "execution/executor.h"
#include "film/film.h"
#include "integrator/path/path_state.h"
#include "integrator/scene_upload.h"
#include "integrator/schedules/schedules.h"
#include "integrator/stages/stages.h"
#include "integrator/wavefront.h"
#include "materials/bsdf.h"
#include "primitives/device_info.h"
#include "primitives/error.h"

namespace raystream {

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

// The acceleration structure: none for scenes of few primitives (or asked), else the LBVH on the
// GPU executor and the SAH build on the CPU one unless a builder is named.
SceneBvh scene_bvh(const Scene& scene, const RenderSettings& settings) {
  const std::size_t primitives = scene.objects.size() + scene.triangles.size();
  if (!settings.use_bvh || primitives == 0 || primitives < settings.bvh_min_primitives)
    return SceneBvh::none;
  const bool lbvh =
      settings.bvh_builder == BvhBuilder::lbvh ||
      (settings.bvh_builder == BvhBuilder::automatic && settings.executor == ExecutorKind::gpu);
  return lbvh ? SceneBvh::lbvh : SceneBvh::sah;
}

// The sample numbers of a render of `pixels` pixels: its passes [first_sample, first_sample +
// spp), from where a resumed render stopped.
struct SampleRange {
  unsigned long long begin = 0, end = 0;
};
SampleRange sample_range(const RenderSettings& settings, std::size_t pixels) {
  const auto n = static_cast<unsigned long long>(pixels);
  SampleRange r;
  r.begin = n * static_cast<unsigned long long>(settings.first_sample);
  r.end = r.begin + n * static_cast<unsigned long long>(settings.spp);
  if (!settings.resume_at.empty()) {
    const unsigned long long resume = settings.resume_at.front();
    if (settings.resume_at.size() != 1 || resume < r.begin || resume > r.end)
      throw std::runtime_error("render: the resumed progress does not fit this render's samples");
    r.begin = resume;
  }
  return r;
}

// What the report states of the render before it runs.
void describe_render(RenderStats& stats, const RenderSettings& settings, const Executor& ex,
                     PrimitivesBackend backend, int width, int height) {
  stats.schedule = settings.schedule;
  stats.timing = settings.timing;
  stats.backend = backend;
  stats.executor = settings.executor;
  stats.device = device_name(ex);
  stats.spp = settings.spp;
  stats.width = width;
  stats.height = height;
  stats.depth = settings.depth;
  stats.bounces.resize(settings.depth);
  for (int b = 0; b < settings.depth; ++b) stats.bounces[b].bounce = b;
  stats.nee = settings.nee;
  stats.sort_by_material = settings.sort_by_material;
  stats.material_multisplit = settings.material_multisplit;
  stats.compact = settings.compact;
  stats.compaction =
      settings.compaction == Compaction::fused ? Compaction::fused : Compaction::separate;
  stats.shade = settings.shade;
}

// The time budget, the stop request and the checkpoints, polled by the schedule between waves or
// frames: RenderControl's functions over the render loop's clock.
class LoopClock {
 public:
  LoopClock(const RenderSettings& settings, const Film& film, unsigned long long begin)
      : settings_(settings), film_(film), begin_(begin) {}

  void start() { start_ = last_checkpoint_ = steady_now(); }
  double elapsed_ms() const { return milliseconds_since(start_); }
  StopReason stopped() const { return stopped_; }
  void forget_stop() { stopped_ = StopReason::none; }

  RenderControl control() {
    RenderControl control;
    control.stop = [this] {
      if (stopped_ == StopReason::none) {
        if (settings_.stop_requested && settings_.stop_requested()) {
          stopped_ = StopReason::requested;
        } else if (settings_.time_budget_s > 0 &&
                   elapsed_ms() >= 1000.0 * settings_.time_budget_s) {
          stopped_ = StopReason::time_budget;
        }
      }
      return stopped_ != StopReason::none;
    };
    control.budget_ends_within = [this](double ms) {
      if (stopped_ == StopReason::none && settings_.time_budget_s > 0 &&
          elapsed_ms() + ms >= 1000.0 * settings_.time_budget_s)
        stopped_ = StopReason::time_budget;
      return stopped_ != StopReason::none;
    };
    if (settings_.on_checkpoint && settings_.checkpoint_interval_s > 0) {
      control.checkpoint_due = [this] {
        return milliseconds_since(last_checkpoint_) >= 1000.0 * settings_.checkpoint_interval_s;
      };
      control.checkpoint = [this](unsigned long long next_sample) {
        settings_.on_checkpoint(film_.download(begin_, next_sample),
                                std::vector<std::uint64_t>{next_sample});
        last_checkpoint_ = steady_now();
      };
    }
    return control;
  }

 private:
  const RenderSettings& settings_;
  const Film& film_;
  unsigned long long begin_;
  SteadyTime start_ = steady_now(), last_checkpoint_ = steady_now();
  StopReason stopped_ = StopReason::none;
};

void run_schedule(RenderContext& context, const WavefrontOptions& options) {
  switch (context.settings.schedule) {
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
}

// The per-depth counts of the render into its statistics (waits for the executor).
void report_depth_counts(const Executor& ex, const Buffer<unsigned long long>& counts,
                         RenderStats& stats) {
  const std::size_t depth = stats.bounces.size();
  std::vector<unsigned long long> host(counts.size());
  copy_to_host(ex, host.data(), counts.data(), counts.bytes());
  for (std::size_t b = 0; b < depth; ++b) {
    stats.bounces[b].paths_in = host[b];
    stats.bounces[b].paths_out = host[depth + b];
    stats.bounces[b].shadow_rays = host[2 * depth + b];
    stats.path_segments += host[b];
    stats.shadow_rays += host[2 * depth + b];
  }
}

// The constants every stage reads: the scene as uploaded (with what the settings and its lobes
// turn on), the film, the per-depth counters, the depth and the seed.
void fill_stage_context(StageContext& k, const RenderSettings& settings, const SceneUpload& upload,
                        const Film& film, const Buffer<unsigned long long>& depth_counts,
                        const LobeFeatures& lobes) {
  k.scene = upload.view();
  k.scene.nee = settings.nee && k.scene.lights.count > 0;
  k.scene.lobes = lobes;
  k.scene.geometry.object_uvs = lobes.textured ? 1 : 0;
  k.film = film.view();
  const int depth = settings.depth;
  k.counts = DepthCounts{depth_counts.data(), depth_counts.data() + depth,
                         depth_counts.data() + 2 * depth};
  k.max_depth = depth;
  k.seed = settings.seed;
}

// The render's film brought back, [begin, next_sample), and its image (in the test mode of
// counted samples, the counts themselves).
void take_film(RenderResult& result, const Film& film, const RenderSettings& settings,
               unsigned long long begin, unsigned long long next_sample) {
  result.film = film.download(begin, next_sample);
  result.next_samples = {next_sample};
  count_film_samples(result.film, result.stats);
  result.image = film_image(result.film);
  if (settings.count_samples) result.image.rgb = result.film.sums;
}

}  // namespace

void count_film_samples(const FilmState& film, RenderStats& stats) {
  const FilmSampleCounts counts = film_sample_counts(film);
  stats.film_samples = counts.total;
  stats.pixel_samples_min = counts.min;
  stats.pixel_samples_max = counts.max;
}

RenderSettings settings_that_run(const RenderSettings& asked, const LobeFeatures& lobes,
                                 int material_count) {
  RenderSettings s = asked;
  if (asked.shade == ShadeMode::automatic)
    s.shade = asked.schedule == Schedule::stream && !lobes.classic() ? ShadeMode::queues
                                                                     : ShadeMode::single;
  // The queues' split is the sort of the wavefronts that shade by queue.
  s.sort_by_material = asked.sort_by_material && asked.schedule != Schedule::megakernel &&
                       s.shade == ShadeMode::single;
  s.material_multisplit = s.sort_by_material && asked.material_multisplit &&
                          material_key_bits(material_count) <= kMultisplitKeyBits;
  s.compact =
      asked.schedule == Schedule::stream || (asked.schedule == Schedule::frame && asked.compact);
  if (asked.schedule != Schedule::stream)
    s.compaction = Compaction::separate;
  else if (asked.compaction == Compaction::automatic)
    s.compaction = Compaction::fused;
  if (asked.schedule == Schedule::megakernel) s.timing = StageTiming::off;
  return s;
}

RenderSettings settings_that_run(const RenderSettings& asked, const Scene& scene) {
  const std::vector<MaterialData> materials = scene_materials(scene);
  return settings_that_run(asked, lobe_features(materials.data(), materials.size()),
                           static_cast<int>(materials.size()));
}

RenderResult render_wavefront(const Scene& scene, const RenderSettings& asked,
                              const PathPrimitives& gpu_primitives,
                              const WavefrontOptions& options) {
  const int width = asked.width != 0 ? asked.width : scene.camera.width;  // 0: the scene's
  const int height = asked.height != 0 ? asked.height : scene.camera.height;
  validate(scene, asked, width, height);
  const std::vector<MaterialData> materials = scene_materials(scene);
  const LobeFeatures lobes = lobe_features(materials.data(), materials.size());
  const int material_count = static_cast<int>(materials.size());
  const bool gpu = asked.executor == ExecutorKind::gpu;
  const PathPrimitives& primitives = gpu ? gpu_primitives : cpu_path_primitives();
  const RenderSettings settings = settings_that_run(asked, lobes, material_count);
  if (gpu && !gpu_available())
    throw std::runtime_error("render: the GPU executor was asked for but no CUDA device is usable");

  const SteadyTime device_start = steady_now();
  if (gpu) PRIM_CUDA_CHECK(cudaFree(nullptr));  // the CUDA context, if nothing made it yet
  Stream stream(gpu);
  Executor ex;
  ex.kind = settings.executor;
  ex.stream = stream.get();
  const double device_ms = gpu ? milliseconds_since(device_start) : 0.0;
  const std::size_t pixels = std::size_t(width) * std::size_t(height);

  MemoryTally tally;
  const SceneUpload upload(ex, scene, materials, scene_bvh(scene, settings), primitives, width,
                           height, &tally);
  Film film(ex, width, height, settings.layers, settings.count_samples, settings.initial_film,
            &tally);
  Buffer<unsigned long long> depth_counts(ex, "per-depth path counts",
                                          3 * std::size_t(settings.depth), &tally);
  fill_bytes(ex, depth_counts.data(), 0, depth_counts.bytes());
  const SampleRange range = sample_range(settings, pixels);

  RenderResult result;
  RenderStats& stats = result.stats;
  describe_render(stats, settings, ex, primitives.backend(), width, height);
  stats.bvh = upload.bvh_stats();
  stats.textures = upload.texture_stats();
  stats.startup = upload.startup();
  stats.layout = StateLayout{kCarriedBytes, kRadianceBytes, kHitBytes, kShadowBytes};
  stats.startup.device_ms = device_ms;

  RenderContext context(ex, settings, primitives, tally, stats);
  fill_stage_context(context.stages, settings, upload, film, depth_counts, lobes);
  if (settings.schedule == Schedule::megakernel || settings.shade == ShadeMode::single)
    stats.kernel_variant = settings.schedule == Schedule::megakernel
                               ? megakernel_variant(context.stages.scene)
                               : shade_kernel_variant(context.stages.scene);
  context.pixels = static_cast<std::uint32_t>(pixels);
  context.key_bits = material_key_bits(material_count);
  context.dead_key = static_cast<std::uint16_t>(material_count);
  context.begin_sample = range.begin;
  context.end_sample = range.end;
  LoopClock clock(settings, film, range.begin);
  const RenderControl control = clock.control();
  context.control = &control;

  if (settings.on_loop_start) settings.on_loop_start();
  clock.start();
  context.schedule_start = steady_now();
  run_schedule(context, options);
  report_depth_counts(ex, depth_counts, stats);  // waits for the executor
  stats.total_ms = clock.elapsed_ms();
  // The build's temporaries came and went before the render's buffers.
  if (gpu)
    stats.peak_device_bytes =
        std::max<std::size_t>(stats.peak_device_bytes, upload.bvh_stats().build_peak_bytes);
  // A render asked to stop that had nothing left to do stopped for no reason.
  if (context.next_sample >= range.end) clock.forget_stop();
  stats.stopped = clock.stopped();
  stats.samples = context.next_sample - range.begin;

  take_film(result, film, settings, range.begin, context.next_sample);
  return result;
}

}  // namespace raystream
