// What every BSDF lobe returns when it samples a direction. All lobes work in the local shading
// frame (normal +z; materials/bsdf.h carries directions in and out), with wo pointing towards
// where the light goes (the viewer) and wi towards where it comes from.
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"

namespace raystream {

struct LobeSample {
  glm::vec3 wi{0.0f};      // unit, local frame
  glm::vec3 weight{0.0f};  // f |cos theta_i| / pdf; zero when there is no sample (the path ends)
  float pdf = 0.0f;        // density per unit solid angle (delta lobes: the choice's probability)
  bool delta = false;      // a specular direction: no other strategy can find it (no MIS)
};

RAYSTREAM_HD inline bool same_hemisphere(const glm::vec3& a, const glm::vec3& b) {
  return a.z * b.z > 0.0f;
}

// The mirror direction of w about the unit normal m (both pointing away from the surface).
RAYSTREAM_HD inline glm::vec3 reflect_local(const glm::vec3& w, const glm::vec3& m) {
  return 2.0f * glm::dot(w, m) * m - w;
}

}  // namespace raystream
