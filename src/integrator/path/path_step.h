// One path's steps, shared by every schedule: the wavefront stages load a path from the state
// arrays, call these, and store it back; the megakernel keeps the path in registers and calls
// the same functions in a loop. Random numbers are keyed by (pixel, sample, depth, seed), so a
// path draws the same numbers whichever schedule, pool size, executor or order runs it.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/finite.h"
#include "core/host_device.h"
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
  glm::vec3 normal{0.0f};  // unit, outward: the interpolated vertex normal (see surface_at)
  std::int32_t material = -1;
  std::int32_t light = -1;  // the light it is, -1: none
  glm::vec2 uv{0.0f};
  glm::vec3 geometric_normal{0.0f};
  float distance = 0.0f;  // along the ray
  HitRecord record;       // for what only textured materials read (texture_details)
};

// The surface a ray's closest hit found (hit.material >= 0).
RAYSTREAM_HD inline SurfaceHit surface_hit(const Ray& ray, const Hit& hit) {
  SurfaceHit s;
  s.point = point_at(ray, hit.t);
  s.normal = hit.normal;
  s.material = hit.material;
  s.light = hit.light;
  s.uv = hit.uv;
  s.geometric_normal = hit.geometric_normal;
  s.distance = hit.t;
  return s;
}

// The surface of a hit record.
RAYSTREAM_HD inline SurfaceHit surface_of(const SceneView& scene, const Ray& ray,
                                          const HitRecord& record) {
  SurfaceHit s = surface_hit(ray, surface_at(scene.geometry, ray, record));
  s.record = record;
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

// The angle of a camera sample's ray cone as a fraction of its pixel's. The samples of a pixel
// already average the shading over the pixel, so a sample filters its textures over a cone of a
// fraction of it: pbrt-v4 scales its camera ray differentials by max(1/8, 1/sqrt(spp)), 1/8 from
// 64 samples a pixel on; the fraction here is that floor for every render (a render of few
// samples sees more texture noise, which its samples average away). Filtering over the whole
// pixel, a normal or roughness map averaged over a coarse mip level changes what the surface
// reflects: the textured helmet then differed from Cycles (full-resolution textures) by 5-6%
// in two of 64 regions, against under 3% at this fraction (renders/materials/RESULTS.md).
inline constexpr float kSampleConeFraction = 0.125f;

// Where the hit reads its textures: both sets of coordinates, and the level of detail of a ray
// cone (Akenine-Moller et al. 2019): the cone's width at the hit, over the cosine of the
// incidence, in uv units (the triangle's uv-to-world ratio). A camera ray's cone is its sample's
// (distance x the sample's angle). A later hit's is approximated by the camera's at the hit's
// distance from the eye (pbrt-v4 approximates a bounce's footprint by the camera's at the point):
// no more than the width of the path's true cone, which spans at least that distance and widens
// at every curved or rough bounce, so a bounce never reads a coarser level than its footprint's
// (and the path carries no cone of its own).
RAYSTREAM_HD inline TexCoords tex_coords(const SceneView& scene, const PathSample& p,
                                         const SurfaceHit& hit, const TextureDetails& details) {
  TexCoords tc;
  tc.uv0 = hit.uv;
  tc.uv1 = details.uv1;
  tc.lod = -100.0f;
  if (details.texel_ratio != 0.0f) {
    const float spread = kSampleConeFraction * 2.0f * scene.camera.half_height /
                         static_cast<float>(scene.camera.height);
    const float distance = p.depth == 0 ? hit.distance : glm::length(hit.point - scene.camera.eye);
    const float cosine = fabsf(glm::dot(p.direction, hit.geometric_normal));
    const float width = distance * spread / fmaxf(cosine, 1.0e-3f);
    if (width > 0.0f) tc.lod = log2f(width) + details.texel_ratio;
  }
  return tc;
}

// The shading normal of a normal-mapped hit: the map's direction in the frame of the
// interpolated normal and the tangent, bent towards the geometric normal where the mirror
// direction of wo about it would fall below the surface (as Cycles does), so that no view sees
// a normal facing away from it. Without a usable tangent the map is read in any frame of the
// normal (its tilt then has no particular direction).
RAYSTREAM_HD inline glm::vec3 mapped_normal(const glm::vec3& local, const SurfaceHit& hit,
                                            const glm::vec4& tangent, const glm::vec3& wo) {
  const glm::vec3 n = hit.normal;
  glm::vec3 t = glm::vec3(tangent) - n * glm::dot(n, glm::vec3(tangent));
  const float tl = glm::length(t);
  glm::vec3 b;
  if (tl > 1.0e-6f) {
    t /= tl;
    b = (tangent.w < 0.0f ? -1.0f : 1.0f) * glm::cross(n, t);
  } else {
    orthonormal_basis(n, t, b);
  }
  glm::vec3 ns = glm::normalize(local.x * t + local.y * b + local.z * n);
  // Work on wo's side of the surface.
  const float side = glm::dot(wo, hit.geometric_normal) < 0.0f ? -1.0f : 1.0f;
  const glm::vec3 ng = side * hit.geometric_normal;
  ns *= side;
  if (glm::dot(ns, ng) < 0.0f) ns = -ns;
  const float threshold = fminf(0.9f * glm::dot(ng, wo), 0.01f);
  if (glm::dot(ng, 2.0f * glm::dot(ns, wo) * ns - wo) < threshold) {
    // Tilt ns towards ng until the reflection of wo lies `threshold` above the surface: bisect
    // the blend (monotone in practice, and cheap next to the lookups).
    float lo = 0.0f, hi = 1.0f;
    for (int k = 0; k < 12; ++k) {
      const float mid = 0.5f * (lo + hi);
      const glm::vec3 m = glm::normalize((1.0f - mid) * ns + mid * ng);
      if (glm::dot(ng, 2.0f * glm::dot(m, wo) * m - wo) < threshold)
        lo = mid;
      else
        hi = mid;
    }
    ns = glm::normalize((1.0f - hi) * ns + hi * ng);
  }
  return side * ns;
}

// Whether a pair of directions is on the sides of the geometry that the shading normal says:
// false where a shading normal would let light through the surface or reflect it from below.
RAYSTREAM_HD inline bool consistent_sides(const SurfaceHit& hit, const glm::vec3& ns,
                                          const glm::vec3& wo, const glm::vec3& wi) {
  const bool shading_same = glm::dot(wo, ns) * glm::dot(wi, ns) > 0.0f;
  const bool geometric_same =
      glm::dot(wo, hit.geometric_normal) * glm::dot(wi, hit.geometric_normal) > 0.0f;
  return shading_same == geometric_same;
}

// The emitted radiance of the hit, towards wo.
template <bool Textures = true>
RAYSTREAM_HD inline glm::vec3 hit_emission(const SceneView& scene, const MaterialData& m,
                                           const SurfaceHit& hit, const TexCoords& tc,
                                           const glm::vec3& wo) {
  const glm::vec3 e = Textures ? emission_at(m, scene.textures, tc) : m.emission;
  return emitted_radiance(m, e, wo, hit.normal);
}

// The radiance a light sample carries, its emission texture read at the sampled point (a
// triangle light's; the other lights are untextured).
RAYSTREAM_HD inline glm::vec3 light_sample_radiance(const SceneView& scene, const LightSample& ls) {
  if (ls.primitive < 0 || ls.primitive == kNoPrimitive) return ls.radiance;
  const TriangleShading& shading = scene.geometry.triangle_shading[ls.primitive];
  const MaterialData& m = scene.materials[shading.material];
  if (m.emission_texture < 0) return ls.radiance;
  TexCoords tc;
  const float u = ls.barycentrics.x, v = ls.barycentrics.y, w = 1.0f - u - v;
  tc.uv0 = w * shading.uv0 + u * shading.uv1 + v * shading.uv2;
  tc.uv1 = tc.uv0;
  if (shading.detail >= 0 && scene.geometry.triangle_details != nullptr) {
    const TriangleDetail& d = scene.geometry.triangle_details[shading.detail];
    tc.uv1 = w * d.uv0 + u * d.uv1 + v * d.uv2;
  }
  tc.lod = -100.0f;
  // ls.radiance is the material's emission factor (zero where the light does not face x).
  return ls.radiance * glm::vec3(read_binding(scene.textures, m.emission_texture, tc));
}

// Shades the path's hit:
//   1. emission: an emitter's radiance, weighted against light sampling by MIS (weight 1 after a
//      delta bounce, for camera rays, and with scene.nee off);
//   2. next-event estimation (scene.nee, a non-delta BSDF): a light sample, MIS-weighted against
//      the BSDF's density, queued in `shadow` for a shadow ray;
//   3. BSDF sampling, throughput, Russian roulette.
// The material's parameters are read once, at the hit's texture coordinates (material_eval.h);
// a normal map gives the BSDF its shading normal.
// Returns false when the path ends here (absorbed, a black BSDF, lost the roulette, or max_depth
// bounces reached); true when it goes on with a new ray and depth + 1.
// Lobe: AnyLobe serves every material (dispatching on its kind); a smaller LobeSet or a lobe type
// serves only the materials of those lobes (a specialized megakernel; a material queue's kernel).
// Nee false compiles next-event estimation out (scene.nee must then be false).
template <class Lobe = AnyLobe, bool Nee = true>
RAYSTREAM_HD RAYSTREAM_INLINE bool scatter_path(PathSample& p, const SceneView& scene,
                                                const FilmView& film, const SurfaceHit& hit,
                                                int max_depth, std::uint64_t seed,
                                                ShadowRay& shadow) {
  const MaterialData& m = scene.materials[hit.material];
  // Whether this material reads textures (code compiled without them never does).
  const bool textured = LobeTextured<Lobe>::value && m.textured;
  const glm::vec3 wo = -p.direction;
  TextureDetails details;
  TexCoords tc;
  if (textured) {
    details = texture_details(scene.geometry, hit.record, hit.uv);
    tc = tex_coords(scene, p, hit, details);
  }
  if (is_emissive(m)) {
    const glm::vec3 le = textured ? hit_emission<true>(scene, m, hit, tc, wo)
                                  : hit_emission<false>(scene, m, hit, tc, wo);
    float w = 1.0f;
    if (Nee && scene.nee && p.bsdf_pdf > 0.0f)
      w = power_heuristic(p.bsdf_pdf, light_pdf(scene.lights, hit.light, p.origin, hit.point,
                                                hit.geometric_normal));
    gather(film, p.pixel, p.radiance, p.throughput * (le * w));  // w <= 1 first: no overflow
  }
  if (p.depth + 1 >= max_depth) return false;
  const BsdfParams params = textured ? bsdf_params<true>(m, scene.textures, tc)
                                     : bsdf_params<false>(m, scene.textures, tc);
  glm::vec3 ns = hit.normal;
  const bool mapped = textured && m.normal_texture >= 0;
  if (mapped)
    ns = mapped_normal(tangent_space_normal(m, scene.textures, tc), hit, details.tangent, wo);
  if (Nee && scene.nee && !is_specular<Lobe>(params)) {
    Rng lr = light_rng(p.pixel, p.sample, p.depth, seed);
    const float uc = lr.next_float(), u0 = lr.next_float(), u1 = lr.next_float(),
                u2 = lr.next_float();
    LightSample ls = sample_light(scene.lights, hit.point, uc, u0, u1, u2);
    if (LobeTextured<Lobe>::value && scene.lights.textured && ls.pdf > 0.0f)
      ls.radiance = light_sample_radiance(scene, ls);
    if (ls.pdf > 0.0f && (ls.radiance.x > 0.0f || ls.radiance.y > 0.0f || ls.radiance.z > 0.0f) &&
        (!mapped || consistent_sides(hit, ns, wo, ls.wi))) {
      const glm::vec3 f = eval_bsdf<Lobe>(params, wo, ls.wi, ns);
      if (f.x > 0.0f || f.y > 0.0f || f.z > 0.0f) {
        const float w = power_heuristic(ls.pdf, pdf_bsdf<Lobe>(params, wo, ls.wi, ns));
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
  const BsdfSample s = sample_bsdf<Lobe>(params, wo, ns, uc, u1, u2);
  if (mapped && !consistent_sides(hit, ns, wo, s.wi)) return false;
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
RAYSTREAM_HD inline glm::vec3 first_hit_albedo(const SceneView& scene, const PathSample& p,
                                               const SurfaceHit& hit) {
  const MaterialData& m = scene.materials[hit.material];
  if (static_cast<BsdfKind>(m.kind) == BsdfKind::none) {
    const float largest = fmaxf(m.emission.x, fmaxf(m.emission.y, m.emission.z));
    return largest > 0.0f && is_finite(largest) ? m.emission / largest : glm::vec3(0.0f);
  }
  if (!m.textured) return m.albedo;
  return albedo_at(m, scene.textures,
                   tex_coords(scene, p, hit, texture_details(scene.geometry, hit.record, hit.uv)));
}

// Adds a camera ray's first hit (a path at depth 0 about to be shaded) to the first-hit sums,
// when the film keeps them.
RAYSTREAM_HD RAYSTREAM_INLINE void record_first_hit(const FilmView& film, const SceneView& scene,
                                                    const PathSample& p, const SurfaceHit& hit) {
  if (film.first_hits == nullptr || p.depth != 0) return;
  add_first_hit(film, p.pixel, first_hit_albedo(scene, p, hit), hit.normal,
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
