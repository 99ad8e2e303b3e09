// Reading a glTF asset: the file and what it names through tinygltf, in the words of the other
// readers; its document checked first (gltf_schema.cpp), then built into the renderer's model
// (gltf_builder.h).
#include "io/scene/gltf_loader.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

#include "core/stop_request.h"
#include "io/files/input_file.h"
#include "io/image/image_reader.h"
#include "io/scene/gltf_builder.h"
#include "io/scene/gltf_schema.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;
using gltf::LoadContext;

constexpr InputKind kGltfFile{"glTF file", "a glTF file", std::uint64_t(1) << 30};
constexpr InputKind kGltfResource{"glTF buffer or image", "a glTF buffer or image",
                                  std::uint64_t(1) << 31};

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
  // KTX2 (KHR_texture_basisu) is not decoded: a texture that needs it fails where it is read,
  // one with a fallback source reads that instead.
  static const unsigned char kKtx2[12] = {0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32,
                                          0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A};
  if (image->mimeType == "image/ktx2" ||
      (size >= 12 && std::memcmp(bytes, kKtx2, sizeof kKtx2) == 0)) {
    context.ktx2_images.insert(index);
    return true;
  }
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
  gltf::check_document(reader, doc);

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
  return gltf::Builder(model, doc, path, warnings, limits, context).build();
}

GltfModel load_gltf(const std::string& path, std::vector<std::string>& warnings,
                    const GltfLimits& limits) {
  return parse_gltf(read_input_file(path, kGltfFile), path, warnings, limits);
}

}  // namespace raystream
