#include "io/scene/obj_loader.h"

#include <tiny_obj_loader.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <map>
#include <sstream>
#include <streambuf>

#include "core/excerpt.h"
#include "core/stop_request.h"
#include "io/files/input_file.h"
#include "io/files/text_lines.h"
#include "io/scene/face_triangulation.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;

// The line of each material's last map_Kd line in an MTL's text (0: none), with the material's
// name, in the order tinyobjloader adds the materials: at each "newmtl" the material before it
// (if it has a name), and the last one at the end.
std::vector<std::pair<std::string, std::size_t>> map_kd_lines(const std::string& text) {
  std::vector<std::pair<std::string, std::size_t>> out;
  std::pair<std::string, std::size_t> current;
  for_each_line(text, [&](std::size_t number, std::size_t, std::string line) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
    const std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos) return;
    const auto keyword = [&](const char* word, std::size_t n) {
      return line.compare(i, n, word) == 0 && i + n < line.size() &&
             (line[i + n] == ' ' || line[i + n] == '\t');
    };
    if (keyword("newmtl", 6)) {
      if (!current.first.empty()) out.push_back(current);
      current = {line.substr(i + 7), 0};
    } else if (keyword("map_Kd", 6) || line.compare(i, std::string::npos, "map_Kd") == 0) {
      current.second = number;  // also a map_Kd that names no file
    }
  });
  out.push_back(current);
  return out;
}

// The image file that a map_Kd names, found as MTL libraries are: the path relative to the MTL
// file's folder, else the file name in that folder (exported files often name a folder that did
// not ship); a name written with '\\' (exported on Windows) is tried with '/' too. The first
// candidate that is a file, else the first candidate (the error then names it).
std::string texture_beside(const std::string& mtl_path, const std::string& name) {
  const fs::path folder = fs::path(mtl_path).parent_path();
  std::string slashed = name;
  std::replace(slashed.begin(), slashed.end(), '\\', '/');
  const fs::path candidates[4] = {folder / name, folder / slashed,
                                  folder / fs::path(name).filename(),
                                  folder / fs::path(slashed).filename()};
  for (const fs::path& candidate : candidates) {
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate.lexically_normal().string();
  }
  return candidates[0].lexically_normal().string();
}

// Hands tinyobjloader the MTL libraries that `find_mtl` finds, after check_mtl_values. A failed
// check is kept in error() (thrown once tinyobjloader returns) and the library is not loaded.
// For each material it adds, kd_maps() holds its map_Kd image resolved against the MTL's folder.
class MtlFromLookup : public tinyobj::MaterialReader {
 public:
  MtlFromLookup(const MtlLookup& find_mtl, std::string obj_path)
      : find_mtl_(find_mtl), obj_path_(std::move(obj_path)) {}

  bool operator()(const std::string& name, std::vector<tinyobj::material_t>* materials,
                  std::map<std::string, int>* ids, std::string* warn, std::string* err) override {
    std::string text, mtl_path;
    try {
      if (!find_mtl_ || !find_mtl_(name, text, mtl_path)) {
        if (warn)
          *warn += "material library \"" + excerpt(name) + "\" not found next to the OBJ file\n";
        return false;
      }
      check_mtl_values(text, mtl_path);
    } catch (const SceneError& e) {
      if (error_.empty()) error_ = obj_path_ + ": material library " + e.what();
      return false;
    }
    std::istringstream in(text);
    const std::size_t before = materials->size();
    tinyobj::LoadMtl(ids, materials, &in, warn, err);
    // One entry per material tinyobjloader holds (it adds materials only here).
    kd_maps_.resize(before);
    const auto lines = map_kd_lines(text);
    for (std::size_t i = before; i < materials->size(); ++i) {
      const tinyobj::material_t& m = (*materials)[i];
      KdMap map;
      // tinyobjloader keeps the rest of the line after the options as the name.
      std::string name = m.diffuse_texname;
      while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
        name.pop_back();
      const std::size_t k = i - before;
      const std::size_t line = k < lines.size() && lines[k].first == m.name ? lines[k].second : 0;
      if (!name.empty()) {
        map.path = texture_beside(mtl_path, name);
        map.origin = mtl_path + (line > 0 ? ":" + std::to_string(line) : "") + ": map_Kd";
      } else if (line > 0 && warn) {
        *warn += mtl_path + ":" + std::to_string(line) + ": map_Kd names no image file; ignored\n";
      }
      kd_maps_.push_back(map);
    }
    return true;
  }

  const std::string& error() const { return error_; }
  const std::vector<KdMap>& kd_maps() const { return kd_maps_; }

 private:
  const MtlLookup& find_mtl_;
  std::string obj_path_;
  std::string error_;
  std::vector<KdMap> kd_maps_;
};

// The MTL libraries next to the OBJ at `obj_path`: the named path relative to the OBJ's folder,
// else the named file's base name in that folder (exported files often name a folder that did
// not ship).
MtlLookup mtl_beside(const std::string& obj_path) {
  const fs::path folder = fs::path(obj_path).parent_path();
  return [folder](const std::string& name, std::string& text, std::string& path) {
    const fs::path candidates[2] = {folder / name, folder / fs::path(name).filename()};
    for (const fs::path& candidate : candidates) {
      std::error_code ec;
      if (!fs::exists(fs::symlink_status(candidate, ec)) || fs::is_directory(candidate, ec))
        continue;
      // Whatever it is, it is named: read_input_file refuses what is not a regular file.
      path = candidate.string();
      text = read_input_file(path, kMtlFile);
      return true;
    }
    return false;
  };
}

glm::vec3 vec3_of(const tinyobj::real_t* p) {
  return glm::vec3(static_cast<float>(p[0]), static_cast<float>(p[1]), static_cast<float>(p[2]));
}

bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// tinyobjloader's messages, one line each, prefixed with the file: those about materials go to
// `material_warnings` (they matter only where the MTL's materials are used), the others to
// `warnings`. Its note that an MTL has both `d` and `Tr` is dropped: `d` is what is read. So is
// its "Failed to load material file(s)", which follows our own warning naming the library.
void add_lines(const std::string& path, const std::string& text, std::vector<std::string>& warnings,
               std::vector<std::string>& material_warnings) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    // "Degenerated face found" and "Vertex indices out of bounds": the face scan's warnings say
    // it, naming the line; "Vertex texcoord indices out of bounds": the count of such corners.
    if (line.empty() || line == "." || line.find("Both `d` and `Tr`") != std::string::npos ||
        line.find("Failed to load material file") != std::string::npos ||
        line.find("Degenerated face") != std::string::npos ||
        line.find("Vertex indices out of bounds") != std::string::npos ||
        line.find("Vertex texcoord indices out of bounds") != std::string::npos)
      continue;
    const bool about_materials = line.find("material") != std::string::npos ||
                                 line.find("Material") != std::string::npos ||
                                 line.find(".mtl") != std::string::npos;
    (about_materials ? material_warnings : warnings)
        .push_back(excerpt(path + ": " + line, kMaxMessage));
  }
}

// What the scan of an OBJ's text found before tinyobjloader reads it.
struct ObjScan {
  // tinyobjloader reads a coordinate it cannot parse ("nan", "inf", "1e999", "x") as 0: bad[k]
  // is true when the k-th "v" line's x, y or z is not a finite number.
  std::vector<bool> bad_vertex;
  std::size_t short_faces = 0;  // faces with fewer than 3 vertices (tinyobjloader drops them)
  std::size_t first_short_line = 0, first_short_corners = 0;
  std::size_t out_of_range_faces = 0;  // faces naming a vertex the file does not have
  std::size_t first_out_of_range_line = 0;
  long long first_out_of_range_index = 0;
  // Faces of more corners than tinyobjloader counts (it keeps a face's count in a byte): for
  // each, its place among the faces of 3 corners or more, its corners and its line.
  struct LongFace {
    std::size_t ordinal, corners, line;
  };
  std::vector<LongFace> long_faces;
};

// The most corners tinyobjloader counts in a face.
constexpr std::size_t kMaxCountedCorners = 255;

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// The vertex index of a face corner ("7", "-2", "7/1/3", "7//3"), the corner's text being
// [begin, end): tinyobjloader converts it with atoi, so text that is not an integer, or one
// beyond the int range, would silently become some other vertex. Such a face is an error naming
// its line. (Read in place: the messages' strings are made only for an error.)
long long face_index(const char* begin, const char* end, const std::string& path,
                     std::size_t line) {
  const auto where = [&] { return path + ":" + std::to_string(line) + ": face "; };
  const auto corner = [&] { return excerpt(std::string(begin, end)); };
  const char* index_end = std::find(begin, end, '/');
  const char* digit = begin < index_end && (*begin == '-' || *begin == '+') ? begin + 1 : begin;
  if (digit == index_end || !std::all_of(digit, index_end, is_digit)) {
    throw SceneError(where() + "corner \"" + corner() + "\" does not start with a vertex index");
  }
  // At most 11 digits are added up (anything longer is out of range anyway).
  long long value = LLONG_MAX;
  if (index_end - digit <= 11) {
    value = 0;
    for (const char* c = digit; c < index_end; ++c) value = 10 * value + (*c - '0');
    if (*begin == '-') value = -value;
  }
  if (value > INT_MAX || value < -static_cast<long long>(INT_MAX)) {
    throw SceneError(where() + "index " + excerpt(std::string(begin, index_end)) +
                     " is out of range (a vertex index must fit in 32 bits)");
  }
  // The texture and normal indices, where present, must be integers in range too.
  for (const char* part = index_end; part < end;) {
    ++part;  // past the '/'
    const char* part_end = std::find(part, end, '/');
    if (part < part_end) {
      const char* d = *part == '-' || *part == '+' ? part + 1 : part;
      bool ok = d < part_end && part_end - d <= 10 && std::all_of(d, part_end, is_digit);
      if (ok) {
        long long magnitude = 0;
        for (const char* c = d; c < part_end; ++c) magnitude = 10 * magnitude + (*c - '0');
        ok = magnitude <= INT_MAX;
      }
      if (!ok) {
        throw SceneError(where() + "corner \"" + corner() +
                         "\": texture or normal index out of range or not an integer");
      }
    }
    part = part_end;
  }
  return value;
}

ObjScan scan_obj(const std::string& text, const std::string& path) {
  ObjScan scan;
  long long vertices = 0;
  // Positive indices may name vertices defined further down: checked once all are counted.
  std::vector<std::pair<std::size_t, long long>> largest_per_face;
  std::size_t faces = 0;  // of 3 corners or more
  for_each_line(text, [&](std::size_t number, std::size_t, const std::string& line) {
    if ((number & 0xFFFFu) == 0) poll_stop();
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || i + 1 >= line.size()) return;
    const char kind = line[i];
    if ((kind != 'v' && kind != 'f') || (line[i + 1] != ' ' && line[i + 1] != '\t')) return;
    if (kind == 'v') {
      const char* p = line.c_str() + i + 2;
      bool ok = true;
      for (int c = 0; c < 3 && ok; ++c) {
        char* after = nullptr;
        const double value = std::strtod(p, &after);
        ok = after != p && std::isfinite(value) && std::fabs(value) <= 3.0e38;
        p = after;
      }
      scan.bad_vertex.push_back(!ok);
      ++vertices;
      return;
    }
    // The corners: the words after "f", separated as words() separates them.
    const auto separator = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    std::size_t corners = 0;
    long long largest = 0;
    bool negative_out_of_range = false;
    long long bad_negative = 0;
    for (const char *c = line.data() + i + 2, *end = line.data() + line.size(); c < end;) {
      c = std::find_if_not(c, end, separator);
      if (c == end) break;
      const char* corner_end = std::find_if(c, end, separator);
      const long long index = face_index(c, corner_end, path, number);
      ++corners;
      if (index > largest) largest = index;
      if (index < 0 && vertices + index < 0 && !negative_out_of_range) {
        negative_out_of_range = true;
        bad_negative = index;
      }
      c = corner_end;
    }
    if (corners >= 3) {
      if (corners > kMaxCountedCorners) scan.long_faces.push_back({faces, corners, number});
      ++faces;
    }
    if (corners < 3) {
      if (scan.short_faces++ == 0) {
        scan.first_short_line = number;
        scan.first_short_corners = corners;
      }
    } else if (negative_out_of_range) {
      if (scan.out_of_range_faces++ == 0) {
        scan.first_out_of_range_line = number;
        scan.first_out_of_range_index = bad_negative;
      }
    } else if (largest > 0) {
      largest_per_face.emplace_back(number, largest);
    }
  });
  for (const auto& [line, largest] : largest_per_face) {
    if (largest <= vertices) continue;
    if (scan.out_of_range_faces == 0 || line < scan.first_out_of_range_line) {
      scan.first_out_of_range_line = line;
      scan.first_out_of_range_index = largest;
    }
    ++scan.out_of_range_faces;
  }
  return scan;
}

}  // namespace

ObjMesh load_obj(const std::string& path, std::vector<std::string>& warnings) {
  return parse_obj(read_input_file(path, kObjFile), path, mtl_beside(path), warnings);
}

namespace {

// The text with its skin-weight lines ("vw", which raystream does not use) turned into comments,
// keeping the line numbers: tinyobjloader converts their joint ids to int without a range check
// (undefined behaviour for "vw 1e31 ...", found by the fuzz target).
std::string without_skin_weights(std::string text) {
  if (text.find("vw") == std::string::npos) return text;  // no such line: nothing to walk
  for_each_line(text, [&](std::size_t number, std::size_t offset, const std::string& line) {
    if ((number & 0xFFFFu) == 0) poll_stop();
    const std::size_t k = line.find_first_not_of(" \t");
    if (k != std::string::npos && line.compare(k, 2, "vw") == 0 && k + 2 < line.size() &&
        (line[k + 2] == ' ' || line[k + 2] == '\t'))
      text[offset + k] = '#';
  });
  return text;
}

// The triangle of the face whose corners start at indices[begin]: its vertices, vertex normals
// where every corner has a finite one (else the face normal, the winding then following the
// vertex normals), texture coordinates (bad ones counted in bad_uv, left at (0, 0)). False when
// the face must be skipped: an index out of range, a vertex not finite (or unreadable in the
// text), or a zero area.
bool read_face(const tinyobj::attrib_t& attrib, const std::vector<tinyobj::index_t>& indices,
               std::size_t begin, const std::vector<bool>& unreadable, Triangle& tri,
               std::size_t& bad_uv) {
  const long long vertex_count = static_cast<long long>(attrib.vertices.size() / 3);
  const long long normal_count = static_cast<long long>(attrib.normals.size() / 3);
  const long long texcoord_count = static_cast<long long>(attrib.texcoords.size() / 2);
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
    if (index.texcoord_index >= 0 && index.texcoord_index < texcoord_count) {
      const std::size_t t = 2 * static_cast<std::size_t>(index.texcoord_index);
      const glm::vec2 uv(static_cast<float>(attrib.texcoords[t]),
                         static_cast<float>(attrib.texcoords[t + 1]));
      if (std::isfinite(uv.x) && std::isfinite(uv.y)) {
        tri.uv[c] = uv;
      } else {
        ++bad_uv;
      }
    } else if (index.texcoord_index >= 0 || index.texcoord_index < -1) {
      ++bad_uv;  // -1: the corner has no vt
    }
  }
  if (!valid) return false;
  glm::vec3 face = glm::cross(tri.v[1] - tri.v[0], tri.v[2] - tri.v[0]);
  const float area2 = glm::length(face);
  if (!(area2 > 0.0f) || !std::isfinite(area2)) return false;
  face /= area2;
  if (smooth) {
    // The vertex normals say which side is outside: the winding follows them.
    if (glm::dot(face, tri.n[0] + tri.n[1] + tri.n[2]) < 0.0f) reverse_winding(tri);
  } else {
    tri.n[0] = tri.n[1] = tri.n[2] = face;
  }
  return true;
}

// The text handed to tinyobjloader a megabyte at a time, polling for a stop between pieces: a
// stop ends the text early (tinyobjloader then returns what it read) and is_stopped() says so.
class PollingText : public std::streambuf {
 public:
  explicit PollingText(const std::string& text) : text_(text) {}
  bool is_stopped() const { return stopped_; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    if (next_ >= text_.size()) return traits_type::eof();
    if (stop_asked()) {
      stopped_ = true;
      return traits_type::eof();
    }
    const std::size_t n = std::min<std::size_t>(std::size_t(1) << 20, text_.size() - next_);
    char* begin = const_cast<char*>(text_.data()) + next_;
    setg(begin, begin, begin + n);
    next_ += n;
    return traits_type::to_int_type(*gptr());
  }

 private:
  const std::string& text_;
  std::size_t next_ = 0;
  bool stopped_ = false;
};

// The corners of every face tinyobjloader kept, in its order (its shapes' faces one after
// another, the file's order): its own counts, except for the faces of more corners than a byte
// holds, whose counts the scan found (each agreeing with tinyobjloader's modulo 256). Throws
// SceneError when the two do not add up.
std::vector<std::size_t> face_corners(const std::vector<tinyobj::shape_t>& shapes,
                                      const ObjScan& scan, const std::string& path) {
  std::vector<std::size_t> corners;
  std::size_t indices = 0, counted = 0;
  for (const tinyobj::shape_t& shape : shapes) {
    indices += shape.mesh.indices.size();
    for (const unsigned char n : shape.mesh.num_face_vertices) {
      corners.push_back(n);
      counted += n;
    }
  }
  if (counted == indices) return corners;
  counted = 0;
  std::size_t next_long = 0;
  for (std::size_t f = 0; f < corners.size(); ++f) {
    if (next_long < scan.long_faces.size() && scan.long_faces[next_long].ordinal == f &&
        scan.long_faces[next_long].corners % 256 == corners[f])
      corners[f] = scan.long_faces[next_long++].corners;
    counted += corners[f];
  }
  if (counted != indices || next_long != scan.long_faces.size())
    throw SceneError(path + ": the faces of more than " + std::to_string(kMaxCountedCorners) +
                     " corners could not be told apart (the file's faces do not add up)");
  return corners;
}

// Splits the face of `corners` corners whose indices start at indices[begin] into triangles,
// each read by read_face and appended to mesh.triangles with material `material`. A face with
// a corner out of range or not finite is skipped whole (counted once). Returns false for a face
// that is not convex and has more than kMaxNonConvexFaceCorners corners.
bool add_face(const tinyobj::attrib_t& attrib, const std::vector<tinyobj::index_t>& indices,
              std::size_t begin, std::size_t corners, const std::vector<bool>& unreadable,
              int material, ObjMesh& mesh, std::size_t& bad_texcoords) {
  const auto add = [&](const std::vector<tinyobj::index_t>& face, std::size_t at) {
    Triangle tri;
    std::size_t bad_uv = 0;
    if (!read_face(attrib, face, at, unreadable, tri, bad_uv)) {
      ++mesh.skipped_faces;
      return;
    }
    tri.material = material;
    mesh.triangles.push_back(tri);
    bad_texcoords += bad_uv;
  };
  if (corners == 3) {
    add(indices, begin);
    return true;
  }
  const long long vertex_count = static_cast<long long>(attrib.vertices.size() / 3);
  std::vector<glm::vec3> positions(corners);
  for (std::size_t c = 0; c < corners; ++c) {
    const int v = indices[begin + c].vertex_index;
    if (v < 0 || v >= vertex_count) {
      ++mesh.skipped_faces;
      return true;
    }
    const std::size_t k = static_cast<std::size_t>(v);
    positions[c] = vec3_of(&attrib.vertices[3 * k]);
    if (!finite(positions[c]) || (k < unreadable.size() && unreadable[k])) {
      ++mesh.skipped_faces;
      return true;
    }
  }
  std::vector<FaceTriangle> triangles;
  if (!triangulate_face(positions, triangles)) return false;
  std::vector<tinyobj::index_t> triangle(3);
  for (const FaceTriangle& t : triangles) {
    for (int c = 0; c < 3; ++c) triangle[c] = indices[begin + t[c]];
    add(triangle, 0);
  }
  return true;
}

// The MTL's materials, mapped, with their map_Kd textures (dropped, with a warning, where the
// material is not textured).
void add_materials(const std::vector<tinyobj::material_t>& materials,
                   const std::vector<KdMap>& kd_maps, ObjMesh& mesh) {
  for (std::size_t i = 0; i < materials.size(); ++i) {
    const tinyobj::material_t& t = materials[i];
    MtlMaterial mtl;
    mtl.name = t.name;
    mtl.kd = vec3_of(t.diffuse);
    mtl.ks = vec3_of(t.specular);
    mtl.ke = vec3_of(t.emission);
    mtl.tf = vec3_of(t.transmittance);
    mtl.ni = static_cast<float>(t.ior);
    mtl.ns = static_cast<float>(t.shininess);
    mtl.d = static_cast<float>(t.dissolve);
    mtl.illum = t.illum;
    const KdMap kd_map = i < kd_maps.size() ? kd_maps[i] : KdMap();
    mtl.kd_map = t.diffuse_texname;
    mesh.materials.push_back(material_from_mtl(mtl));
    mesh.kd_maps.push_back(kd_map);
    if (!kd_map.path.empty() &&
        !(material_type_traits(mesh.materials.back().type) & kTypeTextured)) {
      mesh.material_warnings.push_back(excerpt(
          kd_map.origin + ": material \"" + excerpt(t.name) +
              "\" is not diffuse (only Diffuse and Plastic materials are textured); the texture "
              "is ignored",
          kMaxMessage));
      mesh.kd_maps.back() = KdMap();
    }
  }
}

// Errors when no face is left (naming why), and the warnings about skipped faces and texture
// coordinates.
void check_faces(const std::string& path, const ObjScan& scan, std::size_t points_and_lines,
                 std::size_t bad_texcoords, const ObjMesh& mesh,
                 std::vector<std::string>& warnings) {
  // The first face that tinyobjloader dropped for having fewer than 3 vertices, and the first
  // that names a vertex the file does not have.
  std::string short_note, range_note;
  if (scan.short_faces > 0) {
    short_note = "line " + std::to_string(scan.first_short_line) + ": a face with " +
                 std::to_string(scan.first_short_corners) +
                 (scan.first_short_corners == 1 ? " vertex" : " vertices") +
                 " (a face needs at least 3)";
  }
  if (scan.out_of_range_faces > 0) {
    range_note = "line " + std::to_string(scan.first_out_of_range_line) + ": index " +
                 std::to_string(scan.first_out_of_range_index) + " but the file has " +
                 std::to_string(scan.bad_vertex.size()) + " vertices";
  }
  if (mesh.triangles.empty()) {
    if (mesh.skipped_faces > 0) {
      throw SceneError(path + ": no usable face: all " + std::to_string(mesh.skipped_faces) +
                       " faces index missing vertices or have non-finite or coincident vertices" +
                       (range_note.empty() ? "" : " (" + range_note + ")"));
    }
    if (!short_note.empty()) {
      throw SceneError(path + ": no usable face: " + std::to_string(scan.short_faces) +
                       (scan.short_faces == 1 ? " face has" : " faces have") +
                       " fewer than 3 vertices (" + short_note + ")");
    }
    if (points_and_lines > 0) {
      throw SceneError(path + ": no faces (the file has only points or lines; meshes need faces)");
    }
    throw SceneError(path + ": no faces (an empty OBJ file, or not an OBJ file)");
  }
  if (scan.short_faces > 0) {
    warnings.push_back(path + ": " + std::to_string(scan.short_faces) +
                       (scan.short_faces == 1 ? " face" : " faces") +
                       " with fewer than 3 vertices skipped (" + short_note + ")");
  }
  if (mesh.skipped_faces > 0) {
    warnings.push_back(path + ": " + std::to_string(mesh.skipped_faces) +
                       " faces skipped (out-of-range indices, non-finite or coincident vertices)" +
                       (range_note.empty() ? "" : "; the first out-of-range index: " + range_note));
  }
  if (bad_texcoords > 0) {
    warnings.push_back(path + ": " + std::to_string(bad_texcoords) +
                       (bad_texcoords == 1 ? " face corner has" : " face corners have") +
                       " a texture coordinate (vt) index out of range or a non-finite one; they "
                       "use (0, 0)");
  }
}

}  // namespace

ObjMesh parse_obj(const std::string& text, const std::string& path, const MtlLookup& find_mtl,
                  std::vector<std::string>& warnings) {
  // The scan and tinyobjloader read the text apart: the scan of a large file runs on a thread of
  // its own meanwhile (tinyobjloader stays on this one, whose input-file log records the MTL
  // files it reads). The scan's error still comes before anything tinyobjloader says.
  constexpr std::size_t kScanApartBytes = std::size_t(1) << 18;
  ObjScan scan;
  std::future<ObjScan> scanning;
  if (text.size() >= kScanApartBytes) {
    scanning = std::async(std::launch::async, [&text, &path] { return scan_obj(text, path); });
  } else {
    scan = scan_obj(text, path);
  }
  const std::vector<bool>& unreadable = scan.bad_vertex;
  const std::string kept = without_skin_weights(text);
  PollingText pieces(kept);
  std::istream in(&pieces);

  tinyobj::attrib_t attrib;
  std::vector<tinyobj::shape_t> shapes;
  std::vector<tinyobj::material_t> materials;
  std::string warn, err;
  MtlFromLookup mtl_reader(find_mtl, path);
  // Faces are split into triangles below (tinyobjloader's own split takes time cubic in a face's
  // corners: a face of 20000 took 2.5 s).
  const bool ok = tinyobj::LoadObj(&attrib, &shapes, &materials, &warn, &err, &in, &mtl_reader,
                                   /*triangulate=*/false, /*default_vcols_fallback=*/false);
  if (scanning.valid()) scan = scanning.get();  // rethrows the scan's error
  if (pieces.is_stopped()) throw StopRequested();
  if (!mtl_reader.error().empty()) throw SceneError(mtl_reader.error());
  if (!ok) {
    std::string reason = err.empty() ? warn : err;
    while (!reason.empty() && (reason.back() == '\n' || reason.back() == '.')) reason.pop_back();
    throw SceneError(path + ": malformed OBJ file" + (reason.empty() ? "" : ": " + reason));
  }
  ObjMesh mesh;
  add_lines(path, err, warnings, mesh.material_warnings);
  add_lines(path, warn, warnings, mesh.material_warnings);
  add_materials(materials, mtl_reader.kd_maps(), mesh);

  std::size_t bad_texcoords = 0;  // corners whose vt index is out of range or vt not finite
  const int material_count = static_cast<int>(mesh.materials.size());
  std::size_t points_and_lines = 0;
  const std::vector<std::size_t> corners = face_corners(shapes, scan, path);
  std::size_t most_triangles = 0;  // every face kept, split into corners - 2
  for (const std::size_t n : corners) most_triangles += n >= 3 ? n - 2 : 0;
  mesh.triangles.reserve(most_triangles);
  std::size_t face = 0, next_long = 0;
  for (const tinyobj::shape_t& shape : shapes) {
    points_and_lines += shape.points.indices.size() + shape.lines.indices.size();
    const std::vector<tinyobj::index_t>& indices = shape.mesh.indices;
    std::size_t first = 0;
    for (std::size_t f = 0; f < shape.mesh.num_face_vertices.size(); ++f, ++face) {
      if ((face & 0xFFFu) == 0) poll_stop();
      const std::size_t n = corners[face];
      const std::size_t begin = first;
      first += n;
      const bool is_long =
          next_long < scan.long_faces.size() && scan.long_faces[next_long].ordinal == face;
      if (begin + n > indices.size()) {
        ++mesh.skipped_faces;
        continue;
      }
      const int id = f < shape.mesh.material_ids.size() ? shape.mesh.material_ids[f] : -1;
      const int material = id >= 0 && id < material_count ? id : -1;
      if (!add_face(attrib, indices, begin, n, unreadable, material, mesh, bad_texcoords)) {
        const std::string line =
            is_long ? ":" + std::to_string(scan.long_faces[next_long].line) : "";
        throw SceneError(path + line + ": a face of " + std::to_string(n) +
                         " corners that is not convex (such a face may have at most " +
                         std::to_string(kMaxNonConvexFaceCorners) +
                         " corners: split it into smaller faces)");
      }
      if (is_long) ++next_long;
    }
  }

  check_faces(path, scan, points_and_lines, bad_texcoords, mesh, warnings);
  return mesh;
}

}  // namespace raystream
