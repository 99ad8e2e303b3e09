// An OBJ file's text as one pass over it reads it (obj_text.cpp): vertices, normals, texture
// coordinates, faces with their materials, and the MTL libraries it names, read as they come;
// obj_loader.cpp then makes the triangles. Internal to io/scene.
#pragma once

#include <climits>
#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/scene/mtl_reader.h"
#include "io/scene/obj_loader.h"

namespace raystream {

// A face corner's indices, from 0: a vertex (a positive index may name one defined further down:
// checked once all are read), a texture coordinate and a normal, each kNoIndex where the corner
// has none and kBadIndex where a relative index reaches before the first one.
struct ObjCorner {
  static constexpr int kNoIndex = -1;
  static constexpr int kBadIndex = INT_MIN;
  int v = kNoIndex, vt = kNoIndex, vn = kNoIndex;
};

// A face of 3 corners or more.
struct ObjFace {
  std::size_t first = 0;  // its corners: ObjText::corners[first, first + count)
  std::uint32_t count = 0;
  int material = -1;  // index into ObjText::materials, or -1 (none, or an unknown name)
  std::size_t line = 0;
  long long largest = 0;       // its largest vertex index as written (1-based; 0: none positive)
  long long bad_relative = 0;  // a relative vertex index before the first vertex (0: none)
};

struct ObjText {
  std::vector<glm::vec3> positions;
  // Per vertex: a coordinate that is missing or not a finite float (the vertex is unusable).
  std::vector<unsigned char> unreadable;
  std::vector<glm::vec3> normals;    // NaN where a component is missing or unreadable
  std::vector<glm::vec2> texcoords;  // NaN where a component is unreadable (a missing v is 0)
  std::vector<ObjCorner> corners;
  std::vector<ObjFace> faces;
  // Faces of fewer than 3 corners (skipped): how many, and the first one's line and corners.
  std::size_t short_faces = 0, first_short_line = 0, first_short_corners = 0;
  std::size_t points_and_lines = 0;  // "p" and "l" lines
  // The MTL libraries' materials in the order they were read, each with its library's path.
  std::vector<MtlMaterial> materials;
  std::vector<std::string> material_files;
  std::vector<std::string> undefined_materials;  // usemtl names no library defines, in order
  std::vector<std::string> material_warnings;    // about the libraries, each naming the OBJ
  std::string material_error;                    // the first library that failed its checks
};

// Reads the OBJ text at `path` (for messages) in one pass; the MTL libraries it names are found
// with `find_mtl` and read as their mtllib line comes. Throws SceneError for a face corner whose
// index is not an integer, does not fit in one or is 0, naming the line; an MTL library that
// fails its checks is kept in material_error (thrown by the caller, after the faces' errors).
// Throws StopRequested when a stop is asked for.
ObjText read_obj_text(const std::string& text, const std::string& path, const MtlLookup& find_mtl);

}  // namespace raystream
