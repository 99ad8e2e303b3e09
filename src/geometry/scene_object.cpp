#include "geometry/scene_object.h"

#include "scene/scene.h"

namespace raystream {

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
