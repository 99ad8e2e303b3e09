// The LBVH build on the CPU executor (the same stages the GPU runs, as OpenMP loops, with
// prim::cpu's radix sort): the per-element math, the tree's invariants on edge cases and mesh
// scenes, its SAH cost next to the SAH build's, traversal against brute force, and renders with
// the LBVH against renders with the SAH tree.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "geometry/scene_geometry.h"
#include "integrator/api/render.h"
#include "integrator/scene_upload.h"
#include "io/scene/scene_loader.h"
#include "lbvh_checks.h"
#include "render_test_scenes.h"

namespace raystream {
namespace {

Executor cpu_executor() {
  Executor ex;
  ex.kind = ExecutorKind::cpu;
  return ex;
}

test::BuiltTree build_on_cpu(const test::BuildInput& in) {
  return test::build_tree(cpu_executor(), cpu_path_primitives(), in);
}

TEST(LbvhMath, MortonCodesInterleaveTheAxes) {
  EXPECT_EQ(spread_bits_10(0x3FFu), 0x09249249u);
  EXPECT_EQ(spread_bits_10(1u), 1u);
  EXPECT_EQ(spread_bits_10(2u), 8u);
  const glm::vec3 lo(0.0f);
  // x is the highest bit of each triple.
  EXPECT_EQ(morton_code(glm::vec3(0.9999f, 0.0f, 0.0f), lo, 1.0f), spread_bits_10(1023) << 2);
  EXPECT_EQ(morton_code(glm::vec3(0.0f, 0.9999f, 0.0f), lo, 1.0f), spread_bits_10(1023) << 1);
  EXPECT_EQ(morton_code(glm::vec3(0.0f, 0.0f, 0.9999f), lo, 1.0f), spread_bits_10(1023));
  // Outside the grid, NaN and a zero scale clamp.
  EXPECT_EQ(morton_code(glm::vec3(-5.0f), lo, 1.0f), 0u);
  EXPECT_EQ(morton_code(glm::vec3(5.0f), lo, 1.0f), (1u << kMortonBits) - 1);
  EXPECT_EQ(morton_code(glm::vec3(std::nanf("")), lo, 1.0f), 0u);
  EXPECT_EQ(morton_code(glm::vec3(0.7f), lo, 0.0f), 0u);
  EXPECT_LT(morton_code(glm::vec3(1.0f), lo, 1.0f), 1u << kMortonBits);
}

TEST(LbvhMath, LargePrimitivesSortApart) {
  LbvhBox small, large;
  small.lo = glm::vec3(0.0f);
  small.hi = glm::vec3(0.01f);
  large.lo = glm::vec3(0.0f);
  large.hi = glm::vec3(2.0f, 0.0f, 0.0f);
  EXPECT_EQ(lbvh_sort_key(5, small, 10.0f), 5u);
  EXPECT_EQ(lbvh_sort_key(5, large, 10.0f), 5u | (1u << kMortonBits));
}

TEST(LbvhMath, CommonPrefixBreaksTiesByPosition) {
  const std::uint32_t codes[] = {0b0001u, 0b0010u, 0b0010u, 0b0011u};
  EXPECT_EQ(lbvh_common_prefix(codes, 4, 0, 1), 30);
  EXPECT_EQ(lbvh_common_prefix(codes, 4, 1, 3), 31);
  // Equal codes: 32 plus the common prefix of the positions 1 and 2.
  EXPECT_EQ(lbvh_common_prefix(codes, 4, 1, 2), 32 + 30);
  EXPECT_EQ(lbvh_common_prefix(codes, 4, 0, -1), -1);
  EXPECT_EQ(lbvh_common_prefix(codes, 4, 3, 4), -1);
}

TEST(LbvhMath, SplitsOfASmallHierarchy) {
  // Keys 0, 1, 4, 5: the root splits {0, 1} from {4, 5}.
  const std::uint32_t codes[] = {0u, 1u, 4u, 5u};
  const LbvhSplit root = lbvh_split(codes, 4, 0);
  EXPECT_EQ(root.first, 0);
  EXPECT_EQ(root.last, 3);
  EXPECT_EQ(root.split, 1);
  const LbvhSplit left = lbvh_split(codes, 4, 1);  // internal node 1 covers [0, 1]
  EXPECT_EQ(left.first, 0);
  EXPECT_EQ(left.last, 1);
  EXPECT_EQ(left.split, 0);
  const LbvhSplit right = lbvh_split(codes, 4, 2);  // internal node 2 covers [2, 3]
  EXPECT_EQ(right.first, 2);
  EXPECT_EQ(right.last, 3);
  EXPECT_EQ(right.split, 2);
}

TEST(LbvhBuild, SizesAndStructure) {
  for (std::size_t n : {1u, 2u, 3u, 7u, 8u, 9u, 17u, 100u, 1000u, 20000u, 100003u}) {
    SCOPED_TRACE(n);
    test::BuildInput in;
    in.triangles = test::random_triangles(n - n / 3, static_cast<std::uint32_t>(n));
    in.objects = test::random_boxes(n / 3, static_cast<std::uint32_t>(n + 1));
    test::expect_valid_tree(build_on_cpu(in), in);
  }
}

TEST(LbvhBuild, OnePrimitiveIsOneLeaf) {
  test::BuildInput in;
  in.objects = test::random_boxes(1, 3);
  const test::BuiltTree t = build_on_cpu(in);
  test::expect_valid_tree(t, in);
  ASSERT_EQ(t.nodes.size(), 1u);
  EXPECT_EQ(t.nodes[0].count, 1);
  EXPECT_EQ(t.depth, 0);
}

TEST(LbvhBuild, AllCentroidsEqual) {
  test::BuildInput in;
  LbvhBox b;
  b.lo = glm::vec3(-1.0f);
  b.hi = glm::vec3(1.0f);
  in.objects.assign(1000, b);
  // And triangles of one centroid: the same triangle, turned.
  for (int k = 0; k < 500; ++k) {
    TriangleGeometry t;
    t.v0 = glm::vec3(-1.0f, 0.0f, 0.0f);
    t.e1 = glm::vec3(2.0f, 0.0f, 0.0f);
    t.e2 = glm::vec3(1.0f, k % 2 ? 1.5f : -1.5f, 0.0f);
    in.triangles.push_back(t);
  }
  const test::BuiltTree t = build_on_cpu(in);
  test::expect_valid_tree(t, in);
  // Keys tie everywhere: the positions split them evenly.
  EXPECT_LE(t.depth, 12);
}

TEST(LbvhBuild, DegenerateTriangles) {
  test::BuildInput in;
  in.triangles = test::random_triangles(3000, 5);
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> pos(-10.0f, 10.0f);
  for (std::size_t k = 0; k < in.triangles.size(); k += 3) {
    TriangleGeometry& t = in.triangles[k];
    if (k % 2) {
      t.e1 = t.e2 = glm::vec3(0.0f);  // a point
    } else {
      t.e2 = 2.0f * t.e1;  // a line
    }
  }
  // Flat in an axis plane, and at the origin.
  TriangleGeometry flat;
  flat.v0 = glm::vec3(0.0f);
  flat.e1 = glm::vec3(1.0f, 0.0f, 0.0f);
  flat.e2 = glm::vec3(0.0f, 1.0f, 0.0f);
  in.triangles.push_back(flat);
  in.triangles.push_back(TriangleGeometry{});
  test::expect_valid_tree(build_on_cpu(in), in);
}

TEST(LbvhBuild, SkewedAndLargePrimitives) {
  test::BuildInput in;
  // Exponentially spaced primitives, and boxes as large as the scene among small ones.
  for (int k = 0; k < 3000; ++k) {
    LbvhBox b;
    const float x = std::ldexp(1.0f, k % 100 - 50) * (1.0f + 0.001f * static_cast<float>(k));
    b.lo = glm::vec3(x, 0.0f, 0.0f);
    b.hi = glm::vec3(x * 1.01f, 1.0f, 1.0f);
    in.objects.push_back(b);
  }
  in.triangles = test::random_triangles(5000, 11, 0.05f);
  LbvhBox floor;
  floor.lo = glm::vec3(-50.0f, -11.0f, -50.0f);
  floor.hi = glm::vec3(50.0f, -10.0f, 50.0f);
  in.objects.push_back(floor);
  test::expect_valid_tree(build_on_cpu(in), in);
}

TEST(LbvhBuild, ManyPrimitives) {
  test::BuildInput in;
  in.triangles = test::random_triangles((std::size_t(1) << 20) + 3, 21, 0.05f);
  const test::BuiltTree t = build_on_cpu(in);
  test::expect_valid_tree(t, in);
  // The build holds at most the tree and twice the primitives' data (triangles alone here).
  const std::size_t tree = t.nodes.size() * sizeof(BvhNode) + in.count() * sizeof(std::int32_t);
  const std::size_t primitives = in.count() * (sizeof(TriangleGeometry) + sizeof(TriangleShading));
  EXPECT_LE(t.peak_bytes, tree + 2 * primitives);
}

TEST(LbvhBuild, RejectsBadBoxes) {
  test::BuildInput in;
  in.objects = test::random_boxes(10, 1);
  in.objects[7] = LbvhBox();  // empty
  try {
    build_on_cpu(in);
    FAIL() << "an empty box was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("primitive 7 "), std::string::npos) << e.what();
  }
  in.objects[7].lo = glm::vec3(std::nanf(""));
  in.objects[7].hi = glm::vec3(1.0f);
  EXPECT_THROW(build_on_cpu(in), std::invalid_argument);
  in.objects[7] = test::random_boxes(1, 2)[0];
  in.triangles = test::random_triangles(4, 3);
  in.triangles[2].e1.y = INFINITY;
  try {
    build_on_cpu(in);
    FAIL() << "a non-finite triangle was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("primitive 2 "), std::string::npos) << e.what();
  }
  EXPECT_THROW(build_on_cpu(test::BuildInput{}), std::invalid_argument);
}

// The shipped mesh scenes: a valid tree, and a SAH cost near the SAH build's.
TEST(LbvhBuild, MeshScenesAgainstTheSahBuild) {
  for (const char* path :
       {"scenes/cornell_box_original.json", "scenes/bunny.json", "scenes/dragon.json"}) {
    SCOPED_TRACE(path);
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is missing";
    std::vector<std::string> warnings;
    const test::BuildInput in = test::scene_input(load_scene(path, warnings));
    const test::BuiltTree t = build_on_cpu(in);
    test::expect_valid_tree(t, in);
    const double sah = test::sah_build_cost(in);
    std::printf("%s: LBVH SAH cost %.3f, SAH build %.3f (%.3fx), %zu nodes, depth %d\n", path,
                t.sah_cost, sah, t.sah_cost / sah, t.nodes.size(), t.depth);
    EXPECT_LE(t.sah_cost, 1.35 * sah);
  }
}

// Closest and any hits through the LBVH, as the renderer holds it (triangles in leaf order,
// references, lights moved to their slots), equal brute force's over the bunny with spheres and
// cubes among its triangles.
TEST(LbvhTraversal, ClosestAndAnyHitMatchBruteForce) {
  if (!std::filesystem::exists("scenes/meshes/stanford/bunny.obj"))
    GTEST_SKIP() << "the bunny is missing";
  std::vector<std::string> warnings;
  Scene scene = load_scene("scenes/bunny.json", warnings);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> pos(-0.8f, 0.8f), size(0.05f, 0.4f), angle(0.0f, 90.0f);
  for (int k = 0; k < 24; ++k) {
    scene.objects.push_back(test::make_object(k % 2 ? ShapeType::cube : ShapeType::sphere, 0,
                                              glm::vec3(pos(rng), pos(rng) + 0.4f, pos(rng)),
                                              glm::vec3(angle(rng), angle(rng), 0.0f),
                                              glm::vec3(size(rng), size(rng), size(rng))));
  }
  const Executor ex = cpu_executor();
  const SceneUpload lbvh(ex, scene, scene_materials(scene), SceneBvh::lbvh, cpu_path_primitives(),
                         16, 16, nullptr);
  const SceneUpload brute(ex, scene, scene_materials(scene), SceneBvh::none, cpu_path_primitives(),
                          16, 16, nullptr);
  const SceneGeometry g = lbvh.view().geometry;
  const SceneGeometry b = brute.view().geometry;
  ASSERT_GT(g.node_count, 0);
  ASSERT_EQ(b.node_count, 0);
  EXPECT_EQ(lbvh.bvh_stats().builder, BvhBuilder::lbvh);
  EXPECT_EQ(lbvh.bvh_stats().primitives, scene.triangles.size() + scene.objects.size());

  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::uniform_int_distribution<std::size_t> pick(0, scene.triangles.size() - 1);
  int hits = 0, mismatches = 0;
  const int rays = 6000;
  for (int k = 0; k < rays; ++k) {
    Ray ray;
    const float half = k % 3 == 0 ? 0.8f : 3.0f;
    ray.origin = glm::vec3((unit(rng) * 2 - 1) * half, (unit(rng) * 2 - 1) * half + 0.4f,
                           (unit(rng) * 2 - 1) * half);
    const Triangle& t = scene.triangles[pick(rng)];
    ray.direction =
        k % 2 ? glm::vec3(unit(rng) - 0.5f, unit(rng) - 0.1f, unit(rng) - 0.5f) - ray.origin * 0.3f
              : (t.v[0] + t.v[1] + t.v[2]) / 3.0f - ray.origin;
    if (glm::length(ray.direction) == 0.0f) continue;
    ray.direction = glm::normalize(ray.direction);
    const Hit x = closest_hit(g, ray);
    const Hit y = closest_hit(b, ray);
    if (x.t < kNoHit) ++hits;
    if (!(x.t == y.t && x.material == y.material && x.light == y.light)) {
      ++mismatches;
      ADD_FAILURE() << "ray " << k << ": lbvh t " << x.t << ", brute force t " << y.t;
      if (mismatches > 10) break;
      continue;
    }
    if (x.t < kNoHit) {
      EXPECT_TRUE(any_hit(g, ray, kMinHitDistance, x.t * 1.0001f));
      EXPECT_FALSE(any_hit(g, ray, kMinHitDistance, x.t * 0.9999f));
    } else {
      EXPECT_FALSE(any_hit(g, ray, kMinHitDistance, kNoHit));
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(hits, rays / 3);
  EXPECT_LT(hits, rays);
}

// Emissive triangles: each light names its triangle's slot, and the triangle its light.
TEST(LbvhTraversal, TriangleLightsFollowTheirTriangles) {
  std::vector<std::string> warnings;
  const Scene scene = load_scene("scenes/cornell_box_original.json", warnings);
  const Executor ex = cpu_executor();
  const SceneUpload upload(ex, scene, scene_materials(scene), SceneBvh::lbvh, cpu_path_primitives(),
                           16, 16, nullptr);
  const SceneView& v = upload.view();
  int triangle_lights = 0;
  for (int k = 0; k < v.lights.count; ++k) {
    const Light& l = v.lights.lights[k];
    if (l.kind != static_cast<int>(LightKind::triangle)) continue;
    ++triangle_lights;
    ASSERT_GE(l.primitive, 0);
    ASSERT_LT(l.primitive, v.geometry.triangle_count);
    EXPECT_EQ(v.geometry.triangle_shading[l.primitive].light, k);
    const TriangleGeometry& t = v.geometry.triangles[l.primitive];
    const TriangleLight& shape = v.lights.triangles[l.index];
    EXPECT_EQ(t.v0, shape.p);
    EXPECT_EQ(t.e1, shape.e1);
    EXPECT_EQ(t.e2, shape.e2);
  }
  EXPECT_GT(triangle_lights, 0);
}

// The same scene rendered through the LBVH and through the SAH tree: the same closest hits and
// the lights in the same order, so the same paths; equal images up to a rare tie between two
// triangles at the same distance.
void expect_lbvh_renders_as_sah(const Scene& scene, int size, int spp) {
  RenderSettings s = test::settings_for(scene, ExecutorKind::cpu, spp);
  s.width = size;
  s.height = size;
  s.bvh_builder = BvhBuilder::lbvh;
  const RenderResult lbvh = render(scene, s);
  EXPECT_EQ(lbvh.stats.bvh.builder, BvhBuilder::lbvh);
  EXPECT_EQ(lbvh.stats.bvh.sort, PrimitivesBackend::cpu);
  test::expect_all_finite(lbvh.image);
  test::expect_consistent_stats(lbvh, s);
  s.bvh_builder = BvhBuilder::sah;
  const RenderResult sah = render(scene, s);
  EXPECT_EQ(sah.stats.bvh.builder, BvhBuilder::sah);
  s.seed += 9;
  const RenderResult other_seed = render(scene, s);
  const double noise = test::rms_difference(sah.image, other_seed.image);
  const double diff = test::rms_difference(lbvh.image, sah.image);
  std::printf("%s: rms LBVH vs SAH %.6f, seed vs seed %.6f\n", scene.path.c_str(), diff, noise);
  EXPECT_GT(noise, 0.0);
  EXPECT_LT(diff, 0.05 * noise);
}

TEST(LbvhRender, MeshScenesRenderAsWithTheSahTree) {
  for (const char* path : {"scenes/cornell_box_original.json", "scenes/bunny.json"}) {
    SCOPED_TRACE(path);
    std::vector<std::string> warnings;
    expect_lbvh_renders_as_sah(load_scene(path, warnings), 32, 4);
  }
}

TEST(LbvhRender, AutomaticPicksSahOnTheCpu) {
  std::vector<std::string> warnings;
  const Scene scene = load_scene("scenes/bunny.json", warnings);
  RenderSettings s = test::settings_for(scene, ExecutorKind::cpu, 1);
  s.width = 8;
  s.height = 8;
  EXPECT_EQ(render(scene, s).stats.bvh.builder, BvhBuilder::sah);
  // Below the threshold no tree, unless a builder is named.
  Scene small = scene;
  small.triangles.resize(5);
  EXPECT_FALSE(render(small, s).stats.bvh.built);
  s.bvh_builder = BvhBuilder::lbvh;
  s.bvh_min_primitives = 0;
  const RenderResult r = render(small, s);
  EXPECT_TRUE(r.stats.bvh.built);
  EXPECT_EQ(r.stats.bvh.builder, BvhBuilder::lbvh);
  EXPECT_EQ(r.stats.bvh.primitives, 5u);
}

}  // namespace
}  // namespace raystream
