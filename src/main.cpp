// raystream: renders a JSON scene with the wavefront path tracer, writes the image and prints the
// per-bounce report. Run with --help for the options; the README documents them.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/progress.h"
#include "cli/sample_budget.h"
#include "film/atomic_file.h"
#include "film/image_output.h"
#include "integrator/render.h"
#include "scene/scene_loader.h"
#include "stats/report.h"

#ifndef RAYSTREAM_VERSION
#error "RAYSTREAM_VERSION must be defined by the build"
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
void prepare_outputs(const std::string& image_path, const Options& options, CreatedFolder& folder) {
  if (!options.output) {
    std::error_code ec;
    folder.created = std::filesystem::create_directories("renders", ec);
    if (ec) throw OutputError("renders: cannot create the output folder: " + ec.message());
  }
  check_writable(image_path);
  if (options.stats) check_writable(*options.stats);
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

int run(const Options& options) {
  Scene scene;
  try {
    scene = load_scene(options.scene);
  } catch (const SceneError& e) {
    return fail(kExitUsageError, e.what());
  } catch (const std::bad_alloc&) {
    return fail(kExitRuntimeError, options.scene + ": out of memory while loading the scene");
  } catch (const std::exception& e) {
    return fail(kExitRuntimeError, options.scene + ": " + e.what());
  }

  const std::string output = output_path_for(scene, options);
  if (!is_supported_image_path(output)) {
    return fail(kExitUsageError,
                output + ": unsupported image type (the output must end in .png or .hdr)");
  }

  if (options.stats && std::filesystem::path(*options.stats).lexically_normal() ==
                           std::filesystem::path(output).lexically_normal()) {
    return fail(kExitUsageError, output + ": --stats and the image output name the same file");
  }

  ExecutorKind executor = ExecutorKind::gpu;
  if (options.device == DeviceChoice::cpu) {
    executor = ExecutorKind::cpu;
  } else if (!gpu_available()) {
    if (options.device == DeviceChoice::gpu) {
      return fail(kExitRuntimeError,
                  "--device gpu: no usable CUDA device found (use --device cpu or auto)");
    }
    executor = ExecutorKind::cpu;
    if (!options.quiet) std::cerr << "raystream: no CUDA device found; rendering on the CPU\n";
  }

  CreatedFolder folder;
  try {
    prepare_outputs(output, options, folder);
  } catch (const std::exception& e) {
    return fail(kExitRuntimeError, e.what());
  }

  RenderSettings settings = settings_for(scene, options, executor);
  RenderResult result;
  try {
    if (executor == ExecutorKind::cpu && !options.spp) {
      settings.spp = cpu_frames_for_budget(scene, settings, options.quiet);
    }
    ProgressBar progress(progress_wanted(options.quiet),
                         static_cast<double>(settings.width) * settings.height);
    settings.on_progress = [&progress](int done, int total) { progress.update(done, total); };
    std::vector<int> devices = options.devices;
    if (options.all_devices) devices = all_gpu_devices();
    if (executor == ExecutorKind::gpu && devices.size() > 1) {
      result = render_split(scene, settings, devices);
    } else {
      if (executor == ExecutorKind::gpu && devices.size() == 1) set_gpu_device(devices[0]);
      result = render(scene, settings);
    }
  } catch (const std::bad_alloc&) {
    return fail(kExitRuntimeError, options.scene + ": rendering failed: out of host memory");
  } catch (const std::exception& e) {
    return fail(kExitRuntimeError, options.scene + ": rendering failed: " + e.what());
  }

  try {
    RunInfo info;
    info.version = RAYSTREAM_VERSION;
    info.binary_backend = primitives_backend_name();
    info.scene = options.scene;
    info.output = output;
    info.seed = settings.seed;
    info.sort_by_material = settings.sort_by_material;
    info.compact = settings.compact;
    // The image and the statistics land together or not at all.
    std::vector<OutputFile> files = {{output, encode_image(result.image, output)}};
    if (options.stats) {
      const std::string json = stats_json(result.stats, info);
      files.push_back({*options.stats, std::vector<unsigned char>(json.begin(), json.end())});
    }
    write_files_atomically(files);
    folder.created = false;
    print_report(std::cout, result.stats, info);
  } catch (const std::exception& e) {
    return fail(kExitRuntimeError, e.what());
  }
  std::cout.flush();
  if (!std::cout) return fail(kExitRuntimeError, "cannot write the report to stdout");
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string version = std::string("raystream ") + RAYSTREAM_VERSION +
                              " (primitives backend: " + primitives_backend_name() + ")";
  Options options;
  if (const auto code = parse_options(argc, argv, version, options, std::cout, std::cerr)) {
    return *code;
  }
  try {
    return run(options);
  } catch (const std::exception& e) {
    return fail(kExitRuntimeError, e.what());
  }
}
