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
#include "execution/path_ids.h"
#include "geometry/camera.h"
#include "geometry/ray.h"
#include "geometry/scene_geometry.h"
#include "lights/light.h"
#include "materials/bsdf.h"
#include "materials/texture.h"

namespace raystream {

// F(type, array, member, description) for every per-path field: `array` names the field's array
// in PathState, `member` the field in the value type a stage loads and stores (PathSample,
// HitRecord, ShadowRay).
//
// The carried fields are a path's state between bounces: which sample it is, where it is and
// what it carries. Its light goes to the film where it is gathered (film_view.h), so a path
// carries no radiance, unless the film takes whole samples (the variance layer) or in the
// megakernel's registers: the radiance field is read and written only then.
//
// The hit fields hold the bounce's closest hit from intersect to shade as the traversal found it
// (distance, primitive, barycentrics: 16 bytes); shade rebuilds the point, normal, material and
// texture coordinates from them (surface_at).
//
// The shadow fields a shadow ray queued by the shade stage (next-event estimation) for the
// shadow stage: the ray, the light's primitive, what it adds when it sees the light, the pixel;
// with whole samples also where its path went on (its slot) or, for a path that ended at this
// bounce, the path's radiance, which the shadow stage then finishes.
#define RAYSTREAM_PATH_CARRIED_FIELDS(F) \
  RAYSTREAM_PATH_SAMPLE_FIELDS(F) RAYSTREAM_PATH_BOUNCE_FIELDS(F)
// Which sample the path is: set when it starts, never changed.
#define RAYSTREAM_PATH_SAMPLE_FIELDS(F)                                 \
  F(std::uint32_t, pixel, pixel, "path pixels") /* where it deposits */ \
  F(std::uint32_t, sample, sample, "path sample indices")
// Where it is: changed by every bounce.
#define RAYSTREAM_PATH_BOUNCE_FIELDS(F)                                                  \
  F(glm::vec3, origin, origin, "path origins")                                           \
  F(glm::vec3, direction, direction, "path directions")    /* unit */                    \
  F(glm::vec3, throughput, throughput, "path throughputs") /* product of BSDF weights */ \
  F(std::int32_t, depth, depth, "path depths")             /* bounces done so far */     \
  F(float, bsdf_pdf, bsdf_pdf, "path BSDF pdfs") /* of the last bounce; 0: delta or camera */
// Light gathered so far, when the film takes whole samples.
#define RAYSTREAM_PATH_RADIANCE_FIELDS(F) F(glm::vec3, radiance, radiance, "path radiance")
#define RAYSTREAM_PATH_HIT_FIELDS(F)                                            \
  F(float, hit_t, t, "hit distances")                                           \
  F(std::int32_t, hit_primitive, primitive, "hit primitives") /* a reference */ \
  F(glm::vec2, hit_barycentrics, barycentrics, "hit barycentrics")
#define RAYSTREAM_SHADOW_FIELDS(F)                                            \
  F(glm::vec3, shadow_origin, origin, "shadow ray origins")                   \
  F(glm::vec3, shadow_direction, direction, "shadow ray directions")          \
  F(std::int32_t, shadow_light, light, "shadow ray lights") /* a primitive */ \
  F(glm::vec3, shadow_radiance, radiance, "shadow ray contributions")         \
  F(std::uint32_t, shadow_pixel, pixel, "shadow ray pixels")
// Whole samples: the slot of the path the light adds to, or kDeadBit when the path ended at this
// bounce, whose radiance then comes along.
#define RAYSTREAM_SHADOW_WHOLE_FIELDS(F)                           \
  F(std::uint32_t, shadow_target, target, "shadow ray path slots") \
  F(glm::vec3, shadow_path_radiance, path_radiance, "shadow ray path radiance")
#define RAYSTREAM_PATH_FIELDS(F)    \
  RAYSTREAM_PATH_CARRIED_FIELDS(F)  \
  RAYSTREAM_PATH_RADIANCE_FIELDS(F) \
  RAYSTREAM_PATH_HIT_FIELDS(F) RAYSTREAM_SHADOW_FIELDS(F) RAYSTREAM_SHADOW_WHOLE_FIELDS(F)

#define RAYSTREAM_PATH_MEMBER(type, array, member, what) type member{};

// A path between bounces (the carried fields, and the radiance when it is carried).
struct PathSample {
  RAYSTREAM_PATH_CARRIED_FIELDS(RAYSTREAM_PATH_MEMBER)
  RAYSTREAM_PATH_RADIANCE_FIELDS(RAYSTREAM_PATH_MEMBER)
  RAYSTREAM_HD Ray ray() const { return Ray{origin, direction}; }
};

// A shadow ray of next-event estimation (the shadow fields): when it sees the light whose
// primitive is `light` (sees_light: nothing before the light's own surface), the light adds
// `radiance` to the path's pixel (or, with whole samples, to its radiance). `queued` says whether
// the shade step made one.
struct ShadowRay {
  RAYSTREAM_SHADOW_FIELDS(RAYSTREAM_PATH_MEMBER)
  RAYSTREAM_SHADOW_WHOLE_FIELDS(RAYSTREAM_PATH_MEMBER)
  bool queued = false;
  RAYSTREAM_HD Ray ray() const { return Ray{origin, direction}; }
};

#undef RAYSTREAM_PATH_MEMBER

// The state arrays, one per field, and the value types moved through them by the field lists.
// A path moves with load_path / store_path (its radiance only when `carry`), a hit with
// load<HitRecord> / store, a shadow ray with load_shadow / store_shadow (its path's part only
// with `whole` samples).
struct PathState {
#define RAYSTREAM_PATH_POINTER(type, array, member, what) type* array = nullptr;
  RAYSTREAM_PATH_FIELDS(RAYSTREAM_PATH_POINTER)
#undef RAYSTREAM_PATH_POINTER

#define RAYSTREAM_PATH_LOAD(type, array, member, what) v.member = array[id];
#define RAYSTREAM_PATH_STORE(type, array, member, what) array[id] = v.member;
  RAYSTREAM_HD PathSample load_path(std::uint32_t id, bool carry) const {
    PathSample v;
    RAYSTREAM_PATH_CARRIED_FIELDS(RAYSTREAM_PATH_LOAD)
    if (carry) {
      RAYSTREAM_PATH_RADIANCE_FIELDS(RAYSTREAM_PATH_LOAD)
    }
    return v;
  }
  RAYSTREAM_HD void store_path(std::uint32_t id, const PathSample& v, bool carry) const {
    RAYSTREAM_PATH_CARRIED_FIELDS(RAYSTREAM_PATH_STORE)
    if (carry) {
      RAYSTREAM_PATH_RADIANCE_FIELDS(RAYSTREAM_PATH_STORE)
    }
  }
  // A path that bounced in place: its sample fields are unchanged, so only the others are written.
  RAYSTREAM_HD void store_bounce(std::uint32_t id, const PathSample& v, bool carry) const {
    RAYSTREAM_PATH_BOUNCE_FIELDS(RAYSTREAM_PATH_STORE)
    if (carry) {
      RAYSTREAM_PATH_RADIANCE_FIELDS(RAYSTREAM_PATH_STORE)
    }
  }
  template <class Value>
  RAYSTREAM_HD Value load(std::uint32_t id) const;
  RAYSTREAM_HD void store(std::uint32_t id, const HitRecord& v) const {
      RAYSTREAM_PATH_HIT_FIELDS(RAYSTREAM_PATH_STORE)} RAYSTREAM_HD ShadowRay
      load_shadow(std::uint32_t id, bool whole) const {
    ShadowRay v;
    RAYSTREAM_SHADOW_FIELDS(RAYSTREAM_PATH_LOAD)
    if (whole) {
      RAYSTREAM_SHADOW_WHOLE_FIELDS(RAYSTREAM_PATH_LOAD)
    }
    return v;
  }
  RAYSTREAM_HD void store_shadow(std::uint32_t id, const ShadowRay& v, bool whole) const {
    RAYSTREAM_SHADOW_FIELDS(RAYSTREAM_PATH_STORE)
    if (whole) {
      RAYSTREAM_SHADOW_WHOLE_FIELDS(RAYSTREAM_PATH_STORE)
    }
  }
};

template <>
RAYSTREAM_HD inline HitRecord PathState::load<HitRecord>(std::uint32_t id) const {
  HitRecord v;
  RAYSTREAM_PATH_HIT_FIELDS(RAYSTREAM_PATH_LOAD)
  return v;
}
#undef RAYSTREAM_PATH_STORE
#undef RAYSTREAM_PATH_LOAD

// Bytes per path that the state layout moves, by field group (docs/architecture.md, the byte
// budget's "layout says" column).
#define RAYSTREAM_PATH_FIELD_BYTES(type, array, member, what) +sizeof(type)
inline constexpr std::size_t kCarriedBytes =
    0 RAYSTREAM_PATH_CARRIED_FIELDS(RAYSTREAM_PATH_FIELD_BYTES);
inline constexpr std::size_t kRadianceBytes =
    0 RAYSTREAM_PATH_RADIANCE_FIELDS(RAYSTREAM_PATH_FIELD_BYTES);
inline constexpr std::size_t kHitBytes = 0 RAYSTREAM_PATH_HIT_FIELDS(RAYSTREAM_PATH_FIELD_BYTES);
inline constexpr std::size_t kShadowBytes = 0 RAYSTREAM_SHADOW_FIELDS(RAYSTREAM_PATH_FIELD_BYTES);
#undef RAYSTREAM_PATH_FIELD_BYTES

struct SceneView {
  SceneGeometry geometry;  // objects, triangles, BVH
  const MaterialData* materials = nullptr;
  int material_count = 0;
  CameraFrame camera;
  MaterialTextures textures;  // the texture views and the materials' bindings
  LightsView lights;                      // emissive primitives and the environment
  // Whether next-event estimation with MIS runs: --integrator path on a scene with a light (the
  // one place this is decided: render_wavefront). false: BSDF sampling only.
  bool nee = true;
  // What the materials need of the lobe code (the host picks the kernels that cover it).
  LobeFeatures lobes;
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
