#include "geometry/scene_object.h"

#include <glm/gtc/matrix_transform.hpp>

namespace raystream {

glm::mat4 object_to_world(const Object& object) {
  const glm::vec3 r = glm::radians(object.rotation_degrees);
  glm::mat4 m = glm::translate(glm::mat4(1.0f), object.translation);
  m = glm::rotate(m, r.x, glm::vec3(1.0f, 0.0f, 0.0f));
  m = glm::rotate(m, r.y, glm::vec3(0.0f, 1.0f, 0.0f));
  m = glm::rotate(m, r.z, glm::vec3(0.0f, 0.0f, 1.0f));
  return glm::scale(m, object.scale);
}

SceneObject make_scene_object(const Object& object) {
  const glm::mat4 to_world = object_to_world(object);
  SceneObject result;
  result.world_to_object = glm::inverse(to_world);
  result.normal_to_world = glm::transpose(glm::inverse(glm::mat3(to_world)));
  result.shape = static_cast<std::int32_t>(object.shape);
  result.material = object.material;
  return result;
}

}  // namespace raystream
