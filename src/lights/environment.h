// The environment light as the kernels see it: radiance arriving from infinitely far away, either
// one uniform colour or an equirectangular (latitude-longitude) map, importance-sampled in
// proportion to luminance x sin(theta). Host and device code alike (RAYSTREAM_HD).
//
// Mapping (y up, right-handed). A world direction d is first turned into map space by the
// rotation (see below), then
//   theta = acos(d.y)             in [0, pi]: 0 at +y (the zenith), pi at -y
//   phi   = atan2(d.x, -d.z)      in (-pi, pi]: 0 towards -z, +pi/2 towards +x
//   u     = 0.5 + phi / (2 pi)    the column coordinate, 0 at the left edge of the image
//   v     = theta / pi            the row coordinate, 0 at the top edge (row 0 is the zenith)
// so the centre of the image (u = 0.5, v = 0.5) is the horizon direction -z, u = 0.75 is +x,
// u = 0.25 is -x and the left and right edges meet at +z. Seen from the origin, the image reads
// left to right while turning clockwise seen from above (-z, +x, +z, -x), as a panorama does.
// Inverse: d = (sin theta sin phi, cos theta, -sin theta cos phi).
//
// Rotation: ROTATE turns the map about +y by that many degrees, positive counter-clockwise seen
// from above (the right-handed sense: a feature of the map at -z appears at -x after +90). A map
// direction m appears in the world at R(ROTATE) m; a world direction d looks up R(-ROTATE) d.
//
// Sampling: a texel is chosen with probability proportional to its luminance times sin(theta)
// at the centre of its row (marginal CDF over rows, then a conditional CDF within the row), and
// a point uniform in (u, v) within it. Its density per unit solid angle is
//   pdf = p(u, v) / (2 pi^2 sin theta),   p(u, v) = P(texel) x width x height,
// with sin theta of the direction itself; environment_pdf returns exactly that.
#pragma once

#include <cmath>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "core/sampling.h"

namespace raystream {

// The environment as the kernels see it: plain pointers (device memory on the GPU executor, host
// memory on the CPU one).
struct EnvironmentView {
  const glm::vec3* texels = nullptr;    // width*height linear RGB radiance, already multiplied by
                                        // SCALE; row-major, row 0 = top (theta = 0, +y)
  const float* marginal_cdf = nullptr;  // height + 1 entries, [0] = 0, [height] = 1
  const float* conditional_cdf = nullptr;  // height rows of width + 1 entries each
  int width = 0, height = 0;  // 0 x 0: a uniform environment of radiance `constant` (or none)
  glm::vec3 constant{0.0f};   // uniform radiance when there is no map
  float cos_rotate = 1.0f, sin_rotate = 0.0f;  // ROTATE about +y
  bool present = false;                        // false: no environment (escaped rays see black)
};

// A direction drawn by sample_environment: the radiance arriving from it and the density of the
// draw per unit solid angle. pdf == 0 means no usable sample (no environment, or a direction
// with zero probability such as a pole); callers skip it.
struct EnvironmentSample {
  glm::vec3 direction;
  glm::vec3 radiance;
  float pdf;
};

// Rec. 709 luminance of linear RGB: the weight of a texel.
RAYSTREAM_HD inline float environment_luminance(const glm::vec3& rgb) {
  return 0.2126f * rgb.x + 0.7152f * rgb.y + 0.0722f * rgb.z;
}

namespace environment_detail {

inline constexpr float kInvFourPi = 0.25f / kPi;
// The largest float below 1: sample coordinates are clamped to it.
inline constexpr float kOneMinusEpsilon = 0x1.fffffep-1f;

// World direction to map space: R(-ROTATE) d.
RAYSTREAM_HD inline glm::vec3 to_map(const EnvironmentView& e, const glm::vec3& d) {
  return glm::vec3(e.cos_rotate * d.x - e.sin_rotate * d.z, d.y,
                   e.sin_rotate * d.x + e.cos_rotate * d.z);
}

// Map direction to world space: R(ROTATE) m.
RAYSTREAM_HD inline glm::vec3 to_world(const EnvironmentView& e, const glm::vec3& m) {
  return glm::vec3(e.cos_rotate * m.x + e.sin_rotate * m.z, m.y,
                   -e.sin_rotate * m.x + e.cos_rotate * m.z);
}

// The texel a world direction falls in, and sin(theta) of the direction.
struct Texel {
  int column, row;
  float sin_theta;
};

RAYSTREAM_HD inline Texel find_texel(const EnvironmentView& e, const glm::vec3& unit_dir) {
  const glm::vec3 m = to_map(e, unit_dir);
  const float y = fminf(1.0f, fmaxf(-1.0f, m.y));
  const float theta = acosf(y);
  const float phi = atan2f(m.x, -m.z);
  const float u = 0.5f + phi * (0.5f / kPi);
  const float v = theta * (1.0f / kPi);
  Texel t;
  // Clamped before the conversion to int (fmaxf turns NaN, from a NaN direction, into 0).
  const float width = static_cast<float>(e.width), height = static_cast<float>(e.height);
  t.column = static_cast<int>(fminf(fmaxf(u * width, 0.0f), width));
  if (t.column >= e.width) t.column = 0;  // u == 1 is the seam, where u == 0 is
  t.row = static_cast<int>(fminf(fmaxf(v * height, 0.0f), height));
  if (t.row >= e.height) t.row = e.height - 1;
  t.sin_theta = sqrtf(fmaxf(0.0f, m.x * m.x + m.z * m.z));
  return t;
}

// The density per unit solid angle of the texel found for a direction (0 where sin theta is 0).
RAYSTREAM_HD inline float texel_pdf(const EnvironmentView& e, const Texel& t) {
  if (!(t.sin_theta > 0.0f)) return 0.0f;
  const float* row = e.conditional_cdf + t.row * (e.width + 1);
  const float p_row = e.marginal_cdf[t.row + 1] - e.marginal_cdf[t.row];
  const float p_column = row[t.column + 1] - row[t.column];
  const float p_uv = p_row * p_column * static_cast<float>(e.width) * static_cast<float>(e.height);
  return p_uv / (2.0f * kPi * kPi * t.sin_theta);
}

// Index i in [0, n) with cdf[i] <= x < cdf[i + 1] (the last entry <= x: upper_bound - 1) over a
// CDF of n + 1 non-decreasing entries from 0 to 1. x is clamped to [0, 1), so the index is always
// within range and, when cdf[n] == 1, its interval has non-zero width.
RAYSTREAM_HD inline int find_interval(const float* cdf, int n, float x) {
  x = fminf(fmaxf(x, 0.0f), kOneMinusEpsilon);  // fmaxf also turns NaN into 0
  int first = 0, count = n + 1;                 // upper_bound over cdf[0, n]
  while (count > 0) {
    const int step = count / 2;
    const int middle = first + step;
    if (!(x < cdf[middle])) {
      first = middle + 1;
      count -= step + 1;
    } else {
      count = step;
    }
  }
  int i = first - 1;
  if (i < 0) i = 0;
  if (i > n - 1) i = n - 1;
  return i;
}

// Where x lies within [a, b), as a fraction in [0, 1); the middle when the interval is empty.
RAYSTREAM_HD inline float fraction_in(float x, float a, float b) {
  const float width = b - a;
  const float f = width > 0.0f ? (x - a) / width : 0.5f;
  return fminf(fmaxf(f, 0.0f), kOneMinusEpsilon);
}

}  // namespace environment_detail

// The radiance arriving from the environment along unit_dir (the direction from the shading
// point towards the sky): black without an environment, `constant` for a uniform one, the
// nearest texel of a map.
RAYSTREAM_HD inline glm::vec3 environment_radiance(const EnvironmentView& e,
                                                   const glm::vec3& unit_dir) {
  if (!e.present) return glm::vec3(0.0f);
  if (e.width <= 0 || e.height <= 0) return e.constant;
  const environment_detail::Texel t = environment_detail::find_texel(e, unit_dir);
  return e.texels[t.row * e.width + t.column];
}

// The density of sample_environment at unit_dir, per unit solid angle: 0 without an environment,
// 1 / (4 pi) for a uniform one; for a map, p(u, v) / (2 pi^2 sin theta), 0 where sin theta is 0.
RAYSTREAM_HD inline float environment_pdf(const EnvironmentView& e, const glm::vec3& unit_dir) {
  if (!e.present) return 0.0f;
  if (e.width <= 0 || e.height <= 0) return environment_detail::kInvFourPi;
  return environment_detail::texel_pdf(e, environment_detail::find_texel(e, unit_dir));
}

// A direction towards the environment from u1, u2 in [0, 1): u1 picks the row (theta) from the
// marginal CDF, u2 the column (phi) within the row. A uniform environment is sampled uniformly
// over the sphere (u1 gives y = 1 - 2 u1, u2 gives phi). The returned pdf and radiance are
// environment_pdf and environment_radiance of the returned direction, so they agree with later
// evaluations exactly (as MIS needs).
RAYSTREAM_HD inline EnvironmentSample sample_environment(const EnvironmentView& e, float u1,
                                                         float u2) {
  using namespace environment_detail;
  EnvironmentSample s;
  s.direction = glm::vec3(0.0f, 1.0f, 0.0f);
  s.radiance = glm::vec3(0.0f);
  s.pdf = 0.0f;
  if (!e.present) return s;
  u1 = fminf(fmaxf(u1, 0.0f), kOneMinusEpsilon);
  u2 = fminf(fmaxf(u2, 0.0f), kOneMinusEpsilon);
  if (e.width <= 0 || e.height <= 0) {
    const float y = 1.0f - 2.0f * u1;
    const float r = sqrtf(fmaxf(0.0f, 1.0f - y * y));
    const float phi = 2.0f * kPi * u2;
    s.direction = glm::vec3(r * cosf(phi), y, r * sinf(phi));
    s.radiance = e.constant;
    s.pdf = kInvFourPi;
    return s;
  }
  const int row = find_interval(e.marginal_cdf, e.height, u1);
  const float v =
      (static_cast<float>(row) + fraction_in(u1, e.marginal_cdf[row], e.marginal_cdf[row + 1])) /
      static_cast<float>(e.height);
  const float* cdf = e.conditional_cdf + row * (e.width + 1);
  const int column = find_interval(cdf, e.width, u2);
  const float u = (static_cast<float>(column) + fraction_in(u2, cdf[column], cdf[column + 1])) /
                  static_cast<float>(e.width);
  const float theta = v * kPi;
  const float phi = (u - 0.5f) * (2.0f * kPi);
  const float sin_theta = sinf(theta);
  const glm::vec3 m(sin_theta * sinf(phi), cosf(theta), -sin_theta * cosf(phi));
  s.direction = to_world(e, m);
  // One lookup for both (a direction on a texel's edge may round into its neighbour: then the
  // neighbour's values are returned, consistently with later evaluations).
  const Texel t = find_texel(e, s.direction);
  s.radiance = e.texels[t.row * e.width + t.column];
  s.pdf = texel_pdf(e, t);
  return s;
}

}  // namespace raystream
