// The scene's environment light as loaded (host, plain data): a uniform colour or an
// equirectangular radiance map. lights/environment.h documents the mapping and the sampling, and
// lights/environment_map.h builds the tables of its importance sampling.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

namespace raystream {

struct Environment {
  std::string file;               // the map's resolved path; empty for a uniform environment
  float scale = 1.0f;             // SCALE, already applied to `texels` and `constant`
  float rotate_degrees = 0.0f;    // ROTATE about +y, counter-clockwise seen from above
  glm::vec3 constant{0.0f};       // radiance of a uniform environment (RGB x SCALE)
  bool present = false;           // false: no environment, escaped rays see black
  int width = 0, height = 0;      // the map's size in texels; 0 x 0 for a uniform environment
  std::vector<glm::vec3> texels;  // width x height linear radiance x SCALE, row 0 at +y
};
// True when the environment sends any light: it is present, and its colour or a texel of its map
// is not black.
inline bool environment_is_lit(const Environment& env) {
  if (!env.present) return false;
  const auto lit = [](const glm::vec3& c) { return c.r > 0.0f || c.g > 0.0f || c.b > 0.0f; };
  if (env.width <= 0 || env.height <= 0) return lit(env.constant);
  for (const glm::vec3& t : env.texels)
    if (lit(t)) return true;
  return false;
}

// Which fields change the image (scene/scene.h says why the lists): SCALE is in the texels.
#define RAYSTREAM_ENVIRONMENT_IMAGE_FIELDS(X) \
  X(rotate_degrees) X(constant) X(present) X(width) X(height) X(texels)
#define RAYSTREAM_ENVIRONMENT_OTHER_FIELDS(X) X(file) X(scale)

}  // namespace raystream
