// Triangles as the intersection code sees them: the geometry needed by the ray test in a compact
// precomputed form (first vertex and two edges, 36 bytes), and the shading data (vertex normals,
// material, texture coordinates) read only for the closest hit.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/host_device.h"
#include "geometry/ray.h"

namespace raystream {

struct TriangleGeometry {
  glm::vec3 v0{0.0f};
  glm::vec3 e1{0.0f};  // v1 - v0
  glm::vec3 e2{0.0f};  // v2 - v0
};

struct TriangleShading {
  glm::vec3 n0{0.0f}, n1{0.0f}, n2{0.0f};  // unit vertex normals (all equal: flat shading)
  std::int32_t material = 0;
  std::int32_t light = -1;                    // index into the light table, -1: not emissive
  glm::vec2 uv0{0.0f}, uv1{0.0f}, uv2{0.0f};  // the corners' texture coordinates
  // Index into SceneGeometry::triangle_details, -1: none (the triangle's material reads neither
  // a normal map nor the second set of texture coordinates, so it carries neither).
  std::int32_t detail = -1;
};

// What only some triangles need: the corners' tangents (xyz, handedness w) for normal maps and
// their second set of texture coordinates.
struct TriangleDetail {
  glm::vec4 t0{0.0f}, t1{0.0f}, t2{0.0f};
  glm::vec2 uv0{0.0f}, uv1{0.0f}, uv2{0.0f};
};

// Reads triangle i (on the device through the read-only cache).
RAYSTREAM_HD inline TriangleGeometry load_triangle(const TriangleGeometry* triangles, int i) {
#if defined(__CUDA_ARCH__)
  const float* p = reinterpret_cast<const float*>(triangles + i);
  TriangleGeometry t;
  t.v0 = glm::vec3(__ldg(p + 0), __ldg(p + 1), __ldg(p + 2));
  t.e1 = glm::vec3(__ldg(p + 3), __ldg(p + 4), __ldg(p + 5));
  t.e2 = glm::vec3(__ldg(p + 6), __ldg(p + 7), __ldg(p + 8));
  return t;
#else
  return triangles[i];
#endif
}
static_assert(sizeof(TriangleGeometry) == 36, "triangles are nine floats");

// Barycentric slack of the edge tests: a ray through an edge or a vertex shared by two triangles
// hits at least one of them despite rounding (the triangle grows by a millionth of its size).
inline constexpr float kTriangleEdgeSlack = 1.0e-6f;

// Moller-Trumbore. Returns t in (t_min, t_max) where the ray meets the triangle (either side), or
// kNoHit; writes the barycentric coordinates (u, v) of v1 and v2. Degenerate triangles (zero
// area, non-finite vertices) and rays in the triangle's plane never hit.
RAYSTREAM_HD inline float intersect_triangle(const TriangleGeometry& tri, const glm::vec3& o,
                                             const glm::vec3& d, float t_min, float t_max, float& u,
                                             float& v) {
  const glm::vec3 p = glm::cross(d, tri.e2);
  const float det = glm::dot(tri.e1, p);
  if (!(det != 0.0f) || !(fabsf(det) < kNoHit)) return kNoHit;  // also NaN and infinity
  const float inv_det = 1.0f / det;
  const glm::vec3 s = o - tri.v0;
  const float bu = glm::dot(s, p) * inv_det;
  if (!(bu >= -kTriangleEdgeSlack && bu <= 1.0f + kTriangleEdgeSlack)) return kNoHit;
  const glm::vec3 q = glm::cross(s, tri.e1);
  const float bv = glm::dot(d, q) * inv_det;
  if (!(bv >= -kTriangleEdgeSlack && bu + bv <= 1.0f + kTriangleEdgeSlack)) return kNoHit;
  const float t = glm::dot(tri.e2, q) * inv_det;
  if (!(t > t_min && t < t_max)) return kNoHit;
  u = bu;
  v = bv;
  return t;
}

// The triangle's unit geometric normal, by the winding v0 -> v1 -> v2 (right-handed).
RAYSTREAM_HD inline glm::vec3 triangle_face_normal(const TriangleGeometry& tri) {
  return glm::normalize(glm::cross(tri.e1, tri.e2));
}

// The normal a hit reports: the vertex normals interpolated at (u, v), turned to the geometric
// normal's side; the geometric normal itself where the interpolated one would put the ray on the
// other side of the surface than the geometry does (a shading normal must not let a path through).
RAYSTREAM_HD inline glm::vec3 triangle_hit_normal(const TriangleGeometry& tri,
                                                  const TriangleShading& shading,
                                                  const glm::vec3& direction, float u, float v) {
  const glm::vec3 ng = triangle_face_normal(tri);
  glm::vec3 n = (1.0f - u - v) * shading.n0 + u * shading.n1 + v * shading.n2;
  const float length = glm::length(n);
  if (!(length > 1.0e-12f)) return ng;
  n /= length;
  if (glm::dot(n, ng) < 0.0f) n = -n;
  const float dn = glm::dot(direction, n);
  const float dg = glm::dot(direction, ng);
  if ((dn < 0.0f) != (dg < 0.0f) || dn == 0.0f) return ng;
  return n;
}

}  // namespace raystream
