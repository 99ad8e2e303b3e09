#include "cli/sample_budget.h"

#include <cmath>

namespace raystream {

int frames_within_budget(double frame_s, double budget_s, int scene_spp) {
  if (scene_spp < 1) return 1;
  if (!(frame_s > 0) || !std::isfinite(frame_s)) return scene_spp;
  const double fit = std::floor(budget_s / frame_s);
  if (!(fit >= 1)) return 1;
  return fit >= scene_spp ? scene_spp : static_cast<int>(fit);
}

int frames_after_trial(double loop_s, double wall_s, int scene_spp) {
  const double setup_s = wall_s > loop_s ? wall_s - loop_s : 0.0;
  return frames_within_budget(loop_s, kCpuBudgetSeconds - wall_s - setup_s, scene_spp);
}

}  // namespace raystream
