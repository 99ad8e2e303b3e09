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

}  // namespace

Material material_from_mtl(const MtlMaterial& mtl) {
  Material m;
  m.name = mtl.name;
  // Ke: the surface emits (both sides), and reflects by the rules below (the Cornell Box light
  // has Kd 0.78).
  m.emission = glm::max(mtl.ke, glm::vec3(0.0f));
  const bool glass = mtl.illum == 4 || mtl.illum == 6 || mtl.illum == 7 || mtl.d < 1.0f;
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
  return m;
}

void check_mtl_values(const std::string& text, const std::string& path) {
  for_each_line(text, [&](std::size_t number, std::size_t, const std::string& line) {
    std::vector<std::string> w = words(line);
    if (w.empty()) return;
    const std::string& key = w[0];
    const std::string where = path + ":" + std::to_string(number) + ": " + key + ": ";
    const bool colour = key == "Ka" || key == "Kd" || key == "Ks" || key == "Ke" || key == "Tf";
    if (colour) {
      std::size_t first = 1;
      if (w.size() > 1 && w[1] == "spectral") return;  // a file name follows
      if (w.size() > 1 && w[1] == "xyz") first = 2;
      if (w.size() <= first) throw SceneError(where + "expected 1 or 3 numbers");
      for (std::size_t k = first; k < w.size() && k < first + 3; ++k) {
        const double value = mtl_number(w[k], where);
        if (value < 0 && key != "Ka") throw SceneError(where + "expected non-negative components");
      }
    } else if (key == "Ni" || key == "Ns" || key == "d" || key == "Tr") {
      if (w.size() < 2) throw SceneError(where + "expected a number");
      const bool fraction = key == "d" || key == "Tr";
      // "d -halo 0.5": the option comes first.
      const std::string& word = key == "d" && w[1] == "-halo" && w.size() > 2 ? w[2] : w[1];
      const double value = mtl_number(word, where);
      if (fraction && !(value >= 0 && value <= 1)) {
        throw SceneError(where + "expected a value in [0, 1], got " + excerpt(word));
      }
      if (!fraction && value < 0) {
        throw SceneError(where + "expected a non-negative number, got " + excerpt(word));
      }
    } else if (key == "illum") {
      const bool integer =
          w.size() >= 2 && !w[1].empty() && w[1].size() <= 2 &&
          std::all_of(w[1].begin(), w[1].end(), [](unsigned char c) { return std::isdigit(c); });
      if (!integer || std::stoi(w[1]) > 10) {
        throw SceneError(where + "expected an integer from 0 to 10" +
                         (w.size() >= 2 ? ", got " + excerpt(w[1]) : std::string()));
      }
    }
  });
}

}  // namespace raystream
