#include "io/scene/gltf_schema.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace raystream::gltf {
namespace {

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

// Required extensions that the renderer cannot do without: compressed geometry, whose accessors
// have no data of their own (tinygltf would refuse the first of them for its missing buffer view:
// "accessor[0] invalid bufferView"). Other unsupported ones are warnings (gltf_meshes.cpp).
void check_required_extensions(const JsonReader& r, const Json& doc) {
  if (!doc.contains("extensionsRequired")) return;
  for (const Json& e : doc["extensionsRequired"]) {
    const std::string name = e.get<std::string>();
    if (name == "KHR_draco_mesh_compression" || name == "EXT_meshopt_compression")
      r.fail("extensionsRequired", "extension " + name + " (compressed geometry) is not supported");
  }
}

}  // namespace

void check_document(const JsonReader& r, const Json& doc) {
  static const Check schema = gltf_schema();
  schema(r, doc, "");
  check_required_extensions(r, doc);
  check_buffer_views(r, doc);
}

}  // namespace raystream::gltf
