// The state of the paths in flight, structure-of-arrays, indexed by path state index, and the
// scene as the stages see it. Plain pointers: device memory on the GPU executor, host memory on
// the CPU executor.
//
// The fields are declared once, in RAYSTREAM_PATH_FIELDS: the device view (PathState), the
// allocation (PathBuffers, integrator/path/path_buffers.h) and the tests' fixtures all follow from
// that list, so a new per-path field is one line here plus its use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "geometry/camera.h"
#include "geometry/ray.h"
#include "geometry/scene_geometry.h"
#include "lights/light.h"
#include "materials/bsdf.h"
#include "materials/texture.h"

namespace raystream {

// F(type, array, member, description) for every per-path field: `array` names the field's array
// in PathState, `member` the field in the value type a stage loads and stores (PathSample,
// SurfaceHit, ShadowRay). The carried fields are a path's state between bounces (the stream
// schedule moves them when it packs the live paths together); the hit fields hold the current
// bounce's closest hit, from intersect to shade; the shadow fields a shadow ray queued by the
// shade stage (next-event estimation) for the shadow stage: what it adds to the path's pixel (or,
// with whole samples, its radiance) when it sees its light (the light's primitive), and whether
// the path ended at this bounce (with whole samples the shadow stage then ends the sample).
#define RAYSTREAM_PATH_CARRIED_FIELDS(F) \
  RAYSTREAM_PATH_SAMPLE_FIELDS(F) RAYSTREAM_PATH_BOUNCE_FIELDS(F)
// Which sample the path is: set when it starts, never changed.
#define RAYSTREAM_PATH_SAMPLE_FIELDS(F)                                 \
  F(std::uint32_t, pixel, pixel, "path pixels") /* where it deposits */ \
  F(std::uint32_t, sample, sample, "path sample indices")
// Where it is: changed by every bounce (store_bounce writes these alone).
#define RAYSTREAM_PATH_BOUNCE_FIELDS(F)                                                  \
  F(glm::vec3, origin, origin, "path origins")                                           \
  F(glm::vec3, direction, direction, "path directions")    /* unit */                    \
  F(glm::vec3, throughput, throughput, "path throughputs") /* product of BSDF weights */ \
  F(glm::vec3, radiance, radiance, "path radiance")        /* light gathered so far */   \
  F(std::int32_t, depth, depth, "path depths")             /* bounces done so far */     \
  F(float, bsdf_pdf, bsdf_pdf, "path BSDF pdfs") /* of the last bounce; 0: delta or camera */
#define RAYSTREAM_PATH_HIT_FIELDS(F)                                              \
  F(glm::vec3, hit_point, point, "hit points")                                    \
  F(glm::vec3, hit_normal, normal, "hit normals") /* unit, outward */             \
  F(std::int32_t, hit_material, material, "hit materials")                        \
  F(std::int32_t, hit_light, light, "hit lights") /* the light it is, -1: none */ \
  F(glm::vec2, hit_uv, uv, "hit texture coordinates")
#define RAYSTREAM_SHADOW_FIELDS(F)                                            \
  F(glm::vec3, shadow_origin, origin, "shadow ray origins")                   \
  F(glm::vec3, shadow_direction, direction, "shadow ray directions")          \
  F(std::int32_t, shadow_light, light, "shadow ray lights") /* a primitive */ \
  F(glm::vec3, shadow_radiance, radiance, "shadow ray contributions")         \
  F(std::int32_t, shadow_ends, ends, "shadow ray path ends") /* 1: the path ended */
#define RAYSTREAM_PATH_FIELDS(F) \
  RAYSTREAM_PATH_CARRIED_FIELDS(F) RAYSTREAM_PATH_HIT_FIELDS(F) RAYSTREAM_SHADOW_FIELDS(F)

#define RAYSTREAM_PATH_MEMBER(type, array, member, what) type member{};

// A path between bounces (the carried fields).
struct PathSample {
  RAYSTREAM_PATH_CARRIED_FIELDS(RAYSTREAM_PATH_MEMBER)
  RAYSTREAM_HD Ray ray() const { return Ray{origin, direction}; }
};

// The surface a path hit, as the shade step needs it (the hit fields).
struct SurfaceHit {
  RAYSTREAM_PATH_HIT_FIELDS(RAYSTREAM_PATH_MEMBER)
};

// A shadow ray of next-event estimation (the shadow fields): when it sees the light whose
// primitive is `light` (sees_light: nothing before the light's own surface), the light adds
// `radiance` to the path's radiance. `queued` says whether the shade step made one.
struct ShadowRay {
  RAYSTREAM_SHADOW_FIELDS(RAYSTREAM_PATH_MEMBER)
  bool queued = false;
  RAYSTREAM_HD Ray ray() const { return Ray{origin, direction}; }
};

#undef RAYSTREAM_PATH_MEMBER

// The state arrays, one per field, and the value types moved through them by the field lists:
// load<PathSample>(id), load<SurfaceHit>(id), load<ShadowRay>(id) and store(id, value).
struct PathState {
#define RAYSTREAM_PATH_POINTER(type, array, member, what) type* array = nullptr;
  RAYSTREAM_PATH_FIELDS(RAYSTREAM_PATH_POINTER)
#undef RAYSTREAM_PATH_POINTER

  template <class Value>
  RAYSTREAM_HD Value load(std::uint32_t id) const;

#define RAYSTREAM_PATH_LOAD(type, array, member, what) v.member = array[id];
#define RAYSTREAM_PATH_STORE(type, array, member, what) array[id] = v.member;
#define RAYSTREAM_PATH_MOVE(Value, FIELDS)                   \
  RAYSTREAM_HD void store(std::uint32_t id, const Value& v)  \
      const {FIELDS(RAYSTREAM_PATH_STORE)} RAYSTREAM_HD void \
      load_into(std::uint32_t id, Value& v) const {          \
    FIELDS(RAYSTREAM_PATH_LOAD)                              \
  }
  RAYSTREAM_PATH_MOVE(PathSample, RAYSTREAM_PATH_CARRIED_FIELDS)
  RAYSTREAM_PATH_MOVE(SurfaceHit, RAYSTREAM_PATH_HIT_FIELDS)
  RAYSTREAM_PATH_MOVE(ShadowRay, RAYSTREAM_SHADOW_FIELDS)
  // A path that bounced: its sample fields are unchanged, so only the others are written.
  RAYSTREAM_HD void store_bounce(std::uint32_t id, const PathSample& v) const {
    RAYSTREAM_PATH_BOUNCE_FIELDS(RAYSTREAM_PATH_STORE)
  }
#undef RAYSTREAM_PATH_MOVE
#undef RAYSTREAM_PATH_STORE
#undef RAYSTREAM_PATH_LOAD
};

template <class Value>
RAYSTREAM_HD inline Value PathState::load(std::uint32_t id) const {
  Value v;
  load_into(id, v);
  return v;
}

// The path-id array maps slots to path state indices. A stage that ends a path sets the top bit
// of its slot's id (the state index stays readable, for tests and debugging); compaction keeps
// the ids without it.
inline constexpr std::uint32_t kDeadBit = 0x80000000u;
// The largest pool (and, in the frame schedule, image) the id array can address.
inline constexpr std::size_t kMaxPathSlots = kDeadBit;

RAYSTREAM_HD inline bool is_live_id(std::uint32_t id) {
  return (id & kDeadBit) == 0u;
}

// Whether a path id is live: the predicate of compaction.
struct IsLivePath {
  RAYSTREAM_HD bool operator()(std::uint32_t id) const { return is_live_id(id); }
};

struct SceneView {
  SceneGeometry geometry;  // objects, triangles, BVH
  const MaterialData* materials = nullptr;
  int material_count = 0;
  CameraFrame camera;
  const TextureView* textures = nullptr;  // MaterialData::texture indexes this
  LightsView lights;                      // emissive primitives and the environment
  // Whether next-event estimation with MIS runs: --integrator path on a scene with a light (the
  // one place this is decided: render_wavefront). false: BSDF sampling only.
  bool nee = true;
  // The lobe kinds the scene's materials use (lobe_bit of each) and whether any is textured or
  // rough: the host picks the smallest specialized kernel that covers them.
  unsigned lobe_mask = ~0u;
  bool textured = true;
  bool rough = true;
};

// The live bound of a stage: a count on the executor's memory (read inside the kernel: the one
// the previous compaction or regeneration left there), or all n slots when count is null.
struct LiveBound {
  const std::size_t* count = nullptr;  // null: every slot
  std::size_t n = 0;                   // slots launched over
};

RAYSTREAM_HD inline std::size_t live_slots(const LiveBound& bound) {
  return bound.count ? (*bound.count < bound.n ? *bound.count : bound.n) : bound.n;
}

}  // namespace raystream
