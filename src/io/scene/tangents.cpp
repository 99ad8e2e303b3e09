#include "io/scene/tangents.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

namespace raystream {
namespace {

bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// v without its component along unit n, unit; zero where nothing is left.
glm::vec3 perpendicular_unit(const glm::vec3& v, const glm::vec3& n) {
  const glm::vec3 p = v - n * glm::dot(n, v);
  const float length = glm::length(p);
  return length > 1e-20f && std::isfinite(length) ? p / length : glm::vec3(0.0f);
}

// The angle between two edges leaving a corner.
float corner_angle(const glm::vec3& a, const glm::vec3& b) {
  const float la = glm::length(a), lb = glm::length(b);
  if (!(la > 0.0f) || !(lb > 0.0f)) return 0.0f;
  const float c = glm::dot(a, b) / (la * lb);
  return std::acos(std::fmax(-1.0f, std::fmin(1.0f, c)));
}

}  // namespace

glm::vec4 fallback_tangent(const glm::vec3& n_in) {
  const float length = glm::length(n_in);
  if (!(length > 0.0f) || !std::isfinite(length)) return glm::vec4(1.0f, 0.0f, 0.0f, 1.0f);
  const glm::vec3 n = n_in / length;
  // The axis least along n keeps the cross product well away from zero.
  const glm::vec3 a =
      std::fabs(n.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
  return glm::vec4(glm::normalize(a - n * glm::dot(n, a)), 1.0f);
}

std::vector<glm::vec4> generate_tangents(const std::vector<std::uint32_t>& indices,
                                         const std::vector<glm::vec3>& positions,
                                         const std::vector<glm::vec3>& normals,
                                         const std::vector<glm::vec2>& uvs) {
  const std::size_t n = positions.size();
  std::vector<glm::vec3> unit_normals(n, glm::vec3(0.0f));
  for (std::size_t i = 0; i < n; ++i) {
    const float length = glm::length(normals[i]);
    if (length > 0.0f && std::isfinite(length)) unit_normals[i] = normals[i] / length;
  }
  std::vector<glm::vec3> tangent_sum(n, glm::vec3(0.0f)), bitangent_sum(n, glm::vec3(0.0f));
  for (std::size_t c = 0; c + 2 < indices.size(); c += 3) {
    const std::uint32_t k[3] = {indices[c], indices[c + 1], indices[c + 2]};
    const glm::vec3 e1 = positions[k[1]] - positions[k[0]], e2 = positions[k[2]] - positions[k[0]];
    const glm::vec2 d1 = uvs[k[1]] - uvs[k[0]], d2 = uvs[k[2]] - uvs[k[0]];
    const float r = d1.x * d2.y - d2.x * d1.y;  // twice the signed uv area
    if (!(std::fabs(r) > 0.0f) || !std::isfinite(r)) continue;
    // dP/du and dP/dv across the triangle.
    const glm::vec3 t = (e1 * d2.y - e2 * d1.y) / r;
    const glm::vec3 b = (e2 * d1.x - e1 * d2.x) / r;
    if (!finite(t) || !finite(b)) continue;
    for (int j = 0; j < 3; ++j) {
      const glm::vec3& p = positions[k[j]];
      const float angle =
          corner_angle(positions[k[(j + 1) % 3]] - p, positions[k[(j + 2) % 3]] - p);
      const glm::vec3& nv = unit_normals[k[j]];
      tangent_sum[k[j]] += angle * perpendicular_unit(t, nv);
      bitangent_sum[k[j]] += angle * perpendicular_unit(b, nv);
    }
  }
  std::vector<glm::vec4> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3& nv = unit_normals[i];
    const glm::vec3 t = perpendicular_unit(tangent_sum[i], nv);
    if (t == glm::vec3(0.0f) || !finite(t)) {
      out[i] = fallback_tangent(nv);
      continue;
    }
    const float w = glm::dot(glm::cross(nv, t), bitangent_sum[i]) < 0.0f ? -1.0f : 1.0f;
    out[i] = glm::vec4(t, w);
  }
  return out;
}

namespace {

// A corner as a vertex: equal where every byte of its position, normal and uv is.
struct CornerKey {
  float values[8];
  bool operator==(const CornerKey& o) const {
    return std::memcmp(values, o.values, sizeof values) == 0;
  }
};

struct CornerHash {
  std::size_t operator()(const CornerKey& k) const {
    std::uint64_t h = 1469598103934665603ull;
    const auto* bytes = reinterpret_cast<const unsigned char*>(k.values);
    for (std::size_t i = 0; i < sizeof k.values; ++i) h = (h ^ bytes[i]) * 1099511628211ull;
    return std::size_t(h);
  }
};

}  // namespace

void generate_triangle_tangents(std::vector<Triangle>& triangles,
                                const std::function<bool(const Triangle&)>& wanted, int texcoord) {
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < triangles.size(); ++i)
    if (wanted(triangles[i])) chosen.push_back(i);
  if (chosen.empty()) return;
  std::unordered_map<CornerKey, std::uint32_t, CornerHash> vertices;
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::vec2> uvs;
  std::vector<std::uint32_t> indices;
  indices.reserve(chosen.size() * 3);
  for (const std::size_t i : chosen) {
    const Triangle& t = triangles[i];
    for (int j = 0; j < 3; ++j) {
      const glm::vec2 uv = texcoord == 1 ? t.uv1[j] : t.uv[j];
      CornerKey key{{t.v[j].x, t.v[j].y, t.v[j].z, t.n[j].x, t.n[j].y, t.n[j].z, uv.x, uv.y}};
      // -0 and +0 are one vertex.
      for (float& v : key.values)
        if (v == 0.0f) v = 0.0f;
      const auto [it, added] = vertices.emplace(key, std::uint32_t(positions.size()));
      if (added) {
        positions.push_back(t.v[j]);
        normals.push_back(t.n[j]);
        uvs.push_back(uv);
      }
      indices.push_back(it->second);
    }
  }
  const std::vector<glm::vec4> tangents = generate_tangents(indices, positions, normals, uvs);
  for (std::size_t c = 0; c < chosen.size(); ++c)
    for (int j = 0; j < 3; ++j)
      triangles[chosen[c]].t[j] = tangents[indices[3 * c + std::size_t(j)]];
}

}  // namespace raystream
