// The megakernel schedule: per frame (one sample per pixel), one launch in which every thread
// traces its pixel's path to the end in registers (trace_megakernel). The baseline the
// wavefront schedules are measured against, in the same binary and run.
#include "integrator/schedules/schedules.h"
#include "integrator/schedules/stage_timeline.h"
#include "integrator/stages/stages.h"

namespace raystream {

void run_megakernel_schedule(RenderContext& c) {
  const RenderSettings& settings = c.settings;
  StageTimeline timeline_a(c.ex, 2), timeline_b(c.ex, 2);
  StageTimeline* timelines[2] = {&timeline_a, &timeline_b};
  auto finish_frame = [&](int frame) {
    StageTimeline& t = *timelines[frame % 2];
    t.wait(1);
    c.stats.frame_ms.push_back(t.elapsed_ms(0, 1));
    t.clear();
    if (settings.on_progress) settings.on_progress(frame + 1, settings.spp);
  };
  record_allocation_time(c);
  for (int frame = 0; frame < settings.spp; ++frame) {
    StageTimeline& t = *timelines[frame % 2];
    t.mark(0);
    trace_megakernel(c.ex, c.view, c.pixels,
                     static_cast<std::uint32_t>(settings.first_sample + frame), settings.depth,
                     settings.seed, c.film, c.depth_counts);
    t.mark(1);
    if (frame > 0) finish_frame(frame - 1);
  }
  if (settings.spp > 0) finish_frame(settings.spp - 1);
  c.stats.pool = 0;
  c.stats.peak_device_bytes = c.ex.gpu() ? c.tally.bytes : 0;
}

}  // namespace raystream
