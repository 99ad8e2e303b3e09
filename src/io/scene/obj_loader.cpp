// Meshes from OBJ files: the text read in one pass (obj_text.cpp), then its faces made into
// triangles, its MTL materials mapped, and what was skipped said in a few warnings.
#include "io/scene/obj_loader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/excerpt.h"
#include "core/stop_request.h"
#include "io/files/input_file.h"
#include "io/scene/face_triangulation.h"
#include "io/scene/obj_text.h"
#include "io/scene/tangents.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;

// The image file that a map_Kd names, found as MTL libraries are: the path relative to the MTL
// file's folder, else the file name in that folder (exported files often name a folder that did
// not ship); a name written with '\\' (exported on Windows) is tried with '/' too. The first
// candidate that is a file, else the first candidate (the error then names it).
std::string texture_beside(const std::string& mtl_path, const std::string& name) {
  const fs::path folder = fs::path(mtl_path).parent_path();
  std::string slashed = name;
  std::replace(slashed.begin(), slashed.end(), '\\', '/');
  const fs::path candidates[4] = {folder / name, folder / slashed,
                                  folder / fs::path(name).filename(),
                                  folder / fs::path(slashed).filename()};
  for (const fs::path& candidate : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal().string();
  }
  return candidates[0].lexically_normal().string();
}

// The MTL libraries next to the OBJ at `obj_path`: the named path relative to the OBJ's folder,
// else the named file's base name in that folder (exported files often name a folder that did
// not ship).
MtlLookup mtl_beside(const std::string& obj_path) {
  const fs::path folder = fs::path(obj_path).parent_path();
  return [folder](const std::string& name, std::string& text, std::string& path) {
    const fs::path candidates[2] = {folder / name, folder / fs::path(name).filename()};
    for (const fs::path& candidate : candidates) {
      std::error_code ec;
      if (!fs::exists(fs::symlink_status(candidate, ec)) || fs::is_directory(candidate, ec))
        continue;
      // Whatever it is, it is named: read_input_file refuses what is not a regular file.
      path = candidate.string();
      text = read_input_file(path, kMtlFile);
      return true;
    }
    return false;
  };
}

bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Corners that a triangle cannot use as they are, counted for the warnings.
struct CornerCounts {
  std::size_t bad_texcoords = 0;  // a vt index out of range, or a vt not finite
  std::size_t bad_normals = 0;    // a vn index out of range
};

// The position of a face corner's vertex, or false where it has none: an index out of range, or
// a vertex not finite (or unreadable in the text).
bool corner_position(const ObjText& obj, const ObjCorner& c, glm::vec3& p) {
  if (c.v < 0 || std::size_t(c.v) >= obj.positions.size()) return false;
  p = obj.positions[std::size_t(c.v)];
  return finite(p) && !obj.unreadable[std::size_t(c.v)];
}

// The triangle of three face corners: its vertices, vertex normals where every corner has a
// finite one (else the face normal, the winding then following the vertex normals), texture
// coordinates (bad ones counted, left at (0, 0)). False when the face must be skipped: an index
// out of range, a vertex not finite (or unreadable in the text), or a zero area.
bool read_triangle(const ObjText& obj, const ObjCorner* const corners[3], Triangle& tri,
                   CornerCounts& counts) {
  bool smooth = true;
  for (int c = 0; c < 3; ++c) {
    const ObjCorner& corner = *corners[c];
    if (!corner_position(obj, corner, tri.v[c])) return false;
    if (corner.vn >= 0 && std::size_t(corner.vn) < obj.normals.size()) {
      const glm::vec3 n = obj.normals[std::size_t(corner.vn)];
      const float length = glm::length(n);
      if (finite(n) && length > 0.0f && std::isfinite(length)) {
        tri.n[c] = n / length;
      } else {
        smooth = false;
      }
    } else {
      if (corner.vn != ObjCorner::kNoIndex) ++counts.bad_normals;
      smooth = false;
    }
    if (corner.vt >= 0 && std::size_t(corner.vt) < obj.texcoords.size()) {
      const glm::vec2 uv = obj.texcoords[std::size_t(corner.vt)];
      if (std::isfinite(uv.x) && std::isfinite(uv.y)) {
        tri.uv[c] = uv;
      } else {
        ++counts.bad_texcoords;
      }
    } else if (corner.vt != ObjCorner::kNoIndex) {
      ++counts.bad_texcoords;
    }
  }
  // OBJ has one set of texture coordinates: the second is the first.
  for (int c = 0; c < 3; ++c) tri.uv1[c] = tri.uv[c];
  glm::vec3 face = glm::cross(tri.v[1] - tri.v[0], tri.v[2] - tri.v[0]);
  const float area2 = glm::length(face);
  if (!(area2 > 0.0f) || !std::isfinite(area2)) return false;
  face /= area2;
  if (smooth) {
    // The vertex normals say which side is outside: the winding follows them.
    if (glm::dot(face, tri.n[0] + tri.n[1] + tri.n[2]) < 0.0f) reverse_winding(tri);
  } else {
    tri.n[0] = tri.n[1] = tri.n[2] = face;
  }
  return true;
}

// Splits a face into triangles, each read by read_triangle and appended to mesh.triangles with
// material `material`. A face with a corner out of range or not finite is skipped whole (counted
// once), and so is each triangle of zero area. Returns false for a face that is not convex and
// has more than kMaxNonConvexFaceCorners corners.
bool add_face(const ObjText& obj, const ObjFace& face, int material, ObjMesh& mesh,
              CornerCounts& counts) {
  const ObjCorner* first = obj.corners.data() + face.first;
  const auto add = [&](const ObjCorner* const corners[3]) {
    Triangle tri;
    CornerCounts own;
    if (!read_triangle(obj, corners, tri, own)) {
      ++mesh.skipped_faces;
      return;
    }
    tri.material = material;
    mesh.triangles.push_back(tri);
    counts.bad_texcoords += own.bad_texcoords;
    counts.bad_normals += own.bad_normals;
  };
  if (face.count == 3) {
    const ObjCorner* const corners[3] = {first, first + 1, first + 2};
    add(corners);
    return true;
  }
  std::vector<glm::vec3> positions(face.count);
  for (std::size_t c = 0; c < face.count; ++c) {
    if (!corner_position(obj, first[c], positions[c])) {
      ++mesh.skipped_faces;
      return true;
    }
  }
  std::vector<FaceTriangle> triangles;
  if (!triangulate_face(positions, triangles)) return false;
  for (const FaceTriangle& t : triangles) {
    const ObjCorner* const corners[3] = {first + t[0], first + t[1], first + t[2]};
    add(corners);
  }
  return true;
}

// The MTL's materials, mapped, with their map_Kd textures (dropped, with a warning, where the
// material is not textured).
void add_materials(const ObjText& obj, ObjMesh& mesh) {
  for (std::size_t i = 0; i < obj.materials.size(); ++i) {
    const MtlMaterial& mtl = obj.materials[i];
    KdMap kd_map;
    if (!mtl.kd_map.empty()) {
      kd_map.path = texture_beside(obj.material_files[i], mtl.kd_map);
      kd_map.origin = obj.material_files[i] + ":" + std::to_string(mtl.kd_map_line) + ": map_Kd";
    }
    mesh.materials.push_back(material_from_mtl(mtl));
    mesh.kd_maps.push_back(kd_map);
    const auto resolve = [&](const MtlMap& map, const char* keyword) {
      KdMap found;
      if (map.file.empty()) return found;
      found.path = texture_beside(obj.material_files[i], map.file);
      found.origin = obj.material_files[i] + ":" + std::to_string(map.line) + ": " + keyword;
      return found;
    };
    MaterialMaps maps;
    maps.roughness = resolve(mtl.pr_map, "map_Pr");
    maps.metallic = resolve(mtl.pm_map, "map_Pm");
    maps.emission = resolve(mtl.ke_map, "map_Ke");
    maps.normal = resolve(mtl.norm_map, "norm");
    maps.opacity = resolve(mtl.d_map, "map_d");
    // A normal map says more than a height map: norm wins.
    if (mtl.norm_map.file.empty()) maps.bump = resolve(mtl.bump_map, "map_Bump");
    maps.roughness_channel = mtl.pr_map.channel;
    maps.metallic_channel = mtl.pm_map.channel;
    maps.opacity_channel = mtl.d_map.channel;
    maps.bump_scale = mtl.bump_map.bm;
    // Glass has no alpha (its d made it glass): its map_d is not read.
    if (mesh.materials.back().type == MaterialType::refractive) maps.opacity = KdMap();
    mesh.maps.push_back(maps);
    if (!kd_map.path.empty() &&
        !(material_type_traits(mesh.materials.back().type) & kTypeTextured)) {
      mesh.material_warnings.push_back(excerpt(
          kd_map.origin + ": material \"" + excerpt(mtl.name) +
              "\" is not diffuse (only Diffuse and Plastic materials are textured); the texture "
              "is ignored",
          kMaxMessage));
      mesh.kd_maps.back() = KdMap();
    }
  }
}

// One warning naming the usemtl names that no MTL material defines (the first few of them).
std::string undefined_materials_warning(const std::string& path, const ObjText& obj) {
  const std::vector<std::string>& names = obj.undefined_materials;
  if (names.empty()) return "";
  std::string list;
  const std::size_t listed = std::min<std::size_t>(names.size(), 4);
  for (std::size_t i = 0; i < listed; ++i)
    list += std::string(i == 0                  ? ""
                        : i + 1 == names.size() ? " and "
                                                : ", ") +
            "\"" + excerpt(names[i], 32) + "\"";
  if (names.size() > listed) list += " and " + std::to_string(names.size() - listed) + " more";
  const bool one = names.size() == 1;
  return excerpt(path + ": usemtl " + list + (one ? " names" : " name") +
                     " no material of the MTL library; " + (one ? "its" : "their") +
                     " faces take the default material",
                 kMaxMessage);
}

// The first face that names a vertex the file does not have, for messages ("" when none).
std::string first_out_of_range(const ObjText& obj) {
  const long long vertices = static_cast<long long>(obj.positions.size());
  for (const ObjFace& face : obj.faces) {
    const long long index = face.bad_relative != 0 ? face.bad_relative : face.largest;
    if (face.bad_relative != 0 || face.largest > vertices)
      return "line " + std::to_string(face.line) + ": index " + std::to_string(index) +
             " but the file has " + std::to_string(vertices) + " vertices";
  }
  return "";
}

// Errors when no face is left (naming why), and the warnings about skipped faces, texture
// coordinates and normals.
void check_faces(const std::string& path, const ObjText& obj, const CornerCounts& counts,
                 const ObjMesh& mesh, std::vector<std::string>& warnings) {
  // The first face with fewer than 3 vertices, and the first that names a vertex the file does
  // not have.
  std::string short_note;
  if (obj.short_faces > 0) {
    short_note = "line " + std::to_string(obj.first_short_line) + ": a face with " +
                 std::to_string(obj.first_short_corners) +
                 (obj.first_short_corners == 1 ? " vertex" : " vertices") +
                 " (a face needs at least 3)";
  }
  const std::string range_note = first_out_of_range(obj);
  if (mesh.triangles.empty()) {
    if (mesh.skipped_faces > 0) {
      throw SceneError(path + ": no usable face: all " + std::to_string(mesh.skipped_faces) +
                       " faces index missing vertices or have non-finite or coincident vertices" +
                       (range_note.empty() ? "" : " (" + range_note + ")"));
    }
    if (!short_note.empty()) {
      throw SceneError(path + ": no usable face: " + std::to_string(obj.short_faces) +
                       (obj.short_faces == 1 ? " face has" : " faces have") +
                       " fewer than 3 vertices (" + short_note + ")");
    }
    if (obj.points_and_lines > 0) {
      throw SceneError(path + ": no faces (the file has only points or lines; meshes need faces)");
    }
    throw SceneError(path + ": no faces (an empty OBJ file, or not an OBJ file)");
  }
  if (obj.short_faces > 0) {
    warnings.push_back(path + ": " + std::to_string(obj.short_faces) +
                       (obj.short_faces == 1 ? " face" : " faces") +
                       " with fewer than 3 vertices skipped (" + short_note + ")");
  }
  if (mesh.skipped_faces > 0) {
    warnings.push_back(path + ": " + std::to_string(mesh.skipped_faces) +
                       " faces skipped (out-of-range indices, non-finite or coincident vertices)" +
                       (range_note.empty() ? "" : "; the first out-of-range index: " + range_note));
  }
  if (counts.bad_texcoords > 0) {
    warnings.push_back(path + ": " + std::to_string(counts.bad_texcoords) +
                       (counts.bad_texcoords == 1 ? " face corner has" : " face corners have") +
                       " a texture coordinate (vt) index out of range or a non-finite one; they "
                       "use (0, 0)");
  }
  if (counts.bad_normals > 0) {
    warnings.push_back(path + ": " + std::to_string(counts.bad_normals) +
                       (counts.bad_normals == 1 ? " face corner has" : " face corners have") +
                       " a normal (vn) index out of range; their faces are shaded flat");
  }
}

}  // namespace

ObjMesh load_obj(const std::string& path, std::vector<std::string>& warnings) {
  return parse_obj(read_input_file(path, kObjFile), path, mtl_beside(path), warnings);
}

ObjMesh parse_obj(const std::string& text, const std::string& path, const MtlLookup& find_mtl,
                  std::vector<std::string>& warnings) {
  const ObjText obj = read_obj_text(text, path, find_mtl);
  if (!obj.material_error.empty()) throw SceneError(obj.material_error);
  ObjMesh mesh;
  mesh.material_warnings = obj.material_warnings;
  mesh.undefined_materials_warning = undefined_materials_warning(path, obj);
  add_materials(obj, mesh);

  std::size_t most_triangles = 0;  // every face kept, split into corners - 2
  for (const ObjFace& face : obj.faces) most_triangles += face.count - 2;
  mesh.triangles.reserve(most_triangles);
  const int material_count = static_cast<int>(mesh.materials.size());
  CornerCounts counts;
  for (std::size_t f = 0; f < obj.faces.size(); ++f) {
    if ((f & 0xFFFu) == 0) poll_stop();
    const ObjFace& face = obj.faces[f];
    const int material = face.material < material_count ? face.material : -1;
    if (!add_face(obj, face, material, mesh, counts)) {
      throw SceneError(
          path + ":" + std::to_string(face.line) + ": a face of " + std::to_string(face.count) +
          " corners that is not convex (such a face may have at most " +
          std::to_string(kMaxNonConvexFaceCorners) + " corners: split it into smaller faces)");
    }
  }
  check_faces(path, obj, counts, mesh, warnings);
  // Normal maps need tangents; an OBJ file has none.
  std::vector<char> normal_mapped(mesh.maps.size());
  bool any = false;
  for (std::size_t i = 0; i < mesh.maps.size(); ++i) {
    normal_mapped[i] = !mesh.maps[i].normal.path.empty() || !mesh.maps[i].bump.path.empty();
    any = any || normal_mapped[i];
  }
  if (any)
    generate_triangle_tangents(mesh.triangles, [&](const Triangle& t) {
      return t.material >= 0 && normal_mapped[std::size_t(t.material)];
    });
  return mesh;
}

}  // namespace raystream
