#include "materials/bsdf.h"

#include "scene/scene.h"

namespace raystream {

MaterialData make_material_data(const Material& material) {
  MaterialData m;
  m.color = material.color;
  m.emittance = material.emittance;
  m.ior = material.ior;
  m.alpha = material.type == MaterialType::specular ? ggx_alpha(material.roughness) : 0.0f;
  m.type = static_cast<std::int32_t>(material.type);
  return m;
}

}  // namespace raystream
