#include "io/scene/mtl_reader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "core/excerpt.h"
#include "io/files/text_lines.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

// One MTL value: a finite number within the float range.
double mtl_number(const std::string& word, const std::string& where) {
  char* after = nullptr;
  errno = 0;
  const double value = std::strtod(word.c_str(), &after);
  if (after == word.c_str() || *after != '\0') {
    throw SceneError(where + "expected a number, got \"" + excerpt(word) + "\"");
  }
  if (!std::isfinite(value)) {
    throw SceneError(where + "expected a finite number, got " + excerpt(word));
  }
  if (std::fabs(value) > static_cast<double>(FLT_MAX)) {
    throw SceneError(where + "value " + excerpt(word) + " is too large (it overflows a float)");
  }
  return value;
}

bool blank(char c) {
  return c == ' ' || c == '\t';
}

// A colour's numbers ("Kd 0.5 0.5 0.5"; one number is grey, "xyz" before them is read past),
// checked: finite, within the float range and, except for Ka, non-negative. Returns false for a
// "spectral" colour (a file name follows), which leaves the colour as it was.
bool read_colour(const std::vector<std::string>& w, const std::string& where, glm::vec3& colour) {
  std::size_t first = 1;
  if (w.size() > 1 && w[1] == "spectral") return false;
  if (w.size() > 1 && w[1] == "xyz") first = 2;
  if (w.size() <= first) throw SceneError(where + "expected 1 or 3 numbers");
  float values[3] = {0.0f, 0.0f, 0.0f};
  std::size_t n = 0;
  for (std::size_t k = first; k < w.size() && k < first + 3; ++k, ++n) {
    const double value = mtl_number(w[k], where);
    if (value < 0 && w[0] != "Ka") throw SceneError(where + "expected non-negative components");
    values[n] = static_cast<float>(value);
  }
  colour = n == 1 ? glm::vec3(values[0]) : glm::vec3(values[0], values[1], values[2]);
  return true;
}

// Ni, Ns, d, Tr, Pr or Pm: one number, checked (d, Tr, Pr and Pm in [0, 1], Ni and Ns not
// negative).
float read_scalar(const std::vector<std::string>& w, const std::string& where) {
  const std::string& key = w[0];
  if (w.size() < 2) throw SceneError(where + "expected a number");
  const bool fraction = key == "d" || key == "Tr" || key == "Pr" || key == "Pm";
  // "d -halo 0.5": the option comes first.
  const std::string& word = key == "d" && w[1] == "-halo" && w.size() > 2 ? w[2] : w[1];
  const double value = mtl_number(word, where);
  if (fraction && !(value >= 0 && value <= 1)) {
    throw SceneError(where + "expected a value in [0, 1], got " + excerpt(word));
  }
  if (!fraction && value < 0) {
    throw SceneError(where + "expected a non-negative number, got " + excerpt(word));
  }
  return static_cast<float>(value);
}

int read_illum(const std::vector<std::string>& w, const std::string& where) {
  const bool integer =
      w.size() >= 2 && !w[1].empty() && w[1].size() <= 2 &&
      std::all_of(w[1].begin(), w[1].end(), [](unsigned char c) { return std::isdigit(c); });
  if (!integer || std::stoi(w[1]) > 10) {
    throw SceneError(where + "expected an integer from 0 to 10" +
                     (w.size() >= 2 ? ", got " + excerpt(w[1]) : std::string()));
  }
  return std::stoi(w[1]);
}

// The file name of a map_Kd line (its text after the keyword), past the options and their
// values: the rest of the line, or "" where the options take it all. `map`, where given, takes
// -bm's value and -imfchan's channel (r, g, b, m; others leave it -1).
std::string map_file_name(const std::string& line, std::size_t at, MtlMap* map = nullptr) {
  // Each option and the words of values it takes.
  static const std::pair<const char*, int> kOptions[] = {
      {"-blendu", 1},  {"-blendv", 1}, {"-clamp", 1},     {"-boost", 1}, {"-bm", 1},
      {"-o", 3},       {"-s", 3},      {"-t", 3},         {"-type", 1},  {"-texres", 1},
      {"-imfchan", 1}, {"-mm", 2},     {"-colorspace", 1}};
  const auto skip_blanks = [&] {
    while (at < line.size() && blank(line[at])) ++at;
  };
  const auto word_end = [&](std::size_t from) {
    while (from < line.size() && !blank(line[from])) ++from;
    return from;
  };
  for (;;) {
    skip_blanks();
    if (at >= line.size()) return "";
    const std::size_t end = word_end(at);
    const std::string word = line.substr(at, end - at);
    int values = -1;
    for (const auto& [option, count] : kOptions)
      if (word == option) values = count;
    if (values < 0 || end >= line.size()) return values < 0 ? line.substr(at) : "";
    at = end;
    for (int v = 0; v < values; ++v) {
      skip_blanks();
      const std::size_t value_end = word_end(at);
      const std::string value = line.substr(at, value_end - at);
      if (map && word == "-bm") {
        char* after = nullptr;
        const float bm = std::strtof(value.c_str(), &after);
        if (after != value.c_str() && *after == '\0' && std::isfinite(bm)) map->bm = bm;
      }
      if (map && word == "-imfchan") {
        static const char kChannels[] = {'r', 'g', 'b', 'm'};
        for (int c = 0; c < 4; ++c)
          if (value.size() == 1 && value[0] == kChannels[c]) map->channel = c;
      }
      at = value_end;
    }
  }
}

// Reads an MTL text line by line into its materials.
class MtlParser {
 public:
  explicit MtlParser(std::string path) : path_(std::move(path)) {}

  void read(std::size_t number, const std::string& line) {
    const std::vector<std::string> w = words(line);
    if (w.empty()) return;
    const std::string& key = w[0];
    const std::string where = path_ + ":" + std::to_string(number) + ": " + key + ": ";
    if (key == "newmtl" && w.size() > 1) {
      // The name is the rest of the line after "newmtl" and one blank.
      start(line.substr(line.find("newmtl") + 7));
    } else if (key == "Kd") {
      read_colour(w, where, current_.kd);
      has_kd_ = true;
    } else if (key == "Ks") {
      read_colour(w, where, current_.ks);
    } else if (key == "Ke") {
      current_.has_ke = read_colour(w, where, current_.ke) || current_.has_ke;
    } else if (key == "Pr") {
      current_.pr = read_scalar(w, where);
      current_.has_pr = true;
    } else if (key == "Pm") {
      current_.pm = read_scalar(w, where);
      current_.has_pm = true;
    } else if (key == "map_Pr" || key == "map_Pm" || key == "map_Ke" || key == "norm" ||
               key == "map_d" || key == "map_Bump" || key == "map_bump" || key == "bump") {
      MtlMap& map = key == "map_Pr"   ? current_.pr_map
                    : key == "map_Pm" ? current_.pm_map
                    : key == "map_Ke" ? current_.ke_map
                    : key == "norm"   ? current_.norm_map
                    : key == "map_d"  ? current_.d_map
                                      : current_.bump_map;
      map = MtlMap();
      map.line = number;
      map.file = map_file_name(line, line.find(key) + key.size(), &map);
    } else if (key == "Tf" || key == "Kt") {
      read_colour(w, where, current_.tf);
    } else if (key == "Ka") {
      glm::vec3 ambient;  // checked, not used
      read_colour(w, where, ambient);
    } else if (key == "Ni") {
      current_.ni = read_scalar(w, where);
    } else if (key == "Ns") {
      current_.ns = read_scalar(w, where);
    } else if (key == "d") {
      current_.d = read_scalar(w, where);
      has_d_ = true;
    } else if (key == "Tr") {
      const float tr = read_scalar(w, where);
      if (!has_d_) current_.d = 1.0f - tr;  // d wins, wherever it is
    } else if (key == "illum") {
      current_.illum = read_illum(w, where);
    } else if (key == "map_Kd") {
      current_.kd_map_line = number;
      const std::string name = map_file_name(line, line.find("map_Kd") + 6);
      if (!name.empty()) current_.kd_map = name;
    }
  }

  std::vector<MtlMaterial> finish() {
    add();
    return std::move(materials_);
  }

 private:
  // The material read so far joins the others, and a new one starts (lines before the first
  // newmtl belong to no named material: dropped).
  void start(std::string name) {
    if (!current_.name.empty()) add();
    current_ = MtlMaterial();
    current_.name = std::move(name);
    has_kd_ = has_d_ = false;
  }

  void add() {
    if (!has_kd_ && !current_.kd_map.empty()) current_.kd = glm::vec3(0.6f);
    // map_Ke scales Ke: without one, the map alone says what is emitted.
    if (!current_.has_ke && !current_.ke_map.file.empty()) current_.ke = glm::vec3(1.0f);
    materials_.push_back(current_);
  }

  std::string path_;
  std::vector<MtlMaterial> materials_;
  MtlMaterial current_;
  bool has_kd_ = false, has_d_ = false;
};

}  // namespace

Material material_from_mtl(const MtlMaterial& mtl) {
  Material m;
  m.name = mtl.name;
  if (mtl.pbr()) {
    m.type = MaterialType::pbr;
    m.color = glm::clamp(mtl.kd, 0.0f, 1.0f);
    m.roughness = mtl.pr;
    m.metallic = mtl.pm;
    m.ior = mtl.ni > 1.0f ? mtl.ni : 1.5f;
    m.emission = glm::max(mtl.ke, glm::vec3(0.0f));
    m.opacity = mtl.d;
    if (!mtl.d_map.file.empty()) {
      m.alpha_mode = AlphaMode::mask;
    } else if (mtl.d < 1.0f) {
      m.alpha_mode = AlphaMode::blend;
    }
    return m;
  }
  // Ke: the surface emits (both sides), and reflects by the rules below (the Cornell Box light
  // has Kd 0.78).
  m.emission = glm::max(mtl.ke, glm::vec3(0.0f));
  // d below 1 is glass, unless an alpha map says which parts are there.
  const bool glass = mtl.illum == 4 || mtl.illum == 6 || mtl.illum == 7 ||
                     (mtl.d < 1.0f && mtl.d_map.file.empty());
  const glm::vec3 ks = glm::clamp(mtl.ks, 0.0f, 1.0f);
  const glm::vec3 kd = glm::clamp(mtl.kd, 0.0f, 1.0f);
  const bool black_kd = !(kd.x > 0.0f || kd.y > 0.0f || kd.z > 0.0f);
  const bool black_ks = !(ks.x > 0.0f || ks.y > 0.0f || ks.z > 0.0f);
  if (mtl.illum == 3 || mtl.illum == 5) {
    m.type = MaterialType::specular;  // ray-traced reflection: a perfect mirror of colour Ks
    m.color = ks;
  } else if (glass) {
    m.type = MaterialType::refractive;
    const glm::vec3 tf = glm::clamp(mtl.tf, 0.0f, 1.0f);
    m.color = tf.x > 0.0f || tf.y > 0.0f || tf.z > 0.0f ? tf : glm::vec3(1.0f);
    m.ior = mtl.ni > 0.0f ? mtl.ni : 1.5f;
  } else if (!black_ks) {
    // A highlight: the Phong exponent Ns becomes a GGX width (alpha = sqrt(2 / (Ns + 2)), the
    // Beckmann match; ROUGHNESS = sqrt(alpha)). Alone, a rough conductor of colour Ks; over a Kd,
    // a plastic (a clear coat of index Ni, 1.5 where Ni is not above 1, over the Kd base).
    m.roughness = std::sqrt(std::sqrt(2.0f / (std::max(mtl.ns, 0.0f) + 2.0f)));
    m.type = black_kd ? MaterialType::specular : MaterialType::plastic;
    m.color = black_kd ? ks : kd;
    if (!black_kd) m.ior = mtl.ni > 1.0f ? mtl.ni : 1.5f;
  } else {
    m.type = MaterialType::diffuse;
    m.color = kd;
  }
  // An alpha map cuts out what it says (leaves, fences), whatever the type but glass.
  if (!mtl.d_map.file.empty() && m.type != MaterialType::refractive) {
    m.opacity = mtl.d;
    m.alpha_mode = AlphaMode::mask;
  }
  return m;
}

std::vector<MtlMaterial> parse_mtl(const std::string& text, const std::string& path) {
  refuse_utf16(text, path);
  MtlParser parser(path);
  for_each_line(text, [&](std::size_t number, std::size_t, std::string line) {
    // Trailing blanks are not part of a value (a map_Kd file name ends before them).
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
    parser.read(number, line);
  });
  return parser.finish();
}

void check_mtl_values(const std::string& text, const std::string& path) {
  parse_mtl(text, path);
}

}  // namespace raystream
