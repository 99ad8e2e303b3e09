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

// The render settings that change the image, each once: X(field, type, its type in the file, its
// default, how a refusal words a difference: <words>_refusal in checkpoint_file.cpp).
// RenderSettings has a field of each name. From this list follow CheckpointKey's fields, their
// encoding (in this order, after the scene's fingerprint) and decoding, check_checkpoint's
// comparison, and set_image_settings. Left out on purpose: the schedule, the pool, the
// compaction, the sorting and shading, the BVH, the executor and the devices, which trace the same
// samples with the same random numbers (only the order of the film's additions, and so their
// rounding, differs), so a checkpoint resumes under any of them.
#define RAYSTREAM_CHECKPOINT_SETTINGS(X)         \
  X(width, int, std::int32_t, 0, size)           \
  X(height, int, std::int32_t, 0, size)          \
  X(depth, int, std::int32_t, 0, depth)          \
  X(spp, int, std::int32_t, 0, spp)              \
  X(seed, std::uint64_t, std::uint64_t, 0, seed) \
  X(nee, bool, std::uint8_t, true, integrator)

// What a checkpoint resumes only: the same raystream, scene (its content: materials, shapes,
// triangles, camera, environment, textures), settings that change the image (image size, depth,
// samples per pixel, seed, integrator), and the same process of as many (an MPI run's processes
// write one file each).
struct CheckpointKey {
  std::string version;           // raystream's version
  std::string scene;             // the scene file's path, for messages
  std::uint64_t scene_hash = 0;  // scene_fingerprint()
#define RAYSTREAM_CHECKPOINT_FIELD(field, type, file_type, init, words) type field = init;
  RAYSTREAM_CHECKPOINT_SETTINGS(RAYSTREAM_CHECKPOINT_FIELD)
#undef RAYSTREAM_CHECKPOINT_FIELD
  int process = 0, processes = 1;
};

// The key's settings that change the image, from the render's `settings` (RenderSettings).
template <class Settings>
void set_image_settings(CheckpointKey& key, const Settings& settings) {
#define RAYSTREAM_SET_CHECKPOINT_SETTING(field, type, file_type, init, words) \
  key.field = settings.field;
  RAYSTREAM_CHECKPOINT_SETTINGS(RAYSTREAM_SET_CHECKPOINT_SETTING)
#undef RAYSTREAM_SET_CHECKPOINT_SETTING
}

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
