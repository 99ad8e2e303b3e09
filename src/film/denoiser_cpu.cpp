// The denoiser on the CPU: each pass of film/atrous.h as an OpenMP loop over the rows.
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "film/denoiser.h"

namespace raystream {

std::string denoiser_description(const AtrousSettings& settings) {
  return "a-trous, " + std::to_string(settings.iterations) + " steps, " +
         (settings.demodulate ? "irradiance" : "radiance");
}

void check_denoise_arguments(int width, int height, const AtrousSettings& settings,
                             const char* function) {
  if (width <= 0 || height <= 0)
    throw std::invalid_argument(std::string(function) + ": the image is empty (" +
                                std::to_string(width) + " x " + std::to_string(height) + ")");
  if (settings.iterations < 0 || settings.iterations > 16)
    throw std::invalid_argument(
        std::string(function) + ": " + std::to_string(settings.iterations) +
        " iterations (0 to 16: a 17th step's taps, 65536 pixels apart, would leave any image)");
}

float largest_finite(const float* values, std::size_t n) {
  float largest = 0.0f;
#pragma omp parallel for schedule(static) reduction(max : largest) if (n > 65536)
  for (std::size_t k = 0; k < n; ++k) {
    const float v = std::fabs(values[k]);
    if (denoise_finite(v) && v > largest) largest = v;
  }
  return largest;
}

DenoiseTimes denoise_cpu(int width, int height, const float* rgb, const float* first_hits,
                         float* out, const AtrousSettings& asked, const DenoiseStop& stop) {
  check_denoise_arguments(width, height, asked, "denoise_cpu");
  const auto start = std::chrono::steady_clock::now();
  const long long n = static_cast<long long>(width) * height;
  AtrousSettings settings = asked;
  settings.scale = denoise_scale(largest_finite(rgb, 3 * std::size_t(n)));
  DenoiseTimes times;
  const auto stopped = [&] { return times.stopped = stop && stop(); };
  // Small images run on one thread: starting the team would cost more than the work.
  const bool parallel = n > 16384;
  std::vector<DenoiseGuide> guides(static_cast<std::size_t>(n));
  std::vector<glm::vec4> color(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n));

#pragma omp parallel for schedule(static) if (parallel)
  for (long long p = 0; p < n; ++p)
    denoise_prepare(rgb + 3 * p, first_hits + kDenoiseGuideSums * p, settings, guides[p], color[p]);

  DenoiseView view{width, height, guides.data(), color.data()};
  if (stopped()) return times;
#pragma omp parallel for schedule(static) if (parallel)
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      next[std::size_t(y) * width + x] = denoise_variance(view, x, y, settings);
  std::swap(color, next);
  view.color = color.data();
  if (stopped()) return times;
#pragma omp parallel for schedule(static) if (parallel)
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      next[std::size_t(y) * width + x] = denoise_least_variance(view, x, y);
  std::swap(color, next);

  for (int i = 0; i < settings.iterations; ++i) {
    if (stopped()) return times;
    view.color = color.data();
    const float sigma = denoise_luminance_sigma(settings, i);
#pragma omp parallel for schedule(static) if (parallel)
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        next[std::size_t(y) * width + x] = denoise_atrous(view, x, y, 1 << i, sigma, settings);
    std::swap(color, next);
  }

  if (stopped()) return times;
#pragma omp parallel for schedule(static) if (parallel)
  for (long long p = 0; p < n; ++p) {
    const glm::vec3 c = denoise_finish(guides[p], color[p], settings, rgb + 3 * p);
    out[3 * p] = c.x, out[3 * p + 1] = c.y, out[3 * p + 2] = c.z;
  }
  times.filter_ms = times.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return times;
}

}  // namespace raystream
