// The built-in denoiser: the edge-avoiding a-trous filter (film/atrous.h) over an image, guided by
// the film's first-hit sums, on the CPU (OpenMP) or on the GPU (CUDA kernels). Both run the same
// per-pixel functions, so they give the same image up to rounding.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "film/atrous.h"

namespace raystream {

// Polled between the filter's passes: true abandons the filter (a stop signal), which then leaves
// its output untouched and says so (DenoiseTimes::stopped). May be empty.
using DenoiseStop = std::function<bool()>;

struct DenoiseTimes {
  bool stopped = false;    // abandoned at a stop: the output was not written
  double filter_ms = 0;    // the passes: CUDA event time of the kernels, or the CPU's wall time
  double upload_ms = 0;    // GPU: the image and its first-hit sums to the device (CUDA events)
  double download_ms = 0;  // GPU: the filtered image back
  double wall_ms = 0;      // the whole call, allocations included
};

// What the settings filter, in a few words for the report: "a-trous, 4 steps, irradiance".
std::string denoiser_description(const AtrousSettings& settings);

// Throws std::invalid_argument naming `function` for an empty image or iterations outside 0..16.
void check_denoise_arguments(int width, int height, const AtrousSettings& settings,
                             const char* function);

// The largest finite magnitude among the n floats of `values` (0 when none is finite).
float largest_finite(const float* values, std::size_t n);

// Filters a width x height image (rgb: 3 floats per pixel, linear, row-major from the top)
// guided by its first-hit sums (kDenoiseGuideSums floats per pixel) into out (3 floats per
// pixel; may be rgb itself), at the scale denoise_scale gives its largest value (settings.scale
// is set here). Throws std::invalid_argument on a bad size or iteration count.
DenoiseTimes denoise_cpu(int width, int height, const float* rgb, const float* first_hits,
                         float* out, const AtrousSettings& settings, const DenoiseStop& stop = {});

// The same on the current CUDA device, from and to host memory (the upload and the download
// timed apart from the kernels). Throws prim::Error when a CUDA call fails (no device, out of
// memory) and std::invalid_argument as above.
DenoiseTimes denoise_gpu(int width, int height, const float* rgb, const float* first_hits,
                         float* out, const AtrousSettings& settings, const DenoiseStop& stop = {});

}  // namespace raystream
