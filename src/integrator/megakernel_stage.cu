// The megakernel: one thread per sample traces its path from the camera to its end with the path
// in registers, calling the same per-path code as the wavefront stages (path_step.h), and
// deposits it on the film. No path state in memory, no compaction: the baseline every wavefront
// schedule is measured against.
#include "integrator/parallel_for.cuh"
#include "integrator/stages.h"

namespace raystream {

namespace {

struct MegakernelBody {
  SceneGeometry geometry;
  const MaterialData* materials;
  CameraFrame camera;
  std::uint32_t sample;
  int max_depth;
  std::uint64_t seed;
  FilmView film;
  DepthCounts counts;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    PathSample p = camera_path(camera, static_cast<std::uint32_t>(i), sample, seed);
    while (true) {
      count_depth(counts.paths_in, p.depth);
      const Hit hit = closest_hit(geometry, p.ray);
      if (hit.material < 0) break;  // escaped
      const int depth = p.depth;
      if (!scatter_path(p, materials[hit.material], point_at(p.ray, hit.t), hit.normal, max_depth,
                        seed))
        break;
      count_depth(counts.paths_out, depth);
    }
    deposit(film, p.pixel, p.radiance);
  }
};

}  // namespace

void trace_megakernel(const Executor& ex, const SceneView& scene, std::uint32_t pixels,
                      std::uint32_t sample, int max_depth, std::uint64_t seed, const FilmView& film,
                      const DepthCounts& counts) {
  parallel_for(ex, "megakernel", pixels,
               MegakernelBody{scene.geometry, scene.materials, scene.camera, sample, max_depth,
                              seed, film, counts});
}

}  // namespace raystream
