// Lights for next-event estimation: every emissive primitive (triangle, sphere, cube) and the
// environment. A light is picked in proportion to its power (a CDF over the table, built on the
// host with the primitives library's scan), then a point on it is sampled:
//   triangle  uniformly by area;
//   sphere    (uniform scale) uniformly in the cone of directions it covers seen from the shading
//             point (by area, over the whole sphere, from inside it);
//   object    (any other sphere or cube: scaled, rotated) uniformly over the unit shape's surface
//             in object space, carried to world space; the area density there follows from
//             Nanson's formula, dA_world = |det M| |M^-T n| dA_object, so it is exact for any
//             transform;
//   environment  by the map's luminance (lights/environment.h).
// A point on the far side of a sphere or cube, seen from outside it, is no sample (zero radiance):
// the shape's near side hides it, and the shadow test (sees_light) does not count the light's own
// primitive as an occluder.
// light_pdf gives, for a point a BSDF-sampled ray hit, the density with which sample_light would
// have chosen it, for the MIS weights.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/sampling.h"
#include "geometry/scene_geometry.h"
#include "geometry/shapes.h"
#include "lights/environment.h"

namespace raystream {

enum class LightKind : std::int32_t { triangle, sphere, object, environment };

// What every light has; its shape is stored by kind (`index` into the kind's array), so that a
// triangle light does not carry an object light's matrices.
struct Light {
  glm::vec3 emission{0.0f};  // radiance
  std::int32_t kind = 0;     // LightKind
  std::int32_t index = 0;    // into LightsView::triangles, spheres or objects
  std::int32_t two_sided = 1;
  float pick = 0.0f;                      // probability of picking this light
  std::int32_t primitive = kNoPrimitive;  // its primitive reference in the scene's geometry
};

struct TriangleLight {
  glm::vec3 p{0.0f};             // v0
  glm::vec3 e1{0.0f}, e2{0.0f};  // v1 - v0, v2 - v0
  float area = 0.0f;
};

struct SphereLight {  // a sphere of uniform scale
  glm::vec3 centre{0.0f};
  float radius = 0.0f;
  float area = 0.0f;
};

struct ObjectLight {                // any other sphere or cube: scaled, rotated
  glm::mat4 to_world{1.0f};         // object-to-world transform M
  glm::mat4 to_object{1.0f};        // its inverse
  glm::mat3 normal_to_world{1.0f};  // M^-T
  float det = 0.0f;                 // |det M|
  std::int32_t shape = 0;           // ShapeType
};

struct LightsView {
  const Light* lights = nullptr;
  const float* cdf = nullptr;  // count + 1 entries: cdf[0] = 0, cdf[count] = 1
  int count = 0;
  int environment = -1;  // the environment's entry, or -1
  const TriangleLight* triangles = nullptr;
  const SphereLight* spheres = nullptr;
  const ObjectLight* objects = nullptr;
  EnvironmentView env;
};

struct LightSample {
  glm::vec3 wi{0.0f};        // unit, from the shading point towards the light
  float distance = 0.0f;     // to the sampled point (kNoLightDistance for the environment)
  glm::vec3 radiance{0.0f};  // arriving along -wi (zero: no sample)
  float pdf = 0.0f;          // solid angle, including the pick probability
  std::int32_t primitive = kNoPrimitive;  // the light's primitive, for the shadow ray
};

inline constexpr float kNoLightDistance = 3.0e38f;

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

namespace detail {

// Area density (world) of the object sampler at a point with object-space normal n_object.
RAYSTREAM_HD inline float object_area_pdf(const ObjectLight& o, const glm::vec3& n_object) {
  const float object_area =
      dispatch_shape(o.shape, [](auto shape) { return decltype(shape)::kArea; });
  const float jacobian = o.det * glm::length(o.normal_to_world * n_object);
  return jacobian > 0.0f ? 1.0f / (object_area * jacobian) : 0.0f;
}

// Solid-angle density of an area density at `q` (unit normal n) seen from `x`; zero when the
// light does not emit towards x.
RAYSTREAM_HD inline float area_to_solid_angle(bool two_sided, float area_pdf, const glm::vec3& x,
                                              const glm::vec3& q, const glm::vec3& n) {
  const glm::vec3 d = q - x;
  const float dist2 = glm::dot(d, d);
  if (!(dist2 > 0.0f)) return 0.0f;
  const float cos_l = -glm::dot(n, d) / sqrtf(dist2);
  if (!two_sided && cos_l <= 0.0f) return 0.0f;
  const float c = fabsf(cos_l);
  return c > 0.0f ? area_pdf * dist2 / c : 0.0f;
}

}  // namespace detail

// Samples light `k` as seen from x. u: the three numbers of the point (u0 only for cubes).
RAYSTREAM_HD inline LightSample sample_light_point(const LightsView& l, int k, const glm::vec3& x,
                                                   float u0, float u1, float u2) {
  const Light& light = l.lights[k];
  LightSample s;
  glm::vec3 q, n;
  float area_pdf = 0.0f;
  switch (static_cast<LightKind>(light.kind)) {
    case LightKind::environment: {
      const EnvironmentSample e = sample_environment(l.env, u1, u2);
      s.wi = e.direction;
      s.distance = kNoLightDistance;
      s.radiance = e.radiance;
      s.pdf = light.pick * e.pdf;
      if (!(e.pdf > 0.0f)) s.radiance = glm::vec3(0.0f);
      return s;
    }
    case LightKind::triangle: {
      const TriangleLight& t = l.triangles[light.index];
      const float r = sqrtf(u1);
      q = t.p + r * (1.0f - u2) * t.e1 + r * u2 * t.e2;  // barycentrics uniform
      n = glm::normalize(glm::cross(t.e1, t.e2));
      area_pdf = 1.0f / t.area;
      break;
    }
    case LightKind::sphere: {
      const SphereLight& sphere = l.spheres[light.index];
      const glm::vec3 to_centre = sphere.centre - x;
      const float d2 = glm::dot(to_centre, to_centre);
      const float r2 = sphere.radius * sphere.radius;
      if (d2 > r2 * 1.0001f) {
        // Uniform in the cone of directions the sphere covers.
        const float d = sqrtf(d2);
        const float cos_max = sqrtf(fmaxf(0.0f, 1.0f - r2 / d2));
        const float cos_t = 1.0f - u1 * (1.0f - cos_max);
        const float sin_t = sqrtf(fmaxf(0.0f, 1.0f - cos_t * cos_t));
        const float phi = 2.0f * kPi * u2;
        const glm::vec3 w = to_centre / d;
        glm::vec3 t, b;
        orthonormal_basis(w, t, b);
        s.wi = glm::normalize(sin_t * cosf(phi) * t + sin_t * sinf(phi) * b + cos_t * w);
        // The nearer intersection with the sphere (the tangent distance if rounding misses it).
        const float proj = glm::dot(to_centre, s.wi);
        const float disc = r2 - (d2 - proj * proj);
        s.distance = disc > 0.0f ? proj - sqrtf(disc) : proj;
        s.radiance = light.emission;
        s.pdf = light.pick / (2.0f * kPi * fmaxf(1.0f - cos_max, 1.0e-12f));
        return s;
      }
      glm::vec3 on_unit;  // by area over the whole sphere
      UnitSphere::sample(0.0f, u1, u2, on_unit, n);
      q = sphere.centre + sphere.radius * n;
      if (d2 > r2 && glm::dot(n, q - x) > 0.0f) return s;  // the far side, from just outside
      area_pdf = 1.0f / sphere.area;
      break;
    }
    case LightKind::object: {
      const ObjectLight& o = l.objects[light.index];
      glm::vec3 p_object, n_object;
      const glm::vec3 x_object = glm::vec3(o.to_object * glm::vec4(x, 1.0f));
      const bool outside = dispatch_shape(o.shape, [&](auto shape) {
        decltype(shape)::sample(u0, u1, u2, p_object, n_object);
        return decltype(shape)::outside(x_object);
      });
      q = glm::vec3(o.to_world * glm::vec4(p_object, 1.0f));
      n = glm::normalize(o.normal_to_world * n_object);
      if (outside && glm::dot(n, q - x) > 0.0f)
        return s;  // the far side of a convex shape: its near side hides it
      area_pdf = detail::object_area_pdf(o, n_object);
      break;
    }
  }
  const glm::vec3 d = q - x;
  const float dist = glm::length(d);
  if (!(dist > 0.0f)) return s;
  s.wi = d / dist;
  s.distance = dist;
  const float pdf = detail::area_to_solid_angle(light.two_sided, area_pdf, x, q, n);
  if (!(pdf > 0.0f)) return s;
  s.pdf = light.pick * pdf;
  s.radiance = light.emission;
  return s;
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
  switch (static_cast<LightKind>(light.kind)) {
    case LightKind::triangle:
      return light.pick * detail::area_to_solid_angle(
                              light.two_sided, 1.0f / l.triangles[light.index].area, x, q, n);
    case LightKind::sphere: {
      const SphereLight& sphere = l.spheres[light.index];
      const glm::vec3 to_centre = sphere.centre - x;
      const float d2 = glm::dot(to_centre, to_centre);
      const float r2 = sphere.radius * sphere.radius;
      if (d2 > r2 * 1.0001f) {
        const float cos_max = sqrtf(fmaxf(0.0f, 1.0f - r2 / d2));
        return light.pick / (2.0f * kPi * fmaxf(1.0f - cos_max, 1.0e-12f));
      }
      return light.pick * detail::area_to_solid_angle(light.two_sided, 1.0f / sphere.area, x, q, n);
    }
    case LightKind::object: {
      const ObjectLight& o = l.objects[light.index];
      const glm::vec3 p_object = glm::vec3(o.to_object * glm::vec4(q, 1.0f));
      const glm::vec3 n_object =
          dispatch_shape(o.shape, [&](auto shape) { return decltype(shape)::normal(p_object); });
      return light.pick * detail::area_to_solid_angle(
                              light.two_sided, detail::object_area_pdf(o, n_object), x, q, n);
    }
    default:
      return 0.0f;
  }
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
