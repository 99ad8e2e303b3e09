// One path's steps, shared by every schedule: the wavefront stages load a path from the state
// arrays, call these, and store it back; the megakernel keeps the path in registers and calls
// the same functions in a loop. Random numbers are keyed by (pixel, sample, depth, seed), so a
// path draws the same numbers whichever schedule, pool size, executor or order runs it.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/rng.h"
#include "geometry/camera.h"
#include "geometry/ray.h"
#include "integrator/roulette.h"
#include "materials/bsdf.h"

namespace raystream {

// A path between bounces.
struct PathSample {
  Ray ray;
  glm::vec3 throughput{1.0f};
  glm::vec3 radiance{0.0f};
  std::uint32_t pixel = 0;
  std::uint32_t sample = 0;
  int depth = 0;  // bounces done
};

// Random-number stream 0 of a sample is its camera ray; stream depth + 1 its bounce at `depth`.
RAYSTREAM_HD inline Rng path_rng(std::uint32_t pixel, std::uint32_t sample, int depth,
                                 std::uint64_t seed) {
  return Rng(pixel, sample, static_cast<std::uint32_t>(depth) + 1u, seed);
}

// The camera path of sample `sample` of `pixel` (row-major, row 0 at the top).
RAYSTREAM_HD inline PathSample camera_path(const CameraFrame& camera, std::uint32_t pixel,
                                           std::uint32_t sample, std::uint64_t seed) {
  const auto width = static_cast<std::uint32_t>(camera.width);
  Rng rng(pixel, sample, 0u, seed);
  const float jx = rng.next_float();
  const float jy = rng.next_float();
  const float lx = rng.next_float();
  const float ly = rng.next_float();
  PathSample p;
  p.ray = camera_ray(camera, static_cast<int>(pixel % width), static_cast<int>(pixel / width), jx,
                     jy, lx, ly);
  p.pixel = pixel;
  p.sample = sample;
  return p;
}

// New rays start off the surface, on the side they leave from, by this much relative to the
// size of the hit point's coordinates (float spacing grows with them): 1.1e-4 at 10 units.
inline constexpr float kRelativeRayOffset = 1.0e-5f;

RAYSTREAM_HD inline float ray_offset(const glm::vec3& p) {
  return kRelativeRayOffset * (1.0f + fmaxf(fabsf(p.x), fmaxf(fabsf(p.y), fabsf(p.z))));
}

// Shades the path's hit: emission, then BSDF sampling, throughput and Russian roulette. Returns
// false when the path ends here (it hit an emitter, was absorbed, lost the roulette, or reached
// max_depth bounces); true when it goes on with a new ray and depth + 1.
RAYSTREAM_HD inline bool scatter_path(PathSample& p, const MaterialData& material,
                                      const glm::vec3& point, const glm::vec3& normal,
                                      int max_depth, std::uint64_t seed) {
  if (is_emitter(material)) {
    p.radiance += p.throughput * emitted_radiance(material);
    return false;
  }
  if (p.depth + 1 >= max_depth) return false;
  Rng rng = path_rng(p.pixel, p.sample, p.depth, seed);
  const BsdfSample s = sample_bsdf(material, p.ray.direction, normal, rng);
  p.throughput *= s.weight;
  const bool black = !(p.throughput.x > 0.0f || p.throughput.y > 0.0f || p.throughput.z > 0.0f);
  if (black || !survive_roulette(p.throughput, p.depth, rng.next_float())) return false;
  p.ray.origin = point + ray_offset(point) * s.side;
  p.ray.direction = s.direction;
  ++p.depth;
  return true;
}

// False for infinities and NaN (x - x is NaN for both); the build does not use fast math.
RAYSTREAM_HD inline bool is_finite(float x) {
  return x - x == 0.0f;
}

// The film: sums of the samples' radiance per pixel (the image is the sum over samples per
// pixel). With count_samples every ending path adds exactly 1 instead (a test mode: each pixel
// then holds its number of samples).
struct FilmView {
  glm::vec3* sums = nullptr;
  bool count_samples = false;
};

// Adds an ended path's radiance to its pixel. Paths of the same pixel may end at the same time
// (stream schedule, both executors), so the adds are atomic; their order, and so the rounding of
// the sums, depends on the schedule. Non-finite radiance is dropped: it would poison the pixel.
RAYSTREAM_HD inline void deposit(const FilmView& film, std::uint32_t pixel, glm::vec3 value) {
  if (film.count_samples) value = glm::vec3(1.0f);
  if (!(is_finite(value.x) && is_finite(value.y) && is_finite(value.z))) return;
  if (value.x == 0.0f && value.y == 0.0f && value.z == 0.0f) return;  // nothing to add
  float* sum = &film.sums[pixel].x;
#if defined(__CUDA_ARCH__)
  atomicAdd(sum + 0, value.x);
  atomicAdd(sum + 1, value.y);
  atomicAdd(sum + 2, value.z);
#else
#pragma omp atomic
  sum[0] += value.x;
#pragma omp atomic
  sum[1] += value.y;
#pragma omp atomic
  sum[2] += value.z;
#endif
}

// Per path depth: paths_in[d] = paths that traced a ray at depth d, paths_out[d] = those that went
// on to depth d + 1. Counted with one atomic per group of equal depths in a warp (GPU).
struct DepthCounts {
  unsigned long long* paths_in = nullptr;   // max_depth entries
  unsigned long long* paths_out = nullptr;  // max_depth entries
};

RAYSTREAM_HD inline void count_depth(unsigned long long* counts, int depth) {
#if defined(__CUDA_ARCH__)
  const unsigned active = __activemask();
  const unsigned peers = __match_any_sync(active, depth);
  if ((threadIdx.x & 31u) == static_cast<unsigned>(__ffs(peers) - 1))
    atomicAdd(counts + depth, static_cast<unsigned long long>(__popc(peers)));
#else
#pragma omp atomic
  counts[depth] += 1ull;
#endif
}

}  // namespace raystream
