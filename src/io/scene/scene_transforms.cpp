// Objects' transforms: TRANS, ROTAT and SCALE read, and the object-to-world matrix checked to
// keep what it moves finite, within the renderer's coordinates and invertible.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "io/scene/scene_context.h"

namespace raystream {

bool in_bounds(const glm::vec3& p) {
  for (int i = 0; i < 3; ++i) {
    if (!(std::fabs(p[i]) <= kMaxCoordinate)) return false;  // also NaN
  }
  return true;
}

std::string limit_text() {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(kMaxCoordinate));
  return text;
}

void read_transform(JsonReader& r, const Json& j, const std::string& key, Object& o) {
  if (j.contains("TRANS")) o.translation = r.vec3(j["TRANS"], key + ".TRANS");
  if (j.contains("ROTAT")) o.rotation_degrees = r.vec3(j["ROTAT"], key + ".ROTAT");
  if (j.contains("SCALE")) {
    o.scale = r.vec3(j["SCALE"], key + ".SCALE");
    if (o.scale.x == 0 || o.scale.y == 0 || o.scale.z == 0) {
      r.fail(key + ".SCALE", "expected non-zero components");
    }
  }
}

namespace {

bool finite_matrix(const glm::mat3& m) {
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) {
      if (!std::isfinite(m[c][r])) return false;
    }
  }
  return true;
}

bool finite_matrix(const glm::mat4& m) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      if (!std::isfinite(m[c][r])) return false;
    }
  }
  return true;
}

float largest_component(const glm::vec3& v) {
  return std::max(std::fabs(v.x), std::max(std::fabs(v.y), std::fabs(v.z)));
}

}  // namespace

[[noreturn]] void fail_out_of_bounds(const JsonReader& r, const std::string& key, const Object& o,
                                     const std::string& what) {
  const bool translation = largest_component(o.translation) >= largest_component(o.scale) / 2;
  r.fail(key + (translation ? ".TRANS" : ".SCALE"),
         "the transformed " + what + " is not finite or reaches beyond +-" + limit_text() +
             " (TRANS, ROTAT and SCALE must keep it within)");
}

void check_invertible(const JsonReader& r, const std::string& key, const glm::mat4& m) {
  if (!finite_matrix(glm::inverse(m)) || !finite_matrix(glm::inverse(glm::mat3(m)))) {
    r.fail(key + ".SCALE",
           "the transform cannot be inverted in single precision (a SCALE component is too close "
           "to 0)");
  }
}

void check_object_transform(const JsonReader& r, const std::string& key, const Object& o) {
  const glm::mat4 m = object_to_world(o);
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec4 p((corner & 1) ? 0.5f : -0.5f, (corner & 2) ? 0.5f : -0.5f,
                      (corner & 4) ? 0.5f : -0.5f, 1.0f);
    if (!in_bounds(glm::vec3(m * p))) fail_out_of_bounds(r, key, o, "object");
  }
  check_invertible(r, key, m);
}

}  // namespace raystream
