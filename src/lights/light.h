// Lights for next-event estimation: every emissive primitive and the environment. A light is
// picked in proportion to its power (a CDF over the table, built on the host with the primitives
// library's scan), then a point on it is sampled by its kind (lights/light_list.h lists them,
// one type each) or, for the environment, a direction by the map's luminance
// (lights/environment.h). The shadow test (sees_light) does not count the light's own primitive
// as an occluder. light_pdf gives, for a point a BSDF-sampled ray hit, the density with which
// sample_light would have chosen it, for the MIS weights.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "lights/environment.h"
#include "lights/light_list.h"
#include "lights/object_light.h"
#include "lights/sphere_light.h"
#include "lights/triangle_light.h"

namespace raystream {

#define RAYSTREAM_LIGHT_IS_LISTED(type, kind, array) \
  static_assert(type::kKind == LightKind::kind, #type "::kKind is not its place in the list");
RAYSTREAM_LIGHTS(RAYSTREAM_LIGHT_IS_LISTED)
#undef RAYSTREAM_LIGHT_IS_LISTED

struct LightsView {
  const Light* lights = nullptr;
  const float* cdf = nullptr;  // count + 1 entries: cdf[0] = 0, cdf[count] = 1
  int count = 0;
  int environment = -1;  // the environment's entry, or -1
  int textured = 0;      // 1: some triangle light's emission is textured (its samples read it)
#define RAYSTREAM_LIGHT_ARRAY(type, kind, array) const type* array = nullptr;
  RAYSTREAM_LIGHTS(RAYSTREAM_LIGHT_ARRAY)  // each kind's shapes (Light::index)
#undef RAYSTREAM_LIGHT_ARRAY
  EnvironmentView env;
};

// What a kind outside the list (the environment) is to the lights' interface: no sample, zero
// density.
struct NoLight {
  RAYSTREAM_HD LightSample sample(const Light&, const glm::vec3&, float, float, float) const {
    return LightSample{};
  }
  RAYSTREAM_HD float pdf(const Light&, const glm::vec3&, const glm::vec3&, const glm::vec3&) const {
    return 0.0f;
  }
};

// Calls f with the shape of `light` (its entry in its kind's array of l) and returns what f
// returns; the environment's shape is NoLight. The only switch over the kinds.
template <class F>
RAYSTREAM_HD inline decltype(auto) dispatch_light(const LightsView& l, const Light& light, F&& f) {
  switch (static_cast<LightKind>(light.kind)) {
#define RAYSTREAM_LIGHT_CASE(type, kind, array) \
  case LightKind::kind:                         \
    return f(l.array[light.index]);
    RAYSTREAM_LIGHTS(RAYSTREAM_LIGHT_CASE)
#undef RAYSTREAM_LIGHT_CASE
    default:
      return f(NoLight{});
  }
}

// The light whose CDF interval holds u in [0, 1).
RAYSTREAM_HD inline int pick_light(const LightsView& l, float u) {
  int lo = 0, hi = l.count - 1;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (l.cdf[mid + 1] <= u)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// Samples light `k` as seen from x. u: the three numbers of the point (u0 only for cubes).
RAYSTREAM_HD inline LightSample sample_light_point(const LightsView& l, int k, const glm::vec3& x,
                                                   float u0, float u1, float u2) {
  const Light& light = l.lights[k];
  if (light.kind == static_cast<std::int32_t>(LightKind::environment)) {
    const EnvironmentSample e = sample_environment(l.env, u1, u2);
    LightSample s;
    s.wi = e.direction;
    s.distance = kNoLightDistance;
    s.radiance = e.radiance;
    s.pdf = light.pick * e.pdf;
    if (!(e.pdf > 0.0f)) s.radiance = glm::vec3(0.0f);
    return s;
  }
  return dispatch_light(l, light,
                        [&](const auto& shape) { return shape.sample(light, x, u0, u1, u2); });
}

// Picks a light by uc and samples it (see sample_light_point).
RAYSTREAM_HD inline LightSample sample_light(const LightsView& l, const glm::vec3& x, float uc,
                                             float u0, float u1, float u2) {
  if (l.count == 0) return LightSample{};
  const int k = pick_light(l, uc);
  LightSample s = sample_light_point(l, k, x, u0, u1, u2);
  s.primitive = l.lights[k].primitive;
  return s;
}

// The solid-angle density (pick included) with which sample_light chooses the point q (unit
// normal n) of light k from x.
RAYSTREAM_HD inline float light_pdf(const LightsView& l, int k, const glm::vec3& x,
                                    const glm::vec3& q, const glm::vec3& n) {
  if (k < 0 || k >= l.count) return 0.0f;
  const Light& light = l.lights[k];
  return dispatch_light(l, light, [&](const auto& shape) { return shape.pdf(light, x, q, n); });
}

// The density with which sample_light chooses the environment in direction wi.
RAYSTREAM_HD inline float environment_light_pdf(const LightsView& l, const glm::vec3& wi) {
  if (l.environment < 0) return 0.0f;
  return l.lights[l.environment].pick * environment_pdf(l.env, wi);
}

// The power heuristic (beta = 2) weight of a strategy with density a against one with density b.
RAYSTREAM_HD inline float power_heuristic(float a, float b) {
  const float a2 = a * a, b2 = b * b;
  return a2 + b2 > 0.0f ? a2 / (a2 + b2) : 0.0f;
}

}  // namespace raystream
