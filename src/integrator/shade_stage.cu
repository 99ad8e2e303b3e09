// Stage: emission, BSDF sampling, throughput update and Russian roulette.
#include "integrator/parallel_for.cuh"
#include "integrator/roulette.h"
#include "integrator/stages.h"
#include "materials/rng.h"

namespace raystream {

namespace {

// New rays start off the surface, on the side they leave from, by this much relative to the
// size of the hit point's coordinates (float spacing grows with them): 1.1e-4 at 10 units.
constexpr float kRelativeRayOffset = 1.0e-5f;

RAYSTREAM_HD inline float ray_offset(const glm::vec3& p) {
  return kRelativeRayOffset * (1.0f + fmaxf(fabsf(p.x), fmaxf(fabsf(p.y), fabsf(p.z))));
}

struct ShadeBody {
  const MaterialData* materials;
  PathState paths;
  std::uint32_t* ids;
  LiveBound bound;
  std::uint32_t frame;
  int bounce;
  std::uint64_t seed;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    const std::size_t live = bound.count ? *bound.count : bound.n;
    if (i >= live) return;
    const std::uint32_t id = ids[i];
    if (id == kDeadPath) return;
    const MaterialData material = materials[paths.hit_material[id]];
    glm::vec3 throughput = paths.throughput[id];
    if (is_emitter(material)) {
      paths.radiance[id] += throughput * emitted_radiance(material);
      ids[i] = kDeadPath;
      return;
    }
    Rng rng(id, frame, static_cast<std::uint32_t>(bounce) + 1u, seed);
    const glm::vec3 point = paths.hit_point[id];
    const BsdfSample s = sample_bsdf(material, paths.direction[id], paths.hit_normal[id], rng);
    throughput *= s.weight;
    const bool black = !(throughput.x > 0.0f || throughput.y > 0.0f || throughput.z > 0.0f);
    if (black || !survive_roulette(throughput, bounce, rng.next_float())) {
      ids[i] = kDeadPath;
      return;
    }
    paths.throughput[id] = throughput;
    paths.origin[id] = point + ray_offset(point) * s.side;
    paths.direction[id] = s.direction;
  }
};

}  // namespace

void shade_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                 std::uint32_t* ids, LiveBound bound, std::uint32_t frame, int bounce,
                 std::uint64_t seed) {
  parallel_for(ex, "shade stage", bound.n,
               ShadeBody{scene.materials, paths, ids, bound, frame, bounce, seed});
}

}  // namespace raystream
