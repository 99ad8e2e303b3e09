// The megakernel: one thread per sample traces its path from the camera to its end with the path
// in registers, calling the same per-path code as the wavefront stages (path_step.h), and
// deposits it on the film. No path state in memory, no compaction: the baseline every wavefront
// schedule is measured against.
#include <type_traits>

#include "integrator/backend/parallel_for.cuh"
#include "integrator/stages/stages.h"

namespace raystream {

namespace {

template <class Lobes, bool Nee>
struct MegakernelBody {
  SceneView scene;
  std::uint32_t sample;
  std::uint32_t first_pixel;
  int max_depth;
  std::uint64_t seed;
  FilmView film;
  DepthCounts counts;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    if (i < first_pixel) return;
    PathSample p = camera_path(scene.camera, static_cast<std::uint32_t>(i), sample, seed);
    while (true) {
      count_depth(counts.paths_in, p.depth);
      const Ray ray = p.ray();
      const Hit hit = closest_hit(scene.geometry, ray);
      if (hit.material < 0) {  // escaped
        add_finite(p.radiance, escaped_radiance<Nee>(scene, p.direction, p.throughput, p.bsdf_pdf));
        break;
      }
      const int depth = p.depth;
      const SurfaceHit surface = surface_hit(ray, hit);
      record_first_hit(film, scene, p, surface);
      ShadowRay shadow;
      const bool goes_on = scatter_path<Lobes, Nee>(p, scene, surface, max_depth, seed, shadow);
      if (shadow.queued) {
        if (counts.shadow_rays) count_depth(counts.shadow_rays, depth);
        if (!film.count_samples && sees_light(scene.geometry, shadow.ray(), shadow.light))
          add_finite(p.radiance, shadow.radiance);
      }
      if (!goes_on) break;
      count_depth(counts.paths_out, depth);
    }
    finish_sample(film, p.pixel, p.radiance);
  }
};

}  // namespace

void trace_megakernel(const Executor& ex, const SceneView& scene, std::uint32_t pixels,
                      std::uint32_t sample, int max_depth, std::uint64_t seed, const FilmView& film,
                      const DepthCounts& counts, std::uint32_t first_pixel) {
  // The smallest specialization that covers the scene: its lobes, textures, NEE.
  const auto launch = [&](auto lobes, auto nee) {
    parallel_for(ex, "megakernel", pixels,
                 MegakernelBody<decltype(lobes), decltype(nee)::value>{
                     scene, sample, first_pixel, max_depth, seed, film, counts});
  };
  const bool classic = ClassicLobes::covers(scene.lobe_mask, scene.textured, scene.rough);
  if (classic && scene.nee) launch(ClassicLobes{}, std::true_type{});
  if (classic && !scene.nee) launch(ClassicLobes{}, std::false_type{});
  if (!classic && scene.nee) launch(AnyLobe{}, std::true_type{});
  if (!classic && !scene.nee) launch(AnyLobe{}, std::false_type{});
}

// The megakernel compiled for the scene: "classic" or "any", with or without NEE.
const char* megakernel_variant(const SceneView& scene) {
  const bool classic = ClassicLobes::covers(scene.lobe_mask, scene.textured, scene.rough);
  if (classic) return scene.nee ? "classic lobes, NEE" : "classic lobes, BSDF sampling";
  return scene.nee ? "every lobe, NEE" : "every lobe, BSDF sampling";
}

}  // namespace raystream
