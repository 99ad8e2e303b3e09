// raystream: renders a JSON scene with the wavefront path tracer, writes the image and prints the
// per-bounce report. Run with --help for the options; the README documents them.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cli/options.h"
#include "cli/progress.h"
#include "cli/sample_budget.h"
#include "cli/stop_signals.h"
#include "cli/team.h"
#include "cli/warnings.h"
#include "core/stop_request.h"
#include "film/denoiser.h"
#include "integrator/render.h"
#include "io/checkpoint/checkpoint_file.h"
#include "io/files/atomic_file.h"
#include "io/files/file_identity.h"
#include "io/files/input_file.h"
#include "io/image/film_output.h"
#include "io/image/image_output.h"
#include "io/scene/scene_loader.h"
#include "stats/report.h"

#ifndef RAYSTREAM_VERSION
#error "RAYSTREAM_VERSION must be defined by the build"
#endif
#ifndef RAYSTREAM_MPI
#define RAYSTREAM_MPI 0
#endif

namespace {

using namespace raystream;

int fail(int code, const std::string& message) {
  std::cerr << "raystream: error: " << message << "\n";
  return code;
}

// Removes renders/ again when this run created it and wrote nothing into it (a failed run leaves
// no empty folder behind); fs::remove leaves a folder that is not empty alone.
struct CreatedFolder {
  bool created = false;
  ~CreatedFolder() {
    std::error_code ec;
    if (created) std::filesystem::remove("renders", ec);
  }
};

// Checks the output paths before rendering so a long render does not end in a failed write.
// Creates renders/ for the default output path only.
void prepare_outputs(const std::string& image_path, const std::string& stats_path,
                     const Options& options, CreatedFolder& folder) {
  if (!options.output) {
    std::error_code ec;
    folder.created = std::filesystem::create_directories("renders", ec);
    if (ec) throw OutputError("renders: cannot create the output folder: " + ec.message());
  }
  check_writable(image_path);
  if (!stats_path.empty()) check_writable(stats_path);
}

// On the CPU, with the spp taken from the scene file: times one frame and returns the number of
// frames that fit in about a minute, at most the scene's count.
int cpu_frames_for_budget(const Scene& scene, RenderSettings settings, bool quiet) {
  settings.spp = 1;
  settings.on_progress = nullptr;
  const auto start = std::chrono::steady_clock::now();
  render(scene, settings);
  const double frame_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int frames = frames_within_budget(frame_s, kCpuBudgetSeconds - frame_s, scene.iterations);
  if (!quiet) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3g", frame_s);
    std::cerr << "raystream: on the CPU one frame takes " << seconds << " s; rendering " << frames
              << " samples per pixel (the scene asks for " << scene.iterations
              << ") to finish in about a minute; --spp N overrides"
              << (frames < scene.iterations
                      ? " (fewer samples leave the image dark and speckled: most paths of so "
                        "few do not reach a light yet)"
                      : "")
              << "\n";
  }
  return frames;
}

// A result with no samples, of the right shape to be summed with the others (a process whose
// share of a split render is empty).
RenderResult empty_share(const RenderSettings& settings) {
  RenderResult r;
  r.film = empty_film(settings.width, settings.height, settings.layers);
  r.image = film_image(r.film);
  r.stats.width = settings.width;
  r.stats.height = settings.height;
  r.stats.depth = settings.depth;
  r.stats.schedule = schedule_name(settings.schedule);
  r.stats.timing = stage_timing_name(settings.timing);
  r.stats.first_sample = settings.first_sample;
  r.stats.bounces.resize(std::size_t(settings.depth));
  for (int b = 0; b < settings.depth; ++b) r.stats.bounces[b].bounce = b;
  return r;
}

// Every process of the team reports the outcome of a step; on a failure anywhere, the leader
// prints the failing process's message and every process returns its code (a stop signal's,
// 128 + the signal, is no error: its line says so).
int settle(Team& team, int code, std::string message) {
  code = team.agree(code, message);
  if (code > 128 && team.leader()) {
    std::cerr << "raystream: " << message << "\n";
  } else if (code != 0 && team.leader()) {
    fail(code, message);
  }
  return code;
}

// A stop signal caught before the render's first sample: the run ends at once, writing nothing
// (an existing image or checkpoint stays as it was). Sets code and message and returns true when
// there is one.
bool stopped_before_first_sample(int& code, std::string& message) {
  const int signal = stop_signal();
  if (signal == 0) return false;
  code = 128 + signal;
  message = std::string("stopped by ") + (signal == SIGINT ? "SIGINT" : "SIGTERM") +
            " before the first sample; nothing written";
  return true;
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Creates the CUDA context of the render's one GPU on a thread of its own while the scene loads
// (the first CUDA call would otherwise pay for it after the load). Not for the CPU executor, a
// render split across GPUs (it makes one context per device itself) or MPI ranks.
class ContextAhead {
 public:
  ContextAhead(const Options& options, const Team& team) {
    if (options.device == DeviceChoice::cpu || team.size() > 1 || options.all_devices ||
        options.devices.size() > 1)
      return;
    const int device = options.devices.empty() ? 0 : options.devices[0];
    thread_ = std::thread([this, device] { ms_ = create_gpu_context(device); });
  }
  ~ContextAhead() { join(); }
  ContextAhead(const ContextAhead&) = delete;
  ContextAhead& operator=(const ContextAhead&) = delete;
  // Waits for it; returns the milliseconds it took (0: not made ahead).
  double join() {
    if (thread_.joinable()) thread_.join();
    return ms_;
  }

 private:
  std::thread thread_;
  double ms_ = 0.0;
};

// The checkpoint of this process's render so far (its own film: the processes of an MPI run
// write one each).
Checkpoint make_checkpoint(const CheckpointKey& key, const FilmState& film,
                           const std::vector<std::uint64_t>& next_samples) {
  Checkpoint c;
  c.key = key;
  c.film = film;
  c.next_samples = next_samples;
  return c;
}

// --denoise: filters result.image in place (the film keeps the samples, for the EXR's noisy
// layer) and says how in info: on the GPU when the render ran there, else (or when the GPU
// filter fails, with a warning) on the CPU.
void denoise_image(RenderResult& result, const Options& options, RunInfo& info) {
  static_assert(kFirstHitValues == kDenoiseGuideSums, "the film's first-hit sums are its guides");
  Image& image = result.image;
  if (result.film.first_hits.size() != kFirstHitValues * image.rgb.size() / 3)
    throw std::runtime_error("--denoise: the film keeps no first hits to guide the filter");
  AtrousSettings settings;
  settings.demodulate = options.denoise == DenoiseMode::irradiance;
  info.denoiser = denoiser_description(settings);
  info.denoise_device = result.stats.executor == "gpu" ? "gpu" : "cpu";
  DenoiseTimes times;
  if (info.denoise_device == "gpu") {
    try {
      times = denoise_gpu(image.width, image.height, image.rgb.data(),
                          result.film.first_hits.data(), image.rgb.data(), settings);
      info.denoise_transfer_ms = times.upload_ms + times.download_ms;
    } catch (const std::exception& e) {
      std::cerr << "raystream: warning: the GPU denoiser failed (" << e.what()
                << "); denoising on the CPU\n";
      info.denoise_device = "cpu";
    }
  }
  if (info.denoise_device == "cpu")
    times = denoise_cpu(image.width, image.height, image.rgb.data(), result.film.first_hits.data(),
                        image.rgb.data(), settings);
  info.denoise_ms = times.filter_ms;
}

int run(const Options& options, Team& team, std::chrono::steady_clock::time_point start) {
  Scene scene;
  LoadTimes load_times;
  int code = 0;
  std::string message;
  ContextAhead context(options, team);
  try {
    std::vector<std::string> warnings;
    scene = load_scene(options.scene, warnings, load_times);
    for (const std::string& w : capped_warnings(warnings)) std::cerr << "warning: " << w << '\n';
  } catch (const StopRequested& e) {
    if (!stopped_before_first_sample(code, message)) code = kExitRuntimeError, message = e.what();
  } catch (const SceneError& e) {
    code = kExitUsageError, message = e.what();
  } catch (const std::bad_alloc&) {
    code = kExitRuntimeError, message = options.scene + ": out of memory while loading the scene";
  } catch (const std::exception& e) {
    code = kExitRuntimeError, message = options.scene + ": " + e.what();
  }
  const double context_ms = context.join();
  if (code == 0) stopped_before_first_sample(code, message);
  if ((code = settle(team, code, message))) return code;

  const std::string output = output_path_for(scene, options);
  if (const std::string w = output_name_warning(scene, options); !w.empty() && team.leader())
    std::cerr << "warning: " << w << '\n';
  const std::string stats_path = stats_path_for(options);
  const std::string checkpoint_path = checkpoint_path_for(output, team.rank(), team.size());
  ImageFormat format = ImageFormat::png;
  try {
    format = output_format(output, options);
    check_output_paths(output, stats_path);
    if (options.checkpoint_s && checkpoint_path.empty())
      throw std::invalid_argument(output +
                                  ": --checkpoint writes beside the image, and this one is "
                                  "written through (name an image file)");
  } catch (const std::invalid_argument& e) {
    code = kExitUsageError, message = e.what();
  }
  if ((code = settle(team, code, message))) return code;

  // A resumed render: the checkpoint of this process, checked against this render below.
  Checkpoint resumed;
  const std::string resume_path =
      options.resume ? resume_path_for(*options.resume, team.rank(), team.size()) : "";
  std::vector<SceneInput> resumed_file;
  try {
    InputFileLog log;
    if (options.resume) resumed = read_checkpoint(resume_path);
    resumed_file = log.files();
  } catch (const SceneError& e) {
    code = kExitUsageError, message = e.what();
  } catch (const std::bad_alloc&) {
    code = kExitRuntimeError, message = resume_path + ": out of memory reading the checkpoint";
  }
  if (code == 0) stopped_before_first_sample(code, message);
  if ((code = settle(team, code, message))) return code;

  // No output may replace a file the render reads (compared by device and inode): the image and
  // the statistics none at all, the checkpoint none but the one it resumes (its continuation).
  try {
    std::vector<SceneInput> inputs = scene.inputs;
    check_outputs_are_not_inputs({{checkpoint_path, "the checkpoint"}}, inputs);
    inputs.insert(inputs.end(), resumed_file.begin(), resumed_file.end());
    check_outputs_are_not_inputs({{output, "the image"}, {stats_path, "--stats"}}, inputs);
  } catch (const std::invalid_argument& e) {
    code = kExitUsageError, message = e.what();
  }
  if ((code = settle(team, code, message))) return code;

  ExecutorKind executor = ExecutorKind::gpu;
  std::vector<int> devices = options.devices;
  try {
    if (options.all_devices) devices = all_gpu_devices();
    if (options.device == DeviceChoice::cpu) {
      executor = ExecutorKind::cpu;
    } else if (!gpu_available()) {
      if (options.device == DeviceChoice::gpu)
        throw std::runtime_error(
            "--device gpu: no usable CUDA device found (use --device cpu or auto)");
      executor = ExecutorKind::cpu;
      if (!options.quiet && team.leader())
        std::cerr << "raystream: no CUDA device found; rendering on the CPU\n";
    } else if (team.size() > 1) {
      // One GPU per process: the process's rank on its host picks it (from --devices if given).
      if (devices.empty()) devices = all_gpu_devices();
      devices = {devices[std::size_t(team.local_rank()) % devices.size()]};
    }
  } catch (const std::exception& e) {
    code = kExitRuntimeError, message = e.what();
  }
  if ((code = settle(team, code, message))) return code;

  RenderSettings settings = settings_for(scene, options, executor);
  // The render a checkpoint belongs to; a resumed one takes its spp unless --spp says otherwise.
  CheckpointKey key;
  key.version = RAYSTREAM_VERSION;
  key.scene = options.scene;
  key.scene_hash = scene_fingerprint(scene);
  key.width = settings.width;
  key.height = settings.height;
  key.depth = settings.depth;
  key.seed = settings.seed;
  key.nee = settings.nee;
  key.process = team.rank();
  key.processes = team.size();
  const std::size_t shares =
      executor == ExecutorKind::gpu && devices.size() > 1 ? devices.size() : 1;
  if (options.resume) {
    if (!options.spp) settings.spp = resumed.key.spp;
    key.spp = settings.spp;
    try {
      check_checkpoint(resumed, key, resume_path);
      if (resumed.next_samples.size() != shares)
        throw SceneError(resume_path + ": a checkpoint of a render split into " +
                         std::to_string(resumed.next_samples.size()) + " shares (this one has " +
                         std::to_string(shares) + "); resume it with as many devices");
      const FilmLayers& wanted = settings.layers;
      if ((wanted.squares && resumed.film.squares.empty()) ||
          (wanted.first_hits && resumed.film.first_hits.empty()))
        throw SceneError(resume_path + ": the checkpoint keeps no layers for " +
                         (options.aovs.any() ? "--aov " + aov_names(options.aovs) : "--denoise") +
                         " (it was written without them)");
      // Layers the checkpoint keeps and this render does not are dropped.
      if (!wanted.squares) resumed.film.squares.clear();
      if (!wanted.first_hits) resumed.film.first_hits.clear();
    } catch (const SceneError& e) {
      code = kExitUsageError, message = e.what();
    }
    settings.resume_at = resumed.next_samples;
    settings.initial_film = &resumed.film;
  }
  if ((code = settle(team, code, message))) return code;

  CreatedFolder folder;
  try {
    if (team.leader()) prepare_outputs(output, stats_path, options, folder);
    if (options.checkpoint_s) check_writable(checkpoint_path);
  } catch (const std::exception& e) {
    code = kExitRuntimeError, message = e.what();
  }
  if ((code = settle(team, code, message))) return code;

  if (!options.quiet && team.leader())
    for (const std::string& notice : unused_setting_notices(options, settings))
      std::cerr << "raystream: " << notice << "\n";
  settings.stop_requested = [] { return stop_signal() != 0; };
  RenderResult result;
  if (stopped_before_first_sample(code, message)) {
    if ((code = settle(team, code, message))) return code;
  }
  try {
    if (executor == ExecutorKind::cpu && !options.spp && !options.time_s && !options.resume) {
      int spp = team.leader() ? cpu_frames_for_budget(scene, settings, options.quiet) : 0;
      settings.spp = team.broadcast(spp);
    }
    // This process's share of the samples (all of them when it renders alone).
    key.spp = settings.spp;
    const int first = share_first_sample(settings, team.rank(), team.size());
    settings.spp = share_first_sample(settings, team.rank() + 1, team.size()) - first;
    settings.first_sample = first;
    if (options.checkpoint_s) {
      // A checkpoint that cannot be written is a warning: the render goes on.
      settings.on_checkpoint = [&](const FilmState& film, const std::vector<std::uint64_t>& next) {
        try {
          write_file_atomically(checkpoint_path,
                                encode_checkpoint(make_checkpoint(key, film, next)));
        } catch (const std::exception& e) {
          std::cerr << "raystream: warning: checkpoint not written: " << e.what() << "\n";
        }
      };
    }
    ProgressBar progress(progress_wanted(options.quiet) && team.leader(),
                         static_cast<double>(settings.width) * settings.height);
    progress.set_budget(settings.time_budget_s);
    settings.on_progress = [&progress](int done, int total) { progress.update(done, total); };
    if (settings.spp == 0) {
      result = empty_share(settings);
    } else if (executor == ExecutorKind::gpu && devices.size() > 1) {
      result = render_split(scene, settings, devices);
    } else {
      if (executor == ExecutorKind::gpu && devices.size() == 1) set_gpu_device(devices[0]);
      result = render(scene, settings);
    }
    result.stats.first_sample = first;
    // Stopped before its first sample (while the BVH was built, say): nothing to write.
    if (stop_signal() != 0 && result.stats.samples == 0 && settings.spp > 0)
      stopped_before_first_sample(code, message);
  } catch (const StopRequested& e) {
    if (!stopped_before_first_sample(code, message)) code = kExitRuntimeError, message = e.what();
  } catch (const std::bad_alloc&) {
    code = kExitRuntimeError, message = options.scene + ": rendering failed: out of host memory";
  } catch (const std::exception& e) {
    code = kExitRuntimeError, message = options.scene + ": rendering failed: " + e.what();
  }
  if ((code = settle(team, code, message))) return code;

  // This process's checkpoint, before the films are combined: with --checkpoint, and whenever a
  // signal stopped the render (then also without, unless the image has no "beside").
  const int signal = stop_signal();
  try {
    if ((options.checkpoint_s || signal != 0) && !checkpoint_path.empty())
      write_file_atomically(checkpoint_path, encode_checkpoint(make_checkpoint(
                                                 key, result.film, result.next_samples)));
  } catch (const std::exception& e) {
    code = kExitRuntimeError, message = e.what();
  }
  if ((code = settle(team, code, message))) return code;
  team.combine(result);
  result.stats.startup.scene_ms = load_times.total_ms;
  result.stats.startup.obj_ms = load_times.obj_ms;
  result.stats.startup.meshes_ms = load_times.meshes_ms;
  if (result.stats.executor == "gpu") result.stats.startup.context_ms = context_ms;

  try {
    if (team.leader()) {
      RunInfo info;
      info.version = RAYSTREAM_VERSION;
      info.binary_backend = primitives_backend_name();
      info.scene = options.scene;
      info.output = output;
      info.seed = settings.seed;
      info.resumed_from = resume_path;
      if ((options.checkpoint_s || signal != 0) && !checkpoint_path.empty())
        info.checkpoint = checkpoint_path;
      if (options.denoise != DenoiseMode::off) denoise_image(result, options, info);
      // The image and the statistics land together or not at all.
      const auto encode_start = std::chrono::steady_clock::now();
      std::vector<OutputFile> files = {
          {output, format != ImageFormat::exr ? encode_image(result.image, format)
                   : options.denoise != DenoiseMode::off
                       ? encode_denoised_film_exr(result.film, options.aovs, result.image)
                       : encode_film_exr(result.film, options.aovs)}};
      info.encode_ms = milliseconds_since(encode_start);
      info.elapsed_ms = milliseconds_since(start);
      if (!stats_path.empty()) {
        const std::string json = stats_json(result.stats, info);
        files.push_back({stats_path, std::vector<unsigned char>(json.begin(), json.end())});
      }
      write_files_atomically(files);
      folder.created = false;
      // Where the image or the statistics go to stdout, the report keeps out of their way.
      const bool stdout_taken =
          writes_to_stdout(output) || (!stats_path.empty() && writes_to_stdout(stats_path));
      std::ostream& report = stdout_taken ? std::cerr : std::cout;
      print_report(report, result.stats, info);
      report.flush();
      if (!report) throw std::runtime_error("cannot write the report");
    }
  } catch (const std::exception& e) {
    code = kExitRuntimeError, message = e.what();
  }
  code = settle(team, code, message);
  // Stopped by a signal: what it rendered is written; the exit status says how it ended.
  if (code == 0 && signal != 0) return 128 + signal;
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  // First: a stop signal that comes while the process starts up is the render's to handle: it
  // stops the loading's long loops (core/stop_request.h) and the run ends before its first
  // sample, writing nothing.
  catch_stop_signals();
  set_stop_check([] { return stop_signal() != 0; });
  Team team(argc, argv);
  const std::string version = std::string("raystream ") + RAYSTREAM_VERSION +
                              " (primitives backend: " + primitives_backend_name() + ")" +
                              (RAYSTREAM_MPI ? " with MPI" : "");
  Options options;
  // Every process parses the same command line, so all of them stop here or none; only the
  // leader prints.
  std::ostringstream out, err;
  if (const auto code = parse_options(argc, argv, version, options, out, err)) {
    if (team.leader()) std::cout << out.str() << std::flush, std::cerr << err.str();
    return *code;
  }
  if (team.leader()) std::cerr << err.str();
  try {
    return run(options, team, start);
  } catch (const std::exception& e) {
    // Not reached by a failure the processes agreed on; a process that ends here alone ends
    // the whole run.
    fail(kExitRuntimeError, e.what());
    team.abort(kExitRuntimeError);
    return kExitRuntimeError;
  }
}
