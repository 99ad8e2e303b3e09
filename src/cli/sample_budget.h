// Picks a sample count for CPU renders whose spp came from the scene file: the scene's
// ITERATIONS are meant for a GPU, so the CPU renders as many frames as fit in a time budget.
#pragma once

namespace raystream {

// Seconds the CPU render aims for when the spp came from the scene file.
inline constexpr double kCpuBudgetSeconds = 60.0;

// Frames that fit in `budget_s` when one frame takes `frame_s`: at least 1, at most `scene_spp`.
int frames_within_budget(double frame_s, double budget_s, int scene_spp);

// Frames that fit in what is left of kCpuBudgetSeconds after a trial render of one frame that
// took `wall_s` in all, of which `loop_s` its render loop: the rest, the set-up (the BVH build
// of a large mesh), is paid once more by the render itself, not once per frame.
int frames_after_trial(double loop_s, double wall_s, int scene_spp);

}  // namespace raystream
