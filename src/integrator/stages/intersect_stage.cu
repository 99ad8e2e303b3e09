// Stage: closest hit of every live path: BVH traversal over triangles, spheres and cubes (or every
// primitive in turn when the scene has no BVH). It reads the ray and writes the 16-byte hit
// record; the shade stage rebuilds the surface from it and handles the misses.
#include "execution/parallel_for.cuh"
#include "integrator/path/alpha_test.h"
#include "integrator/stages/stages.h"

namespace raystream {

namespace {

// Five blocks of 256 threads per SM: at most 48 registers (with a few spill loads) instead of the
// 56 the traversal would take, so more warps hide the traversal's memory latency; six blocks
// spill too much (the trials: renders/schedules/RESULTS.md).
constexpr int kIntersectMinBlocks = 5;

// Alpha: the scene has materials that cut their surfaces (the alpha test compiled in; without,
// traversal accepts every hit).
template <bool Alpha>
struct IntersectBody {
  SceneView scene;
  PathState paths;
  const std::uint32_t* ids;  // null: slot i is path i
  LiveBound bound;
  std::uint16_t* keys;  // may be null
  bool key_by_kind;     // keys: the material's lobe kind, not the material
  std::uint16_t dead_key;
  std::uint32_t* sort_ids;  // direct slots with keys: the identity to sort with
  std::uint64_t seed;       // Alpha: the render's (blend decisions)

  RAYSTREAM_HD RAYSTREAM_INLINE void operator()(std::size_t i) const {
    std::uint32_t id = kDeadBit;
    if (i < live_slots(bound)) id = ids ? ids[i] : static_cast<std::uint32_t>(i);
    if (sort_ids) sort_ids[i] = id;
    if (!is_live_id(id)) {
      if (keys) keys[i] = dead_key;
      return;
    }
    const Ray ray{paths.origin[id], paths.direction[id]};
    HitRecord hit;
    if constexpr (Alpha) {
      AlphaTest alpha = alpha_test(scene);
      alpha.key = blend_key(paths.pixel[id], paths.sample[id], paths.depth[id], seed);
      hit = nearest_hit(scene.geometry, ray, kMinHitDistance, alpha);
    } else {
      hit = nearest_hit(scene.geometry, ray);
    }
    paths.store(id, hit);
    if (!keys) return;
    if (!hit.hit()) {  // a miss: the emitters' queue ends it, the material sort puts it last
      keys[i] = key_by_kind ? std::uint16_t(0) : dead_key;
      return;
    }
    const int material = material_at(scene.geometry, hit);
    keys[i] = static_cast<std::uint16_t>(key_by_kind ? scene.materials[material].kind : material);
  }
};

}  // namespace

void intersect_paths(const Executor& ex, const StageContext& k, const PathState& paths,
                     const std::uint32_t* ids, LiveBound bound, std::uint16_t* material_keys,
                     std::uint16_t dead_key, bool key_by_kind, std::uint32_t* sort_ids) {
  if (k.scene.lobes.alpha)
    parallel_for<kIntersectMinBlocks>(ex, "intersect stage", bound.n,
                                      IntersectBody<true>{k.scene, paths, ids, bound, material_keys,
                                                          key_by_kind, dead_key, sort_ids,
                                                          k.seed});
  else
    parallel_for<kIntersectMinBlocks>(ex, "intersect stage", bound.n,
                                      IntersectBody<false>{k.scene, paths, ids, bound,
                                                           material_keys, key_by_kind, dead_key,
                                                           sort_ids, k.seed});
}

}  // namespace raystream
