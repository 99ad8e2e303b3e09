// The LBVH built on the GPU (skipped without a CUDA device), with the own radix sort and with
// Thrust's: the tree's invariants on edge cases, 2^24 + 1 primitives and the mesh scenes; the
// same tree from both backends and from the CPU executor; traversal on the GPU against brute
// force; and every mesh scene rendered on the GPU through the LBVH against the CPU's render
// through the SAH tree.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "execution/parallel_for.cuh"
#include "geometry/scene_geometry.h"
#include "integrator/api/render.h"
#include "integrator/scene_upload.h"
#include "integrator/wavefront.h"
#include "io/scene/scene_loader.h"
#include "lbvh_checks.h"
#include "render_test_scenes.h"

namespace raystream {
namespace {

Executor gpu_executor() {
  Executor ex;
  ex.kind = ExecutorKind::gpu;
  return ex;
}

Executor cpu_executor() {
  Executor ex;
  ex.kind = ExecutorKind::cpu;
  return ex;
}

struct Backend {
  const char* name;
  const PathPrimitives& primitives;
};

std::vector<Backend> backends() {
  return {{"own", own_primitives::path_primitives()},
          {"thrust", thrust_primitives::path_primitives()}};
}

// The inputs every backend builds: edge sizes, ties, degenerate and large primitives.
std::vector<std::pair<std::string, test::BuildInput>> edge_inputs() {
  std::vector<std::pair<std::string, test::BuildInput>> out;
  for (std::size_t n : {1u, 2u, 3u, 9u, 255u, 256u, 257u, 4097u, 100003u}) {
    test::BuildInput in;
    in.triangles = test::random_triangles(n - n / 3, static_cast<std::uint32_t>(n));
    in.objects = test::random_boxes(n / 3, static_cast<std::uint32_t>(n + 1));
    out.push_back({"random " + std::to_string(n), in});
  }
  test::BuildInput equal;
  LbvhBox b;
  b.lo = glm::vec3(-1.0f);
  b.hi = glm::vec3(1.0f);
  equal.objects.assign(5000, b);
  out.push_back({"all centroids equal", equal});
  test::BuildInput degenerate;
  degenerate.triangles = test::random_triangles(3000, 5);
  for (std::size_t k = 0; k < degenerate.triangles.size(); k += 2)
    degenerate.triangles[k].e2 = k % 4 ? degenerate.triangles[k].e1 * 3.0f : glm::vec3(0.0f);
  degenerate.triangles.push_back(TriangleGeometry{});
  out.push_back({"degenerate triangles", degenerate});
  test::BuildInput large;
  large.triangles = test::random_triangles(20000, 7, 0.05f);
  LbvhBox floor;
  floor.lo = glm::vec3(-50.0f, -11.0f, -50.0f);
  floor.hi = glm::vec3(50.0f, -10.0f, 50.0f);
  large.objects = {floor};
  out.push_back({"a floor under small triangles", large});
  return out;
}

void expect_identical(const test::BuiltTree& a, const test::BuiltTree& b) {
  test::expect_same_tree(a, b);
  EXPECT_EQ(a.sah_cost, b.sah_cost);
}

// Both backends and the CPU executor give the same tree: the same keys in the same stable order,
// and the build compiled without fused multiply-adds computes the same boxes and costs.
void expect_same_trees(const test::BuildInput& in) {
  const test::BuiltTree cpu = test::build_tree(cpu_executor(), cpu_path_primitives(), in);
  test::expect_valid_tree(cpu, in);
  for (const Backend& b : backends()) {
    SCOPED_TRACE(b.name);
    const test::BuiltTree gpu = test::build_tree(gpu_executor(), b.primitives, in);
    test::expect_valid_tree(gpu, in);
    expect_identical(gpu, cpu);
  }
}

TEST(LbvhGpu, EdgeCasesOnBothBackendsAndTheCpu) {
  for (const auto& [name, in] : edge_inputs()) {
    SCOPED_TRACE(name);
    expect_same_trees(in);
  }
}

TEST(LbvhGpu, MeshScenesOnBothBackendsAndTheCpu) {
  for (const char* path : {"scenes/cornell_box_original.json", "scenes/bunny.json",
                           "scenes/dragon.json", "scenes/bunnies_1m.json"}) {
    SCOPED_TRACE(path);
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is missing";
    std::vector<std::string> warnings;
    const test::BuildInput in = test::scene_input(load_scene(path, warnings));
    expect_same_trees(in);
    const test::BuiltTree t =
        test::build_tree(gpu_executor(), own_primitives::path_primitives(), in);
    const double sah = test::sah_build_cost(in);
    std::printf("%s: LBVH SAH cost %.3f, SAH build %.3f (%.3fx), %zu nodes, depth %d\n", path,
                t.sah_cost, sah, t.sah_cost / sah, t.nodes.size(), t.depth);
    EXPECT_LE(t.sah_cost, 1.35 * sah);
  }
}

// 2^24 + 1 primitives: past the sizes where the sort's passes and the build's 32-bit indices
// change nothing; the build's memory stays within the tree and twice the primitives' data.
TEST(LbvhGpu, TwoToTheTwentyFourPlusOnePrimitives) {
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  const std::size_t n = (std::size_t(1) << 24) + 1;
  if (free_bytes < n * 400) GTEST_SKIP() << "not enough GPU memory for 2^24 + 1 primitives";
  test::BuildInput in;
  in.triangles = test::random_triangles(n, 24, 0.01f);
  for (const Backend& b : backends()) {
    SCOPED_TRACE(b.name);
    const test::BuiltTree t = test::build_tree(gpu_executor(), b.primitives, in);
    test::expect_valid_tree(t, in);
    const std::size_t tree = t.nodes.size() * sizeof(BvhNode) + n * sizeof(std::int32_t);
    const std::size_t primitives = n * (sizeof(TriangleGeometry) + sizeof(TriangleShading));
    std::printf(
        "%s: %zu nodes, depth %d, build peak %.1f MiB (tree %.1f MiB, primitives %.1f "
        "MiB)\n",
        b.name, t.nodes.size(), t.depth, t.peak_bytes / 1048576.0, tree / 1048576.0,
        primitives / 1048576.0);
    EXPECT_LE(t.peak_bytes, tree + 2 * primitives);
  }
}

struct TraceBody {
  SceneGeometry geometry;
  const Ray* rays;
  Hit* out;
  RAYSTREAM_HD void operator()(std::size_t i) const { out[i] = closest_hit(geometry, rays[i]); }
};

// Closest hits traced on the GPU through its LBVH equal the CPU's brute force, up to the rounding
// of fused multiply-adds (a t by rounding, or rarely a hit on an edge).
TEST(LbvhGpu, TraversalMatchesBruteForce) {
  std::vector<std::string> warnings;
  Scene scene = load_scene("scenes/bunny.json", warnings);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> pos(-0.8f, 0.8f), size(0.05f, 0.4f);
  for (int k = 0; k < 16; ++k) {
    scene.objects.push_back(test::make_object(k % 2 ? ShapeType::cube : ShapeType::sphere, 0,
                                              glm::vec3(pos(rng), pos(rng) + 0.4f, pos(rng)),
                                              glm::vec3(10.0f * k, 5.0f * k, 0.0f),
                                              glm::vec3(size(rng), size(rng), size(rng))));
  }
  const Executor gpu = gpu_executor();
  const SceneUpload upload(gpu, scene, scene_materials(scene), SceneBvh::lbvh,
                           own_primitives::path_primitives(), 16, 16, nullptr);
  const SceneUpload brute(cpu_executor(), scene, scene_materials(scene), SceneBvh::none,
                          cpu_path_primitives(), 16, 16, nullptr);
  const int n = 100000;
  std::vector<Ray> rays(n);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  for (Ray& r : rays) {
    r.origin = glm::vec3(unit(rng) * 2.5f, unit(rng) * 2.5f + 0.4f, unit(rng) * 2.5f);
    const glm::vec3 target(unit(rng) * 0.7f, unit(rng) * 0.7f + 0.4f, unit(rng) * 0.5f);
    r.direction = glm::normalize(target - r.origin + glm::vec3(1e-4f));
  }
  const Buffer<Ray> d_rays = test::to_executor(gpu, "rays", rays);
  Buffer<Hit> d_hits(gpu, "hits", rays.size(), nullptr);
  parallel_for(gpu, "trace test", rays.size(),
               TraceBody{upload.view().geometry, d_rays.data(), d_hits.data()});
  const std::vector<Hit> device = test::to_host(gpu, d_hits.data(), rays.size());
  int hits = 0, differ = 0;
  // Brute force on the host for every 10th ray (it tests every primitive).
  for (int i = 0; i < n; i += 10) {
    const Hit b = closest_hit(brute.view().geometry, rays[i]);
    const Hit& a = device[i];
    if (b.t < kNoHit) ++hits;
    const bool both_miss = a.t >= kNoHit && b.t >= kNoHit;
    const bool close = a.t < kNoHit && b.t < kNoHit && std::fabs(a.t - b.t) <= 1e-4f * b.t &&
                       a.material == b.material;
    if (!(both_miss || close)) ++differ;
  }
  std::printf("%d rays, %d hits, %d differ\n", n / 10, hits, differ);
  EXPECT_GT(hits, n / 40);
  EXPECT_LE(differ, n / 10 / 2000 + 1);
}

RenderResult render_with(const Scene& scene, const RenderSettings& s, const Backend& b) {
  return render_wavefront(scene, s, b.primitives);
}

// A mesh scene on the GPU through the LBVH (each backend) against the CPU through the SAH tree:
// the same seed gives the same paths, so the images agree far within the noise between seeds.
void expect_matches_cpu_sah(const char* path, int size, int spp) {
  SCOPED_TRACE(path);
  std::vector<std::string> warnings;
  const Scene scene = load_scene(path, warnings);
  RenderSettings s = test::settings_for(scene, ExecutorKind::cpu, spp);
  s.width = size;
  s.height = size;
  s.bvh_builder = BvhBuilder::sah;
  const RenderResult cpu = render(scene, s);
  s.seed += 7;
  const RenderResult cpu_other_seed = render(scene, s);
  s.seed -= 7;
  const double noise = test::rms_difference(cpu.image, cpu_other_seed.image);
  EXPECT_GT(noise, 0.0);
  s.executor = ExecutorKind::gpu;
  s.bvh_builder = BvhBuilder::automatic;
  for (const Backend& b : backends()) {
    SCOPED_TRACE(b.name);
    const RenderResult gpu = render_with(scene, s, b);
    test::expect_all_finite(gpu.image);
    test::expect_consistent_stats(gpu, s);
    EXPECT_EQ(gpu.stats.bvh.builder, BvhBuilder::lbvh);
    EXPECT_STREQ(primitives_backend_name(gpu.stats.bvh.sort), b.name);
    EXPECT_GT(gpu.stats.bvh.build_peak_bytes, 0u);
    // The tree plus twice the primitives' data, and the radix sort's fixed workspace (tile
    // states and counters, some KiB whatever the size): it dominates only on tiny scenes.
    EXPECT_LE(gpu.stats.bvh.build_peak_bytes,
              gpu.stats.bvh.tree_bytes + 2 * gpu.stats.bvh.primitive_bytes + (64u << 10));
    const double diff = test::rms_difference(gpu.image, cpu.image);
    std::printf("%s (%s): rms GPU LBVH vs CPU SAH %.5f, CPU seed vs seed %.5f\n", path, b.name,
                diff, noise);
    EXPECT_LT(diff, 0.5 * noise);
    for (int c = 0; c < 3; ++c) {
      const double g = test::mean_channel(gpu.image, c), m = test::mean_channel(cpu.image, c);
      EXPECT_NEAR(g, m, 0.02 * m + 1e-6) << "channel " << c;
    }
  }
}

TEST(LbvhGpu, MeshScenesRenderAsTheCpuSahTree) {
  expect_matches_cpu_sah("scenes/cornell_box_original.json", 64, 16);
  expect_matches_cpu_sah("scenes/bunny.json", 64, 16);
  expect_matches_cpu_sah("scenes/dragon.json", 48, 8);
  expect_matches_cpu_sah("scenes/bunnies_1m.json", 32, 4);
}

}  // namespace
}  // namespace raystream
