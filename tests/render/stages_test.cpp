// The loop's stages one at a time on the CPU executor: live bounds, dead slots, material keys,
// emission, compaction and sorting of path ids.
#include "integrator/stages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "integrator/executor.h"
#include "integrator/path_primitives.h"
#include "integrator/path_state.h"
#include "integrator/wavefront.h"

namespace raystream {
namespace {

// Host arrays for n paths, and a scene: a diffuse sphere at z = -5 (material 0) and an emitting
// cube at z = +5 (material 1).
struct Fixture {
  explicit Fixture(std::size_t n)
      : origin(n, glm::vec3(0.0f)),
        direction(n, glm::vec3(0.0f, 1.0f, 0.0f)),  // up: misses everything
        throughput(n, glm::vec3(1.0f)),
        radiance(n, glm::vec3(0.0f)),
        hit_point(n),
        hit_normal(n),
        hit_material(n, -7),
        keys(n, 0xABCD) {
    Object sphere;
    sphere.translation = glm::vec3(0.0f, 0.0f, -5.0f);
    sphere.material = 0;
    Object light;
    light.shape = ShapeType::cube;
    light.translation = glm::vec3(0.0f, 0.0f, 5.0f);
    light.material = 1;
    objects = {make_scene_object(sphere), make_scene_object(light)};
    Material diffuse;
    diffuse.color = glm::vec3(0.5f);
    Material emitter;
    emitter.type = MaterialType::emitting;
    emitter.color = glm::vec3(1.0f, 2.0f, 3.0f);
    emitter.emittance = 2.0f;
    materials = {make_material_data(diffuse), make_material_data(emitter)};
    view.objects = objects.data();
    view.object_count = 2;
    view.materials = materials.data();
    view.material_count = 2;
  }
  PathState paths() {
    PathState p;
    p.origin = origin.data();
    p.direction = direction.data();
    p.throughput = throughput.data();
    p.radiance = radiance.data();
    p.hit_point = hit_point.data();
    p.hit_normal = hit_normal.data();
    p.hit_material = hit_material.data();
    return p;
  }
  std::vector<glm::vec3> origin, direction, throughput, radiance, hit_point, hit_normal;
  std::vector<std::int32_t> hit_material;
  std::vector<std::uint16_t> keys;
  std::vector<SceneObject> objects;
  std::vector<MaterialData> materials;
  SceneView view;
};

const Executor kCpu{ExecutorKind::cpu, nullptr};
constexpr std::uint16_t kDeadKey = 2;

TEST(Stages, IntersectHonoursTheLiveBoundAndWritesKeys) {
  Fixture f(8);
  const glm::vec3 to_sphere(0.0f, 0.0f, -1.0f), to_light(0.0f, 0.0f, 1.0f);
  // Slots 0..4 are live (bound 5); slot 5 would hit but lies past the bound.
  std::vector<std::uint32_t> ids = {3, 1, 0, 2, kDeadPath, 4, 5, 6};
  f.direction[3] = to_sphere;  // slot 0
  f.direction[1] = to_light;   // slot 1
  // path 0 (slot 2) misses, path 2 (slot 3) hits the sphere
  f.direction[2] = to_sphere;
  f.direction[4] = to_sphere;  // slot 5, past the bound
  const std::size_t live = 5;
  LiveBound bound{&live, 8};
  intersect_paths(kCpu, f.view, f.paths(), ids.data(), bound, f.keys.data(), kDeadKey);
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{3, 1, kDeadPath, 2, kDeadPath, 4, 5, 6}));
  EXPECT_EQ(f.keys, (std::vector<std::uint16_t>{0, 1, kDeadKey, 0, kDeadKey, kDeadKey, kDeadKey,
                                                kDeadKey}));
  EXPECT_EQ(f.hit_material[3], 0);
  EXPECT_EQ(f.hit_material[1], 1);
  EXPECT_EQ(f.hit_material[4], -7);  // past the bound: untouched
  EXPECT_NEAR(f.hit_point[3].z, -4.5f, 1e-5f);
  EXPECT_NEAR(f.hit_normal[3].z, 1.0f, 1e-5f);
  EXPECT_NEAR(f.hit_point[1].z, 4.5f, 1e-5f);
}

TEST(Stages, ShadeAddsEmissionEndsPathsAndContinuesOthers) {
  Fixture f(4);
  std::vector<std::uint32_t> ids = {0, 1, kDeadPath, 3};
  f.direction[0] = glm::vec3(0.0f, 0.0f, -1.0f);  // sphere
  f.direction[1] = glm::vec3(0.0f, 0.0f, 1.0f);   // light
  f.direction[3] = glm::vec3(0.0f, 0.0f, -1.0f);  // sphere, but past the bound below
  f.throughput[1] = glm::vec3(0.5f);
  const std::size_t all = 4;
  intersect_paths(kCpu, f.view, f.paths(), ids.data(), LiveBound{&all, 4}, nullptr, kDeadKey);
  const std::size_t live = 3;
  shade_paths(kCpu, f.view, f.paths(), ids.data(), LiveBound{&live, 4}, 0, 0, 99);
  // The light: radiance = throughput * colour * emittance, and the path ends.
  EXPECT_EQ(f.radiance[1], glm::vec3(1.0f, 2.0f, 3.0f));
  EXPECT_EQ(ids[1], kDeadPath);
  // The diffuse sphere: weight 0.5, a new ray from just above the surface, leaving it.
  EXPECT_EQ(ids[0], 0u);
  EXPECT_EQ(f.throughput[0], glm::vec3(0.5f));
  EXPECT_GT(f.origin[0].z, -4.5f);
  EXPECT_LT(f.origin[0].z, -4.4f);
  EXPECT_GT(glm::dot(f.direction[0], glm::vec3(0.0f, 0.0f, 1.0f)), 0.0f);
  EXPECT_EQ(f.radiance[0], glm::vec3(0.0f));
  // Past the bound nothing changes.
  EXPECT_EQ(ids[3], 3u);
  EXPECT_EQ(f.throughput[3], glm::vec3(1.0f));
}

TEST(Stages, CountCompactAndSortPathIds) {
  const std::vector<std::uint32_t> ids = {7, kDeadPath, 2, 9, kDeadPath, kDeadPath, 4, 0};
  std::size_t count = 0;
  count_live_paths(kCpu, ids.data(), ids.size(), &count);
  EXPECT_EQ(count, 5u);
  count_live_paths(kCpu, ids.data(), ids.size(), &count);  // adds
  EXPECT_EQ(count, 10u);

  const PathPrimitives& cpu = cpu_path_primitives();
  prim::Workspace ws;
  std::vector<std::uint32_t> out(ids.size(), kDeadPath);
  std::size_t kept = 0;
  std::size_t live = ids.size();
  cpu.compact_live(ids.data(), out.data(), ids.size(), &live, &kept, ws, nullptr);
  EXPECT_EQ(kept, 5u);
  EXPECT_EQ(out, (std::vector<std::uint32_t>{7, 2, 9, 4, 0, kDeadPath, kDeadPath, kDeadPath}));
  // Only the first `live` slots are read, and the output past the count is left as it was.
  live = 4;
  std::vector<std::uint32_t> out4(ids.size(), 99);
  cpu.compact_live(ids.data(), out4.data(), ids.size(), &live, &kept, ws, nullptr);
  EXPECT_EQ(kept, 3u);
  EXPECT_EQ(out4, (std::vector<std::uint32_t>{7, 2, 9, 99, 99, 99, 99, 99}));

  // Dead slots carry the dead key (here 3 materials -> key 3) and sort last, stably.
  const std::vector<std::uint16_t> keys = {2, 3, 0, 2, 3, 3, 0, 1};
  std::vector<std::uint16_t> keys_out(keys.size());
  std::vector<std::uint32_t> ids_out(ids.size());
  cpu.sort_by_material(keys.data(), keys_out.data(), ids.data(), ids_out.data(), ids.size(),
                       material_key_bits(3), ws, nullptr);
  EXPECT_EQ(keys_out, (std::vector<std::uint16_t>{0, 0, 1, 2, 2, 3, 3, 3}));
  EXPECT_EQ(ids_out, (std::vector<std::uint32_t>{2, 4, 0, 7, 9, kDeadPath, kDeadPath, kDeadPath}));
}

TEST(Stages, GenerateAndAccumulate) {
  Scene scene;
  const std::size_t n = 6 * 4;
  Fixture f(n);
  f.view.camera = make_camera_frame(scene.camera, 6, 4);
  std::vector<std::uint32_t> ids(n, 12345);
  std::size_t live = 0;
  generate_camera_paths(kCpu, f.view, f.paths(), ids.data(), n, &live, 0, 0);
  EXPECT_EQ(live, n);
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_EQ(ids[i], i);
    EXPECT_EQ(f.origin[i], scene.camera.eye);
    EXPECT_NEAR(glm::length(f.direction[i]), 1.0f, 1e-5f);
    EXPECT_EQ(f.throughput[i], glm::vec3(1.0f));
    EXPECT_EQ(f.radiance[i], glm::vec3(0.0f));
  }
  // Row 0 looks up, the last row down; column 0 left, the last column right.
  EXPECT_GT(f.direction[0].y, f.direction[n - 1].y);
  EXPECT_LT(f.direction[0].x, f.direction[5].x);

  std::vector<glm::vec3> film(n, glm::vec3(1.0f));
  f.radiance[2] = glm::vec3(0.5f, 0.25f, 2.0f);
  f.radiance[3] = glm::vec3(std::nanf(""), 0.0f, 0.0f);  // dropped, never poisons the film
  accumulate_film(kCpu, f.paths(), film.data(), n);
  EXPECT_EQ(film[2], glm::vec3(1.5f, 1.25f, 3.0f));
  EXPECT_EQ(film[3], glm::vec3(1.0f));
  EXPECT_EQ(film[0], glm::vec3(1.0f));
}

}  // namespace
}  // namespace raystream
