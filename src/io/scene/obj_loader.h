// Triangle meshes from Wavefront OBJ files, each read in one pass (obj_text.h), with their MTL
// materials mapped onto the renderer's materials. Host only. docs/scene-format.md ("Meshes")
// documents the mapping and the fallbacks for unusual files.
#pragma once

#include <functional>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "io/scene/mtl_reader.h"
#include "scene/scene.h"

namespace raystream {

// A diffuse texture that an MTL material names (map_Kd).
struct KdMap {
  std::string path;    // the image file, resolved against the MTL file's folder; empty: none
  std::string origin;  // where it is named, for messages: "<MTL path>:<line>: map_Kd"
};

// The images an MTL material names beyond map_Kd, each found as map_Kd's is (path empty: none),
// with the options that say how to read them.
struct MaterialMaps {
  KdMap roughness, metallic, emission, normal, opacity, bump;  // map_Pr, map_Pm, map_Ke, norm,
                                                               // map_d, map_Bump (or bump)
  int roughness_channel = -1, metallic_channel = -1, opacity_channel = -1;  // -imfchan; -1: none
  float bump_scale = 1.0f;                                                  // -bm
};

// A mesh as read from one OBJ file, in the file's own coordinates.
struct ObjMesh {
  std::vector<Triangle> triangles;  // material: index into `materials`, or -1 (no material)
  std::vector<Material> materials;  // the MTL's materials, mapped (names as in the MTL)
  std::size_t skipped_faces = 0;    // faces dropped: bad indices, non-finite or zero-area
  // Warnings about the MTL (a missing library, a map_Kd that names no file or is ignored), each
  // naming the file: relevant only where the mesh takes its materials from the MTL.
  std::vector<std::string> material_warnings;
  // One warning naming every usemtl name that no MTL material defines (empty: none): relevant
  // only where the mesh takes its materials from the MTL and gives those faces no other.
  std::string undefined_materials_warning;
  // One per entry of `materials`: its map_Kd texture (path empty where it has none, or where
  // the material is not diffuse). The images are read by the scene loader, which sets
  // Material::texture; here Material::texture stays -1.
  std::vector<KdMap> kd_maps;
  // One per entry of `materials`: its other images (scene_context.h's add_mtl_materials reads
  // them). The triangles of a material with a normal map (norm or a bump map) have tangents.
  std::vector<MaterialMaps> maps;
};

// Reads the OBJ at `path`: faces split into triangles (io/scene/face_triangulation.h), vertex
// normals where every corner of a face has a finite one (else the face normal), winding turned to
// agree with the vertex normals, texture coordinates (vt) per corner ((0, 0) for a corner without
// one, and for one whose vt index is out of range or whose vt is not finite: those are counted in
// one warning; a normal index out of range makes its face flat, counted in another). Faces with
// fewer than 3 vertices, out-of-range indices, non-finite or coincident vertices are skipped and
// counted (the warning names the first such line). Throws SceneError naming `path` (and the line
// where there is one): the OBJ or an MTL file cannot be read (read_input_file), a face index is
// not an integer, does not fit in one or is 0, a face that is not convex has more than
// kMaxNonConvexFaceCorners corners, an MTL value fails check_mtl_values, or no face is left (an
// empty file, only points or lines). Warnings name `path`; those about materials go to
// ObjMesh::material_warnings and ObjMesh::undefined_materials_warning instead. Throws
// StopRequested when a stop is asked for (core/stop_request.h).
ObjMesh load_obj(const std::string& path, std::vector<std::string>& warnings);

// Finds the MTL library that an OBJ names (`mtllib NAME`): fills its text and its path (for
// messages) and returns true, or returns false when there is none. Throws SceneError when the
// file it finds cannot be read (see read_input_file).
using MtlLookup =
    std::function<bool(const std::string& name, std::string& text, std::string& path)>;

// As load_obj, from the OBJ's text; `path` names the file in messages.
ObjMesh parse_obj(const std::string& text, const std::string& path, const MtlLookup& find_mtl,
                  std::vector<std::string>& warnings);

}  // namespace raystream
