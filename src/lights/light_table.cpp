#include "lights/light_table.h"

#include <algorithm>
#include <cmath>

#include "primitives/cpu/cpu_backend.h"

namespace raystream {

namespace {

// World area of a transformed unit shape: exact for cubes (six faces by Nanson's formula), by
// quadrature over the unit sphere for spheres (an ellipsoid has no closed form).
float object_area(const Light& light) {
  if (light.shape == static_cast<int>(ShapeType::cube)) {
    float area = 0.0f;
    for (int axis = 0; axis < 3; ++axis) {
      glm::vec3 n(0.0f);
      n[axis] = 1.0f;
      area += 2.0f * light.area * glm::length(light.normal_to_world * n);
    }
    return area;
  }
  constexpr int kSteps = 64;
  double area = 0.0;
  for (int i = 0; i < kSteps; ++i) {
    for (int j = 0; j < 2 * kSteps; ++j) {
      const double theta = (i + 0.5) * M_PI / kSteps;
      const double phi = (j + 0.5) * M_PI / kSteps;
      const glm::vec3 n(static_cast<float>(std::sin(theta) * std::cos(phi)),
                        static_cast<float>(std::sin(theta) * std::sin(phi)),
                        static_cast<float>(std::cos(theta)));
      const double d_area = 0.25 * std::sin(theta) * (M_PI / kSteps) * (M_PI / kSteps);
      area += d_area * light.area * glm::length(light.normal_to_world * n);
    }
  }
  return static_cast<float>(area);
}

}  // namespace

LightTable build_light_table(const Scene& scene, SceneAcceleration& acc,
                             const std::vector<MaterialData>& materials,
                             float environment_mean_luminance) {
  LightTable table;
  // One infinite power would make every pick NaN.
  std::vector<double> power;
  auto add = [&](Light light, float area) {
    const double p = luminance(glm::dvec3(light.emission)) * double(area) * double(kPi) *
                     (light.two_sided ? 2.0 : 1.0);
    table.lights.push_back(light);
    power.push_back(std::max(p, 0.0));
    return static_cast<int>(table.lights.size()) - 1;
  };
  glm::vec3 lo(1e30f), hi(-1e30f);
  // Lights in the scene's order, whatever order the triangles are stored in, so the light picks
  // (and with them the image) do not depend on the BVH.
  const bool reordered = !acc.triangle_slot.empty();
  for (std::size_t k = 0; k < acc.triangles.size(); ++k) {
    const std::size_t t = reordered ? static_cast<std::size_t>(acc.triangle_slot[k]) : k;
    const TriangleGeometry& g = acc.triangles[t];
    lo = glm::min(lo, glm::min(g.v0, glm::min(g.v0 + g.e1, g.v0 + g.e2)));
    hi = glm::max(hi, glm::max(g.v0, glm::max(g.v0 + g.e1, g.v0 + g.e2)));
    TriangleShading& s = acc.shading[t];
    const MaterialData& m = materials[static_cast<std::size_t>(s.material)];
    if (!is_emissive(m)) continue;
    Light light;
    light.kind = static_cast<int>(LightKind::triangle);
    light.p = g.v0;
    light.e1 = g.e1;
    light.e2 = g.e2;
    light.area = 0.5f * glm::length(glm::cross(g.e1, g.e2));
    if (!(light.area > 0.0f)) continue;
    light.emission = m.emission;
    light.two_sided = m.two_sided;
    light.primitive = static_cast<std::int32_t>(t);
    s.light = add(light, light.area);
  }
  for (std::size_t k = 0; k < acc.objects.size(); ++k) {
    const Object& object = scene.objects[k];
    glm::vec3 olo, ohi;
    object_world_bounds(object, olo, ohi);
    lo = glm::min(lo, olo);
    hi = glm::max(hi, ohi);
    SceneObject& o = acc.objects[k];
    const MaterialData& m = materials[static_cast<std::size_t>(o.material)];
    if (!is_emissive(m)) continue;
    Light light;
    light.emission = m.emission;
    light.two_sided = m.two_sided;
    light.primitive = object_reference(static_cast<int>(k));
    const glm::mat4 to_world = object_to_world(object);
    const bool sphere = object.shape == ShapeType::sphere;
    const bool uniform = object.scale.x == object.scale.y && object.scale.y == object.scale.z;
    float area = 0.0f;
    if (sphere && uniform) {
      light.kind = static_cast<int>(LightKind::sphere);
      light.p = glm::vec3(to_world * glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      light.radius = 0.5f * std::fabs(object.scale.x);
      light.area = 4.0f * kPi * light.radius * light.radius;
      area = light.area;
    } else {
      light.kind = static_cast<int>(LightKind::object);
      light.shape = static_cast<int>(object.shape);
      light.to_world = to_world;
      light.to_object = glm::inverse(to_world);
      const glm::mat3 linear(to_world);
      light.normal_to_world = glm::transpose(glm::inverse(linear));
      light.area = std::fabs(glm::determinant(linear));
      area = object_area(light);
    }
    if (!(area > 0.0f) || !std::isfinite(area)) continue;
    o.light = add(light, area);
  }
  if (environment_mean_luminance > 0.0f) {
    const glm::vec3 extent = hi - lo;
    const float radius = acc.triangles.empty() && acc.objects.empty()
                             ? 1.0f
                             : std::max(0.5f * glm::length(extent), 1.0e-3f);
    Light light;
    light.kind = static_cast<int>(LightKind::environment);
    table.lights.push_back(light);
    power.push_back(double(kPi) * environment_mean_luminance * 4.0 * double(kPi) * radius * radius);
    table.environment = static_cast<int>(table.lights.size()) - 1;
  }
  // The CDF: an inclusive scan of the powers, normalized.
  const std::size_t n = power.size();
  table.cdf.assign(n + 1, 0.0f);
  if (n == 0) return table;
  std::vector<double> sums(n);
  prim::cpu::inclusive_scan(power.data(), sums.data(), n, 0.0);
  table.power = sums[n - 1];
  for (std::size_t k = 0; k < n; ++k) {
    const double pick = table.power > 0.0 ? power[k] / table.power : 1.0 / double(n);
    table.lights[k].pick = static_cast<float>(pick);
    table.cdf[k + 1] = table.power > 0.0 ? static_cast<float>(sums[k] / table.power)
                                         : static_cast<float>(double(k + 1) / double(n));
  }
  table.cdf[n] = 1.0f;
  return table;
}

}  // namespace raystream
