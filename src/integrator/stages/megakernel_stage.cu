// The megakernel: one thread per sample traces its path from the camera to its end with the path
// in registers, calling the same per-path code as the wavefront stages (path_step.h), and
// deposits it on the film. No path state in memory, no compaction: the baseline every wavefront
// schedule is measured against.
#include <type_traits>

#include "execution/parallel_for.cuh"
#include "integrator/path/alpha_test.h"
#include "integrator/stages/stages.h"

namespace raystream {

namespace {

template <class Lobes, bool Nee>
struct MegakernelBody {
  StageContext k;  // k.film carries: the path's radiance stays in registers until it ends
  std::uint32_t sample;
  std::uint32_t first_pixel;

  RAYSTREAM_HD RAYSTREAM_INLINE void operator()(std::size_t i) const {
    if (i < first_pixel) return;
    const SceneView& scene = k.scene;
    AlphaTest alpha = alpha_test(scene);
    PathSample p = camera_path(scene.camera, static_cast<std::uint32_t>(i), sample, k.seed);
    while (true) {
      count_depth(k.counts.paths_in, p.depth);
      const Ray ray = p.ray();
      // The classic set has no alpha test (LobeFeatures::classic); every other set has it.
      HitRecord record;
      if constexpr (LobeTextured<Lobes>::value) {
        alpha.key = blend_key(p.pixel, p.sample, p.depth, k.seed);
        record = nearest_hit(scene.geometry, ray, kMinHitDistance, alpha);
      } else {
        record = nearest_hit(scene.geometry, ray);
      }
      if (!record.hit()) {  // escaped
        gather(k.film, p.pixel, p.radiance,
               escaped_radiance<Nee>(scene, p.direction, p.throughput, p.bsdf_pdf));
        break;
      }
      const int depth = p.depth;
      const SurfaceHit surface = surface_of(scene, ray, record);
      record_first_hit(k.film, scene, p, surface);
      ShadowRay shadow;
      const bool goes_on =
          scatter_path<Lobes, Nee>(p, scene, k.film, surface, k.max_depth, k.seed, shadow);
      if (shadow.queued) {
        if (k.counts.shadow_rays) count_depth(k.counts.shadow_rays, depth);
        bool sees = false;
        if (!k.film.count_samples) {
          if constexpr (LobeTextured<Lobes>::value) {
            float through = 1.0f;
            AlphaTest a = alpha;
            a.transmittance = &through;
            a.light = shadow.light;
            sees = sees_light(scene.geometry, shadow.ray(), shadow.light, a) && through > 0.0f;
            shadow.radiance *= through;
          } else {
            sees = sees_light(scene.geometry, shadow.ray(), shadow.light);
          }
        }
        if (sees) gather(k.film, p.pixel, p.radiance, shadow.radiance);
      }
      if (!goes_on) break;
      count_depth(k.counts.paths_out, depth);
    }
    finish_sample(k.film, p.pixel, p.radiance);
  }
};

}  // namespace

void trace_megakernel(const Executor& ex, const StageContext& k, std::uint32_t pixels,
                      std::uint32_t sample, std::uint32_t first_pixel) {
  StageContext registers = k;
  registers.film.carry = true;
  const SceneView& scene = k.scene;
  // The smallest specialization that covers the scene: its lobes, textures, NEE. The classic
  // set without NEE is compiled for four blocks an SM (at most 64 registers, which ptxas meets
  // without spilling on sm_90; uncapped it takes 68 and three fit).
  const auto launch = [&](auto lobes, auto nee, auto min_blocks) {
    parallel_for<decltype(min_blocks)::value>(
        ex, "megakernel", pixels,
        MegakernelBody<decltype(lobes), decltype(nee)::value>{registers, sample, first_pixel});
  };
  using One = std::integral_constant<int, 1>;
  const bool classic = scene.lobes.classic();
  if (classic && scene.nee) launch(ClassicLobes{}, std::true_type{}, One{});
  if (classic && !scene.nee)
    launch(ClassicLobes{}, std::false_type{}, std::integral_constant<int, 4>{});
  if (!classic && scene.nee) launch(AnyLobe{}, std::true_type{}, One{});
  if (!classic && !scene.nee) launch(AnyLobe{}, std::false_type{}, One{});
}

// The megakernel compiled for the scene: "classic" or "any", with or without NEE.
const char* megakernel_variant(const SceneView& scene) {
  const bool classic = scene.lobes.classic();
  if (classic) return scene.nee ? "classic lobes, NEE" : "classic lobes, BSDF sampling";
  return scene.nee ? "every lobe, NEE" : "every lobe, BSDF sampling";
}

const char* shade_kernel_variant(const SceneView& scene) {
  return scene.lobes.classic() ? "classic lobes" : "every lobe";
}

}  // namespace raystream
