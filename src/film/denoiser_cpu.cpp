// The denoiser on the CPU: each pass of film/atrous.h as an OpenMP loop over the rows.
#include <chrono>
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

DenoiseTimes denoise_cpu(int width, int height, const float* rgb, const float* first_hits,
                         float* out, const AtrousSettings& settings) {
  check_denoise_arguments(width, height, settings, "denoise_cpu");
  const auto start = std::chrono::steady_clock::now();
  const long long n = static_cast<long long>(width) * height;
  // Small images run on one thread: starting the team would cost more than the work.
  const bool parallel = n > 16384;
  std::vector<DenoiseGuide> guides(static_cast<std::size_t>(n));
  std::vector<glm::vec4> color(static_cast<std::size_t>(n)), next(static_cast<std::size_t>(n));

#pragma omp parallel for schedule(static) if (parallel)
  for (long long p = 0; p < n; ++p)
    denoise_prepare(rgb + 3 * p, first_hits + kDenoiseGuideSums * p, settings, guides[p], color[p]);

  DenoiseView view{width, height, guides.data(), color.data()};
#pragma omp parallel for schedule(static) if (parallel)
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      next[std::size_t(y) * width + x] = denoise_variance(view, x, y, settings);
  std::swap(color, next);
  view.color = color.data();
#pragma omp parallel for schedule(static) if (parallel)
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      next[std::size_t(y) * width + x] = denoise_least_variance(view, x, y);
  std::swap(color, next);

  for (int i = 0; i < settings.iterations; ++i) {
    view.color = color.data();
    const float sigma = denoise_luminance_sigma(settings, i);
#pragma omp parallel for schedule(static) if (parallel)
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        next[std::size_t(y) * width + x] = denoise_atrous(view, x, y, 1 << i, sigma, settings);
    std::swap(color, next);
  }

#pragma omp parallel for schedule(static) if (parallel)
  for (long long p = 0; p < n; ++p) {
    const glm::vec3 c = denoise_finish(guides[p], color[p], settings);
    out[3 * p] = c.x, out[3 * p + 1] = c.y, out[3 * p + 2] = c.z;
  }
  DenoiseTimes times;
  times.filter_ms = times.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return times;
}

}  // namespace raystream
