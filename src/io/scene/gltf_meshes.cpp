// The glTF builder's steps (build) and the scene's geometry: the extensions checked, the default
// scene's node hierarchy walked with each node's transform, and the triangle primitives of its
// meshes read into world-space triangles.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <utility>

#include "core/stop_request.h"
#include "io/scene/gltf_builder.h"
#include "io/scene/tangents.h"

namespace raystream::gltf {

bool supported_extension(const std::string& name) {
  // KHR_texture_basisu is answered where a texture uses it: its fallback image, or an error.
  static const std::set<std::string> supported = {"KHR_materials_emissive_strength",
                                                  "KHR_materials_ior", "KHR_materials_specular",
                                                  "KHR_materials_transmission",
                                                  "KHR_materials_clearcoat",
                                                  "KHR_texture_transform", "KHR_texture_basisu"};
  return supported.count(name) != 0;
}

Builder::Builder(const tinygltf::Model& model, const Json& doc, const std::string& path,
                 std::vector<std::string>& warnings, const GltfLimits& limits, LoadContext& context)
    : m_(model),
      doc_(doc),
      path_(path),
      r_(path, warnings),
      limits_(limits),
      context_(context),
      stem_(std::filesystem::path(path).filename().string()) {}

void Builder::note(const std::string& key, const std::string& what) {
  if (noted_.insert(what).second) r_.warn(key, what);
}

GltfModel Builder::build() {
  check_extensions();
  if (!m_.skins.empty()) note("skins", "skins are ignored (the rest pose is rendered)");
  if (!m_.animations.empty()) note("animations", "animations are ignored");
  std::string scene_key;
  const tinygltf::Scene& scene = default_scene(scene_key);
  walk_nodes(scene, scene_key);
  find_bounds(scene_key);
  find_camera();
  return out_;
}

// Extensions the renderer does not support (those of compressed geometry were refused with the
// document, gltf_schema.cpp): techniques, texture transforms, other material models leave the
// core properties, which are rendered, with a warning; what they take away fails where it is read
// (a texture without a core source image, an accessor without data).
void Builder::check_extensions() {
  for (const std::string& e : m_.extensionsRequired) {
    if (!supported_extension(e))
      note("extensionsRequired", "extension " + excerpt(e) +
                                     " is required and not supported; the core properties are "
                                     "rendered");
  }
  // Material extensions are named where a material has them, with what is rendered instead.
  for (const std::string& e : m_.extensionsUsed)
    if (!supported_extension(e) && e.rfind("KHR_materials_", 0) != 0 &&
        std::find(m_.extensionsRequired.begin(), m_.extensionsRequired.end(), e) ==
            m_.extensionsRequired.end())
      note("extensionsUsed", "extension " + excerpt(e) + " is not supported; ignored");
}

const tinygltf::Scene& Builder::default_scene(std::string& key) const {
  if (m_.scenes.empty()) fail("scenes", "the file has no scene to render");
  const int scene = m_.defaultScene >= 0 ? m_.defaultScene : 0;
  check_index(scene, m_.scenes, "scene", "scene");
  const tinygltf::Scene& s = m_.scenes[std::size_t(scene)];
  key = "scenes[" + std::to_string(scene) + "]";
  if (s.nodes.empty()) fail(key, "the scene has no nodes: nothing to render");
  return s;
}

// The hierarchy, depth first without recursion (a chain of nodes may be deep); a node met twice
// is a cycle or a node with two parents, both invalid.
void Builder::walk_nodes(const tinygltf::Scene& s, const std::string& scene_key) {
  std::vector<char> seen(m_.nodes.size(), 0);
  std::vector<std::pair<int, glm::mat4>> stack;
  for (std::size_t k = s.nodes.size(); k-- > 0;) {
    check_index(s.nodes[k], m_.nodes, scene_key + ".nodes", "node");
    stack.emplace_back(s.nodes[k], glm::mat4(1.0f));
  }
  std::size_t visited = 0;
  while (!stack.empty()) {
    if ((++visited & 1023u) == 0) poll_stop();
    const auto [index, parent] = stack.back();
    stack.pop_back();
    const std::string key = "nodes[" + std::to_string(index) + "]";
    if (seen[std::size_t(index)])
      fail(key,
           "the node is reached twice (a cycle in the hierarchy, or a node with two "
           "parents)");
    seen[std::size_t(index)] = 1;
    const tinygltf::Node& node = m_.nodes[std::size_t(index)];
    const glm::mat4 world = parent * local_matrix(node, key);
    if (node.mesh >= 0) add_mesh(node.mesh, world, key);
    if (node.camera >= 0) {
      check_index(node.camera, m_.cameras, key + ".camera", "camera");
      camera_nodes_.emplace(node.camera, world);
    }
    for (std::size_t k = node.children.size(); k-- > 0;) {
      check_index(node.children[k], m_.nodes, key + ".children", "node");
      stack.emplace_back(node.children[k], world);
    }
  }
}

void Builder::find_bounds(const std::string& scene_key) {
  if (out_.triangles.empty()) fail(scene_key, "the scene holds no triangle");
  out_.lower = out_.upper = out_.triangles.front().v[0];
  for (const Triangle& t : out_.triangles)
    for (const glm::vec3& p : t.v) {
      out_.lower = glm::min(out_.lower, p);
      out_.upper = glm::max(out_.upper, p);
    }
}

glm::mat4 Builder::local_matrix(const tinygltf::Node& node, const std::string& key) const {
  glm::mat4 m(1.0f);
  if (node.matrix.size() == 16) {
    for (int k = 0; k < 16; ++k) glm::value_ptr(m)[k] = float(node.matrix[std::size_t(k)]);
  } else {
    glm::mat4 t(1.0f), r(1.0f), s(1.0f);
    if (node.translation.size() == 3)
      t = glm::translate(glm::mat4(1.0f),
                         glm::vec3(float(node.translation[0]), float(node.translation[1]),
                                   float(node.translation[2])));
    if (node.rotation.size() == 4) {
      glm::quat q(float(node.rotation[3]), float(node.rotation[0]), float(node.rotation[1]),
                  float(node.rotation[2]));
      const float length = glm::length(q);
      if (!(length > 0.0f)) fail(key + ".rotation", "a zero quaternion is not a rotation");
      r = glm::mat4_cast(q / length);
    }
    if (node.scale.size() == 3)
      s = glm::scale(glm::mat4(1.0f),
                     glm::vec3(float(node.scale[0]), float(node.scale[1]), float(node.scale[2])));
    m = t * r * s;
  }
  for (int k = 0; k < 16; ++k)
    if (!std::isfinite(glm::value_ptr(m)[k])) fail(key, "the transform is not finite");
  return m;
}

void Builder::add_mesh(int mesh, const glm::mat4& world, const std::string& node_key) {
  check_index(mesh, m_.meshes, node_key + ".mesh", "mesh");
  const tinygltf::Mesh& m = m_.meshes[std::size_t(mesh)];
  for (std::size_t p = 0; p < m.primitives.size(); ++p)
    add_primitive(m.primitives[p], world,
                  "meshes[" + std::to_string(mesh) + "].primitives[" + std::to_string(p) + "]");
}

void Builder::add_primitive(const tinygltf::Primitive& p, const glm::mat4& world,
                            const std::string& key) {
  const PrimitiveAccessors a = primitive_accessors(p, key);
  const int material = material_id(p.material);
  WorldVertices v = world_vertices(a, world, key);
  const bool mirrored = glm::determinant(glm::mat3(world)) < 0.0f;
  const std::vector<std::uint32_t> corners = corner_indices(a);
  // The specification: without normals, flat ones, and the file's tangents are ignored.
  if (a.normals) read_tangents(a, world, v);
  const TextureSlot& normal_map = out_.materials[std::size_t(material)].normal_texture;
  const std::vector<glm::vec2>& map_uvs = v.uvs[normal_map.texcoord == 1 ? 1 : 0];
  if (normal_map.present() && a.normals) {
    // Made where the file gives none (or a zero one).
    const bool missing = v.tangents.empty();
    if (missing) v.tangents.assign(v.positions.size(), glm::vec4(0.0f));
    if (missing || std::any_of(v.tangents.begin(), v.tangents.end(), [](const glm::vec4& t) {
          return glm::vec3(t) == glm::vec3(0.0f);
        })) {
      const std::vector<glm::vec4> made =
          generate_tangents(corners, v.positions, v.normals, map_uvs);
      for (std::size_t i = 0; i < made.size(); ++i)
        if (glm::vec3(v.tangents[i]) == glm::vec3(0.0f)) v.tangents[i] = made[i];
    }
  }
  const std::size_t first = out_.triangles.size();
  add_triangles(corners, v, bool(a.normals), material, mirrored);
  if (normal_map.present() && !a.normals) {
    // Flat normals: each face its own tangent frame, shared across coplanar neighbours.
    std::vector<Triangle> added(out_.triangles.begin() + std::ptrdiff_t(first),
                                out_.triangles.end());
    generate_triangle_tangents(
        added, [](const Triangle&) { return true; }, normal_map.texcoord == 1 ? 1 : 0);
    std::copy(added.begin(), added.end(), out_.triangles.begin() + std::ptrdiff_t(first));
  }
}

PrimitiveAccessors Builder::primitive_accessors(const tinygltf::Primitive& p,
                                                const std::string& key) {
  static const char* mode_names[] = {"points",    "lines",          "line loop",   "line strip",
                                     "triangles", "triangle strip", "triangle fan"};
  if (p.mode != -1 && p.mode != TINYGLTF_MODE_TRIANGLES)
    fail(key, "mode " + std::to_string(p.mode) +
                  (p.mode >= 0 && p.mode <= 6 ? std::string(" (") + mode_names[p.mode] + ")" : "") +
                  " is not supported: only triangles (mode 4) are rendered");
  if (p.material >= 0) check_index(p.material, m_.materials, key + ".material", "material");
  const auto attribute = [&](const std::string& name) {
    const auto it = p.attributes.find(name);
    return it == p.attributes.end() ? -1 : it->second;
  };
  PrimitiveAccessors a;
  a.position_accessor = attribute("POSITION");
  if (a.position_accessor < 0) fail(key + ".attributes", "POSITION is missing");
  a.positions = accessor(a.position_accessor, key + ".attributes.POSITION", {TINYGLTF_TYPE_VEC3},
                         {TINYGLTF_COMPONENT_TYPE_FLOAT}, false);
  const std::size_t n = a.positions.count;
  a.normal_accessor = attribute("NORMAL");
  if (a.normal_accessor >= 0) {
    a.normals = accessor(a.normal_accessor, key + ".attributes.NORMAL", {TINYGLTF_TYPE_VEC3},
                         {TINYGLTF_COMPONENT_TYPE_FLOAT}, false);
    if (a.normals->count != n) fail(key, "NORMAL and POSITION differ in count");
  }
  // Both sets of texture coordinates, whichever the material's textures read.
  for (int set = 0; set < 2; ++set) {
    const std::string name = "TEXCOORD_" + std::to_string(set);
    a.uv_accessor[set] = attribute(name);
    if (a.uv_accessor[set] < 0) continue;
    a.uvs[set] = accessor(a.uv_accessor[set], key + ".attributes." + name, {TINYGLTF_TYPE_VEC2},
                          {TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                           TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT},
                          true);
    if (a.uvs[set]->count != n) fail(key, name + " and POSITION differ in count");
  }
  a.tangent_accessor = attribute("TANGENT");
  if (a.tangent_accessor >= 0) {
    a.tangents = accessor(a.tangent_accessor, key + ".attributes.TANGENT", {TINYGLTF_TYPE_VEC4},
                          {TINYGLTF_COMPONENT_TYPE_FLOAT}, false);
    if (a.tangents->count != n) fail(key, "TANGENT and POSITION differ in count");
  }
  if (attribute("COLOR_0") >= 0) note("meshes", "vertex colours (COLOR_0) are ignored");
  if (!p.targets.empty()) note("meshes", "morph targets are ignored (the rest pose is rendered)");

  // The corners: the indices, or the vertices in order.
  a.corners = n;
  a.index_accessor = p.indices;
  if (p.indices >= 0) {
    a.indices =
        accessor(p.indices, key + ".indices", {TINYGLTF_TYPE_SCALAR},
                 {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                  TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT},
                 false);
    a.corners = a.indices->count;
  }
  if (a.corners % 3 != 0)
    fail(key, std::string(a.indices ? "the index count " : "the vertex count ") +
                  std::to_string(a.corners) + " is not a multiple of 3 (triangles)");
  if (out_.triangles.size() + a.corners / 3 > limits_.max_triangles)
    fail(key, "too many triangles (at most " + std::to_string(limits_.max_triangles) + ")");
  return a;
}

WorldVertices Builder::world_vertices(const PrimitiveAccessors& a, const glm::mat4& world,
                                      const std::string& key) const {
  const glm::mat3 normal_matrix = glm::transpose(glm::inverse(glm::mat3(world)));
  const std::size_t n = a.positions.count;
  WorldVertices v;
  v.positions.resize(n);
  v.normals.assign(n, glm::vec3(0.0f));
  v.uvs[0].assign(n, glm::vec2(0.0f));
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 local(a.positions.get(i, 0), a.positions.get(i, 1), a.positions.get(i, 2));
    if (!std::isfinite(local.x) || !std::isfinite(local.y) || !std::isfinite(local.z))
      fail("accessors[" + std::to_string(a.position_accessor) + "]",
           "vertex " + std::to_string(i) + " is not finite");
    v.positions[i] = glm::vec3(world * glm::vec4(local, 1.0f));
    for (int c = 0; c < 3; ++c)
      if (!(std::fabs(v.positions[i][c]) <= kMaxCoordinate))
        fail(key, "vertex " + std::to_string(i) + " reaches beyond the renderer's coordinates");
    if (a.normals) {
      const glm::vec3 ln(a.normals->get(i, 0), a.normals->get(i, 1), a.normals->get(i, 2));
      if (!std::isfinite(ln.x) || !std::isfinite(ln.y) || !std::isfinite(ln.z))
        fail("accessors[" + std::to_string(a.normal_accessor) + "]",
             "normal " + std::to_string(i) + " is not finite");
      const glm::vec3 wn = normal_matrix * ln;
      const float length = glm::length(wn);
      v.normals[i] = length > 0.0f && std::isfinite(length) ? wn / length : glm::vec3(0.0f);
    }
    for (int set = 0; set < 2; ++set) {
      if (!a.uvs[set]) continue;
      const glm::vec2 t(a.uvs[set]->get(i, 0), a.uvs[set]->get(i, 1));
      if (!std::isfinite(t.x) || !std::isfinite(t.y))
        fail("accessors[" + std::to_string(a.uv_accessor[set]) + "]",
             "texture coordinate " + std::to_string(i) + " is not finite");
      if (set == 1 && v.uvs[1].empty()) v.uvs[1].resize(n);
      // glTF's v runs down the image, the renderer's up.
      v.uvs[set][i] = glm::vec2(t.x, 1.0f - t.y);
    }
  }
  if (v.uvs[1].empty()) v.uvs[1] = v.uvs[0];
  return v;
}

// TANGENT: xyz carried like directions (not like normals: a tangent lies in the surface), unit;
// w the handedness, turned where the transform mirrors. Zero ones are left zero, to be made.
void Builder::read_tangents(const PrimitiveAccessors& a, const glm::mat4& world,
                            WorldVertices& v) const {
  if (!a.tangents) return;
  const glm::mat3 m(world);
  const float turn = glm::determinant(m) < 0.0f ? -1.0f : 1.0f;
  const std::size_t n = a.positions.count;
  v.tangents.assign(n, glm::vec4(0.0f));
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec4 t(a.tangents->get(i, 0), a.tangents->get(i, 1), a.tangents->get(i, 2),
                      a.tangents->get(i, 3));
    if (!std::isfinite(t.x) || !std::isfinite(t.y) || !std::isfinite(t.z) || !std::isfinite(t.w))
      fail("accessors[" + std::to_string(a.tangent_accessor) + "]",
           "tangent " + std::to_string(i) + " is not finite");
    const glm::vec3 w = m * glm::vec3(t);
    const float length = glm::length(w);
    if (!(length > 0.0f) || !std::isfinite(length)) continue;
    v.tangents[i] = glm::vec4(w / length, (t.w < 0.0f ? -1.0f : 1.0f) * turn);
  }
}

// The corners' vertex indices (the indices, or the vertices in order), each checked.
std::vector<std::uint32_t> Builder::corner_indices(const PrimitiveAccessors& a) const {
  const std::size_t n = a.positions.count;
  std::vector<std::uint32_t> corners(a.corners);
  for (std::size_t c = 0; c < a.corners; ++c) {
    corners[c] = a.indices ? a.indices->index(c) : std::uint32_t(c);
    if (corners[c] >= n)
      fail("accessors[" + std::to_string(a.index_accessor) + "]",
           "index " + std::to_string(corners[c]) + " (element " + std::to_string(c) +
               ") is out of range (" + std::to_string(n) + " vertices)");
  }
  return corners;
}

void Builder::add_triangles(const std::vector<std::uint32_t>& corners, const WorldVertices& v,
                            bool has_normals, int material, bool mirrored) {
  const bool tangents = !v.tangents.empty();
  for (std::size_t c = 0; c + 2 < corners.size(); c += 3) {
    Triangle t;
    for (int j = 0; j < 3; ++j) {
      const std::uint32_t k = corners[c + std::size_t(j)];
      t.v[j] = v.positions[k];
      t.n[j] = v.normals[k];
      t.uv[j] = v.uvs[0][k];
      t.uv1[j] = v.uvs[1][k];
      if (tangents) t.t[j] = v.tangents[k];
    }
    if (mirrored) reverse_winding(t);
    const glm::vec3 face = glm::cross(t.v[1] - t.v[0], t.v[2] - t.v[0]);
    const float area2 = glm::length(face);
    // Triangles of zero area, common in CAD exports (a tenth of 2CylinderEngine's), show
    // nothing: dropped without a word.
    if (!(area2 > 0.0f) || !std::isfinite(area2)) continue;
    const glm::vec3 ng = face / area2;
    for (int j = 0; j < 3; ++j)
      if (!has_normals || glm::length(t.n[j]) == 0.0f) t.n[j] = ng;  // flat where none is given
    t.material = material;
    out_.triangles.push_back(t);
  }
}

}  // namespace raystream::gltf
