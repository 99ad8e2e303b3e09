// The glTF scene's camera: the first perspective camera a node places, its field of view, image
// size and placement from the node's transform (without one, model_scene.h frames the model).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/scene/gltf_builder.h"

namespace raystream::gltf {

void Builder::find_camera() {
  for (const auto& [index, world] : camera_nodes_) {
    const tinygltf::Camera& c = m_.cameras[std::size_t(index)];
    const std::string key = "cameras[" + std::to_string(index) + "]";
    if (c.type != "perspective") {
      note(key, "only perspective cameras are rendered; " + excerpt(c.type) + " ignored");
      continue;
    }
    place_camera(c, world, key);
    out_.has_camera = true;
    break;
  }
}

void Builder::place_camera(const tinygltf::Camera& c, const glm::mat4& world,
                           const std::string& key) {
  const double yfov = c.perspective.yfov;
  if (!(yfov > 0.0 && yfov < 3.14159)) fail(key + ".perspective.yfov", "expected (0, pi)");
  Camera& cam = out_.camera;
  cam.fovy_degrees = float(yfov * 0.5 * 180.0 / 3.14159265358979323846);
  // aspectRatio is above 0 where given (the schema check); without it, 4:3.
  const double aspect = c.perspective.aspectRatio > 0.0 ? c.perspective.aspectRatio : 4.0 / 3.0;
  cam.width = 800;
  cam.height = int(std::lround(std::clamp(800.0 / aspect, 1.0, double(kMaxImageSide))));
  // An extreme ratio gets the nearest size there is (a side at least 1 and at most
  // kMaxImageSide pixels): say what was made of it.
  const double made = double(cam.width) / double(cam.height);
  if (std::fabs(made / aspect - 1.0) > 0.01) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%g", aspect);
    note(key + ".perspective.aspectRatio",
         std::string(ratio) + " is rendered at " + std::to_string(cam.width) + " x " +
             std::to_string(cam.height) + " pixels, the nearest size (--resolution sets another)");
  }
  cam.eye = glm::vec3(world * glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  const glm::vec3 forward = glm::vec3(world * glm::vec4(0.0f, 0.0f, -1.0f, 0.0f));
  const glm::vec3 up = glm::vec3(world * glm::vec4(0.0f, 1.0f, 0.0f, 0.0f));
  if (!(glm::length(forward) > 0.0f) || !(glm::length(glm::cross(forward, up)) > 0.0f))
    fail(key, "the node's transform leaves the camera no direction");
  cam.lookat = cam.eye + glm::normalize(forward);
  cam.up = glm::normalize(up);
  cam.near_distance = float(std::max(0.0, c.perspective.znear));
}

}  // namespace raystream::gltf
