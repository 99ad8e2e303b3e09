// Russian roulette: after a few bounces a path continues with probability p (its largest
// throughput component, at most kMaxSurvival) and its throughput is divided by p, which keeps the
// estimate unbiased: E[throughput'] = p * throughput / p + (1 - p) * 0 = throughput.
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"

namespace raystream {

inline constexpr int kRouletteFirstBounce = 3;  // bounces 0, 1, 2 always continue
inline constexpr float kMaxSurvival = 0.95f;

// Survival probability of a path with this throughput at this bounce (1 before roulette starts).
RAYSTREAM_HD inline float survival_probability(const glm::vec3& throughput, int bounce) {
  if (bounce < kRouletteFirstBounce) return 1.0f;
  const float largest = fmaxf(throughput.x, fmaxf(throughput.y, throughput.z));
  return fminf(kMaxSurvival, largest);
}

// Plays roulette with u uniform in [0, 1): false ends the path; true rescales the throughput.
RAYSTREAM_HD inline bool survive_roulette(glm::vec3& throughput, int bounce, float u) {
  const float p = survival_probability(throughput, bounce);
  if (!(p > 0.0f) || u >= p) return false;
  throughput /= p;
  return true;
}

}  // namespace raystream
