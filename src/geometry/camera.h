// The camera: a frame built once on the host from the scene's Camera, and the per-pixel ray with
// jittered sub-pixel position and thin-lens depth of field.
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/sampling.h"
#include "geometry/ray.h"

namespace raystream {

struct Camera;  // scene/scene.h

struct CameraFrame {
  glm::vec3 eye{0.0f};
  glm::vec3 view{0.0f, 0.0f, -1.0f};  // unit, towards LOOKAT
  glm::vec3 right{1.0f, 0.0f, 0.0f};  // unit, image x grows along it
  glm::vec3 up{0.0f, 1.0f, 0.0f};     // unit, image rows grow against it (row 0 is the top)
  float half_width = 1.0f;            // image-plane half extents at distance 1 along view
  float half_height = 1.0f;
  float lens_radius = 0.0f;
  float focal_distance = 1.0f;
  float near_distance = 0.0f;  // rays start on the plane this far along view (a near clip)
  int width = 1, height = 1;
};

// FOVY follows the course format's convention: tan(FOVY) is the image plane's half height at
// distance 1, so the course's scene files frame what they framed there. The frame is
// right-handed: right = view x up. A focal distance of 0 means |LOOKAT - EYE|.
CameraFrame make_camera_frame(const Camera& camera, int width, int height);

// Ray through pixel (x, y) at sub-pixel offset (jx, jy) in [0, 1)^2, through lens point
// (lx, ly) in [0, 1)^2 (ignored for a pinhole). The direction is unit length.
RAYSTREAM_HD inline Ray camera_ray(const CameraFrame& c, int x, int y, float jx, float jy, float lx,
                                   float ly) {
  const float sx = (2.0f * (static_cast<float>(x) + jx) / static_cast<float>(c.width) - 1.0f);
  const float sy = (1.0f - 2.0f * (static_cast<float>(y) + jy) / static_cast<float>(c.height));
  const glm::vec3 pinhole_dir =
      c.view + (sx * c.half_width) * c.right + (sy * c.half_height) * c.up;
  Ray ray;
  if (c.lens_radius > 0.0f) {
    // Thin lens: the pinhole ray meets the plane of focus at `focus`; rays from every point on
    // the lens pass through it.
    const glm::vec3 focus = c.eye + c.focal_distance * pinhole_dir;  // pinhole_dir . view == 1
    const glm::vec2 lens = c.lens_radius * sample_concentric_disk(lx, ly);
    ray.origin = c.eye + lens.x * c.right + lens.y * c.up;
    ray.direction = glm::normalize(focus - ray.origin);
  } else {
    ray.origin = c.eye;
    ray.direction = glm::normalize(pinhole_dir);
  }
  // Nothing nearer than the near plane is seen: the ray starts where it crosses it.
  if (c.near_distance > 0.0f)
    ray.origin += (c.near_distance / glm::dot(ray.direction, c.view)) * ray.direction;
  return ray;
}

}  // namespace raystream
