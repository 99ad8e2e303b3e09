// The scene as loaded from a JSON file: host-side, plain data, validated by the loader.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/scene_enums.h"
#include "core/transform.h"
#include "scene/environment.h"
#include "scene/texture_image.h"

namespace raystream {

struct Material {
  std::string name;
  MaterialType type = MaterialType::diffuse;
  glm::vec3 color{1.0f};     // RGB: albedo (diffuse, specular, refractive tint) or emitted colour
  float emittance = 0.0f;    // EMITTANCE: radiance = color * emittance for emitting materials
  float ior = 1.5f;          // IOR: index of refraction of refractive materials
  float roughness = 0.0f;    // ROUGHNESS of a specular or refractive material: 0 smooth, 1 roughest
  glm::vec3 emission{0.0f};  // EMISSION (or MTL Ke): radiance emitted by a non-Emitting material
  bool two_sided = true;     // TWO_SIDED: emits from both sides (else where the normal points)
  // TEXTURE (JSON) or map_Kd (MTL) of a diffuse or plastic material, a glTF base colour texture
  // of any: index into Scene::textures, -1 none. The albedo (reflectance, tint) is color * the
  // texture's RGB at the hit's uv (materials/texture.h).
  int texture = -1;
};

// The fields of each struct of the scene, in two lists: those that change the image (the scene's
// fingerprint hashes them: scene/scene_fingerprint.h) and those that do not (names, paths, the
// defaults that the render's settings override). scene_fingerprint.cpp checks that every field is
// in one list (core/field_count.h), and scene_fingerprint_test that a change to a field of the
// first list changes the fingerprint and one of the second does not.
#define RAYSTREAM_MATERIAL_IMAGE_FIELDS(X) \
  X(type) X(color) X(emittance) X(ior) X(roughness) X(emission) X(two_sided) X(texture)
#define RAYSTREAM_MATERIAL_OTHER_FIELDS(X) X(name)

struct Object {
  ShapeType shape = ShapeType::sphere;  // unit sphere (radius 0.5) or unit cube ([-0.5, 0.5]^3)
  int material = 0;                     // index into Scene::materials
  glm::vec3 translation{0.0f};          // TRANS
  glm::vec3 rotation_degrees{0.0f};     // ROTAT: Euler angles in degrees, applied X, then Y, then Z
  glm::vec3 scale{1.0f};                // SCALE
};
#define RAYSTREAM_OBJECT_IMAGE_FIELDS(X) \
  X(shape) X(material) X(translation) X(rotation_degrees) X(scale)
#define RAYSTREAM_OBJECT_OTHER_FIELDS(X)

// The object's transform (core/transform.h).
inline glm::mat4 object_to_world(const Object& object) {
  return object_to_world(object.translation, object.rotation_degrees, object.scale);
}

// A triangle of a mesh object, in world space (the loader applies the object's transform).
struct Triangle {
  glm::vec3 v[3]{};  // vertices, counter-clockwise seen from the outside
  glm::vec3 n[3]{};  // unit vertex normals (the face normal three times for flat shading)
  int material = 0;  // index into Scene::materials
  // Texture coordinates of the corners (OBJ vt; (0, 0) where the file gives none).
  glm::vec2 uv[3]{};
};

// Swaps the second and third corners: where a mirroring transform reversed a triangle's winding,
// or its normals say the other side is outside.
inline void reverse_winding(Triangle& t) {
  std::swap(t.v[1], t.v[2]);
  std::swap(t.n[1], t.n[2]);
  std::swap(t.uv[1], t.uv[2]);
}

struct Camera {
  int width = 800;  // RES
  int height = 800;
  float fovy_degrees = 45.0f;  // FOVY: half the vertical field of view (tan(FOVY) = half height)
  glm::vec3 eye{0.0f, 5.0f, 10.5f};
  glm::vec3 lookat{0.0f, 5.0f, 0.0f};
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  float lens_radius = 0.0f;     // LENS_RADIUS: 0 = pinhole
  float focal_distance = 0.0f;  // FOCAL_DISTANCE: 0 = distance from EYE to LOOKAT
  float near_distance = 0.0f;   // NEAR: camera rays start this far along the view direction
};
// clang-format off
#define RAYSTREAM_CAMERA_IMAGE_FIELDS(X) \
  X(width) X(height) X(fovy_degrees) X(eye) X(lookat) X(up) X(lens_radius) X(focal_distance) \
  X(near_distance)
// clang-format on
#define RAYSTREAM_CAMERA_OTHER_FIELDS(X)

// A file a scene was read from: what it is ("scene file", "OBJ file", "image file"...), where, and
// which file it is (device and inode), so that no output of the render replaces it.
struct SceneInput {
  std::string kind;
  std::string path;
  std::uint64_t device = 0, inode = 0;
};

struct Scene {
  std::string path;  // the file it came from, for messages
  std::vector<Material> materials;
  std::vector<Object> objects;      // spheres and cubes
  std::vector<Triangle> triangles;  // every mesh object's triangles (TYPE mesh)
  Camera camera;
  int iterations = 1;                  // ITERATIONS: samples per pixel
  int depth = 8;                       // DEPTH: maximum path length in bounces
  std::string output_name = "render";  // FILE: output base name (renders/<FILE>.png)
  Environment environment;             // Environment: what escaped rays see (none by default)
  // The image textures that materials name (Material::texture indexes this), one per file.
  std::vector<TextureImage> textures;
  // Every file the loader read: the scene file, meshes, MTL files, textures, the environment
  // map, glTF files and their buffers and images (empty for a scene parsed from text).
  std::vector<SceneInput> inputs;
};
// Triangles are hashed whole (their bytes), so every field of theirs is in.
#define RAYSTREAM_SCENE_IMAGE_FIELDS(X) \
  X(materials) X(objects) X(triangles) X(camera) X(environment) X(textures)
#define RAYSTREAM_SCENE_OTHER_FIELDS(X) X(path) X(iterations) X(depth) X(output_name) X(inputs)

}  // namespace raystream
