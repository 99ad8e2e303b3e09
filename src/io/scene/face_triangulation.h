// Polygon faces (of OBJ files) split into triangles, in time linear in the corners for convex
// faces of any size and quadratic only for faces that are not convex, whose corners are capped.
// Host only.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <vector>

namespace raystream {

// Most corners of a face that is not convex: ear clipping takes time quadratic in them (a
// thousand corners, a few milliseconds). Convex faces are split as a fan, whatever their size.
inline constexpr std::size_t kMaxNonConvexFaceCorners = 1024;

// A triangle of a face: three corner indices, in the face's winding.
using FaceTriangle = std::array<std::uint32_t, 3>;

// Splits the face whose corners, in order, are at `corners` (finite positions) into
// corners.size() - 2 triangles appended to `triangles`, in the face's winding, over the plane the
// face lies closest to (its Newell normal): a triangle as it is; a convex quad along its shorter
// diagonal (as tinyobjloader splits it, so that existing files keep their triangles); any other
// convex face as a fan from its first corner; a face that is not convex by ear clipping (a face
// that crosses itself still gets its corners.size() - 2 triangles, some of them overlapping or
// of zero area). Returns false, appending nothing, for a face that is not convex and has more
// than kMaxNonConvexFaceCorners corners; faces of fewer than 3 corners give no triangle.
bool triangulate_face(const std::vector<glm::vec3>& corners, std::vector<FaceTriangle>& triangles);

}  // namespace raystream
