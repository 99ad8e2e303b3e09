// The command line of raystream: parsing (CLI11) and turning options plus a scene into settings.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "integrator/api/render_settings.h"
#include "io/image/film_output.h"
#include "io/image/image_output.h"
#include "scene/scene.h"

namespace raystream {

// --device; its names in the enum's order (core/enum_names.h).
enum class DeviceChoice { gpu, cpu, automatic };
inline constexpr const char* kDeviceChoiceNames[] = {"gpu", "cpu", "auto"};
static_assert(std::size(kDeviceChoiceNames) == std::size_t(DeviceChoice::automatic) + 1);

// --denoise: off, or what the built-in filter smooths (film/atrous.h): radiance over albedo
// (--denoise, --denoise=irradiance) or the radiance (--denoise=radiance).
enum class DenoiseMode { off, irradiance, radiance };
inline constexpr const char* kDenoiseModeNames[] = {"off", "irradiance", "radiance"};
static_assert(std::size(kDenoiseModeNames) == std::size_t(DenoiseMode::radiance) + 1);

// --bvh: auto (RenderSettings' default: BvhBuilder::automatic over bvh_min_primitives), gpu
// (the LBVH), sah, off (no BVH), on (sah, the option's old "always").
enum class BvhChoice { automatic, gpu, sah, off, on };
inline constexpr const char* kBvhChoiceNames[] = {"auto", "gpu", "sah", "off", "on"};
static_assert(std::size(kBvhChoiceNames) == std::size_t(BvhChoice::on) + 1);

// --compact: on (the schedule's way), off (frame schedule), or one of the Compaction names.
enum class CompactChoice { on, off, fused, separate };
inline constexpr const char* kCompactChoiceNames[] = {"on", "off",
                                                      kCompactionNames[int(Compaction::fused)],
                                                      kCompactionNames[int(Compaction::separate)]};
static_assert(std::size(kCompactChoiceNames) == std::size_t(CompactChoice::separate) + 1);

// --sort-by-material: on (the radix sort), off, or multisplit.
enum class SortChoice { on, off, multisplit };
inline constexpr const char* kSortChoiceNames[] = {"on", "off", "multisplit"};
static_assert(std::size(kSortChoiceNames) == std::size_t(SortChoice::multisplit) + 1);

struct Options {
  std::string scene;
  std::optional<int> spp;                         // --spp (else the scene's ITERATIONS)
  std::optional<int> depth;                       // --depth (else the scene's DEPTH)
  std::optional<std::pair<int, int>> resolution;  // --resolution WxH (else the scene's RES)
  std::optional<std::string> output;              // --output (else renders/<FILE>.png); - stdout
  std::optional<std::string> format;              // --format png|hdr|pfm
  std::optional<Schedule> schedule;               // --schedule stream|frame|megakernel
  std::optional<std::size_t> pool;                // --pool N (stream schedule)
  std::optional<StageTiming> timing;              // --stage-timing sampled|all|off
  std::optional<ShadeMode> shade;                 // --shade queues|single
  std::optional<bool> sort_by_material;           // --sort-by-material on|off|multisplit
  std::optional<bool> material_multisplit;        // --sort-by-material multisplit
  std::optional<bool> nee;                        // --integrator path (true) | bsdf (false)
  std::optional<bool> compact;                    // --compact on|off (fused, separate: on)
  std::optional<bool> fused_compaction;           // --compact fused|separate
  std::optional<BvhChoice> bvh;                   // --bvh auto|gpu|sah|off|on
  std::uint64_t seed = 0;                         // --seed
  DeviceChoice device = DeviceChoice::automatic;  // --device gpu|cpu|auto
  // --devices: CUDA devices to split the samples across (empty: the first one); all_devices for
  // "all".
  std::vector<int> devices;
  bool all_devices = false;
  std::optional<std::string> stats;        // --stats FILE.json; - stdout
  bool quiet = false;                      // --quiet
  AovSet aovs;                             // --aov albedo,normal,depth,variance (EXR output)
  DenoiseMode denoise = DenoiseMode::off;  // --denoise[=irradiance|radiance]
  std::optional<int> time_s;               // --time SECONDS: the render loop's budget
  std::optional<int> checkpoint_s;         // --checkpoint SECONDS: the interval of checkpoints
  std::optional<std::string> resume;       // --resume FILE: a checkpoint to go on from
  // --export-scene DIR: write the scene as loaded there (io/scene/scene_export.h), no render.
  std::optional<std::string> export_scene;
};

// The largest --time and --checkpoint: a year of seconds.
inline constexpr int kMaxSeconds = 366 * 24 * 3600;

// The largest --pool.
inline constexpr std::size_t kMaxPathPool = std::size_t(1) << 30;
// The largest CUDA device number --devices accepts.
inline constexpr int kMaxDeviceNumber = 9999;

// Exit codes of raystream.
inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntimeError = 1;  // rendering or writing failed
inline constexpr int kExitUsageError = 2;    // bad command line or bad scene

// Parses the command line. Returns an exit code when the program should stop now: 0 after
// --help or --version (text written to `out`), kExitUsageError after a bad command line (message
// naming the option written to `err`). Returns nothing when `options` is ready to use.
std::optional<int> parse_options(int argc, const char* const* argv, const std::string& version,
                                 Options& options, std::ostream& out, std::ostream& err);

// "all" or "0,1,..." into options.devices / all_devices; throws std::invalid_argument naming
// the problem.
void parse_devices(const std::string& text, Options& options);

// "WxH" -> {W, H}; throws std::invalid_argument with a message on malformed or absurd sizes.
std::pair<int, int> parse_resolution(const std::string& text);

// The one rule for every number on the command line (--spp, --depth, --pool, --seed, the sides
// of --resolution, the devices of --devices): decimal digits only (leading zeros allowed; no
// sign, space, "0x" or exponent), and a value in [min, max]. Throws std::invalid_argument:
// "'abc' is not an integer (...)" or "0 is out of range (1 to 1000000)".
std::uint64_t parse_integer(const std::string& text, std::uint64_t min, std::uint64_t max);

// The render settings from the scene with the command line's overrides applied (on_progress
// empty): with --time and no --spp, the spp is kMaxIterations (the budget ends the render); the
// film keeps the layers the AOVs and --denoise need.
RenderSettings settings_for(const Scene& scene, const Options& options, ExecutorKind executor);

// The output path: --output ("-": /dev/stdout), else renders/<FILE>.png (the --format's extension)
// from the scene's Camera.FILE.
std::string output_path_for(const Scene& scene, const Options& options);

// A warning when the default output drops the folders Camera.FILE names ("sub/dir/name" goes to
// renders/name.png), naming the scene file and where the image goes; "" otherwise and with
// --output.
std::string output_name_warning(const Scene& scene, const Options& options);

// The --stats path ("-": /dev/stdout); empty without --stats.
std::string stats_path_for(const Options& options);

// Where this process's checkpoints go: beside the image, <image>.checkpoint, and with several
// processes <image>.checkpoint.rank<R>; empty when the image is written through (stdout, a FIFO,
// a device), which has no "beside".
std::string checkpoint_path_for(const std::string& image_path, int rank, int processes);

// The checkpoint --resume reads in this process: FILE, or FILE.rank<R> with several processes.
std::string resume_path_for(const std::string& file, int rank, int processes);

// The image's format: the name's .png, .hdr, .pfm or .exr (any case), else --format. Throws
// std::invalid_argument (a bad command line) when neither gives it, when they disagree, or when
// --aov asks for layers of another format than EXR.
ImageFormat output_format(const std::string& image_path, const Options& options);

// The checks of the output paths that need no render, a bad command line when they fail
// (std::invalid_argument naming the path): --stats must be named .json unless it is written
// through (stdout, a FIFO, a device), and the image and the statistics must not be one file, by
// name or through links.
void check_output_paths(const std::string& image_path, const std::string& stats_path);

// One line for each setting given that does nothing in this render (printed as notices unless
// --quiet): --pool outside the stream schedule, --compact outside the frame schedule,
// --sort-by-material and --stage-timing with the megakernel, --devices on the CPU.
std::vector<std::string> unused_setting_notices(const Options& options,
                                                const RenderSettings& settings);

}  // namespace raystream
