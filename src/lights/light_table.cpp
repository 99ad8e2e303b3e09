#include "lights/light_table.h"

#include <algorithm>
#include <cmath>

#include "primitives/cpu/cpu_backend.h"

namespace raystream {

namespace {

// Adds `light` with its shape (of kind K) to the table, with the power its pick follows; -1 when
// it has none (a primitive of no area is no light).
template <class K>
int add_light(LightTable& table, std::vector<double>& power, std::vector<K>& shapes, const K& shape,
              Light light, const glm::vec3& texture_mean = glm::vec3(1.0f)) {
  Light powered = light;
  powered.emission *= texture_mean;
  const double p = shape.power(powered);
  if (!(p > 0.0)) return -1;
  light.kind = static_cast<std::int32_t>(K::kKind);
  light.index = static_cast<std::int32_t>(shapes.size());
  shapes.push_back(shape);
  table.lights.push_back(light);
  power.push_back(p);
  return static_cast<int>(table.lights.size()) - 1;
}

// The mean of a triangle's emission texture: the texture read at 36 points spread evenly over
// the triangle (the upright cells of an 8 x 8 barycentric grid, at their centroids: the pick
// only needs a fair estimate, the light samples read the texture where they land).
glm::vec3 emission_texture_mean(const MaterialTextures& textures, const MaterialData& m,
                                const TriangleShading& s, const TriangleDetail* detail) {
  if (m.emission_texture < 0 || textures.views == nullptr) return glm::vec3(1.0f);
  constexpr int kCells = 8;
  glm::dvec3 sum(0.0);
  int count = 0;
  for (int i = 0; i < kCells; ++i) {
    for (int j = 0; j < kCells - i; ++j) {
      // Cells of the grid u = i / kCells, v = j / kCells: the upright ones' centroids.
      const float u = (float(i) + 1.0f / 3.0f) / kCells, v = (float(j) + 1.0f / 3.0f) / kCells;
      const float w = 1.0f - u - v;
      TexCoords tc;
      tc.uv0 = w * s.uv0 + u * s.uv1 + v * s.uv2;
      tc.uv1 = detail ? w * detail->uv0 + u * detail->uv1 + v * detail->uv2 : tc.uv0;
      tc.lod = -100.0f;
      sum += glm::dvec3(glm::vec3(read_binding(textures, m.emission_texture, tc)));
      ++count;
    }
  }
  return glm::vec3(sum / double(count));
}

// The emissive triangles' lights, in the scene's order whatever order the triangles are stored
// in, so the light picks (and with them the image) do not depend on the BVH; lo and hi grow to
// the triangles' bounds.
void add_triangle_lights(SceneAcceleration& acc, const std::vector<MaterialData>& materials,
                         const MaterialTextures& textures, LightTable& table,
                         std::vector<double>& power, glm::vec3& lo, glm::vec3& hi) {
  const bool reordered = !acc.triangle_slot.empty();
  const auto slot = [&](std::size_t k) {
    return reordered ? static_cast<std::size_t>(acc.triangle_slot[k]) : k;
  };
  // The scene's bounds and which runs of triangles hold an emitter, in parallel (OpenMP); then
  // the lights of those runs in order. (The bounds are minima and maxima: any order gives them.)
  constexpr std::size_t kRun = 4096;
  const long long runs = static_cast<long long>((acc.triangles.size() + kRun - 1) / kRun);
  std::vector<glm::vec3> run_lo(static_cast<std::size_t>(runs), lo);
  std::vector<glm::vec3> run_hi(static_cast<std::size_t>(runs), hi);
  std::vector<unsigned char> run_emits(static_cast<std::size_t>(runs));
#pragma omp parallel for schedule(static) if (runs > 4)
  for (long long r = 0; r < runs; ++r) {
    const std::size_t run = static_cast<std::size_t>(r);
    const std::size_t end = std::min(acc.triangles.size(), (run + 1) * kRun);
    glm::vec3 a = lo, b = hi;
    bool emits = false;
    for (std::size_t k = run * kRun; k < end; ++k) {
      const TriangleGeometry& g = acc.triangles[slot(k)];
      a = glm::min(a, glm::min(g.v0, glm::min(g.v0 + g.e1, g.v0 + g.e2)));
      b = glm::max(b, glm::max(g.v0, glm::max(g.v0 + g.e1, g.v0 + g.e2)));
      const int material = acc.shading[slot(k)].material;
      emits = emits || is_emissive(materials[static_cast<std::size_t>(material)]);
    }
    run_lo[run] = a;
    run_hi[run] = b;
    run_emits[run] = emits;
  }
  for (std::size_t run = 0; run < run_emits.size(); ++run) {
    lo = glm::min(lo, run_lo[run]);
    hi = glm::max(hi, run_hi[run]);
    if (!run_emits[run]) continue;
    const std::size_t end = std::min(acc.triangles.size(), (run + 1) * kRun);
    for (std::size_t k = run * kRun; k < end; ++k) {
      const std::size_t t = slot(k);
      const TriangleGeometry& g = acc.triangles[t];
      TriangleShading& s = acc.shading[t];
      const MaterialData& m = materials[static_cast<std::size_t>(s.material)];
      if (!is_emissive(m)) continue;
      TriangleLight shape;
      shape.p = g.v0;
      shape.e1 = g.e1;
      shape.e2 = g.e2;
      shape.area = 0.5f * glm::length(glm::cross(g.e1, g.e2));
      Light light;
      light.emission = m.emission;
      light.two_sided = m.two_sided;
      light.primitive = static_cast<std::int32_t>(t);
      const TriangleDetail* detail =
          s.detail >= 0 ? &acc.details[static_cast<std::size_t>(s.detail)] : nullptr;
      const int k_light = add_light(table, power, table.triangles, shape, light,
                                    emission_texture_mean(textures, m, s, detail));
      if (k_light >= 0) s.light = k_light;
      table.textured = table.textured || (k_light >= 0 && m.emission_texture >= 0);
    }
  }
}

}  // namespace

LightTable build_light_table(const Scene& scene, SceneAcceleration& acc,
                             const std::vector<MaterialData>& materials,
                             float environment_mean_luminance,
                             const MaterialTextures& textures) {
  LightTable table;
  // One infinite power would make every pick NaN.
  std::vector<double> power;
  glm::vec3 lo(1e30f), hi(-1e30f);
  add_triangle_lights(acc, materials, textures, table, power, lo, hi);
  for (std::size_t k = 0; k < acc.objects.size(); ++k) {
    const Object& object = scene.objects[k];
    glm::vec3 olo, ohi;
    object_world_bounds(object, olo, ohi);
    lo = glm::min(lo, olo);
    hi = glm::max(hi, ohi);
    SceneObject& o = acc.objects[k];
    const MaterialData& m = materials[static_cast<std::size_t>(o.material)];
    if (!is_emissive(m) || m.emission_texture >= 0) continue;
    Light light;
    light.emission = m.emission;
    light.two_sided = m.two_sided;
    light.primitive = object_reference(static_cast<int>(k));
    const glm::mat4 to_world = object_to_world(object);
    const bool uniform = object.scale.x == object.scale.y && object.scale.y == object.scale.z;
    int k_light;
    // A sphere of uniform scale is a sphere light (sampled in its cone of directions).
    if (object.shape == ShapeType::sphere && uniform) {
      SphereLight sphere;
      sphere.centre = glm::vec3(to_world * glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
      sphere.radius = 0.5f * std::fabs(object.scale.x);
      sphere.area = 4.0f * kPi * sphere.radius * sphere.radius;
      k_light = add_light(table, power, table.spheres, sphere, light);
    } else {
      ObjectLight shaped;
      shaped.shape = static_cast<std::int32_t>(object.shape);
      shaped.to_world = to_world;
      shaped.to_object = glm::inverse(to_world);
      const glm::mat3 linear(to_world);
      shaped.normal_to_world = glm::transpose(glm::inverse(linear));
      shaped.det = std::fabs(glm::determinant(linear));
      k_light = add_light(table, power, table.objects, shaped, light);
    }
    if (k_light >= 0) o.light = k_light;
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

LightsView host_lights_view(const LightTable& table) {
  LightsView v;
  v.lights = table.lights.data();
  v.cdf = table.cdf.data();
  v.count = static_cast<int>(table.lights.size());
  v.environment = table.environment;
  v.textured = table.textured ? 1 : 0;
#define RAYSTREAM_LIGHT_ARRAY(type, kind, array) v.array = table.array.data();
  RAYSTREAM_LIGHTS(RAYSTREAM_LIGHT_ARRAY)
#undef RAYSTREAM_LIGHT_ARRAY
  return v;
}

}  // namespace raystream
