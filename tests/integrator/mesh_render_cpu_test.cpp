// Mesh scenes end to end on the CPU executor: the Cornell Box OBJ lights itself, the BVH and the
// brute-force loop give the same image, and the report carries the BVH's numbers.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "integrator/api/render.h"
#include "io/scene/scene_loader.h"
#include "render_test_scenes.h"

namespace raystream {
namespace {

TEST(MeshRenderCpu, CornellBoxObjWithAndWithoutTheBvh) {
  std::vector<std::string> warnings;
  const Scene scene = load_scene("scenes/cornell_box_original.json", warnings);
  RenderSettings s = test::settings_for(scene, ExecutorKind::cpu, 4);
  s.width = 32;
  s.height = 32;
  const RenderResult bvh = render(scene, s);
  test::expect_all_finite(bvh.image);
  test::expect_consistent_stats(bvh, s);
  EXPECT_TRUE(bvh.stats.bvh.built);
  EXPECT_EQ(bvh.stats.bvh.triangles, 36u);
  EXPECT_EQ(bvh.stats.bvh.primitives, 36u);
  EXPECT_EQ(bvh.stats.bvh.nodes, 2 * bvh.stats.bvh.leaves - 1);
  EXPECT_GT(bvh.stats.bvh.sah_cost, 0.0);
  EXPECT_GE(bvh.stats.bvh.build_ms, 0.0);
  for (int c = 0; c < 3; ++c) EXPECT_GT(test::mean_channel(bvh.image, c), 0.0) << c;

  s.use_bvh = false;
  const RenderResult brute = render(scene, s);
  EXPECT_FALSE(brute.stats.bvh.built);
  EXPECT_EQ(brute.stats.bvh.nodes, 0u);
  // The same closest hits, so the same paths: equal images up to a rare tie on a shared edge.
  s.seed += 5;
  const RenderResult other_seed = render(scene, s);
  const double noise = test::rms_difference(brute.image, other_seed.image);
  EXPECT_LT(test::rms_difference(bvh.image, brute.image), 0.1 * noise);
}

TEST(MeshRenderCpu, BunnyAndObjectsTogether) {
  std::vector<std::string> warnings;
  Scene scene = load_scene("scenes/bunny.json", warnings);
  // A sphere and a cube beside the bunny: one BVH over all three kinds.
  Object sphere;
  sphere.shape = ShapeType::sphere;
  sphere.material = 0;
  sphere.translation = glm::vec3(-0.6f, 0.3f, 0.3f);
  sphere.scale = glm::vec3(0.4f);
  Object cube = sphere;
  cube.shape = ShapeType::cube;
  cube.translation = glm::vec3(0.6f, 0.2f, 0.3f);
  scene.objects = {sphere, cube};
  RenderSettings s = test::settings_for(scene, ExecutorKind::cpu, 2);
  s.width = 24;
  s.height = 24;
  const RenderResult r = render(scene, s);
  test::expect_all_finite(r.image);
  EXPECT_EQ(r.stats.bvh.primitives, r.stats.bvh.triangles + 2);
  EXPECT_GT(r.stats.bvh.triangles, 20000u);
  EXPECT_GT(test::mean_channel(r.image, 1), 0.0);
}

}  // namespace
}  // namespace raystream
