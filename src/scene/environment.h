// The scene's environment light as loaded (host, plain data): a uniform colour or an
// equirectangular radiance map with the CDFs its importance sampling needs. lights/environment.h
// documents the mapping and the sampling; lights/environment_map.h loads and views it.
#pragma once

#include <glm/glm.hpp>
#include <string>
#include <vector>

namespace raystream {

struct Environment {
  std::string file;                    // the map's resolved path; empty for a uniform environment
  float scale = 1.0f;                  // SCALE, already applied to `texels` and `constant`
  float rotate_degrees = 0.0f;         // ROTATE about +y, counter-clockwise seen from above
  glm::vec3 constant{0.0f};            // radiance of a uniform environment (RGB x SCALE)
  bool present = false;                // false: no environment, escaped rays see black
  int width = 0, height = 0;           // the map's size in texels; 0 x 0 for a uniform environment
  std::vector<glm::vec3> texels;       // width x height linear radiance x SCALE, row 0 at +y
  std::vector<float> marginal_cdf;     // height + 1 entries, from 0 to 1
  std::vector<float> conditional_cdf;  // height rows of width + 1 entries, each from 0 to 1
};

}  // namespace raystream
