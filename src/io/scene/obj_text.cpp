// One pass over an OBJ file's text: each line read once, as it comes (obj_text.h).
#include "io/scene/obj_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <unordered_set>

#include "core/excerpt.h"
#include "core/stop_request.h"
#include "io/files/text_lines.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

bool blank(char c) {
  return c == ' ' || c == '\t';
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

const char* skip_blanks(const char* p, const char* end) {
  while (p < end && blank(*p)) ++p;
  return p;
}

const char* word_end(const char* p, const char* end) {
  while (p < end && !blank(*p)) ++p;
  return p;
}

// The number that [begin, end) holds whole (a '+' may lead it); false where it holds none.
bool parse_number(const char* begin, const char* end, double& value) {
  if (begin < end && *begin == '+') {
    ++begin;
    if (begin < end && (*begin == '+' || *begin == '-')) return false;
  }
  const auto [ptr, error] = std::from_chars(begin, end, value);
  return error == std::errc() && ptr == end;
}

// The next word of [p, end) as a number, p moved past it: NaN where it is not a finite number
// that a float holds; `missing` where there is no word left.
float next_number(const char*& p, const char* end, float missing) {
  p = skip_blanks(p, end);
  if (p == end) return missing;
  const char* e = word_end(p, end);
  double value = 0.0;
  const bool ok = parse_number(p, e, value) && std::isfinite(value) && std::fabs(value) <= 3.0e38;
  p = e;
  return ok ? static_cast<float>(value) : std::nanf("");
}

// One index of a face corner ("7", "-2", the "3" of "7/3/1"): an integer of at most 11 digits
// that fits in an int, with an optional sign; false otherwise.
bool corner_index(const char* begin, const char* end, long long& value) {
  const char* digit = begin < end && (*begin == '-' || *begin == '+') ? begin + 1 : begin;
  if (digit == end || end - digit > 11 || !std::all_of(digit, end, is_digit)) return false;
  value = 0;
  for (const char* c = digit; c < end; ++c) value = 10 * value + (*c - '0');
  if (*begin == '-') value = -value;
  return value <= INT_MAX && value >= -static_cast<long long>(INT_MAX);
}

// The reader: one line at a time, into an ObjText.
class ObjReader {
 public:
  ObjReader(const std::string& path, const MtlLookup& find_mtl)
      : path_(path), find_mtl_(find_mtl) {}

  ObjText read(const std::string& text) {
    const char* p = text.data();
    const char* const end = p + text.size();
    std::size_t number = 0;
    // Lines end at "\n", "\r\n" or a lone "\r" (io/files/text_lines.h).
    while (p < end) {
      const char* newline = static_cast<const char*>(std::memchr(p, '\n', std::size_t(end - p)));
      if (newline == nullptr) newline = end;
      const char* cr = static_cast<const char*>(std::memchr(p, '\r', std::size_t(newline - p)));
      const char* line_end = cr != nullptr ? cr : newline;
      if ((++number & 0xFFFFu) == 0) poll_stop();
      line(p, line_end, number);
      p = line_end + (cr != nullptr && cr + 1 == newline ? 2 : 1);
    }
    return std::move(out_);
  }

 private:
  void line(const char* p, const char* end, std::size_t number) {
    p = skip_blanks(p, end);
    if (p == end || *p == '#') return;
    const auto keyword = [&](const char* word, std::size_t n) {
      return std::size_t(end - p) > n && std::memcmp(p, word, n) == 0 && blank(p[n]);
    };
    if (keyword("v", 1)) {
      vertex(p + 2, end);
    } else if (keyword("f", 1)) {
      face(p + 2, end, number);
    } else if (keyword("vn", 2)) {
      normal(p + 3, end);
    } else if (keyword("vt", 2)) {
      texcoord(p + 3, end);
    } else if (keyword("l", 1) || keyword("p", 1)) {
      if (skip_blanks(p + 2, end) < end) ++out_.points_and_lines;
    } else if (std::size_t(end - p) >= 6 && std::memcmp(p, "usemtl", 6) == 0) {
      use_material(p + 6, end);
    } else if (keyword("mtllib", 6)) {
      material_library(p + 7, end);
    }
  }

  // "v x y z" (more numbers, a weight or a colour, are not read).
  void vertex(const char* p, const char* end) {
    glm::vec3 v(0.0f);
    for (int c = 0; c < 3; ++c) v[c] = next_number(p, end, std::nanf(""));
    const bool ok = std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
    out_.positions.push_back(ok ? v : glm::vec3(0.0f));
    out_.unreadable.push_back(!ok);
  }

  void normal(const char* p, const char* end) {
    glm::vec3 n(0.0f);
    for (int c = 0; c < 3; ++c) n[c] = next_number(p, end, std::nanf(""));
    out_.normals.push_back(n);
  }

  // "vt u [v]" (a w is not read): v is 0 where it is missing.
  void texcoord(const char* p, const char* end) {
    glm::vec2 t(0.0f);
    for (int c = 0; c < 2; ++c) t[c] = next_number(p, end, 0.0f);
    out_.texcoords.push_back(t);
  }

  void face(const char* p, const char* end, std::size_t number);
  ObjCorner corner(const char* begin, const char* end, std::size_t number, ObjFace& face) const;

  void use_material(const char* p, const char* end) {
    p = skip_blanks(p, end);
    const std::string name(p, word_end(p, end));
    const auto found = material_ids_.find(name);
    material_ = found != material_ids_.end() ? found->second : -1;
    if (material_ < 0 && undefined_.insert(name).second) out_.undefined_materials.push_back(name);
  }

  void material_library(const char* p, const char* end);
  void add_library(const std::string& text, const std::string& mtl_path);

  const std::string& path_;
  const MtlLookup& find_mtl_;
  ObjText out_;
  int material_ = -1;  // the material of the faces that follow (usemtl)
  std::unordered_map<std::string, int> material_ids_;  // the first material of each name
  std::unordered_set<std::string> undefined_;
  std::unordered_set<std::string> libraries_;  // the names of the libraries read
};

// A corner "v", "v/vt", "v//vn" or "v/vt/vn" of the face on line `number`, its indices resolved
// (relative ones against what is read so far). Throws SceneError for an index that is not an
// integer, does not fit in one, or is 0; notes in `face` a vertex index out of range.
ObjCorner ObjReader::corner(const char* begin, const char* end, std::size_t number,
                            ObjFace& face) const {
  const auto fail = [&](const std::string& what) {
    throw SceneError(path_ + ":" + std::to_string(number) + ": face " + what);
  };
  const auto text = [&] { return "corner \"" + excerpt(std::string(begin, end)) + "\""; };
  const char* part_end = std::find(begin, end, '/');
  long long index = 0;
  if (!corner_index(begin, part_end, index)) {
    const char* digit = begin < part_end && (*begin == '-' || *begin == '+') ? begin + 1 : begin;
    if (digit == part_end || !std::all_of(digit, part_end, is_digit))
      fail(text() + " does not start with a vertex index");
    fail("index " + excerpt(std::string(begin, part_end)) +
         " is out of range (a vertex index must fit in 32 bits)");
  }
  // Resolves a written index against the `count` read so far: from 1, or from the end.
  const auto resolve = [&](long long written, std::size_t count) {
    if (written == 0) fail(text() + " has the index 0 (OBJ indices count from 1)");
    if (written > 0) return static_cast<int>(written - 1);
    const long long from_end = static_cast<long long>(count) + written;
    return from_end >= 0 ? static_cast<int>(from_end) : ObjCorner::kBadIndex;
  };
  ObjCorner c;
  c.v = resolve(index, out_.positions.size());
  if (index > face.largest) face.largest = index;
  if (c.v == ObjCorner::kBadIndex && face.bad_relative == 0) face.bad_relative = index;
  // The texture and normal indices, where present, must be integers in range too.
  for (int part = 1; part_end < end; ++part) {
    const char* part_begin = part_end + 1;
    part_end = std::find(part_begin, end, '/');
    if (part_begin == part_end) continue;
    if (!corner_index(part_begin, part_end, index))
      fail(text() + ": texture or normal index out of range or not an integer");
    if (part == 1) c.vt = resolve(index, out_.texcoords.size());
    if (part == 2) c.vn = resolve(index, out_.normals.size());
  }
  return c;
}

void ObjReader::face(const char* p, const char* end, std::size_t number) {
  ObjFace f;
  f.first = out_.corners.size();
  f.material = material_;
  f.line = number;
  // The corners: the words after "f".
  for (p = skip_blanks(p, end); p < end; p = skip_blanks(p, end)) {
    const char* e = word_end(p, end);
    out_.corners.push_back(corner(p, e, number, f));
    p = e;
  }
  const std::size_t corners = out_.corners.size() - f.first;
  if (corners < 3) {
    if (out_.short_faces++ == 0) {
      out_.first_short_line = number;
      out_.first_short_corners = corners;
    }
    out_.corners.resize(f.first);
    return;
  }
  f.count = static_cast<std::uint32_t>(corners);
  out_.faces.push_back(f);
}

// "mtllib NAME...": the first of the names (separated by spaces, '\' escaping one) that is found
// and not read yet is read; one already read counts as found.
void ObjReader::material_library(const char* p, const char* end) {
  while (end > p && blank(end[-1])) --end;
  std::vector<std::string> names(1);
  for (bool escaping = false; p < end; ++p) {
    if (!escaping && *p == '\\') {
      escaping = true;
      continue;
    }
    if (!escaping && *p == ' ') {
      if (!names.back().empty()) names.emplace_back();
    } else {
      names.back() += *p;
    }
    escaping = false;
  }
  for (const std::string& name : names) {
    if (libraries_.count(name) > 0) continue;
    std::string text, mtl_path;
    try {
      if (!find_mtl_ || !find_mtl_(name, text, mtl_path)) {
        out_.material_warnings.push_back(excerpt(
            path_ + ": material library \"" + excerpt(name) + "\" not found next to the OBJ file",
            kMaxMessage));
        continue;
      }
      add_library(text, mtl_path);
    } catch (const SceneError& e) {
      if (out_.material_error.empty())
        out_.material_error = path_ + ": material library " + e.what();
      continue;
    }
    libraries_.insert(name);
    break;
  }
}

void ObjReader::add_library(const std::string& text, const std::string& mtl_path) {
  for (MtlMaterial& m : parse_mtl(text, mtl_path)) {
    if (m.kd_map.empty() && m.kd_map_line > 0)
      out_.material_warnings.push_back(excerpt(path_ + ": " + mtl_path + ":" +
                                                   std::to_string(m.kd_map_line) +
                                                   ": map_Kd names no image file; ignored",
                                               kMaxMessage));
    material_ids_.emplace(m.name, static_cast<int>(out_.materials.size()));
    out_.materials.push_back(std::move(m));
    out_.material_files.push_back(mtl_path);
  }
}

}  // namespace

ObjText read_obj_text(const std::string& text, const std::string& path, const MtlLookup& find_mtl) {
  refuse_utf16(text, path);
  return ObjReader(path, find_mtl).read(text);
}

}  // namespace raystream
