// What the parts of the scene loader share while one scene file is read. scene_loader.cpp reads
// the document and calls the parts, each of which reads its own keys: the materials
// (scene_materials.cpp), the camera (scene_camera.cpp), the objects (scene_objects.cpp: spheres,
// cubes, meshes and glTF objects, with their transforms from scene_transforms.cpp, the meshes'
// triangles carried to world space by scene_instancing.cpp) and the environment
// (scene_environment.cpp). Internal to io/scene.
#pragma once

#include <array>
#include <glm/glm.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/scene/json_reader.h"
#include "io/scene/obj_loader.h"
#include "io/scene/scene_loader.h"
#include "scene/scene.h"

namespace raystream {

// Every texture slot of a material (Material or const Material), for what applies to each alike.
template <class M>
auto texture_slots(M& m) {
  return std::array<decltype(&m.texture), 8>{
      &m.texture,          &m.metallic_texture,       &m.roughness_texture,
      &m.specular_texture, &m.specular_color_texture, &m.emission_texture,
      &m.normal_texture,   &m.opacity_texture};
}

// Image textures, each file read once: Scene::textures indices by resolved path.
using TextureIds = std::unordered_map<std::string, int>;

// One scene file being read: the reader (key paths for messages; the warnings go through it),
// the file's path (FILE and TEXTURE keys are relative to its folder), the scene built so far,
// the file's materials by name and the image textures read.
struct SceneContext {
  SceneContext(JsonReader& reader, const std::string& scene_path,
               std::vector<std::string>& load_warnings, Scene& built)
      : r(reader), path(scene_path), warnings(load_warnings), scene(built) {}

  JsonReader& r;
  const std::string& path;
  // The load's warnings: the reader appends to them, and the files a scene names (OBJ, glTF) add
  // their own, whole.
  std::vector<std::string>& warnings;
  Scene& scene;
  std::unordered_map<std::string, int> material_ids;  // the scene file's materials (Materials)
  TextureIds textures;                                // shared by TEXTURE keys and MTL map_Kd
  LoadTimes* times = nullptr;                         // where the load's time goes, if timed
};

// `file` as a scene file at `scene_path` names it: relative to the scene file's folder.
std::string beside_scene(const std::string& scene_path, const std::string& file);

// ---- scene_materials.cpp ----

// Materials: each material of the file, in the file's order (`order`, as parse_json recorded the
// keys; the ids follow it), into c.scene.materials and c.material_ids.
void read_materials(SceneContext& c, const Json& doc, const std::vector<std::string>& order);

// The id of the scene material that MATERIAL-like key `key` names; fails naming the key and the
// scene file's own materials (the first few) when there is none of that name.
int material_id(SceneContext& c, const Json& j, const std::string& key);

// Whether a material emits light (EMITTANCE for an Emitting one, EMISSION for the others).
bool emits(const Material& m);

// The index in scene.textures of the image at `resolved`, read on first use. Throws the
// SceneError of load_texture_image (naming the image file).
int texture_id(Scene& scene, TextureIds& ids, const std::string& resolved);

// An OBJ file's MTL materials added to `scene` (the caller adds them once per file), named
// "<stem>:<name>", their images read into scene.textures (map_Kd, map_Pr and map_Pm where the
// material is Pbr, map_Ke, norm, map_d; a bump map turned into a normal map, once per image and
// -bm); returns their scene ids. An image that cannot be read throws
// SceneError("<MTL path>:<line>: <keyword>: <the image's error>").
std::vector<int> add_mtl_materials(const ObjMesh& mesh, const std::string& stem, Scene& scene,
                                   TextureIds& textures);

// A grey diffuse material named "<stem>:default" added to `scene`, for the faces of an OBJ file
// without a material; returns its id.
int add_default_material(const std::string& stem, Scene& scene);

// ---- scene_camera.cpp ----

// Camera: the image size, the field of view, ITERATIONS, DEPTH, the output name and the view.
void read_camera(SceneContext& c, const Json& doc);

// ---- scene_transforms.cpp ----

// Finite and within +-kMaxCoordinate.
bool in_bounds(const glm::vec3& p);

// kMaxCoordinate as messages write it.
std::string limit_text();

// TRANS, ROTAT and SCALE of an object (defaults: identity).
void read_transform(JsonReader& r, const Json& j, const std::string& key, Object& o);

// Fails naming the object's TRANS or SCALE (whichever moves it further) when its transform takes
// it beyond +-kMaxCoordinate or makes it non-finite; `what` names it ("object", "mesh").
[[noreturn]] void fail_out_of_bounds(const JsonReader& r, const std::string& key, const Object& o,
                                     const std::string& what);

// The object-to-world matrix must be invertible in single precision: the renderer intersects in
// object space and transforms normals with the inverse.
void check_invertible(const JsonReader& r, const std::string& key, const glm::mat4& m);

// A sphere or cube (within the unit cube around its centre) after its transform: finite, within
// +-kMaxCoordinate and invertible, so that the renderer's bounds and intersections stay finite.
void check_object_transform(const JsonReader& r, const std::string& key, const Object& o);

// ---- scene_objects.cpp ----

// Objects: spheres and cubes into c.scene.objects, meshes and glTF objects' triangles into
// c.scene.triangles (carried to world space together, once every object is read). Returns
// whether a triangle kept has an emitting material.
bool read_objects(SceneContext& c, const Json& doc);

// ---- scene_instancing.cpp ----

// A mesh object's triangles as add_triangles queues them for place_meshes.
struct MeshPlacement {
  std::string key;  // the object's, for messages
  std::string file;
  Object transform;
  const std::vector<Triangle>* triangles = nullptr;  // in the mesh's own coordinates
  glm::mat4 m{1.0f};
  glm::mat3 normal_matrix{1.0f};
  bool mirrored = false;
  // A face's scene material: `named` where it is >= 0, else ids[the face's material], else
  // `fallback` (a face without one).
  int named = -1;
  const std::vector<int>* ids = nullptr;
  int fallback = -1;
  std::size_t warning_at = 0;  // its warning's place among the load's warnings
};

// The mesh objects' triangles queued in the objects' order.
struct MeshPlacements {
  std::vector<MeshPlacement> queued;  // in the scene file's order
  std::size_t triangles = 0;
  LoadTimes* times = nullptr;
};

// Queues a mesh's triangles, in the mesh's own coordinates, for place_meshes, with the object's
// transform (checked here, so that its error comes in the file's order) and its materials. The
// mesh (the loader's cache holds it) must outlive the placement.
void add_triangles(JsonReader& r, const std::string& key, const Object& transform,
                   const std::vector<Triangle>& triangles, const std::string& file, int named,
                   const std::vector<int>* ids, int fallback, MeshPlacements& placements,
                   const std::vector<std::string>& warnings);

// Carries the queued meshes' triangles to world space into scene.triangles, in the objects'
// order, in one parallel pass. Triangles a transform collapses are dropped with one warning per
// object, placed among the warnings where the object's turn was; a vertex carried out of the
// coordinate range fails the scene, naming the first such object. Returns whether a triangle
// kept has an emitting material. The time goes to placements.times->meshes_ms.
bool place_meshes(JsonReader& r, const MeshPlacements& placements, Scene& scene,
                  std::vector<std::string>& warnings);

// ---- scene_environment.cpp ----

// Environment, where the document has one: what escaped rays see.
void read_environment(SceneContext& c, const Json& doc);

}  // namespace raystream
