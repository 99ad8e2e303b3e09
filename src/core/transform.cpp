#include "core/transform.h"

#include <glm/gtc/matrix_transform.hpp>

namespace raystream {

glm::mat4 object_to_world(const glm::vec3& translation, const glm::vec3& rotation_degrees,
                          const glm::vec3& scale) {
  const glm::vec3 r = glm::radians(rotation_degrees);
  glm::mat4 m = glm::translate(glm::mat4(1.0f), translation);
  m = glm::rotate(m, r.x, glm::vec3(1.0f, 0.0f, 0.0f));
  m = glm::rotate(m, r.y, glm::vec3(0.0f, 1.0f, 0.0f));
  m = glm::rotate(m, r.z, glm::vec3(0.0f, 0.0f, 1.0f));
  return glm::scale(m, scale);
}

}  // namespace raystream
