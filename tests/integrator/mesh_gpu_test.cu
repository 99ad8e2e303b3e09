// Meshes and the BVH on the GPU (skipped without a CUDA device): the device's closest and any
// hits over the bunny agree with the CPU's (same traversal code), and mesh scenes render on the
// GPU as on the CPU (same seed) with and without the BVH.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "execution/buffer.h"
#include "execution/executor.h"
#include "execution/parallel_for.cuh"
#include "execution/path_primitives.h"
#include "geometry/scene_acceleration.h"
#include "geometry/scene_geometry.h"
#include "integrator/api/render.h"
#include "integrator/wavefront.h"
#include "io/scene/obj_loader.h"
#include "io/scene/scene_loader.h"
#include "render_test_scenes.h"

namespace raystream {
namespace {

struct HitResult {
  float t;
  int material;
  glm::vec3 normal;
  int any;  // bit 0: any_hit up to 1.5 t (or kNoHit on a miss); bit 1: any_hit up to 0.5 t
};

struct TraceBody {
  SceneGeometry geometry;
  const Ray* rays;
  HitResult* out;
  RAYSTREAM_HD void operator()(std::size_t i) const {
    const Hit hit = closest_hit(geometry, rays[i]);
    HitResult r;
    r.t = hit.t;
    r.material = hit.material;
    r.normal = hit.normal;
    const float t = hit.t < kNoHit ? hit.t : kNoHit / 2;
    r.any = (any_hit(geometry, rays[i], kMinHitDistance, 1.5f * t) ? 1 : 0) |
            (any_hit(geometry, rays[i], kMinHitDistance, 0.5f * t) ? 2 : 0);
    out[i] = r;
  }
};

// Copies a host vector into a device buffer.
template <class T>
Buffer<T> upload(const Executor& ex, const char* what, const std::vector<T>& host) {
  Buffer<T> b(ex, what, host.size(), nullptr);
  copy_from_host(ex, b.data(), host.data(), host.size() * sizeof(T));
  return b;
}

Scene bunny_with_objects() {
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
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> pos(-0.8f, 0.8f), size(0.05f, 0.4f);
  for (int k = 0; k < 16; ++k) {
    Object o;
    o.shape = k % 2 ? ShapeType::cube : ShapeType::sphere;
    o.material = 1;
    o.translation = glm::vec3(pos(rng), pos(rng) + 0.4f, pos(rng));
    o.rotation_degrees = glm::vec3(10.0f * k, 5.0f * k, 0.0f);
    o.scale = glm::vec3(size(rng), size(rng), size(rng));
    s.objects.push_back(o);
  }
  return s;
}

TEST(MeshGpu, ClosestAndAnyHitsMatchTheCpu) {
  const Scene scene = bunny_with_objects();
  for (bool use_bvh : {true, false}) {
    SCOPED_TRACE(use_bvh ? "BVH" : "brute force");
    const SceneAcceleration acc = build_scene_acceleration(scene, use_bvh);
    const int n = use_bvh ? 200000 : 4000;
    std::vector<Ray> rays(n);
    std::mt19937 rng(99);
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
    for (Ray& r : rays) {
      r.origin = glm::vec3(unit(rng) * 2.5f, unit(rng) * 2.5f + 0.4f, unit(rng) * 2.5f);
      const glm::vec3 target(unit(rng) * 0.7f, unit(rng) * 0.7f + 0.4f, unit(rng) * 0.5f);
      r.direction = glm::normalize(target - r.origin + glm::vec3(1e-4f));
    }
    Executor gpu;
    gpu.kind = ExecutorKind::gpu;
    Buffer<SceneObject> objects = upload(gpu, "objects", acc.objects);
    Buffer<TriangleGeometry> triangles = upload(gpu, "triangles", acc.triangles);
    Buffer<TriangleShading> shading = upload(gpu, "shading", acc.shading);
    Buffer<BvhNode> nodes = upload(gpu, "nodes", acc.nodes);
    Buffer<std::int32_t> prims = upload(gpu, "primitives", acc.primitives);
    Buffer<Ray> d_rays = upload(gpu, "rays", rays);
    Buffer<HitResult> d_out(gpu, "hits", rays.size(), nullptr);
    SceneGeometry g = acc.geometry();
    g.objects = objects.data();
    g.triangles = triangles.data();
    g.triangle_shading = shading.data();
    g.nodes = nodes.data();
    g.primitives = prims.data();
    parallel_for(gpu, "trace test", rays.size(), TraceBody{g, d_rays.data(), d_out.data()});
    std::vector<HitResult> device(rays.size());
    copy_to_host(gpu, device.data(), d_out.data(), device.size() * sizeof(HitResult));

    std::vector<HitResult> host(rays.size());
    const TraceBody body{acc.geometry(), rays.data(), host.data()};
    for (std::size_t i = 0; i < rays.size(); ++i) body(i);

    // Same code; fused multiply-adds on the device may move a t by rounding or, rarely, flip a
    // hit on an edge, so allow a few rays in 10^4 to differ and t to differ by rounding.
    int hits = 0, differ = 0;
    for (std::size_t i = 0; i < rays.size(); ++i) {
      const HitResult& a = device[i];
      const HitResult& b = host[i];
      if (b.t < kNoHit) ++hits;
      const bool both_miss = a.t >= kNoHit && b.t >= kNoHit;
      const bool close = a.t < kNoHit && b.t < kNoHit && std::fabs(a.t - b.t) <= 1e-4f * b.t &&
                         a.material == b.material;
      if (!(both_miss || close) || a.any != b.any) ++differ;
      EXPECT_EQ(b.any, b.t < kNoHit ? 1 : 0) << i;  // hit up to 1.5 t, nothing before 0.5 t
      if (a.t < kNoHit) {
        ASSERT_NEAR(glm::length(a.normal), 1.0f, 1e-3f) << i;
        ASSERT_GE(a.material, 0);
      }
    }
    std::printf("%s: %d rays, %d hits, %d differ\n", use_bvh ? "bvh" : "brute", n, hits, differ);
    EXPECT_GT(hits, n / 4);
    EXPECT_LE(differ, n / 2000 + 1);
  }
}

RenderResult render_own(const Scene& scene, const RenderSettings& s) {
  return render_wavefront(scene, s, own_primitives::path_primitives());
}

void expect_gpu_matches_cpu(const Scene& scene, bool use_bvh) {
  RenderSettings s = test::settings_for(scene, ExecutorKind::gpu, 16);
  s.width = 64;
  s.height = 64;
  s.use_bvh = use_bvh;
  const RenderResult gpu = render_own(scene, s);
  test::expect_all_finite(gpu.image);
  test::expect_consistent_stats(gpu, s);
  EXPECT_EQ(gpu.stats.bvh.built, use_bvh);
  s.executor = ExecutorKind::cpu;
  const RenderResult cpu = render_own(scene, s);
  s.seed += 7;
  const RenderResult cpu_other_seed = render_own(scene, s);
  const double noise = test::rms_difference(cpu.image, cpu_other_seed.image);
  const double diff = test::rms_difference(gpu.image, cpu.image);
  std::printf("%s (%s): rms GPU vs CPU %.5f, CPU seed vs seed %.5f\n", scene.path.c_str(),
              use_bvh ? "bvh" : "brute", diff, noise);
  EXPECT_GT(noise, 0.0);
  EXPECT_LT(diff, 0.5 * noise);
  for (int c = 0; c < 3; ++c) {
    const double g = test::mean_channel(gpu.image, c), m = test::mean_channel(cpu.image, c);
    EXPECT_GT(m, 0.0) << "channel " << c << ": the light must reach the image";
    EXPECT_NEAR(g, m, 0.02 * m + 1e-6) << "channel " << c;
  }
}

TEST(MeshGpu, CornellBoxObjRendersAsOnTheCpu) {
  std::vector<std::string> warnings;
  const Scene scene = load_scene("scenes/cornell_box_original.json", warnings);
  expect_gpu_matches_cpu(scene, true);
  expect_gpu_matches_cpu(scene, false);
}

TEST(MeshGpu, BunnyRendersAsOnTheCpu) {
  std::vector<std::string> warnings;
  const Scene scene = load_scene("scenes/bunny.json", warnings);
  expect_gpu_matches_cpu(scene, true);
}

TEST(MeshGpu, DragonFullHdFrame) {
  std::vector<std::string> warnings;
  const Scene scene = load_scene("scenes/dragon.json", warnings);
  RenderSettings s = test::settings_for(scene, ExecutorKind::gpu, 2);
  s.width = 1920;
  s.height = 1080;
  const RenderResult r = render_own(scene, s);
  test::expect_all_finite(r.image);
  test::expect_consistent_stats(r, s);
  EXPECT_TRUE(r.stats.bvh.built);
  EXPECT_GT(r.stats.bvh.triangles, 46000u);
  EXPECT_LE(r.stats.bvh.depth, kBvhMaxDepth);
  EXPECT_GT(test::mean_channel(r.image, 0), 0.0);
}

}  // namespace
}  // namespace raystream
