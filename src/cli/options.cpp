#include "cli/options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "scene/scene_loader.h"

namespace raystream {
namespace {

bool on_off(const std::string& value) {
  return value == "on";
}

const char* kDescription =
    "raystream: a wavefront path tracer. Renders SCENE.json (the CUDA path tracer course's JSON\n"
    "format: Materials, Camera, Objects): a pool of paths traced wave by wave, the ended paths\n"
    "removed with the project's parallel primitives and their slots refilled with new samples;\n"
    "writes the image and prints a report (paths per depth and wave, ms per stage) on stdout.\n"
    "Exit codes: 0 ok, 1 rendering or writing failed, 2 bad command line or bad scene.";

}  // namespace

std::pair<int, int> parse_resolution(const std::string& text) {
  const std::size_t x = text.find_first_of("xX");
  const auto all_digits = [](const std::string& s) {
    return !s.empty() && s.size() <= 9 &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
  };
  if (x == std::string::npos || !all_digits(text.substr(0, x)) || !all_digits(text.substr(x + 1))) {
    throw std::invalid_argument("expected WIDTHxHEIGHT such as 1920x1080, got '" + excerpt(text) +
                                "'");
  }
  const long long w = std::stoll(text.substr(0, x));
  const long long h = std::stoll(text.substr(x + 1));
  if (w <= 0 || h <= 0) throw std::invalid_argument("width and height must be positive");
  if (w > kMaxImageSide || h > kMaxImageSide || w * h > kMaxImagePixels) {
    throw std::invalid_argument(text + " is too large (at most " + std::to_string(kMaxImageSide) +
                                " per side and " + std::to_string(kMaxImagePixels) + " pixels)");
  }
  return {static_cast<int>(w), static_cast<int>(h)};
}

void parse_devices(const std::string& text, Options& options) {
  options.devices.clear();
  options.all_devices = text == "all";
  if (options.all_devices) return;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    if (item.empty() || item.size() > 4 ||
        !std::all_of(item.begin(), item.end(), [](unsigned char c) { return std::isdigit(c); }))
      throw std::invalid_argument("expected all or device numbers such as 0,1, got '" +
                                  excerpt(text) + "'");
    const int device = std::stoi(item);
    if (std::find(options.devices.begin(), options.devices.end(), device) != options.devices.end())
      throw std::invalid_argument("device " + item + " is named twice");
    options.devices.push_back(device);
    start = comma + 1;
  }
}

std::uint64_t parse_seed(const std::string& text) {
  const bool digits =
      !text.empty() && text.size() <= 20 &&
      std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
  // 2^64 - 1 has 20 digits: compare as text to stay clear of strtoull's wrap-around for "-1".
  const std::string largest = "18446744073709551615";
  if (!digits || (text.size() == largest.size() && text > largest)) {
    throw std::invalid_argument("expected an integer from 0 to " + largest + ", got '" +
                                excerpt(text) + "'");
  }
  return std::stoull(text);
}

std::optional<int> parse_options(int argc, const char* const* argv, const std::string& version,
                                 Options& options, std::ostream& out, std::ostream& err) {
  CLI::App app(kDescription, "raystream");
  app.set_version_flag("--version", version, "Print the version and the primitives backend");

  app.add_option("scene", options.scene, "Scene file (JSON)")->required();
  int spp = 0, depth = 0;
  std::string resolution, output, schedule, timing, sort, compact, bvh, device = "auto", stats,
                                                                        seed;
  std::size_t pool = 0;
  auto* spp_opt = app.add_option("--spp", spp,
                                 "Samples per pixel (frames); default: the scene's ITERATIONS, or "
                                 "on the CPU a count that takes about a minute")
                      ->check(CLI::Range(1, kMaxIterations));
  auto* depth_opt =
      app.add_option("--depth", depth, "Maximum bounces per path; default: the scene's DEPTH")
          ->check(CLI::Range(1, kMaxDepth));
  auto* res_opt =
      app.add_option("--resolution", resolution,
                     "Image size WIDTHxHEIGHT, e.g. 1920x1080; default: the scene's RES");
  auto* output_opt = app.add_option("--output,-o", output,
                                    "Image file, .png (tone mapped sRGB) or .hdr (linear "
                                    "Radiance); default: renders/<Camera.FILE>.png");
  const RenderSettings defaults;
  auto* schedule_opt =
      app.add_option("--schedule", schedule,
                     "stream: a pool of path slots refilled with new samples as paths end; "
                     "frame: one sample per pixel per frame, bounce by bounce; megakernel: one "
                     "thread per sample traces the whole path (the baseline) (default: " +
                         std::string(schedule_name(defaults.schedule)) + ")")
          ->check(CLI::IsMember({"stream", "frame", "megakernel"}));
  auto* pool_opt = app.add_option("--pool", pool,
                                  "Path slots of the stream schedule (default: enough to fill the "
                                  "GPU, 2^18 on the CPU)")
                       ->check(CLI::Range(std::size_t(1), kMaxPathPool));
  auto* timing_opt =
      app.add_option("--stage-timing", timing,
                     "Stage times in the report: sampled (every 16th wave or frame), all, or off "
                     "(default: sampled)")
          ->check(CLI::IsMember({"sampled", "all", "off"}));
  std::string integrator;
  auto* integrator_opt =
      app.add_option("--integrator", integrator,
                     "path: next-event estimation (a shadow ray to a light at every non-specular "
                     "bounce) combined with BSDF sampling by multiple importance sampling; bsdf: "
                     "BSDF sampling only, light found by hitting it (default: path)")
          ->check(CLI::IsMember({"path", "bsdf"}));
  const auto on_off_text = [](bool v) { return std::string(v ? "on" : "off"); };
  auto* sort_opt = app.add_option("--sort-by-material", sort,
                                  "Sort live paths by material before shading: on (radix sort), "
                                  "multisplit (a stable partition into up to 32 material queues, "
                                  "the same order) or off (default: " +
                                      on_off_text(defaults.sort_by_material) + ")")
                       ->check(CLI::IsMember({"on", "off", "multisplit"}));
  auto* compact_opt = app.add_option("--compact", compact,
                                     "Frame schedule: remove dead paths after every bounce "
                                     "(default: " +
                                         on_off_text(defaults.compact) + ")")
                          ->check(CLI::IsMember({"on", "off"}));
  auto* bvh_opt =
      app.add_option("--bvh", bvh,
                     "The BVH: gpu builds it on the executor from sorted Morton codes (LBVH; on "
                     "--device cpu the same stages run as OpenMP loops), sah builds it on the host "
                     "with the surface area heuristic, auto takes gpu on the GPU and sah on the "
                     "CPU for scenes of " +
                         std::to_string(defaults.bvh_min_primitives) +
                         " primitives or more, off never builds one (every ray tests every "
                         "primitive, to measure the speedup); on is sah, as before (default: auto)")
          ->check(CLI::IsMember({"auto", "gpu", "sah", "off", "on"}));
  auto* seed_opt = app.add_option("--seed", seed,
                                  "Random seed, 0 to 2^64-1 (default: 0); same seed, same image");
  app.add_option("--device", device,
                 "gpu: CUDA device, error without one; cpu: the CPU executor (OpenMP); auto "
                 "(default): the GPU if present, else the CPU with a notice")
      ->check(CLI::IsMember({"gpu", "cpu", "auto"}));
  std::string devices;
  auto* devices_opt = app.add_option(
      "--devices", devices,
      "GPUs to split the samples across: all, or a list of CUDA device numbers such as 0,1 "
      "(default: the first GPU)");
  auto* stats_opt =
      app.add_option("--stats", stats, "Also write the report's numbers as JSON to this file");
  app.add_flag("--quiet,-q", options.quiet,
               "No progress bar and no notices on stderr (the report still goes to stdout)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {
      app.exit(e, out, err);  // --help or --version
      return kExitOk;
    }
    // One line, however CLI11 words it.
    err << "raystream: error: " << excerpt(e.what(), kMaxMessage) << " (see --help)\n";
    return kExitUsageError;
  }

  if (*spp_opt) options.spp = spp;
  if (*depth_opt) options.depth = depth;
  if (*res_opt) {
    try {
      options.resolution = parse_resolution(resolution);
    } catch (const std::invalid_argument& e) {
      err << "raystream: error: --resolution: " << excerpt(e.what(), kMaxMessage) << "\n";
      return kExitUsageError;
    }
  }
  if (*seed_opt) {
    try {
      options.seed = parse_seed(seed);
    } catch (const std::invalid_argument& e) {
      err << "raystream: error: --seed: " << e.what() << "\n";
      return kExitUsageError;
    }
  }
  if (*output_opt) options.output = output;
  if (*schedule_opt)
    options.schedule = schedule == "frame"        ? Schedule::frame
                       : schedule == "megakernel" ? Schedule::megakernel
                                                  : Schedule::stream;
  if (*pool_opt) options.pool = pool;
  if (*timing_opt)
    options.timing = timing == "all"   ? StageTiming::all
                     : timing == "off" ? StageTiming::off
                                       : StageTiming::sampled;
  if (*sort_opt) {
    options.sort_by_material = sort != "off";
    options.material_multisplit = sort == "multisplit";
  }
  if (*integrator_opt) options.nee = integrator == "path";
  if (*compact_opt) options.compact = on_off(compact);
  if (*bvh_opt) options.bvh = bvh;
  options.device = device == "gpu"   ? DeviceChoice::gpu
                   : device == "cpu" ? DeviceChoice::cpu
                                     : DeviceChoice::automatic;
  if (*stats_opt) options.stats = stats;
  if (*devices_opt) {
    try {
      parse_devices(devices, options);
    } catch (const std::invalid_argument& e) {
      err << "raystream: error: --devices: " << e.what() << "\n";
      return kExitUsageError;
    }
  }
  return std::nullopt;
}

RenderSettings settings_for(const Scene& scene, const Options& options, ExecutorKind executor) {
  RenderSettings s;
  s.spp = options.spp.value_or(scene.iterations);
  s.depth = options.depth.value_or(scene.depth);
  s.width = options.resolution ? options.resolution->first : scene.camera.width;
  s.height = options.resolution ? options.resolution->second : scene.camera.height;
  s.schedule = options.schedule.value_or(s.schedule);
  s.pool = options.pool.value_or(s.pool);
  s.timing = options.timing.value_or(s.timing);
  s.sort_by_material = options.sort_by_material.value_or(s.sort_by_material);
  s.material_multisplit = options.material_multisplit.value_or(s.material_multisplit);
  s.compact = options.compact.value_or(s.compact);
  s.nee = options.nee.value_or(s.nee);
  // sah and gpu build a BVH whatever the scene's size; on (the option's old "always") is sah.
  if (options.bvh == std::string("off")) s.use_bvh = false;
  if (options.bvh == std::string("sah") || options.bvh == std::string("on")) {
    s.bvh_builder = BvhBuilder::sah;
    s.bvh_min_primitives = 0;
  }
  if (options.bvh == std::string("gpu")) {
    s.bvh_builder = BvhBuilder::lbvh;
    s.bvh_min_primitives = 0;
  }
  s.seed = options.seed;
  s.executor = executor;
  return s;
}

std::string output_path_for(const Scene& scene, const Options& options) {
  if (options.output) return *options.output;
  // Camera.FILE is a name, not a path: keep its last component only.
  std::string name = scene.output_name.substr(scene.output_name.find_last_of('/') + 1);
  if (name.empty() || name == "." || name == "..") name = "render";
  const auto ends_with = [&](const char* suffix) {
    const std::string s(suffix);
    return name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  if (!ends_with(".png") && !ends_with(".hdr")) name += ".png";
  return "renders/" + name;
}

}  // namespace raystream
