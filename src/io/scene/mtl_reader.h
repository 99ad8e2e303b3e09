// Wavefront MTL materials: their values checked, and mapped onto the renderer's materials.
#pragma once

#include <glm/glm.hpp>
#include <string>

#include "scene/scene.h"

namespace raystream {

// The values of an MTL material that the mapping reads.
struct MtlMaterial {
  std::string name;
  glm::vec3 kd{0.0f}, ks{0.0f}, ke{0.0f}, tf{0.0f};
  float ni = 1.0f;  // index of refraction
  float ns = 0.0f;  // Phong exponent
  float d = 1.0f;   // dissolve: 1 opaque
  int illum = 2;
  std::string kd_map;  // map_Kd: the diffuse texture's file name as written (options dropped)
};

// Ke -> emission (two-sided; the surface also reflects by the rest); illum 3 or 5 -> a smooth
// mirror (specular, RGB = Ks); illum 4, 6 or 7, or d < 1 -> smooth glass (refractive, IOR = Ni,
// RGB = Tf, white where Tf is black); Kd black and Ks not -> a rough conductor (RGB = Ks,
// ROUGHNESS from Ns); otherwise diffuse (RGB = Kd). Checked in that order.
Material material_from_mtl(const MtlMaterial& mtl);

// The checks of the JSON loader applied to an MTL file's values: every number of Ka, Kd, Ks, Ke,
// Tf, Ni, Ns, d and Tr is finite and within the float range; Kd, Ks, Ke and Tf are non-negative,
// Ni too; d and Tr lie in [0, 1]; illum is an integer from 0 to 10. Throws SceneError naming
// `path`, the line and the field.
void check_mtl_values(const std::string& text, const std::string& path);

}  // namespace raystream
