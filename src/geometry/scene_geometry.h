// Everything a ray can hit: analytic objects (spheres, cubes), triangles, and the BVH over both.
// closest_hit and any_hit are __host__ __device__: the GPU kernels and the CPU executor run this
// same code. Without a BVH (node_count == 0) they test every primitive (brute force).
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "geometry/bvh.h"
#include "geometry/ray.h"
#include "geometry/scene_object.h"
#include "geometry/triangle.h"

namespace raystream {

struct SceneGeometry {
  const SceneObject* objects = nullptr;
  int object_count = 0;
  const TriangleGeometry* triangles = nullptr;
  const TriangleShading* triangle_shading = nullptr;
  const TriangleDetail* triangle_details = nullptr;  // TriangleShading::detail indexes this
  int triangle_count = 0;
  const BvhNode* nodes = nullptr;  // node 0 is the root
  int node_count = 0;              // 0: no BVH, brute force
  // Leaf ranges index this array: a value r >= 0 is triangle r, a value r < 0 is object ~r.
  // Triangles are stored in leaf order, so without objects primitives[k] == k and traversal
  // does not read it (build_scene_acceleration keeps that order).
  const std::int32_t* primitives = nullptr;
  // Whether closest_hit gives an object's hit its texture coordinates (a scene without textures
  // needs none; a triangle's cost only their interpolation).
  std::int32_t object_uvs = 1;
};

// Primitive reference of object k in SceneGeometry::primitives.
RAYSTREAM_HD inline std::int32_t object_reference(int k) {
  return ~static_cast<std::int32_t>(k);
}

// A primitive reference that names no primitive (an environment light's).
inline constexpr std::int32_t kNoPrimitive = INT32_MIN;

// What a traversal asks of a candidate hit before accepting it: the default accepts every one;
// the integrator's alpha test (integrator/path/alpha_test.h) hides the parts of surfaces that
// their materials' opacity cuts away. Called with the primitive reference, the barycentrics of a
// triangle's hit and the ray.
struct AcceptAll {
  RAYSTREAM_HD bool operator()(std::int32_t, float, float, const Ray&) const { return true; }
};

namespace detail {

// The closest hit found so far: its distance and primitive (a triangle's with barycentrics).
struct HitSearch {
  float t_best = kNoHit;
  std::int32_t primitive = 0;  // the reference of the best hit (when t_best < kNoHit)
  float u = 0.0f, v = 0.0f;
  std::int32_t skip = kNoPrimitive;  // a primitive the search passes over
};

// Tests one primitive against the ray, narrowing the search. Returns true on a closer hit (that
// the filter accepts).
template <class Filter = AcceptAll>
RAYSTREAM_HD inline bool test_primitive(const SceneGeometry& g, std::int32_t ref, const Ray& ray,
                                        float t_min, HitSearch& s, const Filter& accept = {}) {
  if (ref == s.skip) return false;
  if (ref >= 0) {
    float u = 0.0f, v = 0.0f;
    const float t = intersect_triangle(load_triangle(g.triangles, ref), ray.origin, ray.direction,
                                       t_min, s.t_best, u, v);
    if (t < s.t_best && accept(ref, u, v, ray)) {
      s.t_best = t;
      s.primitive = ref;
      s.u = u;
      s.v = v;
      return true;
    }
    return false;
  }
  const Hit hit = intersect_object_surface(g.objects[~ref], ray, t_min);
  if (hit.t < s.t_best && accept(ref, 0.0f, 0.0f, ray)) {
    s.t_best = hit.t;
    s.primitive = ref;
    return true;
  }
  return false;
}

// Walks the BVH (or every primitive without one). With `any`, stops at the first hit.
template <class Filter = AcceptAll>
RAYSTREAM_HD inline void search(const SceneGeometry& g, const Ray& ray, float t_min, bool any,
                                HitSearch& s, const Filter& accept = {}) {
  if (g.node_count == 0) {
    for (int k = 0; k < g.triangle_count; ++k)
      if (test_primitive(g, k, ray, t_min, s, accept) && any) return;
    for (int k = 0; k < g.object_count; ++k)
      if (test_primitive(g, object_reference(k), ray, t_min, s, accept) && any) return;
    return;
  }
  const glm::vec3 inv_d = reciprocal_direction(ray.direction);
  BvhNode n = load_bvh_node(g.nodes, 0);
  if (bvh_box_entry(n, ray.origin, inv_d, t_min, s.t_best) >= kNoHit) return;
  // Nodes waiting to be visited, with where the ray enters their boxes: a node whose entry lies
  // beyond the closest hit found since it was pushed is dropped when popped.
  int stack_node[kBvhStackSize];
  float stack_entry[kBvhStackSize];
  int top = 0;
  int node = 0;
  // Triangles follow the leaves' order, so without objects the reference of leaf slot k is k.
  const bool triangles_only = g.object_count == 0;
  while (true) {
    if (n.count > 0) {
      for (int k = n.offset; k < n.offset + n.count; ++k) {
        const std::int32_t ref = triangles_only ? k : g.primitives[k];
        if (test_primitive(g, ref, ray, t_min, s, accept) && any) return;
      }
    } else {
      // Both children's boxes; the child visited next is already loaded (no second read).
      const int first = node + 1;
      const int second = n.offset;
      const BvhNode a = load_bvh_node(g.nodes, first);
      const BvhNode b = load_bvh_node(g.nodes, second);
      const float t_first = bvh_box_entry(a, ray.origin, inv_d, t_min, s.t_best);
      const float t_second = bvh_box_entry(b, ray.origin, inv_d, t_min, s.t_best);
      const bool hit_first = t_first < kNoHit;
      const bool hit_second = t_second < kNoHit;
      if (hit_first && hit_second) {
        // Nearer child first; the other waits on the stack (the builder bounds the depth, so the
        // stack cannot overflow; the check keeps a corrupt tree from writing past it).
        const bool first_nearer = t_first <= t_second;
        if (top < kBvhStackSize) {
          stack_node[top] = first_nearer ? second : first;
          stack_entry[top] = first_nearer ? t_second : t_first;
          ++top;
        }
        node = first_nearer ? first : second;
        n = first_nearer ? a : b;
        continue;
      }
      if (hit_first || hit_second) {
        node = hit_first ? first : second;
        n = hit_first ? a : b;
        continue;
      }
    }
    // Next: the most recently pushed node the ray can still reach before its closest hit.
    do {
      if (top == 0) return;
      --top;
    } while (!(stack_entry[top] <= s.t_best * 1.00000024f));  // the box test's slack
    node = stack_node[top];
    n = load_bvh_node(g.nodes, node);
  }
}

}  // namespace detail

// The closest hit with t > t_min over all primitives (t == kNoHit: none).
template <class Filter = AcceptAll>
RAYSTREAM_HD inline HitRecord nearest_hit(const SceneGeometry& g, const Ray& ray,
                                          float t_min = kMinHitDistance,
                                          const Filter& accept = {}) {
  detail::HitSearch s;
  detail::search(g, ray, t_min, false, s, accept);
  HitRecord r;
  r.t = s.t_best;
  r.primitive = s.primitive;
  r.barycentrics = glm::vec2(s.u, s.v);
  return r;
}

// The material of a hit's primitive (the record must hold a hit).
RAYSTREAM_HD inline int material_at(const SceneGeometry& g, const HitRecord& r) {
  return r.primitive >= 0 ? g.triangle_shading[r.primitive].material
                          : g.objects[~r.primitive].material;
}

// The Hit of a record the ray's traversal found (a Hit with t == kNoHit for a miss): a
// triangle's interpolated vertex normal (see triangle_hit_normal), its material and its corners'
// uvs interpolated; an object's normal at the point, material and (with object_uvs) uvs.
RAYSTREAM_HD inline Hit surface_at(const SceneGeometry& g, const Ray& ray, const HitRecord& r) {
  if (!r.hit()) return Hit{};
  if (r.primitive >= 0) {
    const TriangleShading shading = g.triangle_shading[r.primitive];
    const float u = r.barycentrics.x, v = r.barycentrics.y;
    Hit hit;
    hit.t = r.t;
    const TriangleGeometry tri = load_triangle(g.triangles, r.primitive);
    hit.normal = triangle_hit_normal(tri, shading, ray.direction, u, v);
    hit.geometric_normal = triangle_face_normal(tri);
    hit.material = shading.material;
    hit.light = shading.light;
    hit.uv = (1.0f - u - v) * shading.uv0 + u * shading.uv1 + v * shading.uv2;
    return hit;
  }
  const SceneObject& object = g.objects[~r.primitive];
  Hit hit = object_surface(object, ray, r.t);
  if (g.object_uvs) hit.uv = object_uv(object, ray, r.t);
  hit.geometric_normal = hit.normal;
  return hit;
}

// What a hit's textures need beyond surface_at: a triangle's second texture coordinates and
// tangent (where it has details), and the ratio of its uv area to its world area (for the level
// of detail of texture lookups). Objects have neither. Read only for textured materials.
struct TextureDetails {
  glm::vec2 uv1{0.0f};      // the second set (the first where the triangle has no details)
  glm::vec4 tangent{0.0f};  // interpolated tangent and handedness (0: none)
  float texel_ratio = 0.0f;  // log2 of sqrt(uv area / world area), 0 for objects
};

RAYSTREAM_HD inline TextureDetails texture_details(const SceneGeometry& g, const HitRecord& r,
                                                   const glm::vec2& uv) {
  TextureDetails t;
  t.uv1 = uv;
  if (!r.hit() || r.primitive < 0) return t;
  const TriangleShading& shading = g.triangle_shading[r.primitive];
  const TriangleGeometry tri = load_triangle(g.triangles, r.primitive);
  const glm::vec2 du1 = shading.uv1 - shading.uv0, du2 = shading.uv2 - shading.uv0;
  const float uv_area = fabsf(du1.x * du2.y - du1.y * du2.x);
  const float world_area = glm::length(glm::cross(tri.e1, tri.e2));
  t.texel_ratio = uv_area > 0.0f && world_area > 0.0f ? 0.5f * log2f(uv_area / world_area) : 0.0f;
  if (shading.detail < 0 || g.triangle_details == nullptr) return t;
  const TriangleDetail d = g.triangle_details[shading.detail];
  const float u = r.barycentrics.x, v = r.barycentrics.y, w = 1.0f - u - v;
  t.uv1 = w * d.uv0 + u * d.uv1 + v * d.uv2;
  t.tangent = glm::vec4(w * glm::vec3(d.t0) + u * glm::vec3(d.t1) + v * glm::vec3(d.t2),
                        d.t0.w < 0.0f ? -1.0f : 1.0f);
  return t;
}

// Closest hit with t > t_min over all primitives, or a Hit with t == kNoHit: nearest_hit, then
// surface_at.
RAYSTREAM_HD inline Hit closest_hit(const SceneGeometry& g, const Ray& ray,
                                    float t_min = kMinHitDistance) {
  return surface_at(g, ray, nearest_hit(g, ray, t_min));
}

// True when anything lies along the ray with t in (t_min, t_max) (for shadow rays).
template <class Filter = AcceptAll>
RAYSTREAM_HD inline bool any_hit(const SceneGeometry& g, const Ray& ray, float t_min, float t_max,
                                 const Filter& accept = {}) {
  detail::HitSearch s;
  s.t_best = t_max;
  detail::search(g, ray, t_min, true, s, accept);
  return s.t_best < t_max;
}

// Whether a shadow ray sees the light whose primitive is `light` (kNoPrimitive: the environment,
// seen when nothing at all lies along the ray). The ray is first intersected with the light's own
// primitive, by the same test a BSDF-sampled ray meets it with, and the light is seen when no
// other primitive lies closer than that hit. No margin: an occluder at any distance before the
// light counts, however close to the light, and the light never occludes itself. A ray that
// misses the light's primitive (by rounding, at its edge) does not see it, as a BSDF-sampled ray
// along it would not. Light samplers return no sample on a closed light's far side (the near side
// hides it), since this test cannot tell the two sides' hits apart.
template <class Filter = AcceptAll>
RAYSTREAM_HD inline bool sees_light(const SceneGeometry& g, const Ray& ray, std::int32_t light,
                                    const Filter& accept = {}) {
  detail::HitSearch s;
  if (light != kNoPrimitive && !detail::test_primitive(g, light, ray, kMinHitDistance, s, accept))
    return false;
  const float t_light = s.t_best;
  s.skip = light;
  detail::search(g, ray, kMinHitDistance, true, s, accept);
  return !(s.t_best < t_light);
}

}  // namespace raystream
