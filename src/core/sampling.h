// Warping uniform samples into the distributions the camera and the BSDFs need.
#pragma once

#include <glm/glm.hpp>

#include "core/host_device.h"

namespace raystream {

inline constexpr float kPi = 3.14159265358979323846f;

// Uniform point on the unit disk (Shirley-Chiu concentric map), from u in [0, 1)^2.
RAYSTREAM_HD inline glm::vec2 sample_concentric_disk(float u1, float u2) {
  const float a = 2.0f * u1 - 1.0f;
  const float b = 2.0f * u2 - 1.0f;
  if (a == 0.0f && b == 0.0f) return glm::vec2(0.0f);
  float r, phi;
  if (a * a > b * b) {
    r = a;
    phi = (kPi / 4.0f) * (b / a);
  } else {
    r = b;
    phi = (kPi / 2.0f) - (kPi / 4.0f) * (a / b);
  }
  return glm::vec2(r * cosf(phi), r * sinf(phi));
}

// An orthonormal basis around unit n (Duff et al., "Building an Orthonormal Basis, Revisited").
RAYSTREAM_HD inline void orthonormal_basis(const glm::vec3& n, glm::vec3& t, glm::vec3& b) {
  const float sign = n.z >= 0.0f ? 1.0f : -1.0f;
  const float a = -1.0f / (sign + n.z);
  const float c = n.x * n.y * a;
  t = glm::vec3(1.0f + sign * n.x * n.x * a, sign * c, -sign * n.x);
  b = glm::vec3(c, sign + n.y * n.y * a, -n.y);
}

// Cosine-weighted direction on the hemisphere around unit n: pdf = cos(theta) / pi.
RAYSTREAM_HD inline glm::vec3 sample_cosine_hemisphere(const glm::vec3& n, float u1, float u2) {
  const glm::vec2 d = sample_concentric_disk(u1, u2);
  const float z = sqrtf(fmaxf(0.0f, 1.0f - d.x * d.x - d.y * d.y));
  glm::vec3 t, b;
  orthonormal_basis(n, t, b);
  return glm::normalize(d.x * t + d.y * b + z * n);
}

}  // namespace raystream
