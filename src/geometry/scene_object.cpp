#include "geometry/scene_object.h"

#include <cmath>
#include <limits>

#include "scene/scene.h"

namespace raystream {

SceneObject make_scene_object(const Object& object) {
  const glm::mat4 to_world = object_to_world(object);
  SceneObject result;
  result.world_to_object = glm::inverse(to_world);
  result.normal_to_world = glm::transpose(glm::inverse(glm::mat3(to_world)));
  result.shape = static_cast<std::int32_t>(object.shape);
  result.material = object.material;

  // The axis-aligned form: every rotation a multiple of 90 degrees (a sphere: any rotation) and,
  // for a sphere, the same scale on every axis. Its extent is the unit shape's box carried to
  // world space.
  const glm::vec3 a = glm::abs(object.scale);
  const bool quarter_turns = std::fmod(object.rotation_degrees.x, 90.0f) == 0.0f &&
                             std::fmod(object.rotation_degrees.y, 90.0f) == 0.0f &&
                             std::fmod(object.rotation_degrees.z, 90.0f) == 0.0f;
  const bool round = a.x == a.y && a.y == a.z;
  const bool rotation_invariant =
      dispatch_shape(result.shape, [](auto shape) { return decltype(shape)::kRotationInvariant; });
  if (rotation_invariant ? round : quarter_turns) {
    glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
    for (int corner = 0; corner < 8; ++corner) {
      const glm::vec4 p(corner & 1 ? 0.5f : -0.5f, corner & 2 ? 0.5f : -0.5f,
                        corner & 4 ? 0.5f : -0.5f, 1.0f);
      const glm::vec3 w(to_world * p);
      lo = glm::min(lo, w);
      hi = glm::max(hi, w);
    }
    // A rotation-invariant shape's box is its scale whatever the rotation.
    const glm::vec3 size = rotation_invariant ? a : hi - lo;
    if (size.x > 0.0f && size.y > 0.0f && size.z > 0.0f) {
      result.axis_aligned = 1;
      result.center = rotation_invariant ? object.translation : 0.5f * (lo + hi);
      result.inv_size = 1.0f / size;
    }
  }
  return result;
}

}  // namespace raystream
