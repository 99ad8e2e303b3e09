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

// How a texture repeats outside [0, 1] (glTF's sampler wrap modes).
enum class TextureWrap : std::int32_t { repeat, clamp, mirror };

// Where a material parameter's texture value comes from: an image of Scene::textures, the channel
// of its texels a scalar parameter reads, the set of texture coordinates, the sampler's wrap modes
// and filter, and KHR_texture_transform's offset, rotation and scale (applied to the uv before the
// lookup, in that order: uv' = offset + R(rotation) * (scale * uv)). A parameter is its factor
// times its slot's value (a scalar: the channel's; a colour: RGB); a slot without a texture
// leaves the factor alone. Plain 4-byte fields: hashed as bytes (scene/scene_fingerprint.cpp).
struct TextureSlot {
  std::int32_t texture = -1;   // index into Scene::textures; -1: none
  std::int32_t channel = 0;    // scalar parameters: 0 R, 1 G, 2 B, 3 A
  std::int32_t texcoord = 0;   // 0: TEXCOORD_0 (OBJ vt), 1: TEXCOORD_1
  TextureWrap wrap_u = TextureWrap::repeat, wrap_v = TextureWrap::repeat;
  std::int32_t nearest = 0;    // 1: nearest texel (glTF magFilter NEAREST); 0: bilinear
  glm::vec2 offset{0.0f};      // KHR_texture_transform
  float rotation = 0.0f;       // radians, counter-clockwise in uv
  glm::vec2 scale{1.0f};
  bool present() const { return texture >= 0; }
};

// glTF's alphaMode: how the opacity (base colour alpha x its texture's A) hides a surface.
enum class AlphaMode : std::int32_t {
  opaque,  // ignored
  mask,    // opacity < alpha_cutoff: the surface is not there
  blend,   // seen with probability opacity (stochastic transparency)
};

struct Material {
  std::string name;
  MaterialType type = MaterialType::diffuse;
  glm::vec3 color{1.0f};     // RGB: albedo (diffuse, specular, refractive tint), base colour (Pbr)
  float emittance = 0.0f;    // EMITTANCE: radiance = color * emittance for emitting materials
  float ior = 1.5f;          // IOR: index of refraction (refractive, the Pbr dielectric's layer)
  float roughness = 0.0f;    // ROUGHNESS: 0 smooth, 1 roughest (perceptual: GGX alpha = r^2)
  glm::vec3 emission{0.0f};  // EMISSION (or MTL Ke): radiance emitted by a non-Emitting material
  bool two_sided = true;     // TWO_SIDED: emits from both sides (else where the normal points)
  // TEXTURE (JSON), map_Kd (MTL), baseColorTexture (glTF): the colour is color x its RGB. A slot
  // with a texture on a material whose type takes none is ignored (the loaders warn).
  TextureSlot texture;
  // The Pbr type's (glTF's metallic-roughness model, materials/metallic_roughness.h):
  float metallic = 0.0f;            // METALLIC: 0 dielectric, 1 metal, mixed between
  TextureSlot metallic_texture;     // x channel (glTF: B of metallicRoughnessTexture)
  TextureSlot roughness_texture;    // x channel (glTF: G of metallicRoughnessTexture)
  float specular = 1.0f;            // SPECULAR: KHR_materials_specular's factor
  TextureSlot specular_texture;     // x channel (glTF: A of specularTexture)
  glm::vec3 specular_color{1.0f};   // SPECULAR_COLOR: its colour factor
  TextureSlot specular_color_texture;
  float transmission = 0.0f;        // TRANSMISSION: KHR_materials_transmission (thin-walled)
  TextureSlot transmission_texture;  // x channel (glTF: R of transmissionTexture)
  float clearcoat = 0.0f;           // CLEARCOAT: KHR_materials_clearcoat's weight
  TextureSlot clearcoat_texture;    // x channel (glTF: R of clearcoatTexture)
  float clearcoat_roughness = 0.0f;  // CLEARCOAT_ROUGHNESS
  TextureSlot clearcoat_roughness_texture;  // x channel (glTF: G of clearcoatRoughnessTexture)
  TextureSlot emission_texture;     // emission x RGB (glTF emissiveTexture, MTL map_Ke)
  // Any type that reflects: a tangent-space normal map (glTF normalTexture, MTL norm or a bump
  // map turned into one at load), its x and y scaled by normal_scale.
  TextureSlot normal_texture;
  float normal_scale = 1.0f;
  // Any type: opacity = this x the slot's channel (glTF: base colour A; MTL d and map_d).
  float opacity = 1.0f;
  TextureSlot opacity_texture;
  AlphaMode alpha_mode = AlphaMode::opaque;
  float alpha_cutoff = 0.5f;
};

// The fields of each struct of the scene, in two lists: those that change the image (the scene's
// fingerprint hashes them: scene/scene_fingerprint.h) and those that do not (names, paths, the
// defaults that the render's settings override). scene_fingerprint.cpp checks that every field is
// in one list (core/field_count.h), and scene_fingerprint_test that a change to a field of the
// first list changes the fingerprint and one of the second does not.
// clang-format off
#define RAYSTREAM_MATERIAL_IMAGE_FIELDS(X) \
  X(type) X(color) X(emittance) X(ior) X(roughness) X(emission) X(two_sided) X(texture) \
  X(metallic) X(metallic_texture) X(roughness_texture) X(specular) X(specular_texture) \
  X(specular_color) X(specular_color_texture) X(transmission) X(transmission_texture) \
  X(clearcoat) X(clearcoat_texture) X(clearcoat_roughness) X(clearcoat_roughness_texture) \
  X(emission_texture) X(normal_texture) \
  X(normal_scale) X(opacity) X(opacity_texture) X(alpha_mode) X(alpha_cutoff)
// clang-format on
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
  // Texture coordinates of the corners (OBJ vt, glTF TEXCOORD_0; (0, 0) where the file gives
  // none) and their second set (glTF TEXCOORD_1; the first set's where there is none).
  glm::vec2 uv[3]{};
  glm::vec2 uv1[3]{};
  // The corners' tangents for normal maps: xyz along increasing u in world space, w = +1 or -1
  // the handedness (bitangent = w cross(n, t)); all zero where the mesh has none (generated at
  // load where a material has a normal map: io/scene/tangents.h).
  glm::vec4 t[3]{};
};

// Swaps the second and third corners: where a mirroring transform reversed a triangle's winding,
// or its normals say the other side is outside.
inline void reverse_winding(Triangle& t) {
  std::swap(t.v[1], t.v[2]);
  std::swap(t.n[1], t.n[2]);
  std::swap(t.uv[1], t.uv[2]);
  std::swap(t.uv1[1], t.uv1[2]);
  std::swap(t.t[1], t.t[2]);
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
