#include "geometry/camera.h"

#include <cmath>

#include "scene/scene.h"

namespace raystream {

CameraFrame make_camera_frame(const Camera& camera, int width, int height) {
  CameraFrame c;
  c.width = width;
  c.height = height;
  c.eye = camera.eye;
  c.view = glm::normalize(camera.lookat - camera.eye);
  c.right = glm::normalize(glm::cross(c.view, camera.up));
  c.up = glm::cross(c.right, c.view);
  c.half_height = std::tan(glm::radians(camera.fovy_degrees));
  c.half_width = c.half_height * static_cast<float>(width) / static_cast<float>(height);
  c.lens_radius = camera.lens_radius;
  c.near_distance = camera.near_distance;
  c.focal_distance = camera.focal_distance > 0.0f ? camera.focal_distance
                                                  : glm::length(camera.lookat - camera.eye);
  return c;
}

}  // namespace raystream
