// The wavefront loop behind render(): backend-independent, given the GPU primitives of one
// backend (the CPU executor uses prim::cpu whatever the backend).
#pragma once

#include "integrator/path_primitives.h"
#include "integrator/render.h"
#include "scene/scene.h"

namespace raystream {

RenderResult render_wavefront(const Scene& scene, const RenderSettings& settings,
                              const PathPrimitives& gpu_primitives);

// Bits of a material sort key: keys are 0..material_count-1 for hits and material_count for
// dead slots, so ceil(log2(material_count + 1)) bits, at least 1.
int material_key_bits(int material_count);

}  // namespace raystream
