// Stage: camera rays, one path per pixel.
#include "integrator/parallel_for.cuh"
#include "integrator/stages.h"
#include "materials/rng.h"

namespace raystream {

namespace {

struct GenerateBody {
  CameraFrame camera;
  PathState paths;
  std::uint32_t* ids;
  std::size_t n;
  std::size_t* live_count;
  std::uint32_t frame;
  std::uint64_t seed;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    const auto pixel = static_cast<std::uint32_t>(i);
    const int x = static_cast<int>(pixel % static_cast<std::uint32_t>(camera.width));
    const int y = static_cast<int>(pixel / static_cast<std::uint32_t>(camera.width));
    Rng rng(pixel, frame, 0u, seed);
    const float jx = rng.next_float();
    const float jy = rng.next_float();
    const float lx = rng.next_float();
    const float ly = rng.next_float();
    const Ray ray = camera_ray(camera, x, y, jx, jy, lx, ly);
    paths.origin[i] = ray.origin;
    paths.direction[i] = ray.direction;
    paths.throughput[i] = glm::vec3(1.0f);
    paths.radiance[i] = glm::vec3(0.0f);
    ids[i] = pixel;
    if (i == 0) *live_count = n;
  }
};

}  // namespace

void generate_camera_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                           std::uint32_t* ids, std::size_t n, std::size_t* live_count,
                           std::uint32_t frame, std::uint64_t seed) {
  parallel_for(ex, "generate stage", n,
               GenerateBody{scene.camera, paths, ids, n, live_count, frame, seed});
}

}  // namespace raystream
