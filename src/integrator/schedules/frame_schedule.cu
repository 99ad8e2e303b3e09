// The frame schedule: per frame, generate one camera path per pixel, then per depth one bounce
// (WavefrontBounce: intersect -> [sort by material] -> shade -> [shadow] -> [compact]), until the
// frame's paths have ended or the depth is reached. Every bounce pays its launches however few
// paths are left: the tail that the stream schedule removes. A time budget or a signal stops it
// between frames, and checkpoints are taken between frames.
//
// Dead paths are tracked in the path-id array (kDeadBit). With compaction on, the live ids are
// compacted into the other id buffer and the count stays on the device, where the next bounce's
// kernels read their bound. Kernels are launched over all n slots and return early past the
// bound, so no count travels to the host within a frame. (On the CPU executor the count is host
// memory anyway, so there the stages work on the live slots only and a frame stops when no path
// is left; FrameScheduleOptions can make it run the GPU's way, for tests.)
//
// What is compacted is the id array (4 bytes per path), not the path state; the state is reached
// through the id.
#include <algorithm>
#include <utility>

#include "integrator/path/path_buffers.h"
#include "integrator/schedules/bounce.h"
#include "integrator/schedules/schedules.h"
#include "integrator/schedules/stage_timeline.h"
#include "integrator/stages/stages.h"

namespace raystream {

void run_frame_schedule(RenderContext& c, const FrameScheduleOptions& options) {
  const Executor& ex = c.ex;
  const RenderSettings& settings = c.settings;
  const std::size_t n = c.pixels;
  const int depth = settings.depth;
  const bool live_slots_only = !ex.gpu() && options.cpu_live_slots_only;

  PathBuffers paths_buffers(ex, n, &c.tally);
  const PathState paths = paths_buffers.view();
  // [b]: paths alive entering bounce b (the bound the kernels read); [depth + 1 + b]: shadow rays
  // of bounce b.
  Buffer<std::size_t> live_counts(ex, "live path counts", 2 * std::size_t(depth) + 1, &c.tally);
  WavefrontBounce bounce(c, n, settings.compact, false);

  // Two timelines: on the GPU the host reads one frame's events while the next frame runs. A set
  // of stage marks per bounce, then the frame's start and end.
  const StageSets stage_sets{0, depth};
  const int frame_slot = stage_sets.slots();
  StageTimeline timeline_a(ex, frame_slot + 2), timeline_b(ex, frame_slot + 2);
  StageTimeline* timelines[2] = {&timeline_a, &timeline_b};
  RenderStats& stats = c.stats;
  double timed_frames_ms = 0.0;  // the time of the frames whose stages were timed

  // The passes of [begin_sample, end_sample): the first may start within its pass (a resumed
  // render), the last ends with it.
  const unsigned long long first_pass = c.begin_sample / n;
  auto finish_frame = [&](int frame) {
    StageTimeline& t = *timelines[frame % 2];
    t.wait(frame_slot + 1);
    const double frame_ms = t.elapsed_ms(frame_slot, frame_slot + 1);
    stats.frame_ms.push_back(frame_ms);
    bool timed = false;
    for (int b = 0; b < depth; ++b) timed |= stage_sets.add_ms(t, b, stats.bounces[b].stage_ms);
    if (timed) {
      ++stats.timed_units;
      timed_frames_ms += frame_ms;
    }
    t.clear();
    if (settings.on_progress)
      settings.on_progress(
          static_cast<int>(first_pass + frame + 1 - unsigned(settings.first_sample)), settings.spp);
  };
  record_allocation_time(c);
  const unsigned long long end_pass = c.end_sample / n;
  int frame = 0;
  unsigned long long pass = first_pass;
  for (; pass < end_pass; ++pass, ++frame) {
    const RenderControl& control = *c.control;
    if (control.stop && control.stop()) break;
    const unsigned long long pass_start = std::max<unsigned long long>(pass * n, c.begin_sample);
    if (frame > 0 && control.checkpoint_due && control.checkpoint_due())
      control.checkpoint(pass_start);  // the film's copy waits for the frames queued before
    StageTimeline& t = *timelines[frame % 2];
    const bool timed =
        settings.timing == StageTiming::all ||
        (settings.timing == StageTiming::sampled && frame % kTimingSamplePeriod == 0);
    t.mark(frame_slot);
    std::size_t* counts = live_counts.data();
    fill_bytes(ex, counts, 0, live_counts.bytes());
    generate_camera_paths(ex, c.stages, paths, bounce.ids(), n, counts,
                          static_cast<std::uint32_t>(pass),
                          static_cast<std::uint32_t>(pass_start - pass * n));
    for (int d = 0; d < depth; ++d) {
      // The slots this bounce works on: on the GPU all n (the kernels read the live count
      // themselves); on the CPU, where the count is host memory, just the live ones. Without
      // compaction every slot stays in use (counts[0] = n) and dead ones are skipped.
      const std::size_t slots = live_slots_only && settings.compact ? counts[d] : n;
      BounceCounts bounds;
      bounds.bound = LiveBound{settings.compact ? counts + d : counts, slots};
      bounds.shadow = counts + depth + 1 + d;
      bounds.live_out = settings.compact ? counts + d + 1 : nullptr;
      bounce.run(paths, bounds, stage_sets.marks(timed ? &t : nullptr, d));
      // On the CPU the count is already in host memory: stop once every path has ended.
      if (live_slots_only && settings.compact && counts[d + 1] == 0) break;
    }
    t.mark(frame_slot + 1);
    if (frame > 0) finish_frame(frame - 1);  // queued before, read while this frame runs
  }
  if (frame > 0) finish_frame(frame - 1);
  c.next_sample = std::max<unsigned long long>(c.begin_sample, std::min(pass * n, c.end_sample));

  // Stage totals; sampled timing scales the timed frames up by time: by the time of every frame
  // over the time of the timed ones, so the totals stay within the frames' time.
  double all_frames_ms = 0.0;
  for (double ms : stats.frame_ms) all_frames_ms += ms;
  const double scale = timed_frames_ms > 0.0 ? all_frames_ms / timed_frames_ms : 0.0;
  for (BounceStats& row : stats.bounces) {
    for (int s = 0; s < kStageCount; ++s) {
      row.stage_ms[s] *= scale;
      stats.stage_ms[s] += row.stage_ms[s];
    }
  }
  stats.pool = n;
  stats.peak_device_bytes = ex.gpu() ? c.tally.bytes + bounce.workspace_device_bytes() : 0;
  bounce.report(stats);
}

}  // namespace raystream
