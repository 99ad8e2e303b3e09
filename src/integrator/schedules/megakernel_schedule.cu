// The megakernel schedule: per frame (one sample per pixel), one launch in which every thread
// traces its pixel's path to the end in registers (trace_megakernel). The baseline the
// wavefront schedules are measured against, in the same binary and run. A time budget or a
// signal stops it between frames, and checkpoints are taken between frames.
#include <algorithm>

#include "integrator/schedules/schedules.h"
#include "integrator/schedules/stage_timeline.h"
#include "integrator/stages/stages.h"

namespace raystream {

void run_megakernel_schedule(RenderContext& c) {
  const RenderSettings& settings = c.settings;
  const RenderControl& control = *c.control;
  // The passes of [begin_sample, end_sample), the first from its first pixel on.
  const unsigned long long n = c.pixels;
  const unsigned long long first_pass = c.begin_sample / n;
  StageTimeline timeline_a(c.ex, 2), timeline_b(c.ex, 2);
  StageTimeline* timelines[2] = {&timeline_a, &timeline_b};
  auto finish_frame = [&](int frame) {
    StageTimeline& t = *timelines[frame % 2];
    t.wait(1);
    c.stats.frame_ms.push_back(t.elapsed_ms(0, 1));
    t.clear();
    if (settings.on_progress)
      settings.on_progress(
          static_cast<int>(first_pass + frame + 1 - unsigned(settings.first_sample)), settings.spp);
  };
  record_allocation_time(c);
  int frame = 0;
  unsigned long long pass = first_pass;
  for (; pass < c.end_sample / n; ++pass, ++frame) {
    if (control.stop && control.stop()) break;
    const unsigned long long pass_start = std::max<unsigned long long>(pass * n, c.begin_sample);
    if (frame > 0 && control.checkpoint_due && control.checkpoint_due())
      control.checkpoint(pass_start);
    StageTimeline& t = *timelines[frame % 2];
    t.mark(0);
    trace_megakernel(c.ex, c.stages, c.pixels, static_cast<std::uint32_t>(pass),
                     static_cast<std::uint32_t>(pass_start - pass * n));
    t.mark(1);
    if (frame > 0) finish_frame(frame - 1);
  }
  if (frame > 0) finish_frame(frame - 1);
  c.next_sample = std::max<unsigned long long>(c.begin_sample, std::min(pass * n, c.end_sample));
  c.stats.pool = 0;
  c.stats.peak_device_bytes = c.ex.gpu() ? c.tally.bytes : 0;
}

}  // namespace raystream
