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
#include "integrator/path/path_state.h"
#include "integrator/path/roulette.h"
#include "materials/bsdf.h"

namespace raystream {

// The surface a ray's closest hit found (hit.material >= 0).
RAYSTREAM_HD inline SurfaceHit surface_hit(const Ray& ray, const Hit& hit) {
  SurfaceHit s;
  s.point = point_at(ray, hit.t);
  s.normal = hit.normal;
  s.material = hit.material;
  s.light = hit.light;
  s.uv = hit.uv;
  return s;
}

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
  const Ray ray = camera_ray(camera, static_cast<int>(pixel % width),
                             static_cast<int>(pixel / width), jx, jy, lx, ly);
  PathSample p;
  p.origin = ray.origin;
  p.direction = ray.direction;
  p.throughput = glm::vec3(1.0f);
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

// Random-number stream of the light sample at bounce `depth` (separate from the path's own, so
// the BSDF-only and the NEE estimators trace the same paths).
RAYSTREAM_HD inline Rng light_rng(std::uint32_t pixel, std::uint32_t sample, int depth,
                                  std::uint64_t seed) {
  return Rng(pixel, sample, (static_cast<std::uint32_t>(depth) + 1u) | 0x40000000u, seed);
}

// False for infinities and NaN (x - x is NaN for both); the build does not use fast math.
RAYSTREAM_HD inline bool is_finite(float x) {
  return x - x == 0.0f;
}

RAYSTREAM_HD inline bool is_finite(const glm::vec3& v) {
  return is_finite(v.x) && is_finite(v.y) && is_finite(v.z);
}

// The one rule for non-finite values, in every schedule and executor: each contribution to a
// path's pixel (an emitter hit, an escaped ray's environment, a shadow ray's light) is checked
// where it is made, and a non-finite one is dropped alone; the rest of the path counts. (A sum of
// finite contributions that overflows is dropped at the film, by deposit.)
RAYSTREAM_HD inline void add_finite(glm::vec3& sum, const glm::vec3& contribution) {
  if (is_finite(contribution)) sum += contribution;
}

// Where a ray leaving point p (normal n) in direction w starts: off the surface on w's side.
RAYSTREAM_HD inline glm::vec3 offset_origin(const glm::vec3& p, const glm::vec3& n,
                                            const glm::vec3& w) {
  return p + ray_offset(p) * (glm::dot(w, n) > 0.0f ? n : -n);
}

// The material's albedo at texture coordinates uv: its colour times its texture's, if any.
RAYSTREAM_HD inline glm::vec3 surface_albedo(const SceneView& scene, const MaterialData& m,
                                             const glm::vec2& uv) {
  return m.texture >= 0 ? m.albedo * texture_lookup(scene.textures[m.texture], uv) : m.albedo;
}

// Shades the path's hit:
//   1. emission: an emitter's radiance, weighted against light sampling by MIS (weight 1 after a
//      delta bounce, for camera rays, and with scene.nee off);
//   2. next-event estimation (scene.nee, a non-delta BSDF): a light sample, MIS-weighted against
//      the BSDF's density, queued in `shadow` for a shadow ray;
//   3. BSDF sampling, throughput, Russian roulette.
// Returns false when the path ends here (absorbed, a black BSDF, lost the roulette, or max_depth
// bounces reached); true when it goes on with a new ray and depth + 1.
// Lobe: AnyLobe serves every material (dispatching on its kind); a smaller LobeSet or a lobe type
// serves only the materials of those lobes (a specialized megakernel; a material queue's kernel).
// Nee false compiles next-event estimation out (scene.nee must then be false).
template <class Lobe = AnyLobe, bool Nee = true>
RAYSTREAM_HD inline bool scatter_path(PathSample& p, const SceneView& scene, const SurfaceHit& hit,
                                      int max_depth, std::uint64_t seed, ShadowRay& shadow) {
  const MaterialData& m = scene.materials[hit.material];
  const glm::vec3 wo = -p.direction;
  if (is_emissive(m)) {
    const glm::vec3 le = emitted_radiance(m, wo, hit.normal);
    float w = 1.0f;
    if (Nee && scene.nee && p.bsdf_pdf > 0.0f)
      w = power_heuristic(p.bsdf_pdf,
                          light_pdf(scene.lights, hit.light, p.origin, hit.point, hit.normal));
    add_finite(p.radiance, p.throughput * (le * w));  // w <= 1 first: no overflow between
  }
  if (p.depth + 1 >= max_depth) return false;
  const glm::vec3 albedo = LobeTextured<Lobe>::value ? surface_albedo(scene, m, hit.uv) : m.albedo;
  if (Nee && scene.nee && !is_specular<Lobe>(m)) {
    Rng lr = light_rng(p.pixel, p.sample, p.depth, seed);
    const float uc = lr.next_float(), u0 = lr.next_float(), u1 = lr.next_float(),
                u2 = lr.next_float();
    const LightSample ls = sample_light(scene.lights, hit.point, uc, u0, u1, u2);
    if (ls.pdf > 0.0f && (ls.radiance.x > 0.0f || ls.radiance.y > 0.0f || ls.radiance.z > 0.0f)) {
      const glm::vec3 f = eval_bsdf<Lobe>(m, albedo, wo, ls.wi, hit.normal);
      if (f.x > 0.0f || f.y > 0.0f || f.z > 0.0f) {
        const float w = power_heuristic(ls.pdf, pdf_bsdf<Lobe>(m, wo, ls.wi, hit.normal));
        // The ray leaves from off the surface, so it aims at the light's point from there: aimed
        // along wi, it could pass beside a small light's edge, or meet another part of the
        // light's plane than the one sampled.
        shadow.origin = offset_origin(hit.point, hit.normal, ls.wi);
        shadow.direction = ls.wi;
        if (ls.distance < kNoLightDistance)
          shadow.direction = glm::normalize(hit.point + ls.distance * ls.wi - shadow.origin);
        shadow.light = ls.primitive;
        shadow.radiance = p.throughput * f * ls.radiance * (w / ls.pdf);
        shadow.queued = is_finite(shadow.radiance);  // a non-finite one is dropped alone
      }
    }
  }
  Rng rng = path_rng(p.pixel, p.sample, p.depth, seed);
  const float uc = rng.next_float(), u1 = rng.next_float(), u2 = rng.next_float();
  const BsdfSample s = sample_bsdf<Lobe>(m, albedo, wo, hit.normal, uc, u1, u2);
  p.throughput *= s.weight;
  const bool black = !(p.throughput.x > 0.0f || p.throughput.y > 0.0f || p.throughput.z > 0.0f);
  if (black || !survive_roulette(p.throughput, p.depth, rng.next_float())) return false;
  p.bsdf_pdf = Nee && scene.nee && !s.delta ? s.pdf : 0.0f;
  p.origin = offset_origin(hit.point, hit.normal, s.wi);
  p.direction = s.wi;
  ++p.depth;
  return true;
}

// What an escaped path sees: the environment's radiance, weighted by MIS against light sampling.
template <bool Nee = true>
RAYSTREAM_HD inline glm::vec3 escaped_radiance(const SceneView& scene, const glm::vec3& direction,
                                               const glm::vec3& throughput, float bsdf_pdf) {
  if (!scene.lights.env.present) return glm::vec3(0.0f);
  float w = 1.0f;
  if (Nee && scene.nee && bsdf_pdf > 0.0f)
    w = power_heuristic(bsdf_pdf, environment_light_pdf(scene.lights, direction));
  return throughput * environment_radiance(scene.lights.env, direction) * w;
}

// What a camera ray's first hit adds to its pixel's first-hit sums (the albedo, normal and depth
// AOVs): kFirstHitValues floats, in this order.
struct FirstHitSums {
  glm::vec3 albedo{0.0f};  // the surface's albedo (a denoiser's albedo feature)
  glm::vec3 normal{0.0f};  // the shading normal, world space
  float depth = 0.0f;      // distance from where the camera ray started
  float hits = 0.0f;       // samples that hit a surface
};
static_assert(sizeof(FirstHitSums) == 8 * sizeof(float), "eight floats (kFirstHitValues)");

// The film: sums of the samples' radiance per pixel (the image is the sum over the samples per
// pixel). With count_samples every ending path adds exactly 1 instead (a test mode: each pixel's
// sum then counts its samples). The other layers are kept when their pointer is set
// (FilmLayers). How many samples each pixel got is not counted here: every schedule ends a
// contiguous range of sample numbers, so the host knows it (add_sample_range).
//
// A sample's light reaches its pixel in pieces (a shadow ray's as it is traced, the rest when the
// path ends), each a few atomic adds and none for black, unless the variance layer is kept
// (squares): that needs each sample whole, so then a path carries its shadow rays' light and
// adds it once, at its end.
struct FilmView {
  glm::vec3* sums = nullptr;
  bool count_samples = false;
  glm::vec3* squares = nullptr;        // each sample's radiance squared, summed; null: not kept
  FirstHitSums* first_hits = nullptr;  // null: not kept
  RAYSTREAM_HD bool whole_samples() const { return squares != nullptr; }
};

RAYSTREAM_HD inline void atomic_add(float* sum, float value) {
#if defined(__CUDA_ARCH__)
  atomicAdd(sum, value);
#else
#pragma omp atomic
  *sum += value;
#endif
}

RAYSTREAM_HD inline void atomic_add(glm::vec3* sum, const glm::vec3& value) {
  atomic_add(&sum->x, value.x);
  atomic_add(&sum->y, value.y);
  atomic_add(&sum->z, value.z);
}

// Adds radiance to its pixel's sum. Samples of the same pixel may end at the same time (stream
// schedule, both executors), so the adds are atomic; their order, and so the rounding of the
// sums, depends on the schedule. Non-finite radiance is dropped: it would poison the pixel.
RAYSTREAM_HD inline void deposit(const FilmView& film, std::uint32_t pixel, glm::vec3 value) {
  if (film.count_samples) value = glm::vec3(1.0f);
  if (!is_finite(value)) return;
  if (value.x == 0.0f && value.y == 0.0f && value.z == 0.0f) return;  // nothing to add
  atomic_add(film.sums + pixel, value);
}

// A path has ended with its radiance `value` (with whole_samples, its shadow rays' included):
// adds it to its pixel, and its square for the variance. A non-finite value counts as 0.
RAYSTREAM_HD inline void finish_sample(const FilmView& film, std::uint32_t pixel,
                                       const glm::vec3& value) {
  deposit(film, pixel, value);
  if (film.squares && !film.count_samples && is_finite(value)) {
    const glm::vec3 square = value * value;
    if (is_finite(square) && (square.x > 0.0f || square.y > 0.0f || square.z > 0.0f))
      atomic_add(film.squares + pixel, square);
  }
}

// The albedo a denoiser wants at a camera ray's first hit: the surface's (texture included); for
// an emitter that does not reflect, its emitted colour scaled to a largest component of 1.
RAYSTREAM_HD inline glm::vec3 first_hit_albedo(const SceneView& scene, const SurfaceHit& hit) {
  const MaterialData& m = scene.materials[hit.material];
  if (static_cast<BsdfKind>(m.kind) == BsdfKind::none) {
    const float largest = fmaxf(m.emission.x, fmaxf(m.emission.y, m.emission.z));
    return largest > 0.0f && is_finite(largest) ? m.emission / largest : glm::vec3(0.0f);
  }
  return surface_albedo(scene, m, hit.uv);
}

// Adds a camera ray's first hit (a path at depth 0 about to be shaded) to the first-hit sums,
// when the film keeps them.
RAYSTREAM_HD inline void record_first_hit(const FilmView& film, const SceneView& scene,
                                          const PathSample& p, const SurfaceHit& hit) {
  if (film.first_hits == nullptr || p.depth != 0) return;
  FirstHitSums* sums = film.first_hits + p.pixel;
  atomic_add(&sums->albedo, first_hit_albedo(scene, hit));
  atomic_add(&sums->normal, hit.normal);
  const float distance = glm::length(hit.point - p.origin);
  if (is_finite(distance)) atomic_add(&sums->depth, distance);
  atomic_add(&sums->hits, 1.0f);
}

// Per path depth: paths_in[d] = paths that traced a ray at depth d, paths_out[d] = those that went
// on to depth d + 1. Counted with one atomic per group of equal depths in a warp (GPU).
struct DepthCounts {
  unsigned long long* paths_in = nullptr;     // max_depth entries
  unsigned long long* paths_out = nullptr;    // max_depth entries
  unsigned long long* shadow_rays = nullptr;  // max_depth entries: shadow rays queued at depth d
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
