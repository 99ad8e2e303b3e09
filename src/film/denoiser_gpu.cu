// The denoiser on the GPU: each pass of film/atrous.h as a CUDA kernel of 16 x 16 pixel blocks,
// on buffers allocated for the call; the image and its first-hit sums come from host memory and
// the result goes back there, timed apart from the kernels.
#include <cuda_runtime.h>

#include <chrono>
#include <cstddef>
#include <utility>

#include "film/denoiser.h"
#include "primitives/error.h"

namespace raystream {
namespace {

constexpr int kTile = 16;

__global__ void prepare_kernel(std::size_t n, const float* rgb, const float* first_hits,
                               AtrousSettings settings, DenoiseGuide* guides, glm::vec4* color) {
  const std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p < n)
    denoise_prepare(rgb + 3 * p, first_hits + kDenoiseGuideSums * p, settings, guides[p], color[p]);
}

__global__ void variance_kernel(DenoiseView view, AtrousSettings settings, glm::vec4* out) {
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  if (x < view.width && y < view.height)
    out[std::size_t(y) * view.width + x] = denoise_variance(view, x, y, settings);
}

__global__ void least_variance_kernel(DenoiseView view, glm::vec4* out) {
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  if (x < view.width && y < view.height)
    out[std::size_t(y) * view.width + x] = denoise_least_variance(view, x, y);
}

__global__ void atrous_kernel(DenoiseView view, int step, float sigma_luminance,
                              AtrousSettings settings, glm::vec4* out) {
  const int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  if (x < view.width && y < view.height)
    out[std::size_t(y) * view.width + x] =
        denoise_atrous(view, x, y, step, sigma_luminance, settings);
}

// `out` holds the radiance too (a kept pixel's is read before it is written).
__global__ void finish_kernel(std::size_t n, const DenoiseGuide* guides, const glm::vec4* color,
                              AtrousSettings settings, float* out) {
  const std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (p >= n) return;
  const glm::vec3 c = denoise_finish(guides[p], color[p], settings, out + 3 * p);
  out[3 * p] = c.x, out[3 * p + 1] = c.y, out[3 * p + 2] = c.z;
}

// Device memory of the call, freed on every way out.
template <class T>
struct DeviceArray {
  T* data = nullptr;
  explicit DeviceArray(std::size_t n) { PRIM_CUDA_CHECK(cudaMalloc(&data, n * sizeof(T))); }
  ~DeviceArray() { cudaFree(data); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

struct Event {
  cudaEvent_t event = nullptr;
  Event() { PRIM_CUDA_CHECK(cudaEventCreate(&event)); }
  ~Event() { cudaEventDestroy(event); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
};

float elapsed_ms(const Event& from, const Event& to) {
  float ms = 0.0f;
  PRIM_CUDA_CHECK(cudaEventElapsedTime(&ms, from.event, to.event));
  return ms;
}

}  // namespace

DenoiseTimes denoise_gpu(int width, int height, const float* rgb, const float* first_hits,
                         float* out, const AtrousSettings& asked, const DenoiseStop& stop) {
  check_denoise_arguments(width, height, asked, "denoise_gpu");
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = std::size_t(width) * std::size_t(height);
  AtrousSettings settings = asked;
  settings.scale = denoise_scale(largest_finite(rgb, 3 * n));
  DenoiseTimes times;
  // Polled before each pass is queued; the passes queued before a stop still run (they take
  // milliseconds), and nothing comes back.
  const auto stopped = [&] { return times.stopped = stop && stop(); };
  // With lazy module loading the first launch of a kernel loads it; load them now, so that the
  // kernels' time is the filter's.
  cudaFuncAttributes attributes;
  PRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, prepare_kernel));
  PRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, variance_kernel));
  PRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, least_variance_kernel));
  PRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, atrous_kernel));
  PRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, finish_kernel));

  DeviceArray<float> d_rgb(3 * n), d_first_hits(kDenoiseGuideSums * n);
  DeviceArray<DenoiseGuide> guides(n);
  DeviceArray<glm::vec4> color(n), next(n);
  Event uploaded_from, uploaded, filtered, downloaded;

  PRIM_CUDA_CHECK(cudaEventRecord(uploaded_from.event));
  PRIM_CUDA_CHECK(cudaMemcpy(d_rgb.data, rgb, 3 * n * sizeof(float), cudaMemcpyHostToDevice));
  PRIM_CUDA_CHECK(cudaMemcpy(d_first_hits.data, first_hits, kDenoiseGuideSums * n * sizeof(float),
                             cudaMemcpyHostToDevice));
  PRIM_CUDA_CHECK(cudaEventRecord(uploaded.event));

  const unsigned linear_blocks = unsigned((n + 255) / 256);
  const dim3 tiles(unsigned((width + kTile - 1) / kTile), unsigned((height + kTile - 1) / kTile));
  const dim3 tile(kTile, kTile);
  prepare_kernel<<<linear_blocks, 256>>>(n, d_rgb.data, d_first_hits.data, settings, guides.data,
                                         color.data);
  PRIM_LAUNCH_CHECK("prepare_kernel");
  glm::vec4* current = color.data;
  glm::vec4* other = next.data;
  if (stopped()) return times;
  variance_kernel<<<tiles, tile>>>(DenoiseView{width, height, guides.data, current}, settings,
                                   other);
  PRIM_LAUNCH_CHECK("variance_kernel");
  std::swap(current, other);
  least_variance_kernel<<<tiles, tile>>>(DenoiseView{width, height, guides.data, current}, other);
  PRIM_LAUNCH_CHECK("least_variance_kernel");
  std::swap(current, other);
  for (int i = 0; i < settings.iterations; ++i) {
    if (stopped()) return times;
    atrous_kernel<<<tiles, tile>>>(DenoiseView{width, height, guides.data, current}, 1 << i,
                                   denoise_luminance_sigma(settings, i), settings, other);
    PRIM_LAUNCH_CHECK("atrous_kernel");
    std::swap(current, other);
  }
  if (stopped()) return times;
  // The result goes where the radiance came from (only kept pixels read it after prepare_kernel,
  // each its own).
  finish_kernel<<<linear_blocks, 256>>>(n, guides.data, current, settings, d_rgb.data);
  PRIM_LAUNCH_CHECK("finish_kernel");
  PRIM_CUDA_CHECK(cudaEventRecord(filtered.event));

  PRIM_CUDA_CHECK(cudaMemcpy(out, d_rgb.data, 3 * n * sizeof(float), cudaMemcpyDeviceToHost));
  PRIM_CUDA_CHECK(cudaEventRecord(downloaded.event));
  PRIM_CUDA_CHECK(cudaEventSynchronize(downloaded.event));

  times.upload_ms = elapsed_ms(uploaded_from, uploaded);
  times.filter_ms = elapsed_ms(uploaded, filtered);
  times.download_ms = elapsed_ms(filtered, downloaded);
  times.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return times;
}

}  // namespace raystream
