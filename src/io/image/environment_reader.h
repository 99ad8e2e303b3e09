// Reading an environment map, a Radiance HDR or OpenEXR image, into an Environment (the light
// builds the tables of its importance sampling: lights/environment_map.h).
#pragma once

#include <string>

#include "scene/environment.h"

namespace raystream {

// Largest map accepted, in texels; larger ones are rejected as absurd rather than tried.
inline constexpr int kMaxEnvironmentWidth = 16384;
inline constexpr int kMaxEnvironmentHeight = 8192;

// Reads the image at `path` as an environment map: a Radiance HDR (.hdr, RGBE) or an OpenEXR
// (.exr: R, G, B or Y of its first part, told apart by the file's magic number, not its name);
// texels multiplied by `scale` (>= 0), rotate_degrees recorded. Throws
// SceneError (see scene/scene_error.h) naming the file and the problem: a file that cannot be
// read (read_input_file: missing, not a regular file, over kEnvironmentFile's cap), a file that
// is neither (PNG, JPEG, text...), a corrupt or truncated one, a size beyond
// kMaxEnvironmentWidth x kMaxEnvironmentHeight, a texel that is negative or not finite once
// scaled.
Environment load_environment_map(const std::string& path, float scale, float rotate_degrees);

}  // namespace raystream
