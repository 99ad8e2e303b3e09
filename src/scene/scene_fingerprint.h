// The scene's fingerprint: a 64-bit hash of what in it changes the image (scene.h lists those
// fields), not of its names or paths. Two scenes that render alike hash alike; a checkpoint
// resumes only into the scene it was written for.
#pragma once

#include <cstdint>

#include "scene/scene.h"

namespace raystream {

std::uint64_t scene_fingerprint(const Scene& scene);

}  // namespace raystream
