// The scene's lights, built on the host once per render: every triangle, sphere and cube whose
// material emits, in the scene's order, and the environment. Each primitive learns its light index
// (TriangleShading::light, SceneObject::light) so a BSDF-sampled ray that hits it can weigh the hit
// against light sampling, and each light its primitive's reference in the arrays given (for the
// LBVH, built later on the executor, the scene's order: the build moves them to their slots).
#pragma once

#include <vector>

#include "geometry/scene_acceleration.h"
#include "lights/light.h"
#include "materials/bsdf.h"
#include "scene/scene.h"

namespace raystream {

struct LightTable {
  std::vector<Light> lights;
#define RAYSTREAM_LIGHT_ARRAY(type, kind, array) std::vector<type> array;
  RAYSTREAM_LIGHTS(RAYSTREAM_LIGHT_ARRAY)  // each kind's shapes (Light::index)
#undef RAYSTREAM_LIGHT_ARRAY
  std::vector<float> cdf;  // lights.size() + 1 entries
  int environment = -1;    // index of the environment's entry, or -1
  double power = 0.0;      // total of the powers the picks follow
  bool textured = false;   // some triangle light's emission is textured
};

// The table as a LightsView of host memory (the CPU executor's, and tests'); the environment's
// view is the caller's to add.
LightsView host_lights_view(const LightTable& table);

// Picks follow power: each kind's (luminance x area x pi, x 2 when two-sided, for the surfaces;
// a primitive of no area is no light); the environment's is its mean radiance x pi x the area of
// the sphere that bounds the scene (`environment_mean_luminance` 0: no environment light). The
// powers are summed in double (a lamp of radiance near the float limit has a power beyond it);
// the CDF is the primitives library's inclusive scan of them.
// A triangle whose material has an emission texture is picked by its power with the texture's
// mean over the triangle (`textures`: host views; without them the factor alone); a sphere or
// cube with one is no light (BSDF sampling alone finds it: its light samples could not read the
// texture).
LightTable build_light_table(const Scene& scene, SceneAcceleration& acceleration,
                             const std::vector<MaterialData>& materials,
                             float environment_mean_luminance,
                             const MaterialTextures& textures = MaterialTextures{});

}  // namespace raystream
