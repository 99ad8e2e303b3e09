// The scene as loaded, written out for other programs (raystream SCENE --export-scene DIR): what
// the renderer draws after the loader has done its work (OBJ, MTL and glTF read, transforms
// applied, textures decoded), so that a reference renderer needs no reader of its own. The
// format is docs/scene-format.md's "Exporting the loaded scene":
//   DIR/scene.json              camera, samples, depth, materials, spheres and cubes with their
//                               transforms, meshes, environment (format "raystream-scene-export")
//   DIR/meshes/material_I.ply   the world-space triangles of material I: binary little-endian
//                               PLY, x y z nx ny nz u v per corner (3 unshared corners a triangle)
//   DIR/textures/K.pfm          texture K's linear texels (RGB; row 0 of the texture at the top)
//   DIR/textures/environment.pfm  the environment map's linear radiance (SCALE applied)
#pragma once

#include <string>
#include <vector>

#include "io/files/atomic_file.h"
#include "scene/scene.h"

namespace raystream {

// The export's files, paths under `folder`: scene.json first, then the meshes and the textures.
std::vector<OutputFile> scene_export_files(const Scene& scene, const std::string& folder);

// The PLY file of the triangles of `material` (those of scene.triangles that have it).
std::vector<unsigned char> encode_material_ply(const Scene& scene, int material);

// Writes the export into `folder`, created (with meshes/ and textures/ as needed) if missing:
// every file or none (io/files/atomic_file.h), and no file that the scene was read from is
// replaced. Returns one line saying what it wrote. Throws OutputError naming the path and the
// cause; folders it created are removed again when nothing could be written.
std::string write_scene_export(const Scene& scene, const std::string& folder);

}  // namespace raystream
