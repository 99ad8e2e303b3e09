// The object-to-world transform of the course's scene format: translate * rotateX * rotateY *
// rotateZ * scale, angles in degrees. Host code (built once per object when a scene is loaded).
#pragma once

#include <glm/glm.hpp>

namespace raystream {

glm::mat4 object_to_world(const glm::vec3& translation, const glm::vec3& rotation_degrees,
                          const glm::vec3& scale);

}  // namespace raystream
