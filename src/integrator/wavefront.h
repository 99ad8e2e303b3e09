// The wavefront loop behind render(): backend-independent, given the GPU primitives of one
// backend (the CPU executor uses prim::cpu whatever the backend).
#pragma once

#include "execution/path_primitives.h"
#include "integrator/api/render.h"
#include "materials/bsdf.h"
#include "scene/scene.h"

namespace raystream {

struct WavefrontOptions {
  // CPU executor only. true: stages, sort and compaction work on the live slots, and the frame
  // stops when no path is left (the count is host memory there). false: every bounce works on all
  // n slots with the bound read inside the stages, exactly as on the GPU (for tests).
  bool cpu_live_slots_only = true;
};

RenderResult render_wavefront(const Scene& scene, const RenderSettings& settings,
                              const PathPrimitives& gpu_primitives,
                              const WavefrontOptions& options = {});

// The settings a render runs with, whatever was asked (what the report states): the megakernel
// neither sorts nor compacts nor times stages, the stream schedule always compacts (fused when
// automatic, in both builds), automatic
// shading picks queues or the single kernel by the scene's lobe features, and the multisplit
// sorts only keys of at most kMultisplitKeyBits bits (more materials fall back to the radix
// sort).
RenderSettings settings_that_run(const RenderSettings& asked, const LobeFeatures& lobes,
                                 int material_count);
// The same for `scene`'s materials.
RenderSettings settings_that_run(const RenderSettings& asked, const Scene& scene);

}  // namespace raystream
