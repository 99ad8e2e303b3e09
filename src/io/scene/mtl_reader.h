// Wavefront MTL materials: read from an MTL library's text with their values checked, and mapped
// onto the renderer's materials.
#pragma once

#include <cstddef>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace raystream {

// An image an MTL material names beyond map_Kd (its PBR extension's maps, map_d, bump maps).
struct MtlMap {
  std::string file;      // as written, options dropped; empty: none
  std::size_t line = 0;  // its line (0: none)
  int channel = -1;      // -imfchan r, g, b or m (A): 0 to 3; -1: not given
  float bm = 1.0f;       // -bm: a bump map's height scale
};

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
  // The PBR extension (Pr, Pm and their maps), map_Ke, norm (a tangent-space normal map),
  // map_d, and map_Bump or bump (a height map).
  float pr = 1.0f, pm = 0.0f;
  bool has_pr = false, has_pm = false, has_ke = false;
  MtlMap pr_map, pm_map, ke_map, norm_map, d_map, bump_map;
  // Whether the material is the metallic-roughness model's (Pr, Pm or their maps).
  bool pbr() const { return has_pr || has_pm || !pr_map.file.empty() || !pm_map.file.empty(); }
  // Whether it has a normal map (norm, or a bump map turned into one).
  bool normal_mapped() const { return !norm_map.file.empty() || !bump_map.file.empty(); }
};

// Pr, Pm, map_Pr or map_Pm -> Pbr (RGB = Kd, ROUGHNESS = Pr (1 by default), METALLIC = Pm
// (0), IOR = Ni where above 1; d < 1 blends: OPACITY = d, ALPHA_MODE BLEND), checked first. Then
// Ke -> emission (two-sided; the surface also reflects by the rest); illum 3 or 5 -> a smooth
// mirror (specular, RGB = Ks); illum 4, 6 or 7, or d < 1 -> smooth glass (refractive, IOR = Ni,
// RGB = Tf, white where Tf is black); Kd black and Ks not -> a rough conductor (RGB = Ks,
// ROUGHNESS from Ns); otherwise diffuse (RGB = Kd). Checked in that order. A map_d (any type but
// glass) cuts: OPACITY = d, ALPHA_MODE MASK, ALPHA_CUTOFF 0.5. The maps' images are read by the
// scene loader (scene_context.h, add_mtl_materials).
Material material_from_mtl(const MtlMaterial& mtl);

// The materials of an MTL library's text (`path` names it in messages), in one pass, in the
// file's order: each "newmtl NAME" starts one (NAME the rest of the line); lines before the first
// belong to an unnamed one, kept only where the file has no newmtl line. Kd, Ks, Ke, Tf (or Kt),
// Ni, Ns, d, Tr (d = 1 - Tr, where the material has no d line), illum, map_Kd, Pr, Pm (in
// [0, 1]), map_Pr, map_Pm, map_Ke, norm, map_d, map_Bump and bump (-bm its scale, -imfchan its
// channel) are read (a
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
