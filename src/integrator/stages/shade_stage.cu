// Stage: escaped paths, emission, next-event estimation, BSDF sampling, throughput update and
// Russian roulette (scatter_path), from the hit record the intersect stage wrote (the surface
// rebuilt by surface_at). Where the paths and shadow rays go is the ShadeTarget's (stages.h): in
// place, with dead bits and a shadow queue of ids for a separate compaction, or fused: the paths
// that go on and the shadow rays written compacted, at slots reserved by a block-wide scan of
// the keep flags and one atomic per block (reserve_slots), into the next wave's state and the
// shadow records. A path that ends here ends its sample (finish_sample), unless the film takes
// whole samples and it queued a shadow ray: the shadow stage ends it then. At depth 0 the hit
// goes to the first-hit AOVs when the film keeps them.
#include <cstddef>
#include <type_traits>

#include "execution/parallel_for.cuh"
#include "execution/reserve_slots.cuh"
#include "integrator/stages/stages.h"
#include "materials/bsdf.h"

namespace raystream {

namespace {

template <class Lobe>
struct ShadeBody {
  StageContext k;
  PathState paths;
  const std::uint32_t* ids;  // null: slot i is path i
  LiveBound bound;
  ShadeTarget out;
  // Queues: the queue's bounds and its report count (its first slot adds the queue's size).
  const unsigned long long* queue = nullptr;
  unsigned long long* queue_paths = nullptr;

  // The block launchers give the body the shared memory of the fused target's reservation.
  using TempStorage = ReserveStorage;

  // From a block launcher: every thread of a block calls this (valid: the slot is in the
  // launch's range), so that the fused target's block-wide reservation sees the whole block.
  RAYSTREAM_HD RAYSTREAM_INLINE void operator()(std::size_t i, bool valid,
                                                WholeBlock<ReserveStorage> block) const {
    shade(i, valid, block);
  }
  // From parallel_for: in place only (no block-wide reservation there).
  RAYSTREAM_HD RAYSTREAM_INLINE void operator()(std::size_t i) const { shade(i, true, nullptr); }

  // Block: a WholeBlock, or nullptr where the launcher gives none (an in-place target).
  template <class Block>
  RAYSTREAM_HD RAYSTREAM_INLINE void shade(std::size_t i, bool valid, Block block) const {
    std::uint32_t id = kDeadBit;
    if (valid && i < live_slots(bound)) id = ids ? ids[i] : static_cast<std::uint32_t>(i);
    if (valid && queue_paths && i == queue[0]) atomic_add(queue_paths, queue[1] - queue[0]);
    const bool live = is_live_id(id);
    const bool whole = k.film.whole_samples();
    PathSample p;
    ShadowRay shadow;
    bool goes_on = false;
    int depth = 0;  // the bounce being shaded
    if (live) {
      p = paths.load_path(id, k.film.carry);
      depth = p.depth;
      count_depth(k.counts.paths_in, depth);
      const HitRecord record = paths.load<HitRecord>(id);
      if (!record.hit()) {  // escaped: the environment, if any, ends it
        gather(k.film, p.pixel, p.radiance,
               escaped_radiance(k.scene, p.direction, p.throughput, p.bsdf_pdf));
      } else {
        const Ray ray = p.ray();
        const SurfaceHit hit = surface_of(k.scene, ray, record);
        record_first_hit(k.film, k.scene, p, hit);
        goes_on = scatter_path<Lobe>(p, k.scene, k.film, hit, k.max_depth, k.seed, shadow);
      }
      if (goes_on) count_depth(k.counts.paths_out, depth);
    }
    // A shadow ray goes where the target keeps them (none: next-event estimation is off).
    const bool shadowed = live && shadow.queued &&
                          (out.fused() ? out.shadow_count != nullptr : out.shadow_ids != nullptr);
    if (shadowed && k.counts.shadow_rays) count_depth(k.counts.shadow_rays, depth);
    // Whole samples: a path that ends with a shadow ray queued ends in the shadow stage.
    const bool ends_in_shadow_stage = shadowed && !goes_on && whole;
    if (ends_in_shadow_stage) shadow.path_radiance = p.radiance;
    bool stored = false;  // fused: written compacted
    if constexpr (!std::is_same_v<Block, std::nullptr_t>) {
      if (out.fused()) {
        std::size_t slot = 0, shadow_slot = 0;
        reserve_slots(block, out.backend, goes_on, out.survivors, slot, shadowed, out.shadow_count,
                      shadow_slot);
        if (goes_on) out.next.store_path(static_cast<std::uint32_t>(slot), p, k.film.carry);
        if (shadowed) {
          shadow.target = goes_on ? static_cast<std::uint32_t>(slot) : kDeadBit;
          paths.store_shadow(static_cast<std::uint32_t>(shadow_slot), shadow, whole);
        }
        stored = true;
      }
    }
    if (!stored) {  // in place
      if (valid && out.shadow_ids) out.shadow_ids[i] = shadowed ? id : (id | kDeadBit);
      if (shadowed) {
        shadow.target = goes_on ? id : kDeadBit;
        paths.store_shadow(id, shadow, whole);
      }
      if (live && goes_on) paths.store_bounce(id, p, k.film.carry);
      if (live && !goes_on) out.ids[i] = id | kDeadBit;
    }
    if (live && !goes_on && !ends_in_shadow_stage) finish_sample(k.film, p.pixel, p.radiance);
  }
};

// Blocks of kStageThreads an SM that a lobe's untextured queue kernel is compiled for: three
// (at most 80 registers, against two at the 87 they take uncapped) for the lobes that ptxas fits
// in 80 without spilling (sm_90); the others spill there (Plastic 16 bytes, Dielectric and
// MetallicRoughness about 100), so they keep the compiler's own count.
constexpr int queue_min_blocks(BsdfKind kind) {
  return kind == BsdfKind::kLambertian || kind == BsdfKind::kConductor ? 3 : 1;
}

}  // namespace

void shade_paths(const Executor& ex, const StageContext& k, const PathState& paths,
                 const std::uint32_t* ids, LiveBound bound, const ShadeTarget& out) {
  // The smallest specialization that covers the scene's lobes and textures.
  const auto launch = [&](auto lobes) {
    const ShadeBody<decltype(lobes)> body{k, paths, ids, bound, out};
    if (out.fused())
      parallel_for_blocks(ex, "shade stage", bound.n, body);
    else
      parallel_for(ex, "shade stage", bound.n, body);
  };
  if (k.scene.lobes.classic())
    launch(ClassicLobes{});
  else
    launch(AnyLobe{});
}

void shade_queues(const Executor& ex, const StageContext& k, const PathState& paths,
                  const std::uint32_t* ids, const unsigned long long* queue_offsets, std::size_t n,
                  unsigned long long* queue_paths, const ShadeTarget& out) {
  // Every slot of a queue holds a path that intersect left alive: no bound to check. Kinds the
  // scene has no material of have empty queues: no launch.
  // A lobe none of whose materials reads a texture (nor any light: a light sample reads its
  // emission texture) is shaded by its kernel compiled without textures.
  const LiveBound all{nullptr, n};
  for_each_lobe([&](auto lobe) {
    using Lobe = decltype(lobe);
    const int kind = static_cast<int>(Lobe::kKind);
    const unsigned bit = lobe_bit(Lobe::kKind);
    if ((k.scene.lobes.mask & bit) == 0u && kind != 0) return;
    const auto launch = [&](auto body, auto min_blocks) {
      parallel_for_range<decltype(min_blocks)::value>(ex, "shade queue", n, queue_offsets + kind,
                                                      body);
    };
    const bool textured = (k.scene.lobes.textured_kinds & bit) != 0u || k.scene.lights.textured;
    if constexpr (LobeTextured<Lobe>::value) {
      if (!textured) {
        launch(ShadeBody<Untextured<Lobe>>{k, paths, ids, all, out, queue_offsets + kind,
                                           queue_paths + kind},
               std::integral_constant<int, queue_min_blocks(Lobe::kKind)>{});
        return;
      }
    }
    launch(ShadeBody<Lobe>{k, paths, ids, all, out, queue_offsets + kind, queue_paths + kind},
           std::integral_constant<int, 1>{});
  });
}

}  // namespace raystream
