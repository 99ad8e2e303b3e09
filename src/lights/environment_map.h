// The environment light's own tables, the CDFs of its importance sampling, built on the host from
// the scene's map, and the kernels' view of the map. The mapping, the rotation and the sampling
// are documented in lights/environment.h; the map is read from its file by
// io/image/environment_reader.h.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <vector>

#include "lights/environment.h"
#include "scene/environment.h"

namespace raystream {

// The CDFs of an environment map's importance sampling.
struct EnvironmentTables {
  std::vector<float> marginal_cdf;     // height + 1 entries, from 0 to 1
  std::vector<float> conditional_cdf;  // height rows of width + 1 entries, each from 0 to 1
};

// The tables of env.texels (width x height): each texel weighs luminance x sin(theta at the
// centre of its row); a row, or a whole map, of zero weight gets uniform CDFs so nothing divides
// by zero. Empty for a uniform environment (width or height 0). Throws std::invalid_argument when
// texels does not hold width x height.
EnvironmentTables build_environment_tables(const Environment& env);

// The kernels' view of `env`, on the arrays the caller supplies: host vectors for the CPU
// executor, device copies of env.texels and of its tables' CDFs for the GPU.
inline EnvironmentView environment_view(const Environment& env, const glm::vec3* texels,
                                        const float* marginal, const float* conditional) {
  EnvironmentView v;
  v.present = env.present;
  v.constant = env.constant;
  const double degrees = std::fmod(static_cast<double>(env.rotate_degrees), 360.0);
  const double radians = degrees * (3.14159265358979323846 / 180.0);
  v.cos_rotate = static_cast<float>(std::cos(radians));
  v.sin_rotate = static_cast<float>(std::sin(radians));
  if (env.present && env.width > 0 && env.height > 0) {
    v.width = env.width;
    v.height = env.height;
    v.texels = texels;
    v.marginal_cdf = marginal;
    v.conditional_cdf = conditional;
  }
  return v;
}

// The luminance of the environment integrated over the sphere (its average luminance x 4 pi):
// the weight for choosing between the environment and the other lights. 0 without one.
inline float environment_power_estimate(const Environment& env) {
  if (!env.present) return 0.0f;
  if (env.width <= 0 || env.height <= 0) {
    return static_cast<float>(4.0 * 3.14159265358979323846 *
                              static_cast<double>(environment_luminance(env.constant)));
  }
  const double pi = 3.14159265358979323846;
  double total = 0.0;
  for (int row = 0; row < env.height; ++row) {
    // The solid angle of one texel of this row: 2 pi / width x (cos theta_top - cos theta_bottom).
    const double top = pi * row / env.height, bottom = pi * (row + 1) / env.height;
    const double texel = 2.0 * pi / env.width * (std::cos(top) - std::cos(bottom));
    double sum = 0.0;
    for (int column = 0; column < env.width; ++column) {
      const float l =
          environment_luminance(env.texels[static_cast<std::size_t>(row) * env.width + column]);
      if (l > 0.0f) sum += l;
    }
    total += sum * texel;
  }
  return static_cast<float>(std::fmin(total, static_cast<double>(FLT_MAX)));
}

}  // namespace raystream
