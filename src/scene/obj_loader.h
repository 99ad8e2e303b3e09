// Triangle meshes from Wavefront OBJ files (tinyobjloader) with their MTL materials mapped onto
// the renderer's materials. Host only. The README's "Meshes and the BVH" section documents the
// mapping and the fallbacks for unusual files.
#pragma once

#include <functional>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace raystream {

// A diffuse texture that an MTL material names (map_Kd).
struct KdMap {
  std::string path;    // the image file, resolved against the MTL file's folder; empty: none
  std::string origin;  // where it is named, for messages: "<MTL path>:<line>: map_Kd"
};

// A mesh as read from one OBJ file, in the file's own coordinates.
struct ObjMesh {
  std::vector<Triangle> triangles;  // material: index into `materials`, or -1 (no material)
  std::vector<Material> materials;  // the MTL's materials, mapped (names as in the MTL)
  std::size_t skipped_faces = 0;    // faces dropped: bad indices, non-finite or zero-area
  // Warnings about the MTL (a missing library, an unknown usemtl name), each naming the file:
  // relevant only where the mesh takes its materials from the MTL.
  std::vector<std::string> material_warnings;
  // One per entry of `materials`: its map_Kd texture (path empty where it has none, or where
  // the material is not diffuse). The images are read by the scene loader, which sets
  // Material::texture; here Material::texture stays -1.
  std::vector<KdMap> kd_maps;
};

// The values of an MTL material that the mapping reads.
struct MtlMaterial {
  std::string name;
  glm::vec3 kd{0.0f}, ks{0.0f}, ke{0.0f}, tf{0.0f};
  float ni = 1.0f;  // index of refraction
  float ns = 0.0f;  // Phong exponent
  float d = 1.0f;   // dissolve: 1 opaque
  int illum = 2;
  std::string kd_map;  // map_Kd: the diffuse texture's file name as written (options dropped)
};

// Ke -> emission (two-sided; the surface also reflects by the rest); illum 3 or 5 -> a smooth
// mirror (specular, RGB = Ks); illum 4, 6 or 7, or d < 1 -> smooth glass (refractive, IOR = Ni,
// RGB = Tf, white where Tf is black); Kd black and Ks not -> a rough conductor (RGB = Ks,
// ROUGHNESS from Ns); otherwise diffuse (RGB = Kd). Checked in that order.
Material material_from_mtl(const MtlMaterial& mtl);

// Reads the OBJ at `path`: faces triangulated, vertex normals where every corner of a face has a
// finite one (else the face normal), winding turned to agree with the vertex normals, texture
// coordinates (vt) per corner ((0, 0) for a corner without one, and for one whose vt index is
// out of range or whose vt is not finite: those are counted in one warning). Faces with fewer
// than 3 vertices, out-of-range indices, non-finite or coincident vertices are skipped and
// counted (the warning names the first such line). Throws SceneError naming `path` (and the line
// where there is one): the OBJ or an MTL file cannot be read (read_input_file), a face index is not
// an integer or does not fit in one, an MTL value fails check_mtl_values, tinyobjloader fails, or
// no face is left (an empty file, only points or lines). Warnings name `path`; those about
// materials go to ObjMesh::material_warnings instead.
ObjMesh load_obj(const std::string& path, std::vector<std::string>& warnings);

// Finds the MTL library that an OBJ names (`mtllib NAME`): fills its text and its path (for
// messages) and returns true, or returns false when there is none. Throws SceneError when the
// file it finds cannot be read (see read_input_file).
using MtlLookup =
    std::function<bool(const std::string& name, std::string& text, std::string& path)>;

// As load_obj, from the OBJ's text; `path` names the file in messages.
ObjMesh parse_obj(const std::string& text, const std::string& path, const MtlLookup& find_mtl,
                  std::vector<std::string>& warnings);

// The checks of the JSON loader applied to an MTL file's values: every number of Ka, Kd, Ks, Ke,
// Tf, Ni, Ns, d and Tr is finite and within the float range; Kd, Ks, Ke and Tf are non-negative,
// Ni too; d and Tr lie in [0, 1]; illum is an integer from 0 to 10. Throws SceneError naming
// `path`, the line and the field.
void check_mtl_values(const std::string& text, const std::string& path);

}  // namespace raystream
