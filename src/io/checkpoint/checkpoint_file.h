// Checkpoint files: a render's film (sums, per-pixel sample counts, the AOV layers it keeps) and
// per share its next sample number, with what identifies the render, so that `--resume` goes on
// exactly where it stopped and refuses a checkpoint of another render. Binary, little-endian,
// with a checksum; written atomically like every output (docs/cli.md has the layout).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "film/film_state.h"
#include "scene/scene.h"

namespace raystream {

// What a checkpoint resumes only: the same raystream, scene (its content: materials, shapes,
// triangles, camera, environment, textures), image size, depth, samples per pixel, seed and
// integrator, and the same process of as many (an MPI run's processes write one file each).
struct CheckpointKey {
  std::string version;           // raystream's version
  std::string scene;             // the scene file's path, for messages
  std::uint64_t scene_hash = 0;  // scene_fingerprint()
  int width = 0, height = 0, depth = 0, spp = 0;
  std::uint64_t seed = 0;
  bool nee = true;
  int process = 0, processes = 1;
};

struct Checkpoint {
  CheckpointKey key;
  std::vector<std::uint64_t> next_samples;  // per share of the render (devices)
  FilmState film;
};

// The format's first bytes.
inline constexpr char kCheckpointMagic[] = "RAYSTREAM-CHECKPOINT\n";

// A 64-bit hash of the scene's content (not of its names or paths): two scenes that render
// alike hash alike.
std::uint64_t scene_fingerprint(const Scene& scene);

std::vector<unsigned char> encode_checkpoint(const Checkpoint& checkpoint);

// Reads the checkpoint at `path`. Throws SceneError naming the file: it cannot be read
// (read_input_file), it is not a checkpoint, it is of another format version, truncated or
// corrupt (its checksum), or its sizes disagree.
Checkpoint read_checkpoint(const std::string& path);

// Throws SceneError naming `path` and the first difference when the checkpoint belongs to
// another render than `expected` (version, scene, size, depth, spp, seed, integrator, process).
void check_checkpoint(const Checkpoint& checkpoint, const CheckpointKey& expected,
                      const std::string& path);

}  // namespace raystream
