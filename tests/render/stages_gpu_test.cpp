// The loop's stages on the GPU executor against the same stages on the CPU executor, one at a time
// (skipped without a CUDA device). When an end-to-end GPU render disagrees, these say which stage.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "geometry/scene_object.h"
#include "integrator/buffer.h"
#include "integrator/executor.h"
#include "integrator/path_primitives.h"
#include "integrator/path_state.h"
#include "integrator/stages.h"
#include "integrator/wavefront.h"
#include "materials/bsdf.h"
#include "primitives/workspace.h"
#include "render_test_scenes.h"

namespace raystream {
namespace {

const Executor kCpu{ExecutorKind::cpu, nullptr};
const Executor kGpu{ExecutorKind::gpu, nullptr};  // the default stream

template <class T>
Buffer<T> upload(const std::vector<T>& host) {
  Buffer<T> b(kGpu, "test data", host.size(), nullptr);
  copy_from_host(kGpu, b.data(), host.data(), host.size() * sizeof(T));
  return b;
}

template <class T>
std::vector<T> download(const Buffer<T>& b) {
  std::vector<T> host(b.size());
  copy_to_host(kGpu, host.data(), b.data(), b.bytes());
  return host;
}

// Path state in host vectors, random rays inside the test box.
struct HostPaths {
  explicit HostPaths(std::size_t n, unsigned seed)
      : origin(n),
        direction(n),
        throughput(n),
        radiance(n),
        hit_point(n),
        hit_normal(n),
        hit_material(n, -1) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (std::size_t i = 0; i < n; ++i) {
      origin[i] = glm::vec3(-4.5f + 9.0f * u(rng), 0.5f + 9.0f * u(rng), -4.5f + 15.0f * u(rng));
      glm::vec3 d(u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f);
      direction[i] = glm::normalize(d + glm::vec3(1e-3f));
      throughput[i] = glm::vec3(0.2f + u(rng), 0.2f + u(rng), 0.2f + u(rng));
      radiance[i] = glm::vec3(u(rng));
    }
  }
  PathState view() {
    return PathState{origin.data(),    direction.data(),  throughput.data(),  radiance.data(),
                     hit_point.data(), hit_normal.data(), hit_material.data()};
  }
  std::vector<glm::vec3> origin, direction, throughput, radiance, hit_point, hit_normal;
  std::vector<std::int32_t> hit_material;
};

struct DevicePaths {
  explicit DevicePaths(const HostPaths& h)
      : origin(upload(h.origin)),
        direction(upload(h.direction)),
        throughput(upload(h.throughput)),
        radiance(upload(h.radiance)),
        hit_point(upload(h.hit_point)),
        hit_normal(upload(h.hit_normal)),
        hit_material(upload(h.hit_material)) {}
  PathState view() {
    return PathState{origin.data(),    direction.data(),  throughput.data(),  radiance.data(),
                     hit_point.data(), hit_normal.data(), hit_material.data()};
  }
  Buffer<glm::vec3> origin, direction, throughput, radiance, hit_point, hit_normal;
  Buffer<std::int32_t> hit_material;
};

// The box scene on both executors.
struct Scenes {
  Scenes() : scene(test::box_scene()) {
    for (const Object& o : scene.objects) objects.push_back(make_scene_object(o));
    for (const Material& m : scene.materials) materials.push_back(make_material_data(m));
    device_objects = upload(objects);
    device_materials = upload(materials);
    host = SceneView{objects.data(), int(objects.size()), materials.data(), int(materials.size()),
                     make_camera_frame(scene.camera, 64, 48)};
    device = host;
    device.objects = device_objects.data();
    device.materials = device_materials.data();
  }
  Scene scene;
  std::vector<SceneObject> objects;
  std::vector<MaterialData> materials;
  Buffer<SceneObject> device_objects;
  Buffer<MaterialData> device_materials;
  SceneView host, device;
};

std::vector<std::uint32_t> shuffled_ids(std::size_t n, std::size_t dead_every, unsigned seed) {
  std::vector<std::uint32_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<std::uint32_t>(i);
  std::shuffle(ids.begin(), ids.end(), std::mt19937(seed));
  for (std::size_t i = 0; i < n; i += dead_every) ids[i] = kDeadPath;
  return ids;
}

void expect_near(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b, float tol,
                 const char* what) {
  ASSERT_EQ(a.size(), b.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (glm::length(a[i] - b[i]) > tol) ++bad;
  EXPECT_LE(bad, a.size() / 1000) << what << ": " << bad << " of " << a.size() << " differ";
}

TEST(StagesGpu, GenerateMatchesCpu) {
  Scenes s;
  const std::size_t n = 64 * 48;
  HostPaths h(n, 1);
  DevicePaths d(h);
  std::vector<std::uint32_t> ids(n, 7);
  Buffer<std::uint32_t> d_ids = upload(ids);
  std::vector<std::size_t> live(1, 0);
  Buffer<std::size_t> d_live = upload(live);
  generate_camera_paths(kCpu, s.host, h.view(), ids.data(), n, live.data(), 3, 42);
  generate_camera_paths(kGpu, s.device, d.view(), d_ids.data(), n, d_live.data(), 3, 42);
  EXPECT_EQ(download(d_ids), ids);
  EXPECT_EQ(download(d_live), live);
  expect_near(download(d.origin), h.origin, 1e-5f, "origin");
  expect_near(download(d.direction), h.direction, 1e-5f, "direction");
  EXPECT_EQ(download(d.throughput), h.throughput);
  EXPECT_EQ(download(d.radiance), h.radiance);
}

TEST(StagesGpu, IntersectMatchesCpuWithBoundsKeysAndDeadSlots) {
  Scenes s;
  const std::size_t n = 100003;
  for (const bool with_bound : {false, true}) {
    SCOPED_TRACE(with_bound ? "live bound" : "all slots");
    HostPaths h(n, 2);
    DevicePaths d(h);
    std::vector<std::uint32_t> ids = shuffled_ids(n, 7, 3);
    std::vector<std::uint16_t> keys(n, 0xABCD);
    Buffer<std::uint32_t> d_ids = upload(ids);
    Buffer<std::uint16_t> d_keys = upload(keys);
    std::vector<std::size_t> live(1, with_bound ? n - 12345 : n);
    Buffer<std::size_t> d_live = upload(live);
    const std::uint16_t dead_key = static_cast<std::uint16_t>(s.materials.size());
    intersect_paths(kCpu, s.host, h.view(), ids.data(), LiveBound{live.data(), n}, keys.data(),
                    dead_key);
    intersect_paths(kGpu, s.device, d.view(), d_ids.data(), LiveBound{d_live.data(), n},
                    d_keys.data(), dead_key);
    const std::vector<std::uint32_t> g_ids = download(d_ids);
    const std::vector<std::uint16_t> g_keys = download(d_keys);
    const std::vector<std::int32_t> g_material = download(d.hit_material);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < n; ++i) differ += g_ids[i] != ids[i] || g_keys[i] != keys[i];
    for (std::size_t p = 0; p < n; ++p) differ += g_material[p] != h.hit_material[p];
    EXPECT_LE(differ, n / 1000) << "slots or paths that differ";  // grazing hits may
    for (std::size_t i = live[0]; i < n; ++i) ASSERT_EQ(g_keys[i], dead_key) << "slot " << i;
    expect_near(download(d.hit_point), h.hit_point, 1e-3f, "hit point");
    expect_near(download(d.hit_normal), h.hit_normal, 1e-3f, "hit normal");
  }
}

TEST(StagesGpu, ShadeMatchesCpu) {
  Scenes s;
  const std::size_t n = 100003;
  HostPaths h(n, 4);
  std::vector<std::uint32_t> ids = shuffled_ids(n, 5, 5);
  std::vector<std::size_t> live(1, n - 999);
  // Hits from the CPU intersect, so both executors shade the same hits.
  intersect_paths(kCpu, s.host, h.view(), ids.data(), LiveBound{live.data(), n}, nullptr, 0);
  DevicePaths d(h);
  Buffer<std::uint32_t> d_ids = upload(ids);
  Buffer<std::size_t> d_live = upload(live);
  for (int bounce : {0, 5}) {
    shade_paths(kCpu, s.host, h.view(), ids.data(), LiveBound{live.data(), n}, 9, bounce, 77);
    shade_paths(kGpu, s.device, d.view(), d_ids.data(), LiveBound{d_live.data(), n}, 9, bounce, 77);
  }
  const std::vector<std::uint32_t> g_ids = download(d_ids);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < n; ++i) differ += g_ids[i] != ids[i];
  EXPECT_LE(differ, n / 1000);
  expect_near(download(d.radiance), h.radiance, 1e-4f, "radiance");
  expect_near(download(d.throughput), h.throughput, 1e-4f, "throughput");
  expect_near(download(d.origin), h.origin, 1e-3f, "origin");
  expect_near(download(d.direction), h.direction, 1e-3f, "direction");
}

TEST(StagesGpu, CountAndAccumulate) {
  for (std::size_t n : {std::size_t(1), std::size_t(31), std::size_t(256), std::size_t(1000003)}) {
    SCOPED_TRACE(n);
    const std::vector<std::uint32_t> ids = shuffled_ids(n, 3, 6);
    std::size_t expected = 0;
    for (std::uint32_t id : ids) expected += id != kDeadPath;
    Buffer<std::uint32_t> d_ids = upload(ids);
    Buffer<std::size_t> d_count = upload(std::vector<std::size_t>(1, 5));
    count_live_paths(kGpu, d_ids.data(), n, d_count.data());
    EXPECT_EQ(download(d_count)[0], expected + 5);
  }
  const std::size_t n = 4099;
  HostPaths h(n, 8);
  h.radiance[17] = glm::vec3(std::nanf(""), 1.0f, 1.0f);
  DevicePaths d(h);
  std::vector<glm::vec3> film(n, glm::vec3(0.25f));
  Buffer<glm::vec3> d_film = upload(film);
  accumulate_film(kCpu, h.view(), film.data(), n);
  accumulate_film(kGpu, d.view(), d_film.data(), n);
  EXPECT_EQ(download(d_film), film);
  EXPECT_EQ(film[17], glm::vec3(0.25f));
}

// The backends' compaction and sort of path ids against the CPU's.
void check_primitives(const PathPrimitives& gpu, const char* name) {
  SCOPED_TRACE(name);
  const PathPrimitives& cpu = cpu_path_primitives();
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(2073600)}) {
    SCOPED_TRACE(n);
    const std::vector<std::uint32_t> ids = shuffled_ids(n, 3, 9);
    std::vector<std::uint16_t> keys(n);
    std::mt19937 rng(10);
    for (std::size_t i = 0; i < n; ++i)
      keys[i] = ids[i] == kDeadPath ? 300 : static_cast<std::uint16_t>(rng() % 300);
    prim::Workspace ws(gpu.workspace_bytes(n, true, material_key_bits(300)));
    prim::Workspace no_ws;

    // All slots live, then the first half: past the live count the slots hold stale ids, which
    // the own backend must not read, or dead ones for the Thrust backend, which reads all n.
    const bool reads_all = std::string(gpu.name()) == "thrust";
    for (std::size_t live : {n, n / 2}) {
      SCOPED_TRACE("live " + std::to_string(live));
      std::vector<std::uint32_t> in = ids;
      for (std::size_t i = live; i < n; ++i) in[i] = reads_all ? kDeadPath : std::uint32_t(i);
      // The outputs start as a sentinel: past the count the own and CPU backends leave it, the
      // Thrust backend leaves dead slots (which its next call relies on).
      const std::uint32_t sentinel = 0x12345678u;
      std::vector<std::uint32_t> out(n, sentinel);
      std::size_t kept = 0;
      cpu.compact_live(in.data(), out.data(), n, &live, &kept, no_ws, nullptr);
      if (reads_all) std::fill(out.begin() + kept, out.end(), kDeadPath);
      Buffer<std::uint32_t> d_in = upload(in);
      Buffer<std::uint32_t> d_out = upload(std::vector<std::uint32_t>(n, sentinel));
      Buffer<std::size_t> d_live = upload(std::vector<std::size_t>(1, live));
      Buffer<std::size_t> d_kept = upload(std::vector<std::size_t>(1, 0));
      gpu.compact_live(d_in.data(), d_out.data(), n, d_live.data(), d_kept.data(), ws, nullptr);
      EXPECT_EQ(download(d_kept)[0], kept);
      EXPECT_EQ(download(d_out), out);
    }
    Buffer<std::uint32_t> d_ids = upload(ids);

    std::vector<std::uint16_t> keys_out(n);
    std::vector<std::uint32_t> ids_out(n);
    cpu.sort_by_material(keys.data(), keys_out.data(), ids.data(), ids_out.data(), n,
                         material_key_bits(300), no_ws, nullptr);
    Buffer<std::uint16_t> d_keys = upload(keys);
    Buffer<std::uint16_t> d_keys_out(kGpu, "keys out", n, nullptr);
    Buffer<std::uint32_t> d_ids_out(kGpu, "ids out", n, nullptr);
    gpu.sort_by_material(d_keys.data(), d_keys_out.data(), d_ids.data(), d_ids_out.data(), n,
                         material_key_bits(300), ws, nullptr);
    EXPECT_EQ(download(d_keys_out), keys_out);
    EXPECT_EQ(download(d_ids_out), ids_out);
  }
}

TEST(StagesGpu, OwnPrimitivesMatchCpu) {
  check_primitives(own_primitives::path_primitives(), "own");
}

TEST(StagesGpu, ThrustPrimitivesMatchCpu) {
  check_primitives(thrust_primitives::path_primitives(), "thrust");
}

}  // namespace
}  // namespace raystream
