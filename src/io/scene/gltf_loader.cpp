#include "io/scene/gltf_loader.h"

#include <tiny_gltf.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "core/stop_request.h"
#include "io/files/input_file.h"
#include "io/image/image_reader.h"
#include "io/scene/json_reader.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;

constexpr InputKind kGltfFile{"glTF file", "a glTF file", std::uint64_t(1) << 30};
constexpr InputKind kGltfResource{"glTF buffer or image", "a glTF buffer or image",
                                  std::uint64_t(1) << 31};

// The extensions whose properties are read; any other is ignored with a warning, or refused
// when the asset requires it.
const std::set<std::string> kSupportedExtensions = {
    "KHR_materials_emissive_strength", "KHR_materials_transmission", "KHR_materials_ior"};

// ---- The schema's types ------------------------------------------------------------------------
// tinygltf reads a property of the wrong type as its default, or leaves it out: a broken file
// would render as something it does not say. So the types are checked first, on the JSON, for
// every property the renderer reads and for the extension objects.

using Check = std::function<void(const JsonReader&, const Json&, const std::string&)>;

struct Field {
  const char* key;
  Check check;
  bool required = false;
};

std::string join_key(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

Check number() {
  return [](const JsonReader& r, const Json& j, const std::string& key) { r.number(j, key); };
}

// A number the specification requires above 0 (its exclusiveMinimum: 0).
Check positive() {
  return [](const JsonReader& r, const Json& j, const std::string& key) {
    const double v = r.number(j, key);
    if (!(v > 0.0))
      r.fail(key,
             "expected a number above 0 (as the glTF specification requires), got " + j.dump());
  };
}

Check index() {
  return [](const JsonReader& r, const Json& j, const std::string& key) {
    if (!j.is_number_unsigned())
      r.fail(key, "expected an index (an integer >= 0), got " +
                      (j.is_number() ? j.dump() : json_type_name(j)));
  };
}

Check text() {
  return [](const JsonReader& r, const Json& j, const std::string& key) {
    if (!j.is_string()) r.fail(key, "expected a string, got " + json_type_name(j));
  };
}

Check boolean() {
  return [](const JsonReader& r, const Json& j, const std::string& key) {
    if (!j.is_boolean()) r.fail(key, "expected true or false, got " + json_type_name(j));
  };
}

// An array of items; `length` > 0: exactly that many, `at_least`: at least that many.
Check array(Check item, std::size_t length = 0, std::size_t at_least = 0) {
  return [item, length, at_least](const JsonReader& r, const Json& j, const std::string& key) {
    if (!j.is_array()) r.fail(key, "expected an array, got " + json_type_name(j));
    if (length > 0 && j.size() != length)
      r.fail(key, "expected " + std::to_string(length) + " items, got " + std::to_string(j.size()));
    if (j.size() < at_least)
      r.fail(key, "expected at least " + std::to_string(at_least) + " item" +
                      (at_least == 1 ? "" : "s"));
    for (std::size_t i = 0; i < j.size(); ++i) item(r, j[i], key + "[" + std::to_string(i) + "]");
  };
}

// Extension objects: each an object (their own properties are checked where they are read).
void check_extensions(const JsonReader& r, const Json& j, const std::string& key) {
  if (!j.is_object()) r.fail(key, "expected an object, got " + json_type_name(j));
  for (const auto& item : j.items())
    if (!item.value().is_object())
      r.fail(key + "." + excerpt(item.key()),
             "expected an extension object, got " + json_type_name(item.value()));
}

// An object with these fields (others are allowed, as the schema allows them), and its
// "extensions".
Check object(std::vector<Field> fields) {
  return [fields](const JsonReader& r, const Json& j, const std::string& key) {
    if (!j.is_object()) r.fail(key, "expected an object, got " + json_type_name(j));
    // The types of what is there first: a property of the wrong type says more than a missing
    // one beside it.
    for (const Field& f : fields) {
      const auto it = j.find(f.key);
      if (it != j.end()) f.check(r, *it, join_key(key, f.key));
    }
    for (const Field& f : fields)
      if (f.required && !j.contains(f.key))
        r.fail(join_key(key, f.key), "missing required property");
    const auto ext = j.find("extensions");
    if (ext != j.end()) check_extensions(r, *ext, join_key(key, "extensions"));
  };
}

// An object whose every value is checked alike (a primitive's attributes).
Check map_of(Check value) {
  return [value](const JsonReader& r, const Json& j, const std::string& key) {
    if (!j.is_object()) r.fail(key, "expected an object, got " + json_type_name(j));
    for (const auto& item : j.items()) value(r, item.value(), key + "." + excerpt(item.key()));
  };
}

Check gltf_schema() {
  const Field name{"name", text()};
  const Check texture_info = object({{"index", index(), true}, {"texCoord", index()}});
  const Check normal_info =
      object({{"index", index(), true}, {"texCoord", index()}, {"scale", number()}});
  const Check occlusion_info =
      object({{"index", index(), true}, {"texCoord", index()}, {"strength", number()}});
  const Check pbr = object({{"baseColorFactor", array(number(), 4)},
                            {"baseColorTexture", texture_info},
                            {"metallicFactor", number()},
                            {"roughnessFactor", number()},
                            {"metallicRoughnessTexture", texture_info}});
  const Check material = object({name,
                                 {"pbrMetallicRoughness", pbr},
                                 {"normalTexture", normal_info},
                                 {"occlusionTexture", occlusion_info},
                                 {"emissiveTexture", texture_info},
                                 {"emissiveFactor", array(number(), 3)},
                                 {"alphaMode", text()},
                                 {"alphaCutoff", number()},
                                 {"doubleSided", boolean()}});
  const Check accessor = object({name,
                                 {"bufferView", index()},
                                 {"byteOffset", index()},
                                 {"componentType", index(), true},
                                 {"normalized", boolean()},
                                 {"count", index(), true},
                                 {"type", text(), true},
                                 {"max", array(number())},
                                 {"min", array(number())},
                                 {"sparse", object({})}});
  const Check buffer_view = object({name,
                                    {"buffer", index(), true},
                                    {"byteOffset", index()},
                                    {"byteLength", index(), true},
                                    {"byteStride", index()},
                                    {"target", index()}});
  const Check buffer = object({name, {"uri", text()}, {"byteLength", index(), true}});
  const Check primitive = object({{"attributes", map_of(index()), true},
                                  {"indices", index()},
                                  {"material", index()},
                                  {"mode", index()},
                                  {"targets", array(map_of(index()))}});
  const Check mesh =
      object({name, {"primitives", array(primitive, 0, 1), true}, {"weights", array(number())}});
  const Check node = object({name,
                             {"camera", index()},
                             {"children", array(index())},
                             {"skin", index()},
                             {"matrix", array(number(), 16)},
                             {"mesh", index()},
                             {"rotation", array(number(), 4)},
                             {"scale", array(number(), 3)},
                             {"translation", array(number(), 3)},
                             {"weights", array(number())}});
  const Check scene = object({name, {"nodes", array(index())}});
  const Check perspective = object({{"aspectRatio", positive()},
                                    {"yfov", positive(), true},
                                    {"zfar", positive()},
                                    {"znear", positive(), true}});
  const Check orthographic = object({{"xmag", number(), true},
                                     {"ymag", number(), true},
                                     {"zfar", number(), true},
                                     {"znear", number(), true}});
  const Check camera = object(
      {name, {"type", text(), true}, {"perspective", perspective}, {"orthographic", orthographic}});
  const Check image =
      object({name, {"uri", text()}, {"mimeType", text()}, {"bufferView", index()}});
  const Check texture = object({name, {"sampler", index()}, {"source", index()}});
  const Check sampler = object({name,
                                {"magFilter", index()},
                                {"minFilter", index()},
                                {"wrapS", index()},
                                {"wrapT", index()}});
  const Check asset = object({{"version", text(), true},
                              {"minVersion", text()},
                              {"generator", text()},
                              {"copyright", text()}});
  return object({{"asset", asset, true},
                 {"scene", index()},
                 {"scenes", array(scene)},
                 {"nodes", array(node)},
                 {"meshes", array(mesh)},
                 {"accessors", array(accessor)},
                 {"bufferViews", array(buffer_view)},
                 {"buffers", array(buffer)},
                 {"materials", array(material)},
                 {"textures", array(texture)},
                 {"images", array(image)},
                 {"samplers", array(sampler)},
                 {"cameras", array(camera)},
                 {"skins", array(object({}))},
                 {"animations", array(object({}))},
                 {"extensionsUsed", array(text())},
                 {"extensionsRequired", array(text())}});
}

// Buffer views within their buffers (the declared byteLength, which tinygltf holds the data to),
// and images' buffer views named rightly: tinygltf hands an image's view to the image decoder
// without checking either.
void check_buffer_views(const JsonReader& r, const Json& doc) {
  const Json empty = Json::array();
  const Json& buffers = doc.contains("buffers") ? doc["buffers"] : empty;
  const Json& views = doc.contains("bufferViews") ? doc["bufferViews"] : empty;
  for (std::size_t v = 0; v < views.size(); ++v) {
    const std::string key = "bufferViews[" + std::to_string(v) + "]";
    const std::uint64_t buffer = views[v]["buffer"].get<std::uint64_t>();
    if (buffer >= buffers.size())
      r.fail(key + ".buffer", "names buffer " + std::to_string(buffer) + ", out of range (" +
                                  std::to_string(buffers.size()) + " defined)");
    const std::uint64_t size = buffers[buffer]["byteLength"].get<std::uint64_t>();
    const std::uint64_t offset = views[v].value("byteOffset", std::uint64_t(0));
    const std::uint64_t length = views[v]["byteLength"].get<std::uint64_t>();
    if (offset > size || length > size - offset)
      r.fail(key, "runs past the end of its buffer (" + std::to_string(size) + " bytes)");
  }
  if (!doc.contains("images")) return;
  const Json& images = doc["images"];
  for (std::size_t i = 0; i < images.size(); ++i)
    if (images[i].contains("bufferView") &&
        images[i]["bufferView"].get<std::uint64_t>() >= views.size())
      r.fail("images[" + std::to_string(i) + "].bufferView",
             "names buffer view " + images[i]["bufferView"].dump() + ", out of range (" +
                 std::to_string(views.size()) + " defined)");
}

// ---- Reading the file --------------------------------------------------------------------------

// What the loading callbacks share: the folder external files are found in, the images decoded
// (by image index), and the first problem met, in our words (tinygltf's own are less precise).
struct LoadContext {
  std::string path;
  std::string folder;
  std::string base;  // the folder as tinygltf is given it ("." for the current one)
  std::map<int, TextureImage> images;
  std::string problem;
};

// Every file "exists": reading it says what is wrong with it (missing, a folder, too large) in
// the words of the other readers.
bool file_exists(const std::string& path, void*) {
  return !path.empty();
}

// tinygltf joins the asset's folder and a URI with a '/': a URI that is an absolute path
// ("/dev/zero") came out as "folder//dev/zero". It names the path itself (RFC 3986: a
// path-absolute reference replaces the base's path).
std::string expand_file_path(const std::string& path, void* user) {
  const std::string& folder = static_cast<LoadContext*>(user)->base;
  const std::string prefix = folder.empty() || folder.back() == '/' ? folder : folder + "/";
  if (!prefix.empty() && path.size() > prefix.size() &&
      path.compare(0, prefix.size(), prefix) == 0 && path[prefix.size()] == '/')
    return path.substr(prefix.size());
  return path;
}

bool read_whole_file(std::vector<unsigned char>* out, std::string* err, const std::string& path,
                     void* user) {
  auto& context = *static_cast<LoadContext*>(user);
  try {
    const std::string bytes = read_input_file(path, kGltfResource);
    out->assign(bytes.begin(), bytes.end());
    return true;
  } catch (const SceneError& e) {
    if (context.problem.empty()) context.problem = e.what();
    if (err) *err += std::string(e.what()) + "\n";
    return false;
  }
}

bool write_whole_file(std::string* err, const std::string&, const std::vector<unsigned char>&,
                      void*) {
  if (err) *err += "raystream does not write glTF files\n";
  return false;
}

bool decode_image(tinygltf::Image* image, const int index, std::string* err, std::string*, int, int,
                  const unsigned char* bytes, int size, void* user) {
  auto& context = *static_cast<LoadContext*>(user);
  const std::string where =
      context.path + ": images[" + std::to_string(index) + "]" +
      (image->uri.empty() || image->uri.rfind("data:", 0) == 0 ? std::string()
                                                               : " (" + excerpt(image->uri) + ")");
  try {
    TextureImage decoded = decode_texture_image(
        std::string(reinterpret_cast<const char*>(bytes), std::size_t(std::max(size, 0))), where);
    image->width = decoded.width;
    image->height = decoded.height;
    image->component = 4;
    image->bits = 8;
    context.images[index] = std::move(decoded);
    return true;
  } catch (const SceneError& e) {
    if (context.problem.empty()) context.problem = e.what();
    if (err) *err += std::string(e.what()) + "\n";
    return false;
  }
}

// The JSON of a .glb (its first chunk), or the whole text of a .gltf.
std::string json_text(const std::string& bytes, const std::string& path, bool& binary) {
  binary = bytes.size() >= 4 && bytes.compare(0, 4, "glTF") == 0;
  if (!binary) return bytes;
  const auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    std::memcpy(&v, bytes.data() + at, 4);
    return v;
  };
  if (bytes.size() < 20) throw SceneError(path + ": corrupt GLB: shorter than its header");
  if (u32(4) != 2)
    throw SceneError(path + ": GLB version " + std::to_string(u32(4)) + " (only 2 is read)");
  if (u32(8) > bytes.size())
    throw SceneError(path + ": corrupt GLB: its header says " + std::to_string(u32(8)) +
                     " bytes, the file has " + std::to_string(bytes.size()));
  const std::uint32_t length = u32(12);
  if (u32(16) != 0x4E4F534Au) throw SceneError(path + ": corrupt GLB: its first chunk is not JSON");
  if (length > bytes.size() - 20)
    throw SceneError(path + ": corrupt GLB: the JSON chunk runs past the end of the file");
  // The rest of tinygltf's checks of the layout, in our words (its own: "Invalid glTF binary.").
  const std::uint64_t total = u32(8), bin = 20ull + length;  // where a BIN chunk would start
  const std::string stated = " (" + std::to_string(total) + " bytes)";
  if (bin > total)
    throw SceneError(path + ": corrupt GLB: the JSON chunk runs past the length its header gives" +
                     stated);
  if (bin < total) {
    if (bin + 12 > total)
      throw SceneError(path + ": corrupt GLB: the BIN chunk runs past the length its header gives" +
                       stated);
    const std::uint32_t bin_length = u32(std::size_t(bin)), bin_type = u32(std::size_t(bin) + 4);
    if (bin_type != 0x004E4942u)
      throw SceneError(path + ": corrupt GLB: the chunk after the JSON is not BIN");
    if (bin_length < 4 || bin_length % 4 != 0)
      throw SceneError(path + ": corrupt GLB: the BIN chunk's length " +
                       std::to_string(bin_length) + " is not a positive multiple of 4");
    if (bin + 8 + bin_length > total)
      throw SceneError(path + ": corrupt GLB: the BIN chunk runs past the length its header gives" +
                       stated);
  }
  return bytes.substr(20, length);
}

// ---- Accessors ---------------------------------------------------------------------------------

int component_count(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR:
      return 1;
    case TINYGLTF_TYPE_VEC2:
      return 2;
    case TINYGLTF_TYPE_VEC3:
      return 3;
    case TINYGLTF_TYPE_VEC4:
      return 4;
    default:
      return 0;
  }
}

std::size_t component_bytes(int component_type) {
  switch (component_type) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
      return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
      return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT:
      return 4;
    default:
      return 0;
  }
}

// An accessor's elements, checked to lie within its buffer view and buffer.
struct AccessorView {
  const unsigned char* data = nullptr;  // the first element
  std::size_t stride = 0, count = 0;
  int components = 0, component_type = 0;
  bool normalized = false;

  // Component c of element i as a float (normalized integers to [0, 1]).
  float get(std::size_t i, int c) const {
    const unsigned char* p = data + i * stride + std::size_t(c) * component_bytes(component_type);
    switch (component_type) {
      case TINYGLTF_COMPONENT_TYPE_FLOAT: {
        float v;
        std::memcpy(&v, p, 4);
        return v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
        return normalized ? float(p[0]) / 255.0f : float(p[0]);
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return normalized ? float(v) / 65535.0f : float(v);
      }
      default:
        return 0.0f;
    }
  }
  // Element i of an unsigned integer accessor (indices).
  std::uint32_t index(std::size_t i) const {
    const unsigned char* p = data + i * stride;
    switch (component_type) {
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
        return p[0];
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return v;
      }
      default: {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
      }
    }
  }
};

class Builder {
 public:
  Builder(const tinygltf::Model& model, const Json& doc, const std::string& path,
          std::vector<std::string>& warnings, const GltfLimits& limits, LoadContext& context)
      : m_(model),
        doc_(doc),
        path_(path),
        r_(path, warnings),
        limits_(limits),
        context_(context),
        stem_(fs::path(path).filename().string()) {}

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
  AccessorView accessor(int index, const std::string& key, std::initializer_list<int> types,
                        std::initializer_list<int> component_types, bool normalized_only);
  glm::mat4 local_matrix(const tinygltf::Node& node, const std::string& key) const;
  void add_mesh(int mesh, const glm::mat4& world, const std::string& node_key);
  void add_primitive(const tinygltf::Primitive& p, const glm::mat4& world, const std::string& key);
  int material_id(int material);
  Material map_material(int index);
  int texture_id(int texture, const std::string& key);
  glm::vec3 mean_texture(int texture, const std::string& key);
  void note(const std::string& key, const std::string& what);

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
};

AccessorView Builder::accessor(int index, const std::string& key, std::initializer_list<int> types,
                               std::initializer_list<int> component_types, bool normalized_only) {
  check_index(index, m_.accessors, key, "accessor");
  const std::string where = "accessors[" + std::to_string(index) + "]";
  const tinygltf::Accessor& a = m_.accessors[std::size_t(index)];
  if (a.sparse.isSparse) fail(where, "sparse accessors are not supported");
  if (std::find(types.begin(), types.end(), a.type) == types.end())
    fail(where, "the type does not fit " + key);
  if (std::find(component_types.begin(), component_types.end(), a.componentType) ==
      component_types.end())
    fail(where, "componentType " + std::to_string(a.componentType) + " does not fit " + key);
  if (normalized_only && a.componentType != TINYGLTF_COMPONENT_TYPE_FLOAT && !a.normalized)
    fail(where, "integer texture coordinates must be normalized");
  if (a.bufferView < 0) fail(where, "has no bufferView (an accessor of zeros is not supported)");
  check_index(a.bufferView, m_.bufferViews, where + ".bufferView", "buffer view");
  const tinygltf::BufferView& v = m_.bufferViews[std::size_t(a.bufferView)];
  const std::string view = "bufferViews[" + std::to_string(a.bufferView) + "]";
  check_index(v.buffer, m_.buffers, view + ".buffer", "buffer");
  const std::vector<unsigned char>& data = m_.buffers[std::size_t(v.buffer)].data;
  if (v.byteOffset > data.size() || v.byteLength > data.size() - v.byteOffset)
    fail(view, "runs past the end of its buffer (" + std::to_string(data.size()) + " bytes)");
  AccessorView out;
  out.components = component_count(a.type);
  out.component_type = a.componentType;
  out.normalized = a.normalized;
  out.count = a.count;
  const std::size_t element = std::size_t(out.components) * component_bytes(a.componentType);
  out.stride = v.byteStride != 0 ? v.byteStride : element;
  if (out.stride < element)
    fail(view, "byteStride " + std::to_string(out.stride) + " is smaller than an element (" +
                   std::to_string(element) + " bytes)");
  if (a.count == 0) fail(where, "count must be at least 1");
  // The last element ends within the view (the products cannot overflow: both sides are below
  // the buffer's size or the count is refused first).
  if (a.byteOffset > v.byteLength || (a.count - 1) > (v.byteLength - a.byteOffset) / out.stride ||
      (a.count - 1) * out.stride + element > v.byteLength - a.byteOffset)
    fail(where, "its " + std::to_string(a.count) + " elements run past the end of " + view);
  out.data = data.data() + v.byteOffset + a.byteOffset;
  return out;
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

void Builder::note(const std::string& key, const std::string& what) {
  if (noted_.insert(what).second) r_.warn(key, what);
}

int Builder::texture_id(int texture, const std::string& key) {
  check_index(texture, m_.textures, key, "texture");
  const tinygltf::Texture& t = m_.textures[std::size_t(texture)];
  const std::string tkey = "textures[" + std::to_string(texture) + "]";
  if (t.source < 0) fail(tkey, "has no source image (or only an extension's)");
  check_index(t.source, m_.images, tkey + ".source", "image");
  if (t.sampler >= 0) {
    check_index(t.sampler, m_.samplers, tkey + ".sampler", "sampler");
    const tinygltf::Sampler& s = m_.samplers[std::size_t(t.sampler)];
    if (s.wrapS != TINYGLTF_TEXTURE_WRAP_REPEAT || s.wrapT != TINYGLTF_TEXTURE_WRAP_REPEAT)
      note("samplers", "wrap modes other than REPEAT are rendered as REPEAT");
  }
  const auto found = texture_ids_.find(t.source);
  if (found != texture_ids_.end()) return found->second;
  const auto image = context_.images.find(t.source);
  if (image == context_.images.end())
    fail("images[" + std::to_string(t.source) + "]",
         context_.problem.empty() ? "the image could not be read" : context_.problem);
  out_.textures.push_back(image->second);
  const int id = int(out_.textures.size()) - 1;
  texture_ids_[t.source] = id;
  return id;
}

glm::vec3 Builder::mean_texture(int texture, const std::string& key) {
  const TextureImage& image = out_.textures[std::size_t(texture_id(texture, key))];
  glm::dvec3 sum(0.0);
  for (const glm::vec4& t : image.texels) sum += glm::dvec3(t);
  return image.texels.empty() ? glm::vec3(1.0f) : glm::vec3(sum / double(image.texels.size()));
}

float clamped(float v, float lo, float hi) {
  return std::min(std::max(v, lo), hi);
}

Material Builder::map_material(int index) {
  Material m;
  const Json none = Json::object();
  const Json& j = index >= 0 ? doc_["materials"][std::size_t(index)] : none;
  const std::string key = index >= 0 ? "materials[" + std::to_string(index) + "]" : "materials";
  const tinygltf::Material defaults;
  const tinygltf::Material& g = index >= 0 ? m_.materials[std::size_t(index)] : defaults;
  m.name = stem_ + ":" +
           (index < 0 ? std::string("default")
                      : (g.name.empty() ? "#" + std::to_string(index) : excerpt(g.name)));
  const tinygltf::PbrMetallicRoughness& pbr = g.pbrMetallicRoughness;
  glm::vec3 base(1.0f);
  if (pbr.baseColorFactor.size() == 4)
    base = glm::vec3(float(pbr.baseColorFactor[0]), float(pbr.baseColorFactor[1]),
                     float(pbr.baseColorFactor[2]));
  const float metallic = clamped(float(pbr.metallicFactor), 0.0f, 1.0f);
  const float roughness = clamped(float(pbr.roughnessFactor), 0.0f, 1.0f);
  const Json& ext = j.contains("extensions") ? j["extensions"] : none;
  const auto factor = [&](const char* extension, const char* property, float fallback) {
    if (!ext.contains(extension) || !ext[extension].contains(property)) return fallback;
    return r_.real(ext[extension][property],
                   join_key(key, std::string("extensions.") + extension + "." + property));
  };
  const float transmission =
      clamped(factor("KHR_materials_transmission", "transmissionFactor", 0.0f), 0.0f, 1.0f);
  float ior = factor("KHR_materials_ior", "ior", 1.5f);
  if (!(ior >= 1.0f)) {
    note(key, "KHR_materials_ior below 1 is rendered as 1.5");
    ior = 1.5f;
  }
  const float strength = factor("KHR_materials_emissive_strength", "emissiveStrength", 1.0f);
  if (strength < 0.0f) fail(key, "emissiveStrength must not be negative");
  if (base.x < 0 || base.y < 0 || base.z < 0 || base.x > 1 || base.y > 1 || base.z > 1)
    note(key, "baseColorFactor components outside [0, 1] are clamped");
  m.color = glm::clamp(base, glm::vec3(0.0f), glm::vec3(1.0f));
  m.ior = ior;
  if (transmission >= 0.5f) {
    m.type = MaterialType::refractive;
    m.roughness = roughness;
  } else if (metallic >= 0.5f) {
    m.type = MaterialType::specular;
    m.roughness = roughness;
  } else {
    // The metallic-roughness model's dielectric: a diffuse base under a clear coat.
    m.type = MaterialType::plastic;
    m.roughness = std::max(roughness, kMinPlasticRoughness);
  }
  if ((metallic > 0.0f && metallic < 1.0f) || (transmission > 0.0f && transmission < 1.0f))
    note(key, "metallic and transmission factors between 0 and 1 are rounded to 0 or 1");
  if (pbr.baseColorTexture.index >= 0) {
    m.texture =
        texture_id(pbr.baseColorTexture.index, key + ".pbrMetallicRoughness.baseColorTexture");
  }
  if (pbr.metallicRoughnessTexture.index >= 0)
    note(key, "metallicRoughnessTexture is ignored (metalness and roughness are per material)");
  if (g.normalTexture.index >= 0) note(key, "normalTexture is ignored");
  if (g.occlusionTexture.index >= 0) note(key, "occlusionTexture is ignored");
  if (g.alphaMode != "OPAQUE")
    note(key, "alphaMode " + excerpt(g.alphaMode) + " is rendered opaque");
  glm::vec3 emission(0.0f);
  if (g.emissiveFactor.size() == 3)
    emission = glm::vec3(float(g.emissiveFactor[0]), float(g.emissiveFactor[1]),
                         float(g.emissiveFactor[2]));
  emission = glm::max(emission, glm::vec3(0.0f)) * strength;
  if (g.emissiveTexture.index >= 0 && (emission.x > 0 || emission.y > 0 || emission.z > 0)) {
    emission *= mean_texture(g.emissiveTexture.index, key + ".emissiveTexture");
    note(key, "emissiveTexture: its mean colour is used (emission is uniform per material)");
  }
  if (!std::isfinite(emission.x) || !std::isfinite(emission.y) || !std::isfinite(emission.z))
    fail(key, "the emission (emissiveFactor x emissiveStrength) overflows a float");
  m.emission = emission;
  m.two_sided = g.doubleSided;
  for (const auto& item : ext.items())
    if (!kSupportedExtensions.count(item.key()))
      note(key + ".extensions", "extension " + excerpt(item.key()) + " is ignored");
  return m;
}

int Builder::material_id(int material) {
  const auto found = material_ids_.find(material);
  if (found != material_ids_.end()) return found->second;
  out_.materials.push_back(map_material(material));
  if (out_.materials.size() > std::size_t(kMaxMaterials))
    fail("materials", "too many materials (at most " + std::to_string(kMaxMaterials) + ")");
  const int id = int(out_.materials.size()) - 1;
  material_ids_[material] = id;
  return id;
}

void Builder::add_primitive(const tinygltf::Primitive& p, const glm::mat4& world,
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
  const int position_index = attribute("POSITION");
  if (position_index < 0) fail(key + ".attributes", "POSITION is missing");
  const AccessorView positions =
      accessor(position_index, key + ".attributes.POSITION", {TINYGLTF_TYPE_VEC3},
               {TINYGLTF_COMPONENT_TYPE_FLOAT}, false);
  const std::size_t n = positions.count;
  std::optional<AccessorView> normals, uvs;
  if (attribute("NORMAL") >= 0) {
    normals = accessor(attribute("NORMAL"), key + ".attributes.NORMAL", {TINYGLTF_TYPE_VEC3},
                       {TINYGLTF_COMPONENT_TYPE_FLOAT}, false);
    if (normals->count != n) fail(key, "NORMAL and POSITION differ in count");
  }
  // The texture coordinates the base colour texture reads.
  int uv_set = 0;
  if (p.material >= 0) {
    const tinygltf::TextureInfo& t =
        m_.materials[std::size_t(p.material)].pbrMetallicRoughness.baseColorTexture;
    if (t.index >= 0) uv_set = t.texCoord;
  }
  const std::string uv_name = "TEXCOORD_" + std::to_string(uv_set);
  if (attribute(uv_name) >= 0) {
    uvs = accessor(attribute(uv_name), key + ".attributes." + uv_name, {TINYGLTF_TYPE_VEC2},
                   {TINYGLTF_COMPONENT_TYPE_FLOAT, TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE,
                    TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT},
                   true);
    if (uvs->count != n) fail(key, uv_name + " and POSITION differ in count");
  }
  if (attribute("COLOR_0") >= 0) note("meshes", "vertex colours (COLOR_0) are ignored");
  if (!p.targets.empty()) note("meshes", "morph targets are ignored (the rest pose is rendered)");

  // The corners: the indices, or the vertices in order.
  std::optional<AccessorView> indices;
  std::size_t corners = n;
  if (p.indices >= 0) {
    indices =
        accessor(p.indices, key + ".indices", {TINYGLTF_TYPE_SCALAR},
                 {TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT,
                  TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT},
                 false);
    corners = indices->count;
  }
  if (corners % 3 != 0)
    fail(key, std::string(indices ? "the index count " : "the vertex count ") +
                  std::to_string(corners) + " is not a multiple of 3 (triangles)");
  if (out_.triangles.size() + corners / 3 > limits_.max_triangles)
    fail(key, "too many triangles (at most " + std::to_string(limits_.max_triangles) + ")");

  // The vertices in world space, checked once each.
  const glm::mat3 normal_matrix = glm::transpose(glm::inverse(glm::mat3(world)));
  const bool mirrored = glm::determinant(glm::mat3(world)) < 0.0f;
  std::vector<glm::vec3> v(n), nrm(n, glm::vec3(0.0f));
  std::vector<glm::vec2> uv(n, glm::vec2(0.0f));
  for (std::size_t i = 0; i < n; ++i) {
    const glm::vec3 local(positions.get(i, 0), positions.get(i, 1), positions.get(i, 2));
    if (!std::isfinite(local.x) || !std::isfinite(local.y) || !std::isfinite(local.z))
      fail("accessors[" + std::to_string(position_index) + "]",
           "vertex " + std::to_string(i) + " is not finite");
    v[i] = glm::vec3(world * glm::vec4(local, 1.0f));
    for (int c = 0; c < 3; ++c)
      if (!(std::fabs(v[i][c]) <= kMaxCoordinate))
        fail(key, "vertex " + std::to_string(i) + " reaches beyond the renderer's coordinates");
    if (normals) {
      const glm::vec3 ln(normals->get(i, 0), normals->get(i, 1), normals->get(i, 2));
      if (!std::isfinite(ln.x) || !std::isfinite(ln.y) || !std::isfinite(ln.z))
        fail("accessors[" + std::to_string(attribute("NORMAL")) + "]",
             "normal " + std::to_string(i) + " is not finite");
      const glm::vec3 wn = normal_matrix * ln;
      const float length = glm::length(wn);
      nrm[i] = length > 0.0f && std::isfinite(length) ? wn / length : glm::vec3(0.0f);
    }
    if (uvs) {
      const glm::vec2 t(uvs->get(i, 0), uvs->get(i, 1));
      if (!std::isfinite(t.x) || !std::isfinite(t.y))
        fail("accessors[" + std::to_string(attribute(uv_name)) + "]",
             "texture coordinate " + std::to_string(i) + " is not finite");
      uv[i] = glm::vec2(t.x, 1.0f - t.y);  // glTF's v runs down the image, the renderer's up
    }
  }
  const int material = material_id(p.material);
  for (std::size_t c = 0; c < corners; c += 3) {
    std::uint32_t k[3];
    for (int j = 0; j < 3; ++j) {
      k[j] = indices ? indices->index(c + std::size_t(j)) : std::uint32_t(c + std::size_t(j));
      if (k[j] >= n)
        fail("accessors[" + std::to_string(p.indices) + "]",
             "index " + std::to_string(k[j]) + " (element " + std::to_string(c + std::size_t(j)) +
                 ") is out of range (" + std::to_string(n) + " vertices)");
    }
    Triangle t;
    for (int j = 0; j < 3; ++j) {
      t.v[j] = v[k[j]];
      t.n[j] = nrm[k[j]];
      t.uv[j] = uv[k[j]];
    }
    if (mirrored) reverse_winding(t);
    const glm::vec3 face = glm::cross(t.v[1] - t.v[0], t.v[2] - t.v[0]);
    const float area2 = glm::length(face);
    // Triangles of zero area, common in CAD exports (a tenth of 2CylinderEngine's), show
    // nothing: dropped without a word.
    if (!(area2 > 0.0f) || !std::isfinite(area2)) continue;
    const glm::vec3 ng = face / area2;
    for (int j = 0; j < 3; ++j)
      if (!normals || glm::length(t.n[j]) == 0.0f) t.n[j] = ng;  // flat where none is given
    t.material = material;
    out_.triangles.push_back(t);
  }
}

void Builder::add_mesh(int mesh, const glm::mat4& world, const std::string& node_key) {
  check_index(mesh, m_.meshes, node_key + ".mesh", "mesh");
  const tinygltf::Mesh& m = m_.meshes[std::size_t(mesh)];
  for (std::size_t p = 0; p < m.primitives.size(); ++p)
    add_primitive(m.primitives[p], world,
                  "meshes[" + std::to_string(mesh) + "].primitives[" + std::to_string(p) + "]");
}

GltfModel Builder::build() {
  // Required extensions that the renderer cannot do without: compressed geometry. Others
  // (techniques, texture transforms, other material models) leave the core properties, which are
  // rendered, with a warning; what they take away fails where it is read (a texture without a
  // core source image, an accessor without data).
  for (const std::string& e : m_.extensionsRequired) {
    if (e == "KHR_draco_mesh_compression" || e == "EXT_meshopt_compression")
      fail("extensionsRequired", "extension " + e + " (compressed geometry) is not supported");
    if (!kSupportedExtensions.count(e))
      note("extensionsRequired", "extension " + excerpt(e) +
                                     " is required and not supported; the core properties are "
                                     "rendered");
  }
  for (const std::string& e : m_.extensionsUsed)
    if (!kSupportedExtensions.count(e) &&
        std::find(m_.extensionsRequired.begin(), m_.extensionsRequired.end(), e) ==
            m_.extensionsRequired.end())
      note("extensionsUsed", "extension " + excerpt(e) + " is not supported; ignored");
  if (!m_.skins.empty()) note("skins", "skins are ignored (the rest pose is rendered)");
  if (!m_.animations.empty()) note("animations", "animations are ignored");

  if (m_.scenes.empty()) fail("scenes", "the file has no scene to render");
  const int scene = m_.defaultScene >= 0 ? m_.defaultScene : 0;
  check_index(scene, m_.scenes, "scene", "scene");
  const tinygltf::Scene& s = m_.scenes[std::size_t(scene)];
  const std::string scene_key = "scenes[" + std::to_string(scene) + "]";
  if (s.nodes.empty()) fail(scene_key, "the scene has no nodes: nothing to render");

  // The hierarchy, depth first without recursion (a chain of nodes may be deep); a node met twice
  // is a cycle or a node with two parents, both invalid.
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
  if (out_.triangles.empty()) fail(scene_key, "the scene holds no triangle");
  out_.lower = out_.upper = out_.triangles.front().v[0];
  for (const Triangle& t : out_.triangles)
    for (const glm::vec3& p : t.v) {
      out_.lower = glm::min(out_.lower, p);
      out_.upper = glm::max(out_.upper, p);
    }

  // The first perspective camera a node places.
  for (const auto& [index, world] : camera_nodes_) {
    const tinygltf::Camera& c = m_.cameras[std::size_t(index)];
    const std::string key = "cameras[" + std::to_string(index) + "]";
    if (c.type != "perspective") {
      note(key, "only perspective cameras are rendered; " + excerpt(c.type) + " ignored");
      continue;
    }
    const double yfov = c.perspective.yfov;
    if (!(yfov > 0.0 && yfov < 3.14159)) fail(key + ".perspective.yfov", "expected (0, pi)");
    Camera& cam = out_.camera;
    cam.fovy_degrees = float(yfov * 0.5 * 180.0 / 3.14159265358979323846);
    // aspectRatio is above 0 where given (the schema check); without it, 4:3.
    const double aspect = c.perspective.aspectRatio > 0.0 ? c.perspective.aspectRatio : 4.0 / 3.0;
    cam.width = 800;
    cam.height = int(std::lround(std::clamp(800.0 / aspect, 1.0, double(kMaxImageSide))));
    // An extreme ratio gets the nearest size there is (a side at least 1 and at most
    // kMaxImageSide pixels): say what was made of it.
    const double made = double(cam.width) / double(cam.height);
    if (std::fabs(made / aspect - 1.0) > 0.01) {
      char ratio[32];
      std::snprintf(ratio, sizeof ratio, "%g", aspect);
      note(key + ".perspective.aspectRatio",
           std::string(ratio) + " is rendered at " + std::to_string(cam.width) + " x " +
               std::to_string(cam.height) +
               " pixels, the nearest size (--resolution sets another)");
    }
    cam.eye = glm::vec3(world * glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    const glm::vec3 forward = glm::vec3(world * glm::vec4(0.0f, 0.0f, -1.0f, 0.0f));
    const glm::vec3 up = glm::vec3(world * glm::vec4(0.0f, 1.0f, 0.0f, 0.0f));
    if (!(glm::length(forward) > 0.0f) || !(glm::length(glm::cross(forward, up)) > 0.0f))
      fail(key, "the node's transform leaves the camera no direction");
    cam.lookat = cam.eye + glm::normalize(forward);
    cam.up = glm::normalize(up);
    cam.near_distance = float(std::max(0.0, c.perspective.znear));
    out_.has_camera = true;
    break;
  }
  return out_;
}

}  // namespace

bool is_gltf_path(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".gltf" || ext == ".glb";
}

GltfModel parse_gltf(const std::string& bytes, const std::string& path,
                     std::vector<std::string>& warnings, const GltfLimits& limits) {
  bool binary = false;
  const std::string text = json_text(bytes, path, binary);
  std::vector<std::string> unused;
  const Json doc = parse_json(text, path, "", unused);
  JsonReader reader(path, warnings);
  static const Check schema = gltf_schema();
  schema(reader, doc, "");
  check_buffer_views(reader, doc);

  poll_stop();
  LoadContext context;
  context.path = path;
  context.folder = fs::path(path).parent_path().string();
  tinygltf::TinyGLTF loader;
  tinygltf::FsCallbacks callbacks{&file_exists, &expand_file_path, &read_whole_file,
                                  &write_whole_file, &context};
  loader.SetFsCallbacks(callbacks);
  loader.SetImageLoader(&decode_image, &context);
  tinygltf::Model model;
  std::string err, warn;
  const std::string folder = context.folder.empty() ? "." : context.folder;
  context.base = folder;
  const bool ok =
      binary ? loader.LoadBinaryFromMemory(&model, &err, &warn,
                                           reinterpret_cast<const unsigned char*>(bytes.data()),
                                           static_cast<unsigned int>(bytes.size()), folder)
             : loader.LoadASCIIFromString(&model, &err, &warn, bytes.data(),
                                          static_cast<unsigned int>(bytes.size()), folder);
  if (!ok) {
    // Our own words for a file that could not be read or an image that could not be decoded;
    // else tinygltf's first line.
    if (!context.problem.empty()) throw SceneError(context.problem);
    const std::string first = err.substr(0, err.find('\n'));
    throw SceneError(path + ": " + (first.empty() ? "cannot load the glTF asset" : first));
  }
  // A buffer or an image that could not be read is only a warning to tinygltf.
  if (!context.problem.empty()) throw SceneError(context.problem);
  poll_stop();
  for (std::size_t b = 0; b < model.buffers.size(); ++b) {
    const auto length = doc.at("buffers").at(b).at("byteLength").get<std::uint64_t>();
    if (model.buffers[b].data.size() < length)
      throw SceneError(path + ": buffers[" + std::to_string(b) + "]: holds " +
                       std::to_string(model.buffers[b].data.size()) + " bytes, not " +
                       std::to_string(length));
  }
  return Builder(model, doc, path, warnings, limits, context).build();
}

GltfModel load_gltf(const std::string& path, std::vector<std::string>& warnings,
                    const GltfLimits& limits) {
  return parse_gltf(read_input_file(path, kGltfFile), path, warnings, limits);
}

Scene gltf_scene(const std::string& path, std::vector<std::string>& warnings) {
  GltfModel model = load_gltf(path, warnings);
  Scene s;
  s.path = path;
  s.materials = std::move(model.materials);
  s.triangles = std::move(model.triangles);
  s.textures = std::move(model.textures);
  s.iterations = 256;
  s.depth = 8;
  const std::string stem = fs::path(path).stem().string();
  s.output_name = stem.empty() ? "render" : stem;
  s.environment.present = true;
  s.environment.constant = glm::vec3(1.0f);
  if (model.has_camera) {
    s.camera = model.camera;
  } else {
    // A camera that frames the model: from above and to the right of its front, the bounding
    // sphere filling the view.
    const glm::vec3 centre = 0.5f * (model.lower + model.upper);
    const float radius = std::max(0.5f * glm::length(model.upper - model.lower), 1e-3f);
    Camera& c = s.camera;
    c.width = 800;
    c.height = 600;
    c.fovy_degrees = 20.0f;
    const float distance = 1.1f * radius / std::sin(glm::radians(c.fovy_degrees));
    c.eye = centre + distance * glm::normalize(glm::vec3(0.5f, 0.4f, 1.0f));
    c.lookat = centre;
    c.up = glm::vec3(0.0f, 1.0f, 0.0f);
    warnings.push_back(path + ": no perspective camera; rendered with one that frames the model");
  }
  return s;
}

}  // namespace raystream
