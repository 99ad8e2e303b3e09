// Fuzz target: the scene loader. The input is a scene file's text; meshes it names are looked up
// next to the loader tests' small OBJ files. Every input must either load or throw SceneError
// (anything else escaping is a crash), within the sanitizers' and libFuzzer's memory limits.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/scene/scene_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> warnings;
  try {
    const raystream::Scene scene =
        raystream::parse_scene(text, RAYSTREAM_FUZZ_MESHES "/fuzz.json", warnings);
    (void)scene;
  } catch (const raystream::SceneError& e) {
    // Messages are one line of bounded length.
    const std::string what = e.what();
    if (what.size() > raystream::kMaxMessage || what.find('\n') != std::string::npos)
      __builtin_trap();
  }
  for (const std::string& w : warnings) {
    if (w.size() > raystream::kMaxMessage || w.find('\n') != std::string::npos) __builtin_trap();
  }
  return 0;
}
