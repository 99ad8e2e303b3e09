// raystream: renders a JSON scene with the wavefront path tracer, writes the image and prints the
// per-bounce report. Run with --help for the options; the README documents them.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
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
#include "core/stopwatch.h"
#include "execution/devices.h"
#include "film/denoiser.h"
#include "integrator/api/render.h"
#include "io/checkpoint/checkpoint_file.h"
#include "io/files/atomic_file.h"
#include "io/files/file_identity.h"
#include "io/files/input_file.h"
#include "io/image/film_output.h"
#include "io/image/image_output.h"
#include "io/scene/scene_export.h"
#include "io/scene/scene_loader.h"
#include "scene/scene_fingerprint.h"
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
  for (const std::string& path : {image_path, stats_path}) {
    if (path.empty()) continue;
    remove_stale_temporaries(path);
    check_writable(path);
  }
}

// On the CPU, with the spp taken from the scene file: times one frame and returns the number of
// frames that fit in about a minute, at most the scene's count. The frame is the render loop's
// time alone: the set-up before it (the BVH build, which a large mesh makes long) is paid once
// per render, and comes off the minute.
int cpu_frames_for_budget(const Scene& scene, RenderSettings settings, bool quiet) {
  settings.spp = 1;
  settings.on_progress = nullptr;
  const auto start = std::chrono::steady_clock::now();
  const RenderStats stats = render(scene, settings).stats;
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double frame_s = stats.total_ms / 1000.0;
  const int frames = frames_after_trial(frame_s, wall_s, scene.iterations);
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
  r.stats.schedule = settings.schedule;
  r.stats.timing = settings.timing;
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

// --denoise: filters result.image in place (the film keeps the samples, for the EXR's noisy
// layer) and says how in info: on the GPU when the render ran there, else (or when the GPU
// filter fails, with a warning) on the CPU. A stop signal abandons the filter: the image stays
// unfiltered, and info names no denoiser. Returns whether the image was filtered.
bool denoise_image(RenderResult& result, const Options& options, RunInfo& info) {
  static_assert(kFirstHitValues == kDenoiseGuideSums, "the film's first-hit sums are its guides");
  Image& image = result.image;
  if (result.film.first_hits.size() != kFirstHitValues * image.rgb.size() / 3)
    throw std::runtime_error("--denoise: the film keeps no first hits to guide the filter");
  AtrousSettings settings;
  settings.demodulate = options.denoise == DenoiseMode::irradiance;
  info.denoiser = denoiser_description(settings);
  info.denoise_device = result.stats.executor;
  DenoiseTimes times;
  const DenoiseStop stop = [] { return stop_signal() != 0; };
  if (info.denoise_device == ExecutorKind::gpu) {
    try {
      times = denoise_gpu(image.width, image.height, image.rgb.data(),
                          result.film.first_hits.data(), image.rgb.data(), settings, stop);
      info.denoise_transfer_ms = times.upload_ms + times.download_ms;
    } catch (const std::exception& e) {
      std::cerr << "raystream: warning: the GPU denoiser failed (" << e.what()
                << "); denoising on the CPU\n";
      info.denoise_device = ExecutorKind::cpu;
    }
  }
  if (info.denoise_device == ExecutorKind::cpu)
    times = denoise_cpu(image.width, image.height, image.rgb.data(), result.film.first_hits.data(),
                        image.rgb.data(), settings, stop);
  info.denoise_ms = times.filter_ms;
  if (times.stopped) {
    info.denoiser.clear();
    std::cerr << "raystream: the denoiser stopped at the signal; the image is written unfiltered\n";
  }
  return !times.stopped;
}

// How a step of the run went: code 0 (and no message) when it went well.
struct Outcome {
  int code = 0;
  std::string message;
};

// A stop signal caught before the render's first sample, as the step's outcome (code 0: none).
Outcome stopped_now() {
  Outcome o;
  stopped_before_first_sample(o.code, o.message);
  return o;
}

// One run of raystream, step by step: load the scene, plan the outputs, read the checkpoint to
// resume, choose the executor, settle the settings, render this process's share, write its
// checkpoint, and write the image, the statistics and the report. Every process of a team takes
// each step, and a failure anywhere ends the run everywhere after that step (settle).
class Run {
 public:
  Run(const Options& options, Team& team, std::chrono::steady_clock::time_point start)
      : options_(options), team_(team), start_(start) {}

  int run() {
    ContextAhead context(options_, team_);
    const Outcome loaded = load();
    context_ms_ = context.join();
    if (ends(loaded.code ? loaded : stopped_now())) return code_;
    if (options_.export_scene) return ends(export_scene()) ? code_ : kExitOk;
    if (ends(plan_outputs())) return code_;
    if (ends(read_resumed())) return code_;
    if (ends(keep_outputs_off_inputs())) return code_;
    if (ends(choose_executor())) return code_;
    if (ends(settle_settings())) return code_;
    if (ends(prepare_output_files())) return code_;
    if (!options_.quiet && team_.leader())
      for (const std::string& notice : unused_setting_notices(options_, settings_))
        std::cerr << "raystream: " << notice << "\n";
    settings_.stop_requested = [] { return stop_signal() != 0; };
    if (const Outcome stop = stopped_now(); stop.code != 0 && ends(stop)) return code_;
    if (ends(render_share())) return code_;
    // This process's checkpoint: with --checkpoint, and whenever a signal stopped the render (then
    // also without, unless the image has no "beside"). Its failure is a warning: the image is
    // what was asked for. Alone, the image is written first (it must not lose the disk's last
    // room to the checkpoint); in a team before the films are combined (each process writes its
    // own film).
    signal_ = stop_signal();
    if (team_.size() > 1) save_checkpoint();
    team_.combine(result_);
    result_.stats.startup.scene_ms = load_report_.times.total_ms;
    result_.stats.startup.obj_ms = load_report_.times.obj_ms;
    result_.stats.startup.meshes_ms = load_report_.times.meshes_ms;
    if (result_.stats.executor == ExecutorKind::gpu)
      result_.stats.startup.context_ms = context_ms_;
    const bool written = !ends(write_results());
    if (team_.size() == 1) {
      signal_ = stop_signal();  // one that came while the image was filtered or written counts
      save_checkpoint();
    }
    if (written) ends(print_results());
    // Stopped by a signal: what it rendered is written; the exit status says how it ended.
    if (code_ == 0 && signal_ != 0) return 128 + signal_;
    return code_;
  }

 private:
  // Settles a step's outcome across the team; true when the run ends here (code_ says how).
  bool ends(Outcome outcome) {
    code_ = settle(team_, outcome.code, std::move(outcome.message));
    return code_ != 0;
  }

  Outcome load() {
    try {
      std::vector<std::string> warnings;
      scene_ = load_scene(options_.scene, warnings, load_report_);
      for (const std::string& w : capped_warnings(warnings)) std::cerr << "warning: " << w << '\n';
      if (!options_.quiet && team_.leader())
        for (const std::string& notice : load_report_.notices)
          std::cerr << "raystream: " << notice << '\n';
    } catch (const StopRequested& e) {
      Outcome o = stopped_now();
      return o.code ? o : Outcome{kExitRuntimeError, e.what()};
    } catch (const SceneError& e) {
      return {kExitUsageError, e.what()};
    } catch (const std::bad_alloc&) {
      return {kExitRuntimeError, options_.scene + ": out of memory while loading the scene"};
    } catch (const std::exception& e) {
      return {kExitRuntimeError, options_.scene + ": " + e.what()};
    }
    return {};
  }

  // --export-scene DIR: the scene as loaded, written for other renderers instead of a render.
  Outcome export_scene() {
    try {
      if (team_.leader()) std::cout << write_scene_export(scene_, *options_.export_scene) << "\n";
    } catch (const std::exception& e) {
      return {kExitRuntimeError, e.what()};
    }
    return {};
  }

  // The image, the statistics and the checkpoint: their paths, and the image's format.
  Outcome plan_outputs() {
    output_ = output_path_for(scene_, options_);
    if (const std::string w = output_name_warning(scene_, options_); !w.empty() && team_.leader())
      std::cerr << "warning: " << w << '\n';
    stats_path_ = stats_path_for(options_);
    checkpoint_path_ = checkpoint_path_for(output_, team_.rank(), team_.size());
    try {
      format_ = output_format(output_, options_);
      check_output_paths(output_, stats_path_);
      if (options_.checkpoint_s && checkpoint_path_.empty())
        throw std::invalid_argument(output_ +
                                    ": --checkpoint writes beside the image, and this one is "
                                    "written through (name an image file)");
    } catch (const std::invalid_argument& e) {
      return {kExitUsageError, e.what()};
    }
    return {};
  }

  // A resumed render: the checkpoint of this process, checked against this render later.
  Outcome read_resumed() {
    resume_path_ =
        options_.resume ? resume_path_for(*options_.resume, team_.rank(), team_.size()) : "";
    try {
      InputFileLog log;
      if (options_.resume) resumed_ = read_checkpoint(resume_path_);
      resumed_file_ = log.files();
    } catch (const SceneError& e) {
      return {kExitUsageError, e.what()};
    } catch (const std::bad_alloc&) {
      return {kExitRuntimeError, resume_path_ + ": out of memory reading the checkpoint"};
    }
    return stopped_now();
  }

  // No output may replace a file the render reads (compared by device and inode): the image and
  // the statistics none at all, the checkpoint none but the one it resumes (its continuation).
  Outcome keep_outputs_off_inputs() {
    try {
      std::vector<SceneInput> inputs = scene_.inputs;
      check_outputs_are_not_inputs({{checkpoint_path_, "the checkpoint"}}, inputs);
      inputs.insert(inputs.end(), resumed_file_.begin(), resumed_file_.end());
      check_outputs_are_not_inputs({{output_, "the image"}, {stats_path_, "--stats"}}, inputs);
    } catch (const std::invalid_argument& e) {
      return {kExitUsageError, e.what()};
    }
    return {};
  }

  Outcome choose_executor() {
    devices_ = options_.devices;
    try {
      if (options_.all_devices) devices_ = all_gpu_devices();
      if (options_.device == DeviceChoice::cpu) {
        executor_ = ExecutorKind::cpu;
      } else if (!gpu_available()) {
        if (options_.device == DeviceChoice::gpu)
          throw std::runtime_error(
              "--device gpu: no usable CUDA device found (use --device cpu or auto)");
        executor_ = ExecutorKind::cpu;
        if (!options_.quiet && team_.leader())
          std::cerr << "raystream: no CUDA device found; rendering on the CPU\n";
      } else if (team_.size() > 1) {
        // One GPU per process: the process's rank on its host picks it (from --devices if given).
        if (devices_.empty()) devices_ = all_gpu_devices();
        devices_ = {devices_[std::size_t(team_.local_rank()) % devices_.size()]};
      }
    } catch (const std::exception& e) {
      return {kExitRuntimeError, e.what()};
    }
    return {};
  }

  // The render's settings and the key of its checkpoints; a resumed render takes its spp unless
  // --spp says otherwise, and the checkpoint's film.
  Outcome settle_settings() {
    settings_ = settings_for(scene_, options_, executor_);
    key_.version = RAYSTREAM_VERSION;
    key_.scene = options_.scene;
    key_.scene_hash = scene_fingerprint(scene_);
    key_.settings = image_settings(settings_);
    key_.process = team_.rank();
    key_.processes = team_.size();
    if (!options_.resume) return {};
    if (!options_.spp) settings_.spp = resumed_spp();
    key_.settings = image_settings(settings_);
    Outcome o = check_resumed();
    settings_.resume_at = resumed_.next_samples;
    settings_.initial_film = &resumed_.film;
    return o;
  }

  Outcome check_resumed() {
    const std::size_t shares = split_across_devices() ? devices_.size() : 1;
    try {
      check_checkpoint(resumed_, key_, resume_path_);
      if (resumed_.next_samples.size() != shares)
        throw SceneError(resume_path_ + ": a checkpoint of a render split into " +
                         std::to_string(resumed_.next_samples.size()) + " shares (this one has " +
                         std::to_string(shares) + "); resume it with as many devices");
      FilmLayers& layers = settings_.layers;
      const bool has_squares = !resumed_.film.squares.empty();
      const bool has_first_hits = !resumed_.film.first_hits.empty();
      if ((layers.squares && !has_squares) || (layers.first_hits && !has_first_hits))
        throw SceneError(resume_path_ + ": the checkpoint has no " +
                         (layers.squares && !has_squares ? "variance" : "first-hit") +
                         " layer for " +
                         (options_.aovs.any() ? "--aov " + aov_names(options_.aovs) : "--denoise") +
                         ": the render that began it kept none (a layer cannot be added to "
                         "samples already taken; render again with these options)");
      // Layers the checkpoint keeps go on being kept, asked for or not, so that its next
      // checkpoint can still resume with them.
      layers.squares = layers.squares || has_squares;
      layers.first_hits = layers.first_hits || has_first_hits;
    } catch (const SceneError& e) {
      return {kExitUsageError, e.what()};
    }
    return {};
  }

  // The samples per pixel of the render the checkpoint resumes (its key's --spp).
  int resumed_spp() const {
    for (const auto& [name, text] : resumed_.key.settings)
      if (name == kSppSettingName) return std::atoi(text.c_str());
    return settings_.spp;
  }

  bool split_across_devices() const {
    return executor_ == ExecutorKind::gpu && devices_.size() > 1;
  }

  // The image and the statistics must be writable before the render starts (a failure ends the
  // run); the checkpoint need not (a warning, and the render goes on without checkpoints).
  Outcome prepare_output_files() {
    try {
      if (team_.leader()) prepare_outputs(output_, stats_path_, options_, folder_);
    } catch (const std::exception& e) {
      return {kExitRuntimeError, e.what()};
    }
    if (checkpoint_path_.empty()) return {};
    try {
      remove_stale_temporaries(checkpoint_path_);
      check_writable(checkpoint_path_);
    } catch (const std::exception& e) {
      checkpoint_writable_ = false;
      if (options_.checkpoint_s) warn_checkpoint(std::string(e.what()) + "; rendering without");
    }
    return {};
  }

  // This process's share of the samples (all of them when it renders alone), rendered.
  Outcome render_share() {
    try {
      if (executor_ == ExecutorKind::cpu && !options_.spp && !options_.time_s && !options_.resume) {
        int spp = team_.leader() ? cpu_frames_for_budget(scene_, settings_, options_.quiet) : 0;
        settings_.spp = team_.broadcast(spp);
      }
      // The key is the whole render's; the settings then take this process's share.
      key_.settings = image_settings(settings_);
      const int first = share_first_sample(settings_, team_.rank(), team_.size());
      settings_.spp = share_first_sample(settings_, team_.rank() + 1, team_.size()) - first;
      settings_.first_sample = first;
      if (options_.checkpoint_s) {
        // A checkpoint that cannot be written is a warning: the render goes on.
        settings_.on_checkpoint = [this](const FilmState& film,
                                         const std::vector<std::uint64_t>& next) {
          try {
            write_checkpoint(checkpoint_path_, key_, film, next);
          } catch (const std::bad_alloc&) {
            warn_checkpoint(checkpoint_path_ + ": out of host memory writing the checkpoint");
          } catch (const std::exception& e) {
            warn_checkpoint(e.what());
          }
        };
      }
      ProgressBar progress(progress_wanted(options_.quiet) && team_.leader(),
                           static_cast<double>(settings_.width) * settings_.height);
      progress.set_budget(settings_.time_budget_s);
      settings_.on_progress = [&progress](int done, int total) { progress.update(done, total); };
      result_ = render_samples();
      result_.stats.first_sample = first;
      // Stopped before its first sample (while the BVH was built, say): nothing to write.
      if (stop_signal() != 0 && result_.stats.samples == 0 && settings_.spp > 0)
        return stopped_now();
    } catch (const StopRequested& e) {
      Outcome o = stopped_now();
      return o.code ? o : Outcome{kExitRuntimeError, e.what()};
    } catch (const std::bad_alloc&) {
      return {kExitRuntimeError, options_.scene + ": rendering failed: out of host memory"};
    } catch (const std::exception& e) {
      return {kExitRuntimeError, options_.scene + ": rendering failed: " + e.what()};
    }
    return {};
  }

  RenderResult render_samples() {
    if (settings_.spp == 0) return empty_share(settings_);
    if (split_across_devices()) return render_split(scene_, settings_, devices_);
    if (executor_ == ExecutorKind::gpu && devices_.size() == 1) set_gpu_device(devices_[0]);
    return render(scene_, settings_);
  }

  bool writes_checkpoint() const {
    return (options_.checkpoint_s || signal_ != 0) && !checkpoint_path_.empty() &&
           checkpoint_writable_;
  }

  // Writes this process's checkpoint when one is due; a failure is a warning.
  void save_checkpoint() {
    if (!writes_checkpoint()) return;
    try {
      write_checkpoint(checkpoint_path_, key_, result_.film, result_.next_samples);
      checkpoint_written_ = true;
    } catch (const std::bad_alloc&) {
      warn_checkpoint(checkpoint_path_ + ": out of host memory writing the checkpoint");
    } catch (const std::exception& e) {
      warn_checkpoint(e.what());
    }
  }

  void warn_checkpoint(const std::string& why) const {
    std::cerr << "raystream: warning: checkpoint not written: " << why << "\n";
  }

  // The leader's image and statistics, which land together or not at all.
  Outcome write_results() {
    try {
      if (!team_.leader()) return {};
      RunInfo& info = info_;
      info = run_info();
      // A render stopped by a signal is written as it is: the stop asked to end now.
      if (options_.denoise != DenoiseMode::off && signal_ == 0)
        denoised_ = denoise_image(result_, options_, info);
      if (options_.denoise != DenoiseMode::off && signal_ != 0)
        std::cerr << "raystream: stopped by a signal: the image is written unfiltered\n";
      const auto encode_start = std::chrono::steady_clock::now();
      std::vector<OutputFile> files = {{output_, encoded_image()}};
      info.encode_ms = milliseconds_since(encode_start);
      info.elapsed_ms = milliseconds_since(start_);
      if (!stats_path_.empty()) {
        const std::string json = stats_json(result_.stats, info);
        files.push_back({stats_path_, std::vector<unsigned char>(json.begin(), json.end())});
      }
      write_files_atomically(files);
      folder_.created = false;
    } catch (const std::bad_alloc&) {
      return {kExitRuntimeError, output_ + ": out of host memory encoding the image"};
    } catch (const std::exception& e) {
      return {kExitRuntimeError, e.what()};
    }
    return {};
  }

  // The leader's report, once the checkpoint is written or not: where the image or the
  // statistics go to stdout, the report keeps out of their way.
  Outcome print_results() {
    if (!team_.leader()) return {};
    RunInfo& info = info_;
    if (team_.size() == 1) info.checkpoint = checkpoint_written_ ? checkpoint_path_ : "";
    const bool stdout_taken =
        writes_to_stdout(output_) || (!stats_path_.empty() && writes_to_stdout(stats_path_));
    std::ostream& report = stdout_taken ? std::cerr : std::cout;
    print_report(report, result_.stats, info);
    report.flush();
    if (!report) return {kExitRuntimeError, "cannot write the report"};
    return {};
  }

  RunInfo run_info() const {
    RunInfo info;
    info.version = RAYSTREAM_VERSION;
    info.binary_backend = primitives_backend();
    info.scene = options_.scene;
    info.output = output_;
    info.seed = settings_.seed;
    info.resumed_from = resume_path_;
    if (writes_checkpoint()) info.checkpoint = checkpoint_path_;
    return info;
  }

  std::vector<unsigned char> encoded_image() const {
    if (format_ != ImageFormat::exr) return encode_image(result_.image, format_);
    if (denoised_) return encode_denoised_film_exr(result_.film, options_.aovs, result_.image);
    return encode_film_exr(result_.film, options_.aovs);
  }

  const Options& options_;
  Team& team_;
  std::chrono::steady_clock::time_point start_;
  int code_ = 0;
  int signal_ = 0;  // the stop signal caught by the end of the render (0: none)
  Scene scene_;
  LoadReport load_report_;
  double context_ms_ = 0.0;
  std::string output_, stats_path_, checkpoint_path_;
  ImageFormat format_ = ImageFormat::png;
  Checkpoint resumed_;
  std::string resume_path_;
  std::vector<SceneInput> resumed_file_;
  ExecutorKind executor_ = ExecutorKind::gpu;
  std::vector<int> devices_;
  RenderSettings settings_;
  CheckpointKey key_;                // the render a checkpoint belongs to
  bool checkpoint_writable_ = true;  // false: the checkpoint's place cannot be written
  RunInfo info_;                     // what the report says of the run
  bool denoised_ = false;            // the image was filtered (--denoise)
  bool checkpoint_written_ = false;
  CreatedFolder folder_;
  RenderResult result_;
};

}  // namespace

int main(int argc, char** argv) {
  const auto start = std::chrono::steady_clock::now();
  // First: a stop signal that comes while the process starts up is the render's to handle: it
  // stops the loading's long loops (core/stop_request.h) and the run ends before its first
  // sample, writing nothing.
  catch_stop_signals();
  set_stop_check([] { return stop_signal() != 0; });
  Team team(argc, argv);
  const std::string version =
      std::string("raystream ") + RAYSTREAM_VERSION +
      " (primitives backend: " + primitives_backend_name(primitives_backend()) + ")" +
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
    return Run(options, team, start).run();
  } catch (const std::exception& e) {
    // Not reached by a failure the processes agreed on; a process that ends here alone ends
    // the whole run.
    fail(kExitRuntimeError, e.what());
    team.abort(kExitRuntimeError);
    return kExitRuntimeError;
  }
}
