#include "cli/options.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#include "core/excerpt.h"
#include "io/files/atomic_file.h"
#include "scene/scene_limits.h"

namespace raystream {
namespace {

const char* kDescription =
    "raystream: a wavefront path tracer. Renders SCENE.json (the CUDA path tracer course's JSON\n"
    "format: Materials, Camera, Objects), or a glTF 2.0 asset (.gltf, .glb) or an OBJ model\n"
    "(.obj) alone: a pool of paths traced wave by wave, the ended paths removed with the\n"
    "project's parallel primitives and their slots refilled with new samples; writes the image\n"
    "and prints a report (paths per depth and wave, ms per stage) on stdout.\n"
    "Exit codes: 0 ok, 1 rendering or writing failed, 2 bad command line or bad scene, 130 and\n"
    "143 stopped by SIGINT and SIGTERM.";

// CLI11's check that a value is one of an enum's names (its table, core/enum_names.h).
template <std::size_t N>
CLI::IsMember one_of(const char* const (&names)[N]) {
  return CLI::IsMember(std::vector<std::string>(names, names + N));
}

// The value of an enum that `name` names, CLI11 having checked that it is one of them.
template <class Enum, std::size_t N>
Enum named(const std::string& name, const char* const (&names)[N]) {
  return enum_named<Enum>(name, names).value_or(Enum{});
}

// "--spp: given twice (give each option once)" for the first option that takes a value and is
// given more than once ("--output: given twice (as -o and --output) ..." under its two names),
// else "". Looks at the arguments before a "--" only, and skips each option's value.
std::string option_given_twice(CLI::App& app, int argc, const char* const* argv) {
  std::map<const CLI::Option*, std::string> first_name;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') continue;
    const std::string name = arg.substr(0, arg.find('='));
    const CLI::Option* option = app.get_option_no_throw(name);
    if (option == nullptr || option->get_type_size_max() == 0) continue;  // unknown, or a flag
    const auto [seen, first] = first_name.emplace(option, name);
    if (!first) {
      const std::string as =
          seen->second == name ? "" : " (as " + seen->second + " and " + name + ")";
      return option->get_name() + ": given twice" + as + " (give each option once)";
    }
    if (arg.find('=') == std::string::npos) ++i;  // its value
  }
  return "";
}

}  // namespace

std::uint64_t parse_integer(const std::string& text, std::uint64_t min, std::uint64_t max) {
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(),
                                                   [](unsigned char c) { return std::isdigit(c); });
  if (!digits) {
    throw std::invalid_argument("'" + excerpt(text) +
                                "' is not an integer (decimal digits only, such as 16)");
  }
  // Past leading zeros, more than 20 digits is beyond 2^64 - 1; up to 20, compare as text so
  // that nothing wraps around.
  const std::string value = text.substr(std::min(text.find_first_not_of('0'), text.size() - 1));
  const std::string largest = std::to_string(max);
  const bool above =
      value.size() > largest.size() || (value.size() == largest.size() && value > largest);
  if (above || std::stoull(value) < min) {
    throw std::invalid_argument(excerpt(text) + " is out of range (" + std::to_string(min) +
                                " to " + largest + ")");
  }
  return std::stoull(value);
}

std::pair<int, int> parse_resolution(const std::string& text) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos) {
    throw std::invalid_argument("expected WIDTHxHEIGHT such as 1920x1080, got '" + excerpt(text) +
                                "'");
  }
  const auto side = [&](const std::string& part, const char* name) {
    try {
      return static_cast<int>(parse_integer(part, 1, kMaxImageSide));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string(name) + ": " + e.what());
    }
  };
  const int w = side(text.substr(0, x), "width");
  const int h = side(text.substr(x + 1), "height");
  if (static_cast<long long>(w) * h > kMaxImagePixels) {
    throw std::invalid_argument(text + " is too large (at most " + std::to_string(kMaxImagePixels) +
                                " pixels)");
  }
  return {w, h};
}

void parse_devices(const std::string& text, Options& options) {
  options.devices.clear();
  options.all_devices = text == "all";
  if (options.all_devices) return;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    int device = 0;
    try {
      device = static_cast<int>(parse_integer(item, 0, kMaxDeviceNumber));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("expected all or device numbers such as 0,1: " +
                                  std::string(e.what()));
    }
    if (std::find(options.devices.begin(), options.devices.end(), device) != options.devices.end())
      throw std::invalid_argument("device " + item + " is named twice");
    options.devices.push_back(device);
    start = comma + 1;
  }
}

namespace {

// The command line as given: each option's text (numbers too are read as text and parsed by
// parse_integer: one rule for every numeric option), and the option, which tells whether it was
// given.
struct GivenOptions {
  std::string spp, depth, pool, seed, resolution, output, format, schedule, timing, shade, sort,
      compact, bvh, stats, aov, time_s, checkpoint_s, resume, denoise, integrator, devices,
      export_scene;
  std::string device = enum_name(DeviceChoice::automatic, kDeviceChoiceNames);
  CLI::Option *spp_opt, *depth_opt, *res_opt, *output_opt, *format_opt, *aov_opt, *denoise_opt,
      *time_opt, *checkpoint_opt, *resume_opt, *schedule_opt, *pool_opt, *timing_opt,
      *integrator_opt, *shade_opt, *sort_opt, *compact_opt, *bvh_opt, *seed_opt, *devices_opt,
      *stats_opt, *export_opt;
};

// The scene, and the image's size and samples.
void add_image_options(CLI::App& app, Options& options, GivenOptions& g) {
  app.add_option("scene", options.scene,
                 "The scene: a JSON scene file, or a glTF 2.0 asset (.gltf, .glb) or an OBJ "
                 "model (.obj) rendered whole")
      ->required();
  g.spp_opt = app.add_option("--spp", g.spp,
                             "Samples per pixel (frames), 1 to " + std::to_string(kMaxIterations) +
                                 "; default: the scene's ITERATIONS, or on the CPU a count "
                                 "that takes about a minute");
  g.depth_opt = app.add_option("--depth", g.depth,
                               "Maximum bounces per path, 1 to " + std::to_string(kMaxDepth) +
                                   "; default: the scene's DEPTH");
  g.res_opt = app.add_option("--resolution", g.resolution,
                             "Image size WIDTHxHEIGHT, e.g. 1920x1080; default: the scene's RES");
}

// The image file, its format and layers, the denoiser.
void add_output_options(CLI::App& app, GivenOptions& g) {
  g.output_opt = app.add_option("--output,-o", g.output,
                                "Image file, .png (tone mapped sRGB), .hdr (linear "
                                "Radiance RGBE), .pfm (linear 32-bit float) or .exr (linear "
                                "32-bit float OpenEXR, with --aov layers), or - for "
                                "stdout; default: renders/<Camera.FILE>.png");
  g.format_opt = app.add_option("--format", g.format,
                                "png, hdr, pfm or exr: the image format of an output whose name "
                                "does not end in .png, .hdr, .pfm or .exr (-, /dev/stdout, a FIFO)")
                     ->check(one_of(kImageFormatNames));
  g.aov_opt = app.add_option(
      "--aov", g.aov,
      "EXR output: layers beside the beauty, any of albedo,normal,depth,variance (first-hit "
      "albedo and shading normal, distance to the first hit, variance of the pixel's mean)");
  g.denoise_opt = app.add_flag(
      "--denoise", g.denoise,
      "Filter the image before it is written: the built-in edge-avoiding a-trous filter, "
      "guided by the first hit's albedo, normal and depth, on the GPU when the render ran there; "
      "--denoise=radiance filters the radiance rather than radiance over albedo (EXR: the noisy "
      "image is kept as the layer noisy.R, noisy.G, noisy.B)");
}

// The time budget, checkpoints and resuming.
void add_budget_options(CLI::App& app, GivenOptions& g) {
  g.time_opt = app.add_option("--time", g.time_s,
                              "Render for this many seconds (1 to " + std::to_string(kMaxSeconds) +
                                  "): no sample starts after it; the image is each pixel's "
                                  "mean over the samples it got (with --spp: at most those)");
  g.checkpoint_opt =
      app.add_option("--checkpoint", g.checkpoint_s,
                     "Every SECONDS (1 to " + std::to_string(kMaxSeconds) +
                         ") write a checkpoint beside the image (<image>.checkpoint) to resume "
                         "from; SIGINT or SIGTERM write one whatever this says");
  g.resume_opt = app.add_option("--resume", g.resume,
                                "Go on from this checkpoint (of the same scene, size, spp, "
                                "depth, seed and integrator) to the end of its render");
}

// How the paths are scheduled, shaded and compacted, the integrator and the BVH.
void add_schedule_options(CLI::App& app, GivenOptions& g) {
  const RenderSettings defaults;
  g.schedule_opt =
      app.add_option("--schedule", g.schedule,
                     "stream: a pool of path slots refilled with new samples as paths end; "
                     "frame: one sample per pixel per frame, bounce by bounce; megakernel: one "
                     "thread per sample traces the whole path (the baseline) (default: " +
                         std::string(schedule_name(defaults.schedule)) + ")")
          ->check(one_of(kScheduleNames));
  g.pool_opt = app.add_option("--pool", g.pool,
                              "Path slots of the stream schedule, 1 to 2^30 (default: enough "
                              "to fill the GPU, 2^18 on the CPU)");
  g.timing_opt =
      app.add_option("--stage-timing", g.timing,
                     "Stage times in the report: sampled (every 16th wave or frame), all, or off "
                     "(default: sampled)")
          ->check(one_of(kStageTimingNames));
  g.integrator_opt =
      app.add_option("--integrator", g.integrator,
                     "path: next-event estimation (a shadow ray to a light at every non-specular "
                     "bounce) combined with BSDF sampling by multiple importance sampling; bsdf: "
                     "BSDF sampling only, light found by hitting it (default: path)")
          ->check(one_of(kIntegratorNames));
  const auto on_off_text = [](bool v) {
    return std::string(kSortChoiceNames[int(v ? SortChoice::on : SortChoice::off)]);
  };
  g.shade_opt =
      app.add_option("--shade", g.shade,
                     "Wavefronts: queues splits the live paths into one queue per BSDF lobe kind "
                     "(the multisplit) and shades each with a kernel of that lobe alone; single "
                     "shades every path in one kernel; auto: queues in the stream schedule for "
                     "scenes of many kinds of material (default: " +
                         std::string(shade_mode_name(defaults.shade)) + ")")
          ->check(one_of(kShadeModeNames));
  g.sort_opt = app.add_option("--sort-by-material", g.sort,
                              "With --shade single: sort live paths by material before "
                              "shading: on (radix sort), multisplit (a stable partition into "
                              "up to 32 material queues, the same order) or off (default: " +
                                  on_off_text(defaults.sort_by_material) + ")")
                   ->check(one_of(kSortChoiceNames));
  g.compact_opt =
      app.add_option("--compact", g.compact,
                     "How ended paths are removed: on (the schedule's way: the stream schedule "
                     "fuses it into the shade stage, the frame schedule compacts after every "
                     "bounce), fused (stream: the shade stage writes the paths that go on "
                     "compacted, at slots reserved by a block-wide scan: the own BlockReserve, "
                     "or CUB's BlockScan in raystream-thrust), separate (a compaction pass "
                     "over the path ids, then the survivors moved), off (frame schedule only) "
                     "(default: on)")
          ->check(one_of(kCompactChoiceNames));
  g.bvh_opt =
      app.add_option("--bvh", g.bvh,
                     "The BVH: gpu builds it on the executor from sorted Morton codes (LBVH; on "
                     "--device cpu the same stages run as OpenMP loops), sah builds it on the host "
                     "with the surface area heuristic, auto takes gpu on the GPU and sah on the "
                     "CPU for scenes of " +
                         std::to_string(defaults.bvh_min_primitives) +
                         " primitives or more, off never builds one (every ray tests every "
                         "primitive, to measure the speedup); on is sah, as before (default: auto)")
          ->check(one_of(kBvhChoiceNames));
}

// The seed, the devices, the statistics file and the notices.
void add_run_options(CLI::App& app, Options& options, GivenOptions& g) {
  g.seed_opt = app.add_option("--seed", g.seed,
                              "Random seed, 0 to 2^64-1 (default: 0); same seed, same image");
  app.add_option("--device", g.device,
                 "gpu: CUDA device, error without one; cpu: the CPU executor (OpenMP); auto "
                 "(default): the GPU if present, else the CPU with a notice")
      ->check(one_of(kDeviceChoiceNames));
  g.devices_opt = app.add_option(
      "--devices", g.devices,
      "GPUs to split the samples across: all, or a list of CUDA device numbers such as 0,1 "
      "(default: the first GPU)");
  g.stats_opt = app.add_option("--stats", g.stats,
                               "Also write the report's numbers as JSON to this file (.json), "
                               "or - for stdout");
  app.add_flag("--quiet,-q", options.quiet,
               "No progress bar and no notices on stderr (warnings, errors and the report "
               "stay)");
  g.export_opt = app.add_option(
      "--export-scene", g.export_scene,
      "Render nothing: write the scene as loaded into this folder (scene.json, meshes/*.ply, "
      "textures/*.pfm) for other renderers, print one line and exit");
}

// The numeric options, each through parse_integer, and the other options with a syntax of their
// own (--resolution, --aov, --denoise, --devices). Returns the message of the first that is
// wrong, "" when none is.
std::string read_values(const GivenOptions& g, Options& options) {
  const struct {
    CLI::Option* option;
    const std::string& text;
    std::uint64_t min, max;
    std::function<void(std::uint64_t)> set;
  } numbers[] = {
      {g.spp_opt, g.spp, 1, kMaxIterations, [&](std::uint64_t v) { options.spp = int(v); }},
      {g.depth_opt, g.depth, 1, kMaxDepth, [&](std::uint64_t v) { options.depth = int(v); }},
      {g.pool_opt, g.pool, 1, kMaxPathPool,
       [&](std::uint64_t v) { options.pool = std::size_t(v); }},
      {g.seed_opt, g.seed, 0, UINT64_MAX, [&](std::uint64_t v) { options.seed = v; }},
      {g.time_opt, g.time_s, 1, kMaxSeconds, [&](std::uint64_t v) { options.time_s = int(v); }},
      {g.checkpoint_opt, g.checkpoint_s, 1, kMaxSeconds,
       [&](std::uint64_t v) { options.checkpoint_s = int(v); }},
  };
  for (const auto& n : numbers) {
    if (!*n.option) continue;
    try {
      n.set(parse_integer(n.text, n.min, n.max));
    } catch (const std::invalid_argument& e) {
      return n.option->get_name() + ": " + e.what();
    }
  }
  try {
    if (*g.res_opt) options.resolution = parse_resolution(g.resolution);
  } catch (const std::invalid_argument& e) {
    return "--resolution: " + excerpt(e.what(), kMaxMessage);
  }
  try {
    if (*g.aov_opt) options.aovs = parse_aovs(g.aov);
  } catch (const std::invalid_argument& e) {
    return std::string("--aov: ") + e.what();
  }
  if (*g.denoise_opt) {
    // A bare --denoise sets the flag's text to "true".
    const std::optional<DenoiseMode> mode =
        enum_named<DenoiseMode>(g.denoise == "true" ? "irradiance" : g.denoise, kDenoiseModeNames);
    if (!mode || *mode == DenoiseMode::off)
      return "--denoise: '" + excerpt(g.denoise, kMaxMessage) +
             "' is not a mode (--denoise, --denoise=irradiance or --denoise=radiance)";
    options.denoise = *mode;
  }
  return "";
}

// A path option given as "": its name and what it wants, or "" when none is.
std::string empty_path(const GivenOptions& g) {
  const struct {
    CLI::Option* option;
    const std::string& text;
    const char* wants;
  } paths[] = {{g.output_opt, g.output, "the image file, or - for stdout"},
               {g.stats_opt, g.stats, "a .json file, or - for stdout"},
               {g.resume_opt, g.resume, "the checkpoint to go on from"}};
  for (const auto& p : paths)
    if (*p.option && p.text.empty())
      return p.option->get_name() + ": an empty path (name " + p.wants + ")";
  return "";
}

// The options that name a choice (CLI11 has checked the names) and the paths.
void read_choices(const GivenOptions& g, Options& options) {
  if (*g.resume_opt) options.resume = g.resume;
  if (*g.output_opt) options.output = g.output;
  if (*g.format_opt) options.format = g.format;
  if (*g.schedule_opt) options.schedule = named<Schedule>(g.schedule, kScheduleNames);
  if (*g.timing_opt) options.timing = named<StageTiming>(g.timing, kStageTimingNames);
  if (*g.shade_opt) options.shade = named<ShadeMode>(g.shade, kShadeModeNames);
  if (*g.sort_opt) {
    const SortChoice sort = named<SortChoice>(g.sort, kSortChoiceNames);
    options.sort_by_material = sort != SortChoice::off;
    options.material_multisplit = sort == SortChoice::multisplit;
  }
  if (*g.integrator_opt) options.nee = g.integrator == integrator_name(true);
  if (*g.compact_opt) {
    const CompactChoice compact = named<CompactChoice>(g.compact, kCompactChoiceNames);
    options.compact = compact != CompactChoice::off;
    if (compact == CompactChoice::fused || compact == CompactChoice::separate)
      options.fused_compaction = compact == CompactChoice::fused;
  }
  if (*g.bvh_opt) options.bvh = named<BvhChoice>(g.bvh, kBvhChoiceNames);
  options.device = named<DeviceChoice>(g.device, kDeviceChoiceNames);
  if (*g.stats_opt) options.stats = g.stats;
  if (*g.export_opt) options.export_scene = g.export_scene;
}

}  // namespace

std::optional<int> parse_options(int argc, const char* const* argv, const std::string& version,
                                 Options& options, std::ostream& out, std::ostream& err) {
  CLI::App app(kDescription, "raystream");
  app.set_version_flag("--version", version, "Print the version and the primitives backend");
  GivenOptions given;
  add_image_options(app, options, given);
  add_output_options(app, given);
  add_budget_options(app, given);
  add_schedule_options(app, given);
  add_run_options(app, options, given);

  // --help and --version win wherever they stand, whatever else the line holds.
  for (int i = 1; i < argc && std::string(argv[i]) != "--"; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      out << app.help();
      return kExitOk;
    }
    if (arg == "--version") {
      out << version << "\n";
      return kExitOk;
    }
  }
  // An option of a value given twice: our words, naming it (CLI11's are "At Most 1 required but
  // received 2").
  if (const std::string twice = option_given_twice(app, argc, argv); !twice.empty()) {
    err << "raystream: error: " << twice << "\n";
    return kExitUsageError;
  }
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
  if (std::string wrong = read_values(given, options);
      !wrong.empty() || !(wrong = empty_path(given)).empty()) {
    err << "raystream: error: " << wrong << "\n";
    return kExitUsageError;
  }
  read_choices(given, options);
  if (*given.devices_opt) {
    try {
      parse_devices(given.devices, options);
    } catch (const std::invalid_argument& e) {
      err << "raystream: error: --devices: " << e.what() << "\n";
      return kExitUsageError;
    }
  }
  return std::nullopt;
}

RenderSettings settings_for(const Scene& scene, const Options& options, ExecutorKind executor) {
  RenderSettings s;
  s.spp = options.spp.value_or(options.time_s ? kMaxIterations : scene.iterations);
  s.depth = options.depth.value_or(scene.depth);
  s.width = options.resolution ? options.resolution->first : scene.camera.width;
  s.height = options.resolution ? options.resolution->second : scene.camera.height;
  s.schedule = options.schedule.value_or(s.schedule);
  s.pool = options.pool.value_or(s.pool);
  s.timing = options.timing.value_or(s.timing);
  s.shade = options.shade.value_or(s.shade);
  s.sort_by_material = options.sort_by_material.value_or(s.sort_by_material);
  s.material_multisplit = options.material_multisplit.value_or(s.material_multisplit);
  s.compact = options.compact.value_or(s.compact);
  if (options.fused_compaction)
    s.compaction = *options.fused_compaction ? Compaction::fused : Compaction::separate;
  s.nee = options.nee.value_or(s.nee);
  // sah and gpu build a BVH whatever the scene's size; on (the option's old "always") is sah.
  if (options.bvh == BvhChoice::off) s.use_bvh = false;
  if (options.bvh == BvhChoice::sah || options.bvh == BvhChoice::on) {
    s.bvh_builder = BvhBuilder::sah;
    s.bvh_min_primitives = 0;
  }
  if (options.bvh == BvhChoice::gpu) {
    s.bvh_builder = BvhBuilder::lbvh;
    s.bvh_min_primitives = 0;
  }
  s.seed = options.seed;
  s.executor = executor;
  s.layers = film_layers_for(options.aovs);
  if (options.denoise != DenoiseMode::off) s.layers.first_hits = true;  // the filter's guides
  s.time_budget_s = options.time_s.value_or(0);
  s.checkpoint_interval_s = options.checkpoint_s.value_or(0);
  return s;
}

namespace {

// The outputs' "-": stdout, written through its descriptor.
std::string dash_is_stdout(const std::string& path) {
  return path == "-" ? "/dev/stdout" : path;
}

bool ends_with(const std::string& text, const char* suffix) {
  const std::size_t n = std::char_traits<char>::length(suffix);
  return text.size() > n && std::equal(text.end() - static_cast<std::ptrdiff_t>(n), text.end(),
                                       suffix, [](char a, char b) {
                                         return std::tolower(static_cast<unsigned char>(a)) == b;
                                       });
}

}  // namespace

std::string output_path_for(const Scene& scene, const Options& options) {
  if (options.output) return dash_is_stdout(*options.output);
  // Camera.FILE is a name, not a path: keep its last component only.
  std::string name = scene.output_name.substr(scene.output_name.find_last_of('/') + 1);
  if (name.empty() || name == "." || name == "..") name = "render";
  if (!image_format_of_path(name))
    name += std::string(".") + (options.format ? *options.format : std::string("png"));
  return "renders/" + name;
}

std::string output_name_warning(const Scene& scene, const Options& options) {
  const std::string& name = scene.output_name;
  if (options.output || name.find('/') == std::string::npos) return "";
  return scene.path + ": Camera.FILE: \"" + excerpt(name) +
         "\" is a name, not a path: the image goes to " + output_path_for(scene, options) +
         " (its folders are dropped; --output names any path)";
}

std::string stats_path_for(const Options& options) {
  return options.stats ? dash_is_stdout(*options.stats) : std::string();
}

ImageFormat output_format(const std::string& image_path, const Options& options) {
  const std::optional<ImageFormat> named = image_format_of_path(image_path);
  if (named && options.format && *options.format != image_format_name(*named)) {
    throw std::invalid_argument(image_path + ": the name says " + image_format_name(*named) +
                                " but --format is " + *options.format);
  }
  if (!named && !options.format) {
    throw std::invalid_argument(image_path +
                                ": unsupported image type (name the output .png, .hdr, .pfm or "
                                ".exr, or give --format png|hdr|pfm|exr)");
  }
  const ImageFormat format =
      named ? *named : image_format_named(*options.format).value_or(ImageFormat::png);
  if (options.aovs.any() && format != ImageFormat::exr)
    throw std::invalid_argument(image_path + ": --aov adds layers to an EXR image; this one is " +
                                image_format_name(format) + " (name the output .exr)");
  return format;
}

std::string checkpoint_path_for(const std::string& image_path, int rank, int processes) {
  if (is_written_through(image_path)) return std::string();
  return resume_path_for(image_path + ".checkpoint", rank, processes);
}

std::string resume_path_for(const std::string& file, int rank, int processes) {
  return processes > 1 ? file + ".rank" + std::to_string(rank) : file;
}

void check_output_paths(const std::string& image_path, const std::string& stats_path) {
  if (stats_path.empty()) return;
  if (is_same_output(image_path, stats_path) ||
      std::filesystem::path(stats_path).lexically_normal() ==
          std::filesystem::path(image_path).lexically_normal()) {
    throw std::invalid_argument(stats_path + ": --stats and the image output name the same file");
  }
  if (!ends_with(stats_path, ".json") && !is_written_through(stats_path)) {
    throw std::invalid_argument(stats_path +
                                ": --stats writes JSON: name the file .json (or - for stdout)");
  }
}

std::vector<std::string> unused_setting_notices(const Options& options,
                                                const RenderSettings& settings) {
  std::vector<std::string> notices;
  const Schedule schedule = settings.schedule;
  if (options.pool && schedule != Schedule::stream)
    notices.push_back("--pool sizes the stream schedule's path pool; ignored by the " +
                      std::string(schedule_name(schedule)) + " schedule");
  if (options.compact && schedule == Schedule::megakernel)
    notices.push_back("--compact: the megakernel keeps no path list to compact; ignored");
  else if (options.compact && !*options.compact && schedule == Schedule::stream)
    notices.push_back("--compact off: the stream schedule always compacts; ignored");
  else if (options.fused_compaction && *options.fused_compaction && schedule == Schedule::frame)
    notices.push_back(
        "--compact fused: the frame schedule compacts in a separate pass after every bounce; "
        "ignored");
  if (options.sort_by_material && *options.sort_by_material && schedule == Schedule::megakernel)
    notices.push_back("--sort-by-material: the megakernel does not sort; ignored");
  else if (options.sort_by_material && *options.sort_by_material &&
           settings.shade == ShadeMode::queues)
    notices.push_back(
        "--sort-by-material: --shade queues splits the paths by lobe kind instead; ignored");
  if (options.shade && schedule == Schedule::megakernel)
    notices.push_back("--shade: the megakernel shades each path in place; ignored");
  if (options.timing && schedule == Schedule::megakernel)
    notices.push_back(
        "--stage-timing: the megakernel has no stages (its frames are always timed); ignored");
  if ((!options.devices.empty() || options.all_devices) && settings.executor == ExecutorKind::cpu)
    notices.push_back("--devices names GPUs; ignored by the CPU executor");
  return notices;
}

}  // namespace raystream
