// The light kinds of next-event estimation, listed once, and what every light has. Each kind is
// one type in a file of its own (triangle_light.h, sphere_light.h, object_light.h) with what
// next-event estimation and the light table ask of it:
//   sample  a point on the light seen from a shading point (a LightSample: direction, distance,
//           radiance, solid-angle density with the pick probability);
//   pdf     the density with which sample chooses a given point, for the MIS weights;
//   power   what the light's pick follows (host; zero: no light).
// From the list follow the kind enum, the per-kind arrays of the lights view (lights/light.h) and
// the light table (lights/light_table.h), their copies in executor memory
// (integrator/scene_upload.cu) and the one dispatch (dispatch_light). The environment is the
// last kind, apart from the list: it has no per-kind array (its map is in LightsView::env) and is
// sampled by direction (lights/environment.h).
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "geometry/scene_geometry.h"

namespace raystream {

// Every light kind, once: L(type, LightKind enumerator, the name of its array in LightsView and
// LightTable). Adding one: its type (kKind, sample, pdf, power, in a file of its own included by
// lights/light.h), its entry here, and its construction where the light table
// (lights/light_table.cpp) recognises an emitter as one.
#define RAYSTREAM_LIGHTS(L)             \
  L(TriangleLight, triangle, triangles) \
  L(SphereLight, sphere, spheres)       \
  L(ObjectLight, object, objects)

#define RAYSTREAM_LIGHT_KIND(type, kind, array) kind,
enum class LightKind : std::int32_t { RAYSTREAM_LIGHTS(RAYSTREAM_LIGHT_KIND) environment };
#undef RAYSTREAM_LIGHT_KIND

// What every light has; its shape is stored by kind (`index` into the kind's array), so that a
// triangle light does not carry an object light's matrices.
struct Light {
  glm::vec3 emission{0.0f};  // radiance
  std::int32_t kind = 0;     // LightKind
  std::int32_t index = 0;    // into its kind's array (LightsView::triangles, ...)
  std::int32_t two_sided = 1;
  float pick = 0.0f;                      // probability of picking this light
  std::int32_t primitive = kNoPrimitive;  // its primitive reference in the scene's geometry
};

struct LightSample {
  glm::vec3 wi{0.0f};        // unit, from the shading point towards the light
  float distance = 0.0f;     // to the sampled point (kNoLightDistance for the environment)
  glm::vec3 radiance{0.0f};  // arriving along -wi (zero: no sample)
  float pdf = 0.0f;          // solid angle, including the pick probability
  std::int32_t primitive = kNoPrimitive;  // the light's primitive, for the shadow ray
  glm::vec2 barycentrics{0.0f};  // a triangle light's point (of its second and third corners)
};

inline constexpr float kNoLightDistance = 3.0e38f;

}  // namespace raystream
