// Wavefront MTL materials: read from an MTL library's text with their values checked, and mapped
// onto the renderer's materials.
#pragma once

#include <cstddef>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace raystream {

// The values of an MTL material that the mapping reads; a material whose lines do not set a value
// has the one given here.
struct MtlMaterial {
  std::string name;
  glm::vec3 kd{0.0f}, ks{0.0f}, ke{0.0f}, tf{0.0f};
  float ni = 1.0f;  // index of refraction
  float ns = 1.0f;  // Phong exponent
  float d = 1.0f;   // dissolve: 1 opaque
  int illum = 0;
  std::string kd_map;  // map_Kd: the diffuse texture's file name as written (options dropped)
  std::size_t kd_map_line = 0;  // the line of the material's last map_Kd (0: none), named or not
};

// Ke -> emission (two-sided; the surface also reflects by the rest); illum 3 or 5 -> a smooth
// mirror (specular, RGB = Ks); illum 4, 6 or 7, or d < 1 -> smooth glass (refractive, IOR = Ni,
// RGB = Tf, white where Tf is black); Kd black and Ks not -> a rough conductor (RGB = Ks,
// ROUGHNESS from Ns); otherwise diffuse (RGB = Kd). Checked in that order.
Material material_from_mtl(const MtlMaterial& mtl);

// The materials of an MTL library's text (`path` names it in messages), in one pass, in the
// file's order: each "newmtl NAME" starts one (NAME the rest of the line); lines before the first
// belong to an unnamed one, kept only where the file has no newmtl line. Kd, Ks, Ke, Tf (or Kt),
// Ni, Ns, d, Tr (d = 1 - Tr, where the material has no d line), illum and map_Kd are read (a
// colour of one number is grey, "xyz" before the numbers is read past, "spectral" leaves the
// colour as it was; map_Kd's options, -s, -o, -t, -bm, -boost, -mm, -clamp, -blendu, -blendv,
// -texres, -imfchan, -type and -colorspace with their values, are read past: the rest of the line
// is the file name), every other line is ignored. A map_Kd naming a file on a material without Kd
// makes Kd 0.6. Every value is checked first (check_mtl_values). Throws SceneError naming `path`,
// the line and the field.
std::vector<MtlMaterial> parse_mtl(const std::string& text, const std::string& path);

// The checks of the JSON loader applied to an MTL file's values: every number of Ka, Kd, Ks, Ke,
// Tf, Kt, Ni, Ns, d and Tr is finite and within the float range; Kd, Ks, Ke, Tf and Kt are
// non-negative, Ni too; d and Tr lie in [0, 1]; illum is an integer from 0 to 10. Throws
// SceneError naming `path`, the line and the field.
void check_mtl_values(const std::string& text, const std::string& path);

}  // namespace raystream
