// One path's steps, shared by every schedule: the wavefront stages load a path from the state
// arrays, call these, and store it back; the megakernel keeps the path in registers and calls
// the same functions in a loop. Random numbers are keyed by (pixel, sample, depth, seed), so a
// path draws the same numbers whichever schedule, pool size, executor or order runs it.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/finite.h"
#include "core/rng.h"
#include "execution/atomics.h"
#include "film/film_view.h"
#include "geometry/camera.h"
#include "geometry/ray.h"
#include "integrator/path/path_state.h"
#include "integrator/path/roulette.h"
#include "materials/bsdf.h"

namespace raystream {

// The surface a path hit, as the shade step needs it: rebuilt from the hit record by surface_at.
struct SurfaceHit {
  glm::vec3 point{0.0f};
  glm::vec3 normal{0.0f};  // unit, outward
  std::int32_t material = -1;
  std::int32_t light = -1;  // the light it is, -1: none
  glm::vec2 uv{0.0f};
};

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
RAYSTREAM_HD inline bool scatter_path(PathSample& p, const SceneView& scene, const FilmView& film,
                                      const SurfaceHit& hit, int max_depth, std::uint64_t seed,
                                      ShadowRay& shadow) {
  const MaterialData& m = scene.materials[hit.material];
  const glm::vec3 wo = -p.direction;
  if (is_emissive(m)) {
    const glm::vec3 le = emitted_radiance(m, wo, hit.normal);
    float w = 1.0f;
    if (Nee && scene.nee && p.bsdf_pdf > 0.0f)
      w = power_heuristic(p.bsdf_pdf,
                          light_pdf(scene.lights, hit.light, p.origin, hit.point, hit.normal));
    gather(film, p.pixel, p.radiance, p.throughput * (le * w));  // w <= 1 first: no overflow
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
        shadow.pixel = p.pixel;
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
  add_first_hit(film, p.pixel, first_hit_albedo(scene, hit), hit.normal,
                glm::length(hit.point - p.origin));
}

// Per path depth: paths_in[d] = paths that traced a ray at depth d, paths_out[d] = those that went
// on to depth d + 1. Counted with one atomic per group of equal depths in a warp (GPU).
struct DepthCounts {
  unsigned long long* paths_in = nullptr;     // max_depth entries
  unsigned long long* paths_out = nullptr;    // max_depth entries
  unsigned long long* shadow_rays = nullptr;  // max_depth entries: shadow rays queued at depth d
};

RAYSTREAM_HD inline void count_depth(unsigned long long* counts, int depth) {
  count_by_key(counts, depth);
}

}  // namespace raystream
