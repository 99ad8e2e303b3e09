// Ray-triangle intersection, the BVH builder's invariants, and BVH traversal against brute force
// (closest hit and any hit) over the Stanford bunny with spheres and cubes among the triangles.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <vector>

#include "geometry/bvh_build.h"
#include "geometry/scene_acceleration.h"
#include "geometry/scene_geometry.h"
#include "geometry/triangle.h"
#include "io/scene/obj_loader.h"
#include "lbvh_checks.h"

namespace raystream {
namespace {

TriangleGeometry make_triangle(glm::vec3 a, glm::vec3 b, glm::vec3 c) {
  return TriangleGeometry{a, b - a, c - a};
}

float hit_t(const TriangleGeometry& tri, glm::vec3 o, glm::vec3 d, float t_min = 0.0f,
            float t_max = kNoHit) {
  float u = -1.0f, v = -1.0f;
  return intersect_triangle(tri, o, d, t_min, t_max, u, v);
}

const TriangleGeometry kUnit = make_triangle({0, 0, 0}, {1, 0, 0}, {0, 1, 0});

TEST(RayTriangle, InteriorHitWithBarycentrics) {
  float u = -1.0f, v = -1.0f;
  const float t = intersect_triangle(kUnit, {0.25f, 0.5f, 2.0f}, {0, 0, -1}, 0.0f, kNoHit, u, v);
  EXPECT_FLOAT_EQ(t, 2.0f);
  EXPECT_FLOAT_EQ(u, 0.25f);
  EXPECT_FLOAT_EQ(v, 0.5f);
  // A direction that is not unit length keeps t in its units.
  EXPECT_FLOAT_EQ(hit_t(kUnit, {0.25f, 0.25f, 2.0f}, {0, 0, -4}), 0.5f);
}

TEST(RayTriangle, BackFacesHit) {
  EXPECT_FLOAT_EQ(hit_t(kUnit, {0.2f, 0.2f, -3.0f}, {0, 0, 1}), 3.0f);
}

TEST(RayTriangle, EdgesAndVerticesHit) {
  const glm::vec3 points[] = {{0.5f, 0.0f, 0.0f}, {0.0f, 0.5f, 0.0f}, {0.5f, 0.5f, 0.0f},
                              {0.0f, 0.0f, 0.0f}, {1.0f, 0.0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
  for (const glm::vec3& p : points) {
    EXPECT_FLOAT_EQ(hit_t(kUnit, p + glm::vec3(0, 0, 1), {0, 0, -1}), 1.0f) << p.x << " " << p.y;
    // Oblique rays too.
    EXPECT_NEAR(hit_t(kUnit, p + glm::vec3(0.3f, -0.2f, 1.0f), {-0.3f, 0.2f, -1.0f}), 1.0f, 1e-5f)
        << p.x << " " << p.y;
  }
}

TEST(RayTriangle, JustOutsideMisses) {
  EXPECT_EQ(hit_t(kUnit, {-1e-3f, 0.5f, 1.0f}, {0, 0, -1}), kNoHit);
  EXPECT_EQ(hit_t(kUnit, {0.5f, -1e-3f, 1.0f}, {0, 0, -1}), kNoHit);
  EXPECT_EQ(hit_t(kUnit, {0.5f + 1e-3f, 0.5f, 1.0f}, {0, 0, -1}), kNoHit);
  EXPECT_EQ(hit_t(kUnit, {1.0f + 1e-3f, 0.0f, 1.0f}, {0, 0, -1}), kNoHit);
}

TEST(RayTriangle, RangeOfT) {
  EXPECT_EQ(hit_t(kUnit, {0.2f, 0.2f, 1.0f}, {0, 0, 1}), kNoHit);               // behind the origin
  EXPECT_EQ(hit_t(kUnit, {0.2f, 0.2f, 1.0f}, {0, 0, -1}, 1.0f), kNoHit);        // t == t_min
  EXPECT_EQ(hit_t(kUnit, {0.2f, 0.2f, 1.0f}, {0, 0, -1}, 0.0f, 1.0f), kNoHit);  // t == t_max
  EXPECT_FLOAT_EQ(hit_t(kUnit, {0.2f, 0.2f, 1.0f}, {0, 0, -1}, 0.0f, 1.0001f), 1.0f);
}

TEST(RayTriangle, ParallelAndDegenerateMiss) {
  EXPECT_EQ(hit_t(kUnit, {-1.0f, 0.2f, 0.0f}, {1, 0, 0}), kNoHit);  // in the plane
  EXPECT_EQ(hit_t(kUnit, {-1.0f, 0.2f, 0.5f}, {1, 0, 0}), kNoHit);  // parallel above
  const TriangleGeometry point = make_triangle({0, 0, 0}, {0, 0, 0}, {0, 0, 0});
  const TriangleGeometry line = make_triangle({0, 0, 0}, {1, 0, 0}, {2, 0, 0});
  const TriangleGeometry nan = make_triangle({0, 0, 0}, {1, 0, 0}, {0, std::nanf(""), 0});
  const TriangleGeometry inf = make_triangle({0, 0, 0}, {INFINITY, 0, 0}, {0, 1, 0});
  for (const TriangleGeometry* t : {&point, &line, &nan, &inf}) {
    EXPECT_EQ(hit_t(*t, {0.0f, 0.0f, 1.0f}, {0, 0, -1}), kNoHit);
    EXPECT_EQ(hit_t(*t, {0.5f, 0.0f, 1.0f}, {0, 0, -1}), kNoHit);
    EXPECT_EQ(hit_t(*t, {0.1f, 0.1f, 1.0f}, {0, 0, -1}), kNoHit);
  }
}

// Rays through the shared edge of two triangles (a quad's diagonal) always hit one of them.
TEST(RayTriangle, SharedEdgeIsWatertight) {
  const glm::vec3 a(-0.3f, 0.1f, 0.2f), b(1.7f, -0.4f, 0.9f), c(1.1f, 1.3f, -0.5f),
      d(-0.6f, 1.2f, 0.3f);
  const TriangleGeometry t1 = make_triangle(a, b, c), t2 = make_triangle(a, c, d);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  int misses = 0;
  for (int k = 0; k < 20000; ++k) {
    const glm::vec3 on_edge = a + unit(rng) * (c - a);
    const glm::vec3 origin(unit(rng) * 4 - 2, unit(rng) * 4 - 2, 3.0f + unit(rng));
    const glm::vec3 dir = on_edge - origin;
    if (hit_t(t1, origin, dir) == kNoHit && hit_t(t2, origin, dir) == kNoHit) ++misses;
  }
  EXPECT_EQ(misses, 0);
}

TEST(TriangleNormal, InterpolatedAndKeptOnTheGeometricSide) {
  TriangleShading s;
  s.n0 = glm::vec3(0, 0, 1);
  s.n1 = glm::normalize(glm::vec3(1, 0, 1));
  s.n2 = glm::vec3(0, 0, 1);
  const glm::vec3 n = triangle_hit_normal(kUnit, s, {0, 0, -1}, 1.0f, 0.0f);
  EXPECT_NEAR(n.x, s.n1.x, 1e-6f);
  EXPECT_NEAR(glm::length(triangle_hit_normal(kUnit, s, {0, 0, -1}, 0.3f, 0.3f)), 1.0f, 1e-6f);
  // Vertex normals on the other side than the winding: turned to the geometric side.
  TriangleShading flipped;
  flipped.n0 = flipped.n1 = flipped.n2 = glm::vec3(0, 0, -1);
  EXPECT_EQ(triangle_hit_normal(kUnit, flipped, {0, 0, -1}, 0.2f, 0.2f), glm::vec3(0, 0, 1));
  // A grazing ray that the shading normal would put on the other side: the geometric normal.
  TriangleShading tilted;
  tilted.n0 = tilted.n1 = tilted.n2 = glm::normalize(glm::vec3(1, 0, 0.1f));
  const glm::vec3 grazing = glm::normalize(glm::vec3(1, 0, -0.05f));
  EXPECT_EQ(triangle_hit_normal(kUnit, tilted, grazing, 0.2f, 0.2f), glm::vec3(0, 0, 1));
  // Zero normals: the geometric normal.
  TriangleShading zero;
  EXPECT_EQ(triangle_hit_normal(kUnit, zero, {0, 0, -1}, 0.2f, 0.2f), glm::vec3(0, 0, 1));
}

// Checks the tree's structure: every primitive in exactly one leaf, boxes nested, depth bounded.
void check_bvh(const Bvh& bvh, const std::vector<Aabb>& bounds) {
  ASSERT_EQ(bvh.order.size(), bounds.size());
  std::vector<int> seen(bounds.size(), 0);
  for (std::int32_t p : bvh.order) {
    ASSERT_GE(p, 0);
    ASSERT_LT(static_cast<std::size_t>(p), bounds.size());
    ++seen[p];
  }
  for (int s : seen) ASSERT_EQ(s, 1);
  if (bounds.empty()) {
    EXPECT_TRUE(bvh.nodes.empty());
    return;
  }
  EXPECT_EQ(bvh.nodes.size(), 2 * bvh.leaves - 1);
  EXPECT_LE(bvh.depth, kBvhMaxDepth);
  auto inside = [](const glm::vec3& lo, const glm::vec3& hi, const BvhNode& n) {
    return glm::all(glm::greaterThanEqual(lo, n.lo)) && glm::all(glm::lessThanEqual(hi, n.hi));
  };
  std::size_t covered = 0;
  // Walk with depths.
  std::vector<std::pair<int, int>> stack = {{0, 0}};
  int max_depth = 0;
  while (!stack.empty()) {
    const auto [index, depth] = stack.back();
    stack.pop_back();
    max_depth = std::max(max_depth, depth);
    const BvhNode& n = bvh.nodes[index];
    if (n.count > 0) {
      ASSERT_LE(n.offset + n.count, static_cast<int>(bvh.order.size()));
      covered += n.count;
      for (int k = n.offset; k < n.offset + n.count; ++k)
        ASSERT_TRUE(inside(bounds[bvh.order[k]].lo, bounds[bvh.order[k]].hi, n));
      continue;
    }
    const int first = index + 1, second = n.offset;
    ASSERT_GT(second, first);
    ASSERT_LT(second, static_cast<int>(bvh.nodes.size()));
    ASSERT_TRUE(inside(bvh.nodes[first].lo, bvh.nodes[first].hi, n));
    ASSERT_TRUE(inside(bvh.nodes[second].lo, bvh.nodes[second].hi, n));
    stack.push_back({first, depth + 1});
    stack.push_back({second, depth + 1});
  }
  EXPECT_EQ(covered, bounds.size());
  EXPECT_EQ(max_depth, bvh.depth);
  EXPECT_GT(bvh.sah_cost, 0.0);
}

TEST(BvhBuild, SizesAndStructure) {
  for (std::size_t n : {0u, 1u, 2u, 3u, 8u, 9u, 100u, 1000u, 20000u}) {
    SCOPED_TRACE(n);
    const std::vector<Aabb> boxes = test::random_boxes<Aabb>(n, static_cast<std::uint32_t>(n));
    check_bvh(build_bvh(boxes), boxes);
  }
}

// Subtrees over 8192 primitives are built as parallel tasks and appended: the tree is the same
// whatever the number of threads.
TEST(BvhBuild, SameTreeOnOneThreadAndMany) {
  const std::vector<Aabb> boxes = test::random_boxes<Aabb>(60000, 17);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const Bvh one = build_bvh(boxes);
  omp_set_num_threads(std::max(threads, 4));
  const Bvh many = build_bvh(boxes);
  omp_set_num_threads(threads);
  check_bvh(many, boxes);
  test::expect_same_tree(one, many);
  EXPECT_EQ(one.leaves, many.leaves);
}

TEST(BvhBuild, LeavesStaySmall) {
  const std::vector<Aabb> boxes = test::random_boxes<Aabb>(5000, 3);
  const Bvh bvh = build_bvh(boxes);
  for (const BvhNode& n : bvh.nodes) EXPECT_LE(n.count, kBvhMaxLeafSize);
  EXPECT_GT(bvh.leaves, 5000u / kBvhMaxLeafSize);
}

TEST(BvhBuild, CoincidentCentroidsSplitByCount) {
  std::vector<Aabb> boxes(1000);
  for (Aabb& b : boxes) {
    b.lo = glm::vec3(-1.0f);
    b.hi = glm::vec3(1.0f);
  }
  const Bvh bvh = build_bvh(boxes);
  check_bvh(bvh, boxes);
  for (const BvhNode& n : bvh.nodes) EXPECT_LE(n.count, kBvhMaxLeafSize);
}

TEST(BvhBuild, DepthBoundedOnSkewedInput) {
  // Exponentially spaced boxes: the SAH alone would peel one at a time.
  std::vector<Aabb> boxes;
  for (int k = 0; k < 3000; ++k) {
    Aabb b;
    const float x = std::ldexp(1.0f, k % 120 - 60) * (1.0f + 0.001f * static_cast<float>(k));
    b.lo = glm::vec3(x, 0.0f, 0.0f);
    b.hi = glm::vec3(x * 1.01f, 1.0f, 1.0f);
    boxes.push_back(b);
  }
  const Bvh bvh = build_bvh(boxes);
  check_bvh(bvh, boxes);
  EXPECT_LE(bvh.depth, kBvhMaxDepth);
}

TEST(BvhBuild, RejectsBadBoxes) {
  std::vector<Aabb> boxes = test::random_boxes<Aabb>(4, 1);
  boxes[2] = Aabb();  // empty
  EXPECT_THROW(build_bvh(boxes), std::invalid_argument);
  boxes[2].lo = glm::vec3(std::nanf(""));
  boxes[2].hi = glm::vec3(1.0f);
  EXPECT_THROW(build_bvh(boxes), std::invalid_argument);
}

// The bunny (and some spheres and cubes placed through it) as a scene.
Scene bunny_scene() {
  Scene s;
  Material white;
  white.name = "white";
  Material red = white;
  red.name = "red";
  s.materials = {white, red};
  std::vector<std::string> warnings;
  const ObjMesh bunny = load_obj("scenes/meshes/stanford/bunny.obj", warnings);
  for (Triangle t : bunny.triangles) {
    t.material = 0;
    s.triangles.push_back(t);
  }
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> pos(-0.8f, 0.8f), size(0.05f, 0.4f), angle(0.0f, 90.0f);
  for (int k = 0; k < 24; ++k) {
    Object o;
    o.shape = k % 2 ? ShapeType::cube : ShapeType::sphere;
    o.material = 1;
    o.translation = glm::vec3(pos(rng), pos(rng) + 0.4f, pos(rng));
    o.rotation_degrees = glm::vec3(angle(rng), angle(rng), angle(rng));
    o.scale = glm::vec3(size(rng), size(rng), size(rng));
    s.objects.push_back(o);
  }
  return s;
}

TEST(BvhTraversal, ClosestAndAnyHitMatchBruteForceOverTheBunny) {
  if (!std::filesystem::exists("scenes/meshes/stanford/bunny.obj"))
    GTEST_SKIP() << "the bunny is missing";
  const Scene scene = bunny_scene();
  ASSERT_GT(scene.triangles.size(), 20000u);
  const SceneAcceleration bvh = build_scene_acceleration(scene, true);
  const SceneAcceleration brute = build_scene_acceleration(scene, false);
  ASSERT_FALSE(bvh.nodes.empty());
  ASSERT_TRUE(brute.nodes.empty());
  EXPECT_LE(bvh.depth, kBvhMaxDepth);
  const SceneGeometry g_bvh = bvh.geometry();
  const SceneGeometry g_brute = brute.geometry();

  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::uniform_int_distribution<std::size_t> pick(0, scene.triangles.size() - 1);
  auto random_point = [&](float half) {
    return glm::vec3((unit(rng) * 2 - 1) * half, (unit(rng) * 2 - 1) * half + 0.4f,
                     (unit(rng) * 2 - 1) * half);
  };
  int hits = 0, mismatches = 0;
  const int rays = 6000;
  for (int k = 0; k < rays; ++k) {
    Ray ray;
    ray.origin = random_point(k % 3 == 0 ? 0.8f : 3.0f);  // a third start inside the bunny's box
    if (k % 2 == 0) {
      // Aimed at a random point of a random triangle: mostly hits, often near edges.
      const Triangle& t = scene.triangles[pick(rng)];
      float a = unit(rng), b = unit(rng);
      if (a + b > 1.0f) {
        a = 1.0f - a;
        b = 1.0f - b;
      }
      ray.direction = t.v[0] + a * (t.v[1] - t.v[0]) + b * (t.v[2] - t.v[0]) - ray.origin;
    } else {
      ray.direction = random_point(1.0f) - glm::vec3(0.0f, 0.4f, 0.0f);
    }
    if (glm::length(ray.direction) == 0.0f) continue;
    ray.direction = glm::normalize(ray.direction);
    const Hit a = closest_hit(g_bvh, ray);
    const Hit b = closest_hit(g_brute, ray);
    if (a.t < kNoHit) ++hits;
    const bool same = a.t == b.t && a.material == b.material;
    if (!same) {
      ++mismatches;
      ADD_FAILURE() << "ray " << k << ": bvh t " << a.t << " material " << a.material
                    << ", brute force t " << b.t << " material " << b.material;
      if (mismatches > 10) break;
      continue;
    }
    if (a.t < kNoHit) {
      EXPECT_NEAR(glm::length(a.normal), 1.0f, 1e-4f);
      // any_hit: the closest hit is inside (t_min, t + eps) and nothing is before it.
      EXPECT_TRUE(any_hit(g_bvh, ray, kMinHitDistance, a.t * 1.0001f));
      EXPECT_FALSE(any_hit(g_bvh, ray, kMinHitDistance, a.t * 0.9999f));
      EXPECT_TRUE(any_hit(g_brute, ray, kMinHitDistance, a.t * 1.0001f));
    } else {
      EXPECT_FALSE(any_hit(g_bvh, ray, kMinHitDistance, kNoHit));
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(hits, rays / 3) << "the rays should mostly hit";
  EXPECT_LT(hits, rays) << "some rays should miss";
}

TEST(BvhTraversal, TriangleHitsInterpolateTheCornerUvs) {
  Scene s;
  s.materials.resize(1);
  Triangle t;
  t.v[0] = glm::vec3(0, 0, 0);
  t.v[1] = glm::vec3(2, 0, 0);
  t.v[2] = glm::vec3(0, 2, 0);
  for (glm::vec3& n : t.n) n = glm::vec3(0, 0, 1);
  t.uv[0] = glm::vec2(0.1f, 0.2f);
  t.uv[1] = glm::vec2(0.9f, 0.3f);
  t.uv[2] = glm::vec2(0.4f, 1.7f);
  s.triangles.push_back(t);
  // A second triangle behind, whose uvs must not leak into the first one's hits.
  Triangle back = t;
  for (glm::vec3& v : back.v) v.z = -1.0f;
  for (glm::vec2& uv : back.uv) uv = glm::vec2(-5.0f);
  s.triangles.push_back(back);
  for (const bool use_bvh : {false, true}) {
    const SceneAcceleration acc = build_scene_acceleration(s, use_bvh);
    // Barycentrics (a, b) of corners 1 and 2: the point v0 + a e1 + b e2.
    for (const glm::vec2 ab : {glm::vec2(0.25f, 0.5f), glm::vec2(0.0f), glm::vec2(0.6f, 0.1f)}) {
      Ray ray;
      ray.origin = glm::vec3(2.0f * ab.x + 0.0f, 2.0f * ab.y, 3.0f);
      ray.direction = glm::vec3(0, 0, -1);
      const Hit hit = closest_hit(acc.geometry(), ray);
      ASSERT_NEAR(hit.t, 3.0f, 1e-5f);
      const glm::vec2 expected = (1.0f - ab.x - ab.y) * t.uv[0] + ab.x * t.uv[1] + ab.y * t.uv[2];
      EXPECT_NEAR(hit.uv.x, expected.x, 1e-5f) << use_bvh << " " << ab.x << " " << ab.y;
      EXPECT_NEAR(hit.uv.y, expected.y, 1e-5f) << use_bvh << " " << ab.x << " " << ab.y;
    }
  }
}

TEST(BvhTraversal, EmptySceneMisses) {
  Scene s;
  const SceneAcceleration acc = build_scene_acceleration(s, true);
  EXPECT_TRUE(acc.nodes.empty());
  Ray ray;
  EXPECT_EQ(closest_hit(acc.geometry(), ray).t, kNoHit);
  EXPECT_FALSE(any_hit(acc.geometry(), ray, 0.0f, kNoHit));
}

TEST(BvhTraversal, ObjectsOnlyMatchTheOldBruteForceLoop) {
  Scene s = bunny_scene();
  s.triangles.clear();
  const SceneAcceleration acc = build_scene_acceleration(s, true);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (int k = 0; k < 2000; ++k) {
    Ray ray;
    ray.origin = glm::vec3(unit(rng) * 2, unit(rng) * 2, unit(rng) * 2);
    ray.direction = glm::normalize(glm::vec3(unit(rng), unit(rng), unit(rng)) + 1e-3f);
    const Hit a = closest_hit(acc.geometry(), ray);
    const Hit b = closest_hit(acc.objects.data(), static_cast<int>(acc.objects.size()), ray);
    ASSERT_EQ(a.t, b.t) << k;
    ASSERT_EQ(a.material, b.material);
    if (a.t < kNoHit) {
      ASSERT_EQ(a.normal, b.normal);
    }
  }
}

// The shadow-ray rule (sees_light) on smallpt's kind of light: a sphere of radius 100 whose cap
// reaches 5e-4 below a ceiling slab (its bottom face at y = 1), a thin plate hung 1e-3 below the
// cap at one side, and a triangle lamp flush against the slab's face. A light point is seen from
// the floor exactly when no other primitive lies before it along the ray, however close to the
// light the occluder is; the light never occludes itself; with or without a BVH.
TEST(ShadowVisibility, AnOccluderAtAnyDistanceFromTheLightCounts) {
  Scene s;
  Material white;
  white.name = "white";
  s.materials = {white};
  auto add = [&](ShapeType shape, glm::vec3 t, glm::vec3 scale) {
    Object o;
    o.shape = shape;
    o.translation = t;
    o.scale = scale;
    s.objects.push_back(o);
  };
  add(ShapeType::cube, glm::vec3(0.0f, 1.5f, 0.0f), glm::vec3(8.0f, 1.0f, 8.0f));       // the slab
  add(ShapeType::sphere, glm::vec3(0.0f, 100.9995f, 0.0f), glm::vec3(200.0f));          // the light
  add(ShapeType::cube, glm::vec3(0.15f, 0.9985f, 0.0f), glm::vec3(0.1f, 1e-4f, 0.1f));  // plate
  Triangle lamp;  // flush with the slab's face, 1e-4 below it
  lamp.v[0] = glm::vec3(-0.6f, 0.9999f, 0.5f);
  lamp.v[1] = glm::vec3(-0.2f, 0.9999f, 0.5f);
  lamp.v[2] = glm::vec3(-0.6f, 0.9999f, 0.9f);
  s.triangles.push_back(lamp);
  for (const bool use_bvh : {false, true}) {
    SCOPED_TRACE(use_bvh ? "BVH" : "brute force");
    const SceneAcceleration acc = build_scene_acceleration(s, use_bvh);
    const SceneGeometry g = acc.geometry();
    std::int32_t sphere = kNoPrimitive;
    for (int k = 0; k < static_cast<int>(acc.objects.size()); ++k)
      if (acc.objects[k].shape == static_cast<int>(ShapeType::sphere)) sphere = object_reference(k);
    ASSERT_NE(sphere, kNoPrimitive);
    const glm::vec3 floor_point(0.0f, 0.0f, 0.0f);
    auto ray_to = [&](glm::vec3 q) {
      Ray r;
      r.origin = floor_point;
      r.direction = glm::normalize(q - floor_point);
      return r;
    };
    // The point of the sphere at height y above the slab's face (y < 0: below it), toward +-x.
    auto cap_point = [](double y, double side) {
      const double r = 100.0, below = r - 0.0005 - y;  // from the centre down to the height
      return glm::vec3(side * std::sqrt(r * r - below * below), 1.0 + y, 0.0);
    };
    // The cap's lowest point and points of it below the face: seen (the light never hides
    // itself).
    EXPECT_TRUE(sees_light(g, ray_to(cap_point(-0.0005, 1.0)), sphere));
    EXPECT_TRUE(sees_light(g, ray_to(cap_point(-2e-4, -1.0)), sphere));
    // Points of the sphere inside the slab, 5e-5 and 1e-3 above its face: the face hides them.
    // A shadow ray stopped 1e-4 of its length short of the light (about 1.1e-4 here) would miss
    // the first occluder.
    const glm::vec3 in_slab = cap_point(5e-5, -1.0);
    EXPECT_FALSE(sees_light(g, ray_to(in_slab), sphere));
    EXPECT_FALSE(any_hit(g, ray_to(in_slab), kMinHitDistance,
                         glm::length(in_slab - floor_point) * (1.0f - 1e-4f)))
        << "the point no longer tests an occluder within the old margin";
    EXPECT_FALSE(sees_light(g, ray_to(cap_point(1e-3, -1.0)), sphere));
    // Behind the plate, 1e-3 below the cap: hidden; the same point on the other side: seen.
    EXPECT_FALSE(sees_light(g, ray_to(cap_point(-4e-4, 1.0)), sphere));
    EXPECT_TRUE(sees_light(g, ray_to(cap_point(-4e-4, -1.0)), sphere));
    // The triangle lamp, 1e-4 under the slab's face: seen from the floor; hidden from a point
    // level with it whose ray to it passes through the sphere's cap, which dips below the lamp's
    // plane within 0.28 of the axis.
    EXPECT_TRUE(sees_light(g, ray_to(glm::vec3(-0.5f, 0.9999f, 0.8f)), 0));
    Ray level;
    level.origin = glm::vec3(0.5f, 0.9999f, -0.3f);
    level.direction = glm::normalize(glm::vec3(-0.5f, 0.9999f, 0.6f) - level.origin);
    EXPECT_FALSE(sees_light(g, level, 0));
    // The environment (no primitive) is seen only when nothing at all lies along the ray.
    EXPECT_FALSE(sees_light(g, ray_to(glm::vec3(0.0f, 1.0f, 0.0f)), kNoPrimitive));
    Ray sideways;
    sideways.origin = floor_point;
    sideways.direction = glm::vec3(1.0f, 0.0f, 0.0f);
    EXPECT_TRUE(sees_light(g, sideways, kNoPrimitive));
  }
}

}  // namespace
}  // namespace raystream
