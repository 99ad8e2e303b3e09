// Tangents for normal maps where a mesh gives none: per vertex of an indexed triangle mesh, in
// the spirit of MikkTSpace (docs/scene-format.md, "Tangents", says where it differs). Host only.
#pragma once

#include <cstdint>
#include <functional>
#include <glm/glm.hpp>
#include <vector>

#include "scene/scene.h"

namespace raystream {

// A unit vector perpendicular to `n` (any one; n need not be unit), w = +1: the tangent of a
// vertex whose texture coordinates say nothing (zero uv area), never NaN. (1, 0, 0, 1) for a
// zero or non-finite n.
glm::vec4 fallback_tangent(const glm::vec3& n);

// The tangent of each vertex (xyz unit, along increasing u, perpendicular to the vertex normal;
// w = +1 or -1, the side of the bitangent, which runs along increasing v: bitangent =
// w cross(n, t)). Each triangle's tangent and bitangent come from its texture coordinates'
// derivatives; each corner adds them, projected onto its vertex normal's plane, unit, weighted by
// the corner's angle; the sum is made perpendicular to the normal (Gram-Schmidt). Triangles of
// zero uv area add nothing; a vertex left without a direction takes fallback_tangent(normal).
// `indices`: three per triangle, each below positions.size(); normals and uvs: one per vertex.
std::vector<glm::vec4> generate_tangents(const std::vector<std::uint32_t>& indices,
                                         const std::vector<glm::vec3>& positions,
                                         const std::vector<glm::vec3>& normals,
                                         const std::vector<glm::vec2>& uvs);

// The tangents of the triangles for which `wanted` is true, in place (Triangle::t), from the
// texture coordinate set `texcoord` (0: uv, 1: uv1): corners are vertices shared where their
// position, normal and texture coordinates are equal (the corners of a triangle soup, as an OBJ
// file's triangles are kept, joined again), then generate_tangents.
void generate_triangle_tangents(std::vector<Triangle>& triangles,
                                const std::function<bool(const Triangle&)>& wanted,
                                int texcoord = 0);

}  // namespace raystream
