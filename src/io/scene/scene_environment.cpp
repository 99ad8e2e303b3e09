// The scene file's Environment: what escaped rays see, a Radiance HDR or OpenEXR map or a uniform
// radiance.
#include <cmath>

#include "core/stop_request.h"
#include "io/image/environment_reader.h"
#include "io/scene/scene_context.h"

namespace raystream {
namespace {

// A Radiance HDR or OpenEXR map (FILE, relative to the scene file's folder, turned about +y by
// ROTATE degrees) or a uniform radiance (RGB); SCALE multiplies either.
void read_environment(JsonReader& r, const Json& j, const std::string& path, Environment& env) {
  const std::string key = "Environment";
  r.object(j, key);
  r.check_keys(j, key, {"FILE", "RGB", "SCALE", "ROTATE"});
  const bool has_file = j.contains("FILE");
  const bool has_rgb = j.contains("RGB");
  if (has_file && has_rgb) r.fail(key, "FILE and RGB exclude each other (give one of them)");
  if (!has_file && !has_rgb) {
    r.fail(key, "expected FILE (an HDR or EXR map) or RGB (a uniform radiance)");
  }
  float scale = 1.0f;
  if (j.contains("SCALE")) {
    scale = r.real(j["SCALE"], "Environment.SCALE");
    if (scale < 0) r.fail("Environment.SCALE", "expected a non-negative number");
  }
  float rotate = 0.0f;
  if (j.contains("ROTATE")) rotate = r.real(j["ROTATE"], "Environment.ROTATE");

  if (has_rgb) {
    const glm::vec3 rgb = r.vec3(j["RGB"], "Environment.RGB");
    if (rgb.x < 0 || rgb.y < 0 || rgb.z < 0) {
      r.fail("Environment.RGB", "expected non-negative components");
    }
    const glm::vec3 radiance = rgb * scale;
    if (!std::isfinite(radiance.x) || !std::isfinite(radiance.y) || !std::isfinite(radiance.z)) {
      r.fail("Environment.SCALE", "RGB x SCALE overflows a float");
    }
    if (j.contains("ROTATE")) {
      r.warn("Environment.ROTATE", "a uniform environment (RGB) looks the same turned; ignored");
    }
    env = Environment();
    env.present = true;
    env.constant = radiance;
    env.scale = scale;
    return;
  }

  const std::string file = r.path(j["FILE"], "Environment.FILE", "HDR or EXR file path");
  try {
    env = load_environment_map(beside_scene(path, file), scale, rotate);
  } catch (const SceneError& e) {
    r.fail("Environment.FILE", e.what());
  }
}

}  // namespace

void read_environment(SceneContext& c, const Json& doc) {
  if (!doc.contains("Environment")) return;
  poll_stop();
  read_environment(c.r, doc["Environment"], c.path, c.scene.environment);
  poll_stop();
}

}  // namespace raystream
