// The command line of raystream: parsing (CLI11) and turning options plus a scene into settings.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "integrator/render.h"
#include "scene/scene.h"

namespace raystream {

enum class DeviceChoice { gpu, cpu, automatic };

struct Options {
  std::string scene;
  std::optional<int> spp;                         // --spp (else the scene's ITERATIONS)
  std::optional<int> depth;                       // --depth (else the scene's DEPTH)
  std::optional<std::pair<int, int>> resolution;  // --resolution WxH (else the scene's RES)
  std::optional<std::string> output;              // --output (else renders/<FILE>.png)
  std::optional<Schedule> schedule;               // --schedule stream|frame|megakernel
  std::optional<std::size_t> pool;                // --pool N (stream schedule)
  std::optional<StageTiming> timing;              // --stage-timing sampled|all|off
  std::optional<bool> sort_by_material;           // --sort-by-material on|off|multisplit
  std::optional<bool> material_multisplit;        // --sort-by-material multisplit
  std::optional<bool> nee;                        // --integrator path (true) | bsdf (false)
  std::optional<bool> compact;                    // --compact on|off
  std::optional<std::string> bvh;                 // --bvh auto|gpu|sah|off|on
  std::uint64_t seed = 0;                         // --seed
  DeviceChoice device = DeviceChoice::automatic;  // --device gpu|cpu|auto
  // --devices: CUDA devices to split the samples across (empty: the first one); all_devices for
  // "all".
  std::vector<int> devices;
  bool all_devices = false;
  std::optional<std::string> stats;  // --stats FILE.json
  bool quiet = false;                // --quiet
};

// The largest --pool.
inline constexpr std::size_t kMaxPathPool = std::size_t(1) << 30;

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

// "N" -> N for 0 <= N <= 2^64 - 1 (digits only); throws std::invalid_argument with a message
// otherwise ("-1", "1e3", values past the range).
std::uint64_t parse_seed(const std::string& text);

// The render settings from the scene with the command line's overrides applied (on_progress
// empty).
RenderSettings settings_for(const Scene& scene, const Options& options, ExecutorKind executor);

// The output path: --output, else renders/<FILE>.png from the scene's Camera.FILE.
std::string output_path_for(const Scene& scene, const Options& options);

}  // namespace raystream
