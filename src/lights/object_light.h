// Any other emissive object (a sphere of unequal scales, a cube; rotated), sampled uniformly over
// the unit shape's surface in object space and carried to world space. The area density there
// follows from Nanson's formula, dA_world = |det M| |M^-T n| dA_object, so it is exact for any
// transform. A point on the far side of the convex shape seen from outside it is no sample: the
// near side hides it.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "geometry/shapes.h"
#include "lights/area_light.h"

namespace raystream {

struct ObjectLight {
  static constexpr LightKind kKind = LightKind::object;

  glm::mat4 to_world{1.0f};         // object-to-world transform M
  glm::mat4 to_object{1.0f};        // its inverse
  glm::mat3 normal_to_world{1.0f};  // M^-T
  float det = 0.0f;                 // |det M|
  std::int32_t shape = 0;           // ShapeType

  // Area density (world) of the sampler at a point with object-space normal n_object.
  RAYSTREAM_HD float area_pdf(const glm::vec3& n_object) const {
    const float object_area = dispatch_shape(shape, [](auto s) { return decltype(s)::kArea; });
    const float jacobian = det * glm::length(normal_to_world * n_object);
    return jacobian > 0.0f ? 1.0f / (object_area * jacobian) : 0.0f;
  }

  // u0 chooses a cube's face.
  RAYSTREAM_HD LightSample sample(const Light& light, const glm::vec3& x, float u0, float u1,
                                  float u2) const {
    glm::vec3 p_object, n_object;
    const glm::vec3 x_object = glm::vec3(to_object * glm::vec4(x, 1.0f));
    const bool outside = dispatch_shape(shape, [&](auto s) {
      decltype(s)::sample(u0, u1, u2, p_object, n_object);
      return decltype(s)::outside(x_object);
    });
    const glm::vec3 q = glm::vec3(to_world * glm::vec4(p_object, 1.0f));
    const glm::vec3 n = glm::normalize(normal_to_world * n_object);
    if (outside && glm::dot(n, q - x) > 0.0f) return LightSample{};  // the far side
    return sample_area_point(light, x, q, n, area_pdf(n_object));
  }

  RAYSTREAM_HD float pdf(const Light& light, const glm::vec3& x, const glm::vec3& q,
                         const glm::vec3& n) const {
    const glm::vec3 p_object = glm::vec3(to_object * glm::vec4(q, 1.0f));
    const glm::vec3 n_object =
        dispatch_shape(shape, [&](auto s) { return decltype(s)::normal(p_object); });
    return light.pick * area_to_solid_angle(light.two_sided, area_pdf(n_object), x, q, n);
  }

  // The world area is the shape's under the transform (a quadrature for an ellipsoid).
  double power(const Light& light) const {
    const float area = dispatch_shape(
        shape, [&](auto s) { return decltype(s)::world_area(normal_to_world, det); });
    return area_light_power(light, area);
  }
};

}  // namespace raystream
