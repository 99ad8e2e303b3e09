#include "scene/obj_loader.h"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "scene/scene_loader.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;

// Finds `mtllib` files next to the OBJ: the named path relative to the OBJ's folder, else the
// named file's base name in that folder (exported files often name a folder that did not ship).
class MtlBesideObj : public tinyobj::MaterialReader {
 public:
  explicit MtlBesideObj(fs::path folder) : folder_(std::move(folder)) {}

  bool operator()(const std::string& name, std::vector<tinyobj::material_t>* materials,
                  std::map<std::string, int>* ids, std::string* warn, std::string* err) override {
    const fs::path candidates[2] = {folder_ / name, folder_ / fs::path(name).filename()};
    for (const fs::path& candidate : candidates) {
      std::error_code ec;
      if (!fs::is_regular_file(candidate, ec)) continue;
      std::ifstream in(candidate);
      if (!in) continue;
      tinyobj::LoadMtl(ids, materials, &in, warn, err);
      return true;
    }
    if (warn) *warn += "material library \"" + name + "\" not found next to the OBJ file\n";
    return false;
  }

 private:
  fs::path folder_;
};

glm::vec3 vec3_of(const tinyobj::real_t* p) {
  return glm::vec3(static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2]));
}

bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// tinyobjloader's messages, one line each, prefixed with the file: those about materials go to
// `material_warnings` (they matter only where the MTL's materials are used), the others to
// `warnings`. Its note that an MTL has both `d` and `Tr` is dropped: `d` is what is read.
void add_lines(const std::string& path, const std::string& text, std::vector<std::string>& warnings,
               std::vector<std::string>& material_warnings) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty() || line == "." || line.find("Both `d` and `Tr`") != std::string::npos)
      continue;
    const bool about_materials = line.find("material") != std::string::npos ||
                                 line.find("Material") != std::string::npos ||
                                 line.find(".mtl") != std::string::npos;
    (about_materials ? material_warnings : warnings).push_back(path + ": " + line);
  }
}

// tinyobjloader reads a coordinate it cannot parse ("nan", "inf", "1e999", "x") as 0. So the text
// is scanned first: bad[k] is true when the k-th "v" line's x, y or z is not a finite number.
std::vector<bool> unreadable_vertices(const std::string& text) {
  std::vector<bool> bad;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::size_t i = start;
    while (i < end && (text[i] == ' ' || text[i] == '\t')) ++i;
    if (i + 1 < end && text[i] == 'v' && (text[i + 1] == ' ' || text[i + 1] == '\t')) {
      const std::string line = text.substr(i + 2, end - i - 2);
      const char* p = line.c_str();
      bool ok = true;
      for (int c = 0; c < 3 && ok; ++c) {
        char* after = nullptr;
        const double value = std::strtod(p, &after);
        ok = after != p && std::isfinite(value) && std::fabs(value) <= 3.0e38;
        p = after;
      }
      bad.push_back(!ok);
    }
    start = end + 1;
  }
  return bad;
}

}  // namespace

Material material_from_mtl(const MtlMaterial& mtl) {
  Material m;
  m.name = mtl.name;
  const float ke = std::max(mtl.ke.x, std::max(mtl.ke.y, mtl.ke.z));
  const bool glass = mtl.illum == 4 || mtl.illum == 6 || mtl.illum == 7 || mtl.d < 1.0f;
  if (ke > 0.0f) {
    m.type = MaterialType::emitting;
    m.color = glm::max(mtl.ke / ke, glm::vec3(0.0f));
    m.emittance = ke;
  } else if (mtl.illum == 3 || mtl.illum == 5) {
    m.type = MaterialType::specular;
    m.color = glm::clamp(mtl.ks, 0.0f, 1.0f);
  } else if (glass) {
    m.type = MaterialType::refractive;
    const glm::vec3 tf = glm::clamp(mtl.tf, 0.0f, 1.0f);
    m.color = tf.x > 0.0f || tf.y > 0.0f || tf.z > 0.0f ? tf : glm::vec3(1.0f);
    m.ior = mtl.ni > 0.0f ? mtl.ni : 1.5f;
  } else {
    m.type = MaterialType::diffuse;
    m.color = glm::clamp(mtl.kd, 0.0f, 1.0f);
  }
  return m;
}

ObjMesh load_obj(const std::string& path, std::vector<std::string>& warnings) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw SceneError(path + ": is a directory, expected an OBJ file");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw SceneError(path + ": cannot open the OBJ file (missing or unreadable)");
  std::ostringstream buffer;
  buffer << file.rdbuf();
  if (file.bad()) throw SceneError(path + ": error while reading the OBJ file");
  const std::string text = buffer.str();
  const std::vector<bool> unreadable = unreadable_vertices(text);
  std::istringstream in(text);

  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  MtlBesideObj mtl_reader(fs::path(path).parent_path());
  const bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &in, &mtl_reader,
                                   /*triangulate=*/true, /*default_vcols_fallback=*/false);
  if (!ok) {
    std::string reason = err.empty() ? warn : err;
    while (!reason.empty() && (reason.back() == '\n' || reason.back() == '.')) reason.pop_back();
    throw SceneError(path + ": malformed OBJ file" + (reason.empty() ? "" : ": " + reason));
  }
  ObjMesh mesh;
  add_lines(path, err, warnings, mesh.material_warnings);
  add_lines(path, warn, warnings, mesh.material_warnings);
  for (const tinyobj::material_t& t : materials) {
    MtlMaterial mtl;
    mtl.name = t.name;
    mtl.kd = vec3_of(t.diffuse);
    mtl.ks = vec3_of(t.specular);
    mtl.ke = vec3_of(t.emission);
    mtl.tf = vec3_of(t.transmittance);
    mtl.ni = static_cast<float>(t.ior);
    mtl.d = static_cast<float>(t.dissolve);
    mtl.illum = t.illum;
    mesh.materials.push_back(material_from_mtl(mtl));
  }

  const long long vertex_count = static_cast<long long>(attrib.vertices.size() / 3);
  const long long normal_count = static_cast<long long>(attrib.normals.size() / 3);
  const int material_count = static_cast<int>(mesh.materials.size());
  std::size_t points_and_lines = 0;
  for (const tinyobj::shape_t& shape : shapes) {
    points_and_lines += shape.points.indices.size() + shape.lines.indices.size();
    const std::vector<tinyobj::index_t>& indices = shape.mesh.indices;
    std::size_t first = 0;
    for (std::size_t f = 0; f < shape.mesh.num_face_vertices.size(); ++f) {
      const std::size_t corners = shape.mesh.num_face_vertices[f];
      const std::size_t begin = first;
      first += corners;
      if (corners != 3 || begin + 3 > indices.size()) {  // triangulation left a polygon
        ++mesh.skipped_faces;
        continue;
      }
      Triangle tri;
      bool valid = true, smooth = true;
      for (int c = 0; c < 3; ++c) {
        const tinyobj::index_t& index = indices[begin + c];
        if (index.vertex_index < 0 || index.vertex_index >= vertex_count) {
          valid = false;
          break;
        }
        const std::size_t k = static_cast<std::size_t>(index.vertex_index);
        tri.v[c] = vec3_of(&attrib.vertices[3 * k]);
        if (!finite(tri.v[c]) || (k < unreadable.size() && unreadable[k])) valid = false;
        if (index.normal_index >= 0 && index.normal_index < normal_count) {
          const glm::vec3 n =
              vec3_of(&attrib.normals[3 * static_cast<std::size_t>(index.normal_index)]);
          const float length = glm::length(n);
          if (finite(n) && length > 0.0f && std::isfinite(length)) {
            tri.n[c] = n / length;
          } else {
            smooth = false;
          }
        } else {
          smooth = false;
        }
      }
      if (!valid) {
        ++mesh.skipped_faces;
        continue;
      }
      glm::vec3 face = glm::cross(tri.v[1] - tri.v[0], tri.v[2] - tri.v[0]);
      const float area2 = glm::length(face);
      if (!(area2 > 0.0f) || !std::isfinite(area2)) {
        ++mesh.skipped_faces;
        continue;
      }
      face /= area2;
      if (smooth) {
        // The vertex normals say which side is outside: the winding follows them.
        if (glm::dot(face, tri.n[0] + tri.n[1] + tri.n[2]) < 0.0f) {
          std::swap(tri.v[1], tri.v[2]);
          std::swap(tri.n[1], tri.n[2]);
        }
      } else {
        tri.n[0] = tri.n[1] = tri.n[2] = face;
      }
      const int id = f < shape.mesh.material_ids.size() ? shape.mesh.material_ids[f] : -1;
      tri.material = id >= 0 && id < material_count ? id : -1;
      mesh.triangles.push_back(tri);
    }
  }

  if (mesh.triangles.empty()) {
    if (mesh.skipped_faces > 0) {
      throw SceneError(path + ": no usable face: all " + std::to_string(mesh.skipped_faces) +
                       " faces index missing vertices or have non-finite or coincident vertices");
    }
    if (points_and_lines > 0) {
      throw SceneError(path + ": no faces (the file has only points or lines; meshes need faces)");
    }
    throw SceneError(path + ": no faces (an empty OBJ file, or not an OBJ file)");
  }
  if (mesh.skipped_faces > 0) {
    warnings.push_back(path + ": " + std::to_string(mesh.skipped_faces) +
                       " faces skipped (out-of-range indices, non-finite or coincident vertices)");
  }
  return mesh;
}

}  // namespace raystream
