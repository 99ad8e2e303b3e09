#include "materials/bsdf.h"

namespace raystream {

MaterialData make_material_data(const Material& material) {
  MaterialData m;
  m.color = material.color;
  m.emittance = material.emittance;
  m.ior = material.ior;
  m.type = static_cast<std::int32_t>(material.type);
  return m;
}

}  // namespace raystream
