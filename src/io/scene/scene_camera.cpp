// The scene file's Camera: the image size, the field of view, the samples per pixel and the
// depth, the output name, the view and the lens; each key checked.
#include <cmath>

#include "io/scene/scene_context.h"

namespace raystream {

void read_camera(SceneContext& context, const Json& doc) {
  JsonReader& r = context.r;
  Scene& scene = context.scene;
  const std::string& path = context.path;
  const std::string key = "Camera";
  const Json& j = r.require(doc, "", "Camera");
  r.object(j, key);
  r.check_keys(j, key,
               {"RES", "FOVY", "ITERATIONS", "DEPTH", "FILE", "EYE", "LOOKAT", "UP", "LENS_RADIUS",
                "FOCAL_DISTANCE", "NEAR"});
  Camera& c = scene.camera;

  const Json& res = r.require(j, key, "RES");
  if (!res.is_array() || res.size() != 2) r.fail("Camera.RES", "expected [width, height]");
  c.width = r.positive_int(res[0], "Camera.RES[0]", kMaxImageSide);
  c.height = r.positive_int(res[1], "Camera.RES[1]", kMaxImageSide);
  if (static_cast<long long>(c.width) * c.height > kMaxImagePixels) {
    r.fail("Camera.RES", std::to_string(c.width) + " x " + std::to_string(c.height) +
                             " is too large (at most " + std::to_string(kMaxImagePixels) +
                             " pixels)");
  }

  c.fovy_degrees = r.real(r.require(j, key, "FOVY"), "Camera.FOVY");
  // The course's convention: tan(FOVY) is the half height of the image plane at distance 1, so
  // FOVY is half the vertical field of view.
  if (!(c.fovy_degrees > 0 && c.fovy_degrees < 90)) {
    r.fail("Camera.FOVY", "expected half the vertical field of view in degrees, in (0, 90)");
  }
  scene.iterations =
      r.positive_int(r.require(j, key, "ITERATIONS"), "Camera.ITERATIONS", kMaxIterations);
  scene.depth = r.positive_int(r.require(j, key, "DEPTH"), "Camera.DEPTH", kMaxDepth);

  if (j.contains("FILE")) {
    scene.output_name = r.path(j["FILE"], "Camera.FILE", "name");
  } else {
    // The scene file's name without folder and extension.
    std::string stem = path.substr(path.find_last_of('/') + 1);
    const std::size_t dot = stem.find_last_of('.');
    if (dot != std::string::npos && dot > 0) stem.resize(dot);
    scene.output_name = stem.empty() ? "render" : stem;
  }

  c.eye = r.vec3(r.require(j, key, "EYE"), "Camera.EYE");
  c.lookat = r.vec3(r.require(j, key, "LOOKAT"), "Camera.LOOKAT");
  c.up = r.vec3(r.require(j, key, "UP"), "Camera.UP");
  if (!in_bounds(c.eye)) r.fail("Camera.EYE", "coordinates beyond +-" + limit_text());
  if (!in_bounds(c.lookat)) r.fail("Camera.LOOKAT", "coordinates beyond +-" + limit_text());
  const glm::vec3 view = c.lookat - c.eye;
  if (glm::length(view) <= 0.0f) r.fail("Camera.LOOKAT", "must differ from Camera.EYE");
  if (glm::length(c.up) <= 0.0f) r.fail("Camera.UP", "must not be the zero vector");
  if (glm::length(glm::cross(glm::normalize(view), glm::normalize(c.up))) < 1e-6f) {
    r.fail("Camera.UP", "must not be parallel to the viewing direction (LOOKAT - EYE)");
  }

  if (j.contains("LENS_RADIUS")) {
    c.lens_radius = r.real(j["LENS_RADIUS"], "Camera.LENS_RADIUS");
    if (c.lens_radius < 0) r.fail("Camera.LENS_RADIUS", "expected a non-negative number");
  }
  if (j.contains("NEAR")) {
    c.near_distance = r.real(j["NEAR"], "Camera.NEAR");
    if (c.near_distance < 0) r.fail("Camera.NEAR", "expected a non-negative number");
  }
  if (j.contains("FOCAL_DISTANCE")) {
    c.focal_distance = r.real(j["FOCAL_DISTANCE"], "Camera.FOCAL_DISTANCE");
    if (c.focal_distance < 0) r.fail("Camera.FOCAL_DISTANCE", "expected a non-negative number");
  }
}

}  // namespace raystream
