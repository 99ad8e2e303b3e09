// The CUDA devices a render can run on: whether there is one, which, and each one's context.
#pragma once

#include <vector>

namespace raystream {

// True when a CUDA device can be used.
bool gpu_available();

// The ordinals of every usable CUDA device (empty without one).
std::vector<int> all_gpu_devices();

// Makes `device` the CUDA device of this thread's renders; throws when it does not exist.
void set_gpu_device(int device);

// Creates `device`'s CUDA context now, from any thread, rather than at the render's first CUDA
// call; does nothing where that fails (the render reports it). Returns the milliseconds it took.
// raystream does this while the scene loads: neither needs the other.
double create_gpu_context(int device);

}  // namespace raystream
