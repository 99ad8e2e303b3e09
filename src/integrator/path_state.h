// The state of the paths in flight, structure-of-arrays, indexed by path state index, and the
// scene as the stages see it. Plain pointers: device memory on the GPU executor, host memory on
// the CPU executor.
//
// The fields are declared once, in RAYSTREAM_PATH_FIELDS: the device view (PathState), the
// allocation (PathBuffers, integrator/path_buffers.h) and the tests' fixtures all follow from
// that list, so a new per-path field is one line here plus its use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "geometry/camera.h"
#include "geometry/scene_geometry.h"
#include "lights/light.h"
#include "materials/bsdf.h"
#include "materials/texture.h"

namespace raystream {

// F(type, name, description) for every per-path field. The carried fields are a path's state
// between bounces (the stream schedule moves them when it packs the live paths together); the
// hit fields hold the current bounce's closest hit, from intersect to shade.
#define RAYSTREAM_PATH_CARRIED_FIELDS(F)                                     \
  F(glm::vec3, origin, "path origins")                                       \
  F(glm::vec3, direction, "path directions")   /* unit */                    \
  F(glm::vec3, throughput, "path throughputs") /* product of BSDF weights */ \
  F(glm::vec3, radiance, "path radiance")      /* light gathered so far */   \
  F(std::uint32_t, pixel, "path pixels")       /* where the path deposits */ \
  F(std::uint32_t, sample, "path sample indices")                            \
  F(std::int32_t, depth, "path depths") /* bounces done so far */            \
  F(float, bsdf_pdf, "path BSDF pdfs")  /* of the last bounce; 0: delta */
#define RAYSTREAM_PATH_HIT_FIELDS(F)             \
  F(glm::vec3, hit_point, "hit points")          \
  F(glm::vec3, hit_normal, "hit normals")        \
  F(std::int32_t, hit_material, "hit materials") \
  F(std::int32_t, hit_light, "hit lights")       \
  F(glm::vec2, hit_uv, "hit texture coordinates")
// A shadow ray queued by the shade stage for its path (next-event estimation), traced by the
// shadow stage: what it adds to the path's pixel when it sees its light (the light's primitive).
#define RAYSTREAM_SHADOW_FIELDS(F)                        \
  F(glm::vec3, shadow_origin, "shadow ray origins")       \
  F(glm::vec3, shadow_direction, "shadow ray directions") \
  F(std::int32_t, shadow_light, "shadow ray lights")      \
  F(glm::vec3, shadow_radiance, "shadow ray contributions")
#define RAYSTREAM_PATH_FIELDS(F) \
  RAYSTREAM_PATH_CARRIED_FIELDS(F) RAYSTREAM_PATH_HIT_FIELDS(F) RAYSTREAM_SHADOW_FIELDS(F)

struct PathState {
#define RAYSTREAM_PATH_POINTER(type, name, what) type* name = nullptr;
  RAYSTREAM_PATH_FIELDS(RAYSTREAM_PATH_POINTER)
#undef RAYSTREAM_PATH_POINTER
};

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
  bool nee = true;  // next-event estimation with MIS (--integrator path); false: BSDF only
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
