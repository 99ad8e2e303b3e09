// The glTF reader's parts (gltf_loader.h is its interface): what the loading callbacks gather
// (LoadContext), an accessor's checked elements (AccessorView), and the Builder that turns
// tinygltf's model into the renderer's triangles, materials, textures and camera. Its members
// live by concern: gltf_accessors.cpp, gltf_meshes.cpp (the node hierarchy and the primitives),
// gltf_materials.cpp (materials and textures), gltf_camera.cpp. Host only.
#pragma once

#include <tiny_gltf.h>

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "io/scene/gltf_loader.h"
#include "io/scene/json_reader.h"

namespace raystream::gltf {

// True for the extensions whose properties are read; any other is ignored with a warning, or
// refused when the asset requires it.
bool supported_extension(const std::string& name);

// What the loading callbacks share: the folder external files are found in, the images decoded
// (by image index), and the first problem met, in our words (tinygltf's own are less precise).
struct LoadContext {
  std::string path;
  std::string folder;
  std::string base;  // the folder as tinygltf is given it ("." for the current one)
  std::map<int, TextureImage> images;
  std::set<int> ktx2_images;  // KTX2 images (KHR_texture_basisu): not decoded
  std::string problem;
};

// An accessor's elements, checked to lie within its buffer view and buffer.
struct AccessorView {
  const unsigned char* data = nullptr;  // the first element
  std::size_t stride = 0, count = 0;
  int components = 0, component_type = 0;
  bool normalized = false;

  // Component c of element i as a float (normalized integers to [0, 1]).
  float get(std::size_t i, int c) const;
  // Element i of an unsigned integer accessor (indices).
  std::uint32_t index(std::size_t i) const;
};

// A triangle primitive's accessors, checked: the attributes the renderer reads and the corners.
struct PrimitiveAccessors {
  AccessorView positions;
  std::optional<AccessorView> normals, uvs[2], tangents;
  std::optional<AccessorView> indices;  // none: the vertices in order
  int position_accessor = -1, normal_accessor = -1, uv_accessor[2] = {-1, -1},
      tangent_accessor = -1, index_accessor = -1;
  std::size_t corners = 0;  // three per triangle
};

// A primitive's vertices in world space, each checked once: positions, unit normals (zero where
// none is given), both sets of texture coordinates (the renderer's v, which runs up the image;
// the second set is the first's where the primitive has none) and tangents (empty where the
// primitive has none and its material no normal map; zero xyz where one must be made).
struct WorldVertices {
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::vec2> uvs[2];
  std::vector<glm::vec4> tangents;
};

class Builder {
 public:
  Builder(const tinygltf::Model& model, const Json& doc, const std::string& path,
          std::vector<std::string>& warnings, const GltfLimits& limits, LoadContext& context);

  GltfModel build();

 private:
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    r_.fail(key, what);
  }
  template <class T>
  void check_index(int i, const std::vector<T>& items, const std::string& key,
                   const char* what) const {
    if (i < 0 || std::size_t(i) >= items.size())
      fail(key, "names " + std::string(what) + " " + std::to_string(i) + ", out of range (" +
                    std::to_string(items.size()) + " defined)");
  }
  void note(const std::string& key, const std::string& what);

  // gltf_accessors.cpp
  AccessorView accessor(int index, const std::string& key, std::initializer_list<int> types,
                        std::initializer_list<int> component_types, bool normalized_only);

  // gltf_meshes.cpp
  void check_extensions();
  const tinygltf::Scene& default_scene(std::string& key) const;
  void walk_nodes(const tinygltf::Scene& scene, const std::string& scene_key);
  void find_bounds(const std::string& scene_key);
  glm::mat4 local_matrix(const tinygltf::Node& node, const std::string& key) const;
  void add_mesh(int mesh, const glm::mat4& world, const std::string& node_key);
  void add_primitive(const tinygltf::Primitive& p, const glm::mat4& world, const std::string& key);
  PrimitiveAccessors primitive_accessors(const tinygltf::Primitive& p, const std::string& key);
  WorldVertices world_vertices(const PrimitiveAccessors& a, const glm::mat4& world,
                               const std::string& key) const;
  void read_tangents(const PrimitiveAccessors& a, const glm::mat4& world, WorldVertices& v) const;
  std::vector<std::uint32_t> corner_indices(const PrimitiveAccessors& a) const;
  void add_triangles(const std::vector<std::uint32_t>& corners, const WorldVertices& v,
                     bool has_normals, int material, bool mirrored);

  // gltf_materials.cpp
  int material_id(int material);
  Material map_material(int index);
  float extension_factor(const Json& extensions, const std::string& key, const char* extension,
                         const char* property, float fallback) const;
  void map_base(const Json& j, const std::string& key, Material& m);
  void map_alpha(const Json& j, const std::string& key, Material& m);
  void map_specular(const Json& ext, const std::string& key, Material& m);
  void map_layers(const Json& ext, const std::string& key, Material& m);
  glm::vec3 emission(const Json& j, float strength, const std::string& key);
  TextureSlot texture_slot(const Json& info, const std::string& key, int channel);
  void read_texture_transform(const Json& transform, const std::string& key, TextureSlot& slot);
  int texture_id(int texture, const std::string& key);

  // gltf_camera.cpp
  void find_camera();
  void place_camera(const tinygltf::Camera& c, const glm::mat4& world, const std::string& key);

  const tinygltf::Model& m_;
  const Json& doc_;
  std::string path_;
  JsonReader r_;
  GltfLimits limits_;
  LoadContext& context_;
  std::string stem_;
  GltfModel out_;
  std::map<int, int> material_ids_;        // glTF material (-1: the default) -> out_.materials
  std::map<int, int> texture_ids_;         // glTF image -> out_.textures
  std::set<std::string> noted_;            // warnings given once per asset
  std::map<int, glm::mat4> camera_nodes_;  // camera -> the first node's world transform
  std::string material_name_;              // the material being mapped, for messages
};

// The texture coordinates' transform of KHR_texture_transform (uv' = offset + R(rotation) *
// (scale * uv), in glTF's uv, whose v runs down the image) as the same lookup in the renderer's
// uv (v' = 1 - v): the slot's offset, rotation and scale.
void convert_texture_transform(const glm::vec2& offset, float rotation, const glm::vec2& scale,
                               TextureSlot& slot);

}  // namespace raystream::gltf
