// Checkpoint files: a render's film (sums, per-pixel sample counts, the AOV layers it keeps) and
// per share its next sample number, with what identifies the render, so that `--resume` goes on
// exactly where it stopped and refuses a checkpoint of another render. Binary, little-endian,
// with a checksum; written atomically like every output, and streamed both ways: the film goes
// to the file and comes back from it without a second copy in memory (docs/cli.md has the
// layout).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "film/film_state.h"

namespace raystream {

// What a checkpoint resumes only: the same raystream, scene (its content: scene_fingerprint),
// settings that change the image, and the same process of as many (an MPI run's processes write
// one file each).
struct CheckpointKey {
  std::string version;           // raystream's version
  std::string scene;             // the scene file's path, for messages
  std::uint64_t scene_hash = 0;  // scene_fingerprint()
  // The render's settings that change the image as (name, text) pairs, in a fixed order (the
  // integrator's image_settings): compared by their text, and a refusal names the first that
  // differs by its name.
  std::vector<std::pair<std::string, std::string>> settings;
  int process = 0, processes = 1;
};

struct Checkpoint {
  CheckpointKey key;
  std::vector<std::uint64_t> next_samples;  // per share of the render (devices)
  FilmState film;
};

// The format's first bytes.
inline constexpr char kCheckpointMagic[] = "RAYSTREAM-CHECKPOINT\n";

// Writes the checkpoint of `film` to `path` atomically (atomic_file.h), the film streamed from
// where it is. Throws OutputError naming the file.
void write_checkpoint(const std::string& path, const CheckpointKey& key, const FilmState& film,
                      const std::vector<std::uint64_t>& next_samples);

// Reads the checkpoint at `path`. Throws SceneError naming the file: it cannot be read
// (read_input_file's rules), it is not a checkpoint, it is of another format version, truncated
// or corrupt (its checksum), or its sizes disagree.
Checkpoint read_checkpoint(const std::string& path);

// Throws SceneError naming `path` and the first difference when the checkpoint belongs to
// another render than `expected` (version, scene, a setting, process).
void check_checkpoint(const Checkpoint& checkpoint, const CheckpointKey& expected,
                      const std::string& path);

}  // namespace raystream
