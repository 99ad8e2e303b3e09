// Fuzz target: the command-line parser. The input is the argument list, arguments separated by
// NUL bytes (at most 64). Every input must end in options or in an exit code, with a one-line
// error for a bad command line.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/options.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> words;
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == 0) {
      words.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  words.push_back(current);
  if (words.size() > 64) return 0;
  std::vector<const char*> argv = {"raystream"};
  for (const std::string& w : words) argv.push_back(w.c_str());
  raystream::Options options;
  std::ostringstream out, err;
  const auto code = raystream::parse_options(static_cast<int>(argv.size()), argv.data(),
                                             "raystream fuzz", options, out, err);
  if (code) {
    const std::string e = err.str();
    if (*code == raystream::kExitUsageError) {
      // One line, starting as every error does.
      if (e.rfind("raystream: error: ", 0) != 0 || e.find('\n') != e.size() - 1) __builtin_trap();
    } else if (*code != raystream::kExitOk) {
      __builtin_trap();
    }
    return 0;
  }
  raystream::Scene scene;
  scene.camera.width = 64;
  scene.camera.height = 48;
  scene.output_name = "fuzz";
  scene.iterations = 4;
  scene.depth = 3;
  const raystream::RenderSettings s =
      raystream::settings_for(scene, options, raystream::ExecutorKind::cpu);
  if (s.width <= 0 || s.height <= 0 || s.spp <= 0 || s.depth <= 0) __builtin_trap();
  const std::string output = raystream::output_path_for(scene, options);
  try {
    (void)raystream::output_format(output, options);
  } catch (const std::invalid_argument&) {
    // A bad command line, reported by raystream as one.
  }
  for (const std::string& notice : raystream::unused_setting_notices(options, s))
    if (notice.empty() || notice.find('\n') != std::string::npos) __builtin_trap();
  return 0;
}
