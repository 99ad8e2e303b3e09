#include "geometry/scene_acceleration.h"

#include <chrono>
#include <cmath>

#include "execution/host_pages.h"
#include "geometry/bvh_build.h"
#include "geometry/lbvh.h"

namespace raystream {
namespace {

TriangleGeometry triangle_geometry(const Triangle& t) {
  TriangleGeometry g;
  g.v0 = t.v[0];
  g.e1 = t.v[1] - t.v[0];
  g.e2 = t.v[2] - t.v[0];
  return g;
}

TriangleShading triangle_shading(const Triangle& t) {
  TriangleShading s;
  s.n0 = t.n[0];
  s.n1 = t.n[1];
  s.n2 = t.n[2];
  s.material = t.material;
  s.uv0 = t.uv[0];
  s.uv1 = t.uv[1];
  s.uv2 = t.uv[2];
  return s;
}

// Whether a material's triangles carry details: it reads a normal map or the second set of
// texture coordinates.
bool needs_details(const Material& m) {
  bool second_set = false;
  for (const TextureSlot* slot :
       {&m.texture, &m.metallic_texture, &m.roughness_texture, &m.specular_texture,
        &m.specular_color_texture, &m.transmission_texture, &m.clearcoat_texture,
        &m.clearcoat_roughness_texture, &m.emission_texture, &m.normal_texture,
        &m.opacity_texture})
    second_set = second_set || (slot->present() && slot->texcoord == 1);
  return m.normal_texture.present() || second_set;
}

// The details of the triangles whose materials need them, in the scene's order.
void add_triangle_details(const Scene& scene, SceneAcceleration& acc) {
  std::vector<char> needed(scene.materials.size());
  bool any = false;
  for (std::size_t k = 0; k < scene.materials.size(); ++k) {
    needed[k] = needs_details(scene.materials[k]);
    any = any || needed[k];
  }
  if (!any) return;
  for (std::size_t k = 0; k < scene.triangles.size(); ++k) {
    const Triangle& t = scene.triangles[k];
    if (t.material < 0 || std::size_t(t.material) >= needed.size() || !needed[std::size_t(t.material)])
      continue;
    TriangleDetail d;
    d.t0 = t.t[0];
    d.t1 = t.t[1];
    d.t2 = t.t[2];
    d.uv0 = t.uv1[0];
    d.uv1 = t.uv1[1];
    d.uv2 = t.uv1[2];
    const std::size_t slot = acc.triangle_slot.empty() ? k : std::size_t(acc.triangle_slot[k]);
    acc.shading[slot].detail = static_cast<std::int32_t>(acc.details.size());
    acc.details.push_back(d);
  }
}

}  // namespace

SceneGeometry SceneAcceleration::geometry() const {
  SceneGeometry g;
  g.objects = objects.data();
  g.object_count = static_cast<int>(objects.size());
  g.triangles = triangles.data();
  g.triangle_shading = shading.data();
  g.triangle_details = details.data();
  g.triangle_count = static_cast<int>(triangles.size());
  g.nodes = nodes.data();
  g.node_count = static_cast<int>(nodes.size());
  g.primitives = primitives.data();
  return g;
}

void object_world_bounds(const Object& object, glm::vec3& lo, glm::vec3& hi) {
  const glm::mat4 m = object_to_world(object);
  lo = glm::vec3(3.0e38f);
  hi = glm::vec3(-3.0e38f);
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec4 p((corner & 1) ? 0.5f : -0.5f, (corner & 2) ? 0.5f : -0.5f,
                      (corner & 4) ? 0.5f : -0.5f, 1.0f);
    const glm::vec3 w(m * p);
    lo = glm::min(lo, w);
    hi = glm::max(hi, w);
  }
}

void triangles_in_scene_order(const Scene& scene, std::vector<TriangleGeometry>& geometry,
                              std::vector<TriangleShading>& shading) {
  const long long count = static_cast<long long>(scene.triangles.size());
  // Their pages mapped on every core first: resize's zero-fill then takes no page faults.
  reserve_populated(geometry, scene.triangles.size());
  reserve_populated(shading, scene.triangles.size());
  geometry.resize(scene.triangles.size());
  shading.resize(scene.triangles.size());
#pragma omp parallel for schedule(static) if (count > 16384)
  for (long long k = 0; k < count; ++k) {
    geometry[k] = triangle_geometry(scene.triangles[k]);
    shading[k] = triangle_shading(scene.triangles[k]);
  }
}

SceneAcceleration build_scene_acceleration(const Scene& scene, bool use_bvh) {
  SceneAcceleration acc;
  acc.objects.reserve(scene.objects.size());
  for (const Object& o : scene.objects) acc.objects.push_back(make_scene_object(o));
  const std::size_t triangle_count = scene.triangles.size();
  if (!use_bvh) {
    triangles_in_scene_order(scene, acc.triangles, acc.shading);
    add_triangle_details(scene, acc);
    return acc;
  }
  acc.triangles.reserve(triangle_count);
  acc.shading.reserve(triangle_count);

  const auto start = std::chrono::steady_clock::now();
  // Primitive p < triangle_count is triangle p; the others are objects in order.
  std::vector<Aabb> bounds(triangle_count + scene.objects.size());
  for (std::size_t k = 0; k < scene.objects.size(); ++k) {
    object_world_bounds(scene.objects[k], bounds[triangle_count + k].lo,
                        bounds[triangle_count + k].hi);
  }
  // Padded (padded_box says why), as the LBVH pads them.
  const long long primitive_count = static_cast<long long>(bounds.size());
#pragma omp parallel for schedule(static) if (primitive_count > 16384)
  for (long long p = 0; p < primitive_count; ++p) {
    Aabb& b = bounds[static_cast<std::size_t>(p)];
    if (p < static_cast<long long>(triangle_count)) {
      const Triangle& t = scene.triangles[static_cast<std::size_t>(p)];
      b.grow(t.v[0]);
      b.grow(t.v[1]);
      b.grow(t.v[2]);
    }
    LbvhBox box;
    box.lo = b.lo;
    box.hi = b.hi;
    box = padded_box(box);
    b.lo = box.lo;
    b.hi = box.hi;
  }
  Bvh bvh = build_bvh(bounds);
  acc.nodes = std::move(bvh.nodes);
  acc.leaves = bvh.leaves;
  acc.depth = bvh.depth;
  acc.sah_cost = bvh.sah_cost;
  // Triangles in leaf order, so a leaf's triangles lie next to each other in memory.
  acc.primitives.resize(bvh.order.size());
  acc.triangle_slot.resize(triangle_count);
  for (std::size_t k = 0; k < bvh.order.size(); ++k) {
    const std::size_t p = static_cast<std::size_t>(bvh.order[k]);
    if (p < triangle_count) {
      acc.primitives[k] = static_cast<std::int32_t>(acc.triangles.size());
      acc.triangle_slot[p] = acc.primitives[k];
      acc.triangles.push_back(triangle_geometry(scene.triangles[p]));
      acc.shading.push_back(triangle_shading(scene.triangles[p]));
    } else {
      acc.primitives[k] = object_reference(static_cast<int>(p - triangle_count));
    }
  }
  add_triangle_details(scene, acc);
  acc.build_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return acc;
}

}  // namespace raystream
