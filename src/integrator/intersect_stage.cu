// Stage: closest hit of every live path: BVH traversal over triangles, spheres and cubes (or every
// primitive in turn when the scene view has no BVH).
#include "integrator/parallel_for.cuh"
#include "integrator/stages.h"

namespace raystream {

namespace {

struct IntersectBody {
  SceneGeometry geometry;
  PathState paths;
  std::uint32_t* ids;
  LiveBound bound;
  std::uint16_t* keys;  // may be null
  std::uint16_t dead_key;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    const std::size_t live = bound.count ? *bound.count : bound.n;
    const std::uint32_t id = i < live ? ids[i] : kDeadPath;
    if (id == kDeadPath) {
      if (keys) keys[i] = dead_key;
      return;
    }
    Ray ray;
    ray.origin = paths.origin[id];
    ray.direction = paths.direction[id];
    const Hit hit = closest_hit(geometry, ray);
    if (hit.material < 0) {  // escaped: there is no environment light
      ids[i] = kDeadPath;
      if (keys) keys[i] = dead_key;
      return;
    }
    paths.hit_point[id] = point_at(ray, hit.t);
    paths.hit_normal[id] = hit.normal;
    paths.hit_material[id] = hit.material;
    if (keys) keys[i] = static_cast<std::uint16_t>(hit.material);
  }
};

}  // namespace

void intersect_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                     std::uint32_t* ids, LiveBound bound, std::uint16_t* material_keys,
                     std::uint16_t dead_key) {
  parallel_for(ex, "intersect stage", bound.n,
               IntersectBody{scene_geometry(scene), paths, ids, bound, material_keys, dead_key});
}

}  // namespace raystream
