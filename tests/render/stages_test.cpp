// The loop's stages one at a time on the CPU executor: live bounds, dead bits, material keys,
// deposits on the film, per-depth counts, the refill of a stream pool, compaction and sorting of
// path ids, and the megakernel against the stages.
#include "integrator/stages/stages.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "integrator/backend/executor.h"
#include "integrator/backend/path_primitives.h"
#include "integrator/path/path_buffers.h"
#include "integrator/path/path_state.h"
#include "integrator/scene_upload.h"
#include "integrator/wavefront.h"
#include "render_test_scenes.h"

namespace raystream {
namespace {

const Executor kCpu{ExecutorKind::cpu, nullptr};
constexpr std::uint16_t kDeadKey = 2;
constexpr std::uint32_t D = kDeadBit;

// The path state of n paths (PathBuffers in host memory, every field set), per-depth counters,
// a film, and a scene: a diffuse sphere at z = -5 (material 0) and an emitting cube at z = +5
// (material 1).
struct Fixture {
  static constexpr int kMaxDepth = 9;
  static constexpr std::size_t kPixels = 16;

  explicit Fixture(std::size_t n)
      : buffers(kCpu, n, nullptr),
        paths(buffers.view()),
        keys(n, 0xABCD),
        film(kPixels, glm::vec3(0.0f)),
        paths_in(kMaxDepth, 0),
        paths_out(kMaxDepth, 0) {
    PathSample p;  // at the origin, looking up: misses everything
    p.direction = glm::vec3(0.0f, 1.0f, 0.0f);
    p.throughput = glm::vec3(1.0f);
    SurfaceHit hit;
    hit.point = glm::vec3(-1.0f);
    hit.normal = glm::vec3(-1.0f);
    hit.material = -7;
    hit.light = -1;
    for (std::size_t i = 0; i < n; ++i) {
      p.pixel = static_cast<std::uint32_t>(i % kPixels);
      paths.store(static_cast<std::uint32_t>(i), p);
      paths.store(static_cast<std::uint32_t>(i), hit);
      paths.store(static_cast<std::uint32_t>(i), ShadowRay{});
    }
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
    view.geometry.objects = objects.data();
    view.geometry.object_count = 2;
    view.materials = materials.data();
    view.material_count = 2;
  }
  FilmView film_view(bool count_samples = false) { return FilmView{film.data(), count_samples}; }
  DepthCounts counts() { return DepthCounts{paths_in.data(), paths_out.data()}; }

  PathBuffers buffers;
  PathState paths;
  std::vector<std::uint16_t> keys;
  std::vector<glm::vec3> film;
  std::vector<unsigned long long> paths_in, paths_out;
  std::vector<SceneObject> objects;
  std::vector<MaterialData> materials;
  SceneView view;
};

using Counts = std::vector<unsigned long long>;

TEST(Stages, IntersectHonoursTheBoundWritesKeysAndDepositsEscapedPaths) {
  Fixture f(8);
  PathState& p = f.paths;
  const glm::vec3 to_sphere(0.0f, 0.0f, -1.0f), to_light(0.0f, 0.0f, 1.0f);
  // Slots 0..4 are within the bound (5); slot 4 is dead; slot 5 would hit but lies past the
  // bound.
  std::vector<std::uint32_t> ids = {3, 1, 0, 2, 7 | D, 4, 5, 6};
  p.direction[3] = to_sphere;  // slot 0
  p.direction[1] = to_light;   // slot 1
  // path 0 (slot 2) misses and carries radiance; path 2 (slot 3) hits the sphere
  p.radiance[0] = glm::vec3(0.25f, 0.5f, 1.0f);
  p.pixel[0] = 5;
  p.direction[2] = to_sphere;
  p.direction[4] = to_sphere;  // slot 5, past the bound
  p.depth[3] = 0;
  p.depth[1] = 2;
  p.depth[0] = 1;
  p.depth[2] = 1;
  p.depth[7] = 4;  // the dead slot's path: not counted
  p.depth[4] = 6;  // past the bound: not counted
  const std::size_t live = 5;
  intersect_paths(kCpu, f.view, p, ids.data(), LiveBound{&live, 8}, f.keys.data(), kDeadKey,
                  f.film_view(), f.counts());
  // The escaped path gets the dead bit and keeps its state index.
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{3, 1, 0 | D, 2, 7 | D, 4, 5, 6}));
  EXPECT_EQ(f.keys, (std::vector<std::uint16_t>{0, 1, kDeadKey, 0, kDeadKey, kDeadKey, kDeadKey,
                                                kDeadKey}));
  EXPECT_EQ(p.hit_material[3], 0);
  EXPECT_EQ(p.hit_material[1], 1);
  EXPECT_EQ(p.hit_material[0], -7);  // escaped
  EXPECT_EQ(p.hit_material[4], -7);  // past the bound: untouched
  EXPECT_NEAR(p.hit_point[3].z, -4.5f, 1e-5f);
  EXPECT_NEAR(p.hit_normal[3].z, 1.0f, 1e-5f);
  EXPECT_NEAR(p.hit_point[1].z, 4.5f, 1e-5f);
  // Only the escaped path deposited, on its pixel.
  for (std::size_t px = 0; px < f.film.size(); ++px)
    EXPECT_EQ(f.film[px], px == 5 ? glm::vec3(0.25f, 0.5f, 1.0f) : glm::vec3(0.0f)) << px;
  // paths_in per depth: depth 0 (path 3), depth 1 (paths 0 and 2), depth 2 (path 1).
  EXPECT_EQ(f.paths_in, (Counts{1, 2, 1, 0, 0, 0, 0, 0, 0}));
  EXPECT_EQ(f.paths_out, Counts(Fixture::kMaxDepth, 0));

  // No bound (every slot), no keys: slot 5's path now counts and hits.
  Fixture g(8);
  std::vector<std::uint32_t> all = {0, 1, 2 | D, 3, 4, 5, 6, 7};
  g.paths.direction[4] = to_sphere;
  intersect_paths(kCpu, g.view, g.paths, all.data(), LiveBound{nullptr, 8}, nullptr, kDeadKey,
                  g.film_view(), g.counts());
  EXPECT_EQ(all, (std::vector<std::uint32_t>{0 | D, 1 | D, 2 | D, 3 | D, 4, 5 | D, 6 | D, 7 | D}));
  EXPECT_EQ(g.paths.hit_material[4], 0);
  EXPECT_EQ(g.paths_in[0], 7u);
  // Escaped paths with no radiance deposit nothing.
  for (const glm::vec3& v : g.film) EXPECT_EQ(v, glm::vec3(0.0f));
}

// Four paths within a bound of 4 (one dead), one past it: a diffuse hit at depth 0 that goes on,
// an emitter hit that ends, a diffuse hit at the last depth that ends.
void set_up_shading(Fixture& f, std::vector<std::uint32_t>& ids) {
  PathState& p = f.paths;
  ids = {0, 1, 2 | D, 3, 4, 5};
  p.direction[0] = glm::vec3(0.0f, 0.0f, -1.0f);  // sphere
  p.direction[1] = glm::vec3(0.0f, 0.0f, 1.0f);   // light
  p.direction[3] = glm::vec3(0.0f, 0.0f, -1.0f);  // sphere, at the last depth
  p.direction[4] = glm::vec3(0.0f, 0.0f, -1.0f);  // sphere, but past the bound below
  p.throughput[1] = glm::vec3(0.5f);
  p.pixel[1] = 11;
  p.radiance[3] = glm::vec3(0.5f, 0.25f, 0.125f);
  p.depth[3] = Fixture::kMaxDepth - 1;
  p.pixel[3] = 13;
  const std::size_t all = 6;
  intersect_paths(kCpu, f.view, p, ids.data(), LiveBound{&all, 6}, nullptr, kDeadKey, f.film_view(),
                  f.counts());
  ASSERT_EQ(ids, (std::vector<std::uint32_t>{0, 1, 2 | D, 3, 4, 5 | D}));
  f.paths_in.assign(Fixture::kMaxDepth, 0);
}

TEST(Stages, ShadeAddsEmissionDepositsEndedPathsAndContinuesOthers) {
  Fixture f(6);
  PathState& p = f.paths;
  std::vector<std::uint32_t> ids;
  set_up_shading(f, ids);
  const std::size_t live = 4;
  shade_paths(kCpu, f.view, p, ids.data(), nullptr, LiveBound{&live, 6}, Fixture::kMaxDepth, 99,
              f.film_view(), f.counts());
  // The light: radiance = throughput * colour * emittance, deposited on pixel 11 (below), and
  // the path ends.
  EXPECT_EQ(ids[1], 1u | D);
  // The last depth: ends on the diffuse sphere and deposits what it carried.
  EXPECT_EQ(ids[3], 3u | D);
  for (std::size_t px = 0; px < f.film.size(); ++px) {
    const glm::vec3 expected = px == 11   ? glm::vec3(1.0f, 2.0f, 3.0f)
                               : px == 13 ? glm::vec3(0.5f, 0.25f, 0.125f)
                                          : glm::vec3(0.0f);
    EXPECT_EQ(f.film[px], expected) << "pixel " << px;
  }
  // The diffuse sphere at depth 0: weight 0.5, a new ray from just above the surface, leaving
  // it, one bounce deeper.
  EXPECT_EQ(ids[0], 0u);
  EXPECT_EQ(p.throughput[0], glm::vec3(0.5f));
  EXPECT_GT(p.origin[0].z, -4.5f);
  EXPECT_LT(p.origin[0].z, -4.4f);
  EXPECT_GT(glm::dot(p.direction[0], glm::vec3(0.0f, 0.0f, 1.0f)), 0.0f);
  EXPECT_EQ(p.radiance[0], glm::vec3(0.0f));
  EXPECT_EQ(p.depth[0], 1);
  // paths_out per depth: only the path that went on, at the depth it was shaded at.
  Counts expected_out(Fixture::kMaxDepth, 0);
  expected_out[0] = 1;
  EXPECT_EQ(f.paths_out, expected_out);
  EXPECT_EQ(f.paths_in, Counts(Fixture::kMaxDepth, 0));  // shade counts no paths in
  // Past the bound and the dead slot: nothing changes.
  EXPECT_EQ(ids[4], 4u);
  EXPECT_EQ(p.throughput[4], glm::vec3(1.0f));
  EXPECT_EQ(p.depth[4], 0);
  EXPECT_EQ(ids[2], 2u | D);
}

TEST(Stages, ShadeCountingSamplesDepositsOnePerEndedPath) {
  Fixture f(6);
  std::vector<std::uint32_t> ids;
  set_up_shading(f, ids);
  const std::size_t live = 4;
  shade_paths(kCpu, f.view, f.paths, ids.data(), nullptr, LiveBound{&live, 6}, Fixture::kMaxDepth,
              99, f.film_view(true), f.counts());
  for (std::size_t px = 0; px < f.film.size(); ++px)
    EXPECT_EQ(f.film[px], px == 11 || px == 13 ? glm::vec3(1.0f) : glm::vec3(0.0f)) << px;
}

TEST(Stages, DepositAddsSkipsNonFiniteAndCountsSamples) {
  std::vector<glm::vec3> sums(4, glm::vec3(1.0f));
  const FilmView film{sums.data(), false};
  deposit(film, 2, glm::vec3(0.5f, 0.25f, 2.0f));
  deposit(film, 2, glm::vec3(0.5f, 0.25f, 2.0f));
  EXPECT_EQ(sums[2], glm::vec3(2.0f, 1.5f, 5.0f));
  deposit(film, 3, glm::vec3(std::nanf(""), 1.0f, 1.0f));  // dropped: never poisons the film
  deposit(film, 3, glm::vec3(1.0f, std::numeric_limits<float>::infinity(), 1.0f));
  EXPECT_EQ(sums[3], glm::vec3(1.0f));
  EXPECT_EQ(sums[0], glm::vec3(1.0f));
  // Counting samples: every deposit adds exactly 1, whatever the path carried.
  const FilmView counting{sums.data(), true};
  deposit(counting, 0, glm::vec3(0.0f));
  deposit(counting, 0, glm::vec3(std::nanf(""), 5.0f, 7.0f));
  EXPECT_EQ(sums[0], glm::vec3(3.0f));
}

TEST(Stages, CountDepthAddsOnePerCall) {
  Counts counts(4, 0);
  count_depth(counts.data(), 2);
  count_depth(counts.data(), 2);
  count_depth(counts.data(), 0);
  EXPECT_EQ(counts, (Counts{1, 0, 2, 0}));
}

TEST(Stages, CompactAndSortPathIds) {
  const std::vector<std::uint32_t> ids = {7, 1 | D, 2, 9, 3 | D, 5 | D, 4, 0};
  const std::size_t n = ids.size();
  const PathPrimitives& cpu = cpu_path_primitives();
  prim::Workspace ws;
  const std::uint32_t sentinel = 99;

  // Compaction keeps the live ids in order; the output past the count is left as it was.
  std::vector<std::uint32_t> out(n, sentinel);
  std::size_t kept = 0;
  std::size_t live = n;
  cpu.compact_live(ids.data(), out.data(), n, &live, &kept, ws, nullptr);
  EXPECT_EQ(kept, 5u);
  EXPECT_EQ(out, (std::vector<std::uint32_t>{7, 2, 9, 4, 0, sentinel, sentinel, sentinel}));
  // Only the first `live` slots are read.
  live = 4;
  std::vector<std::uint32_t> out4(n, sentinel);
  cpu.compact_live(ids.data(), out4.data(), n, &live, &kept, ws, nullptr);
  EXPECT_EQ(kept, 3u);
  EXPECT_EQ(out4, (std::vector<std::uint32_t>{7, 2, 9, sentinel, sentinel, sentinel, sentinel,
                                              sentinel}));

  // A live count beyond n reads n slots; a live count of 0 reads nothing.
  live = n + 5;
  std::vector<std::uint32_t> out_all(n, sentinel);
  cpu.compact_live(ids.data(), out_all.data(), n, &live, &kept, ws, nullptr);
  EXPECT_EQ(kept, 5u);
  EXPECT_EQ(out_all, out);
  live = 0;
  std::vector<std::uint32_t> out0(n, sentinel);
  cpu.compact_live(ids.data(), out0.data(), n, &live, &kept, ws, nullptr);
  EXPECT_EQ(kept, 0u);
  EXPECT_EQ(out0, std::vector<std::uint32_t>(n, sentinel));

  // Dead slots carry the dead key (here 3 materials -> key 3) and sort last, stably.
  const std::vector<std::uint16_t> keys = {2, 3, 0, 2, 3, 3, 0, 1};
  std::vector<std::uint16_t> keys_out(keys.size());
  std::vector<std::uint32_t> ids_out(n);
  for (const bool multisplit : {false, true}) {
    SCOPED_TRACE(multisplit ? "multisplit" : "radix sort");
    cpu.sort_by_material(keys.data(), keys_out.data(), ids.data(), ids_out.data(), n,
                         material_key_bits(3), multisplit, ws, nullptr);
    EXPECT_EQ(keys_out, (std::vector<std::uint16_t>{0, 0, 1, 2, 2, 3, 3, 3}));
    EXPECT_EQ(ids_out, (std::vector<std::uint32_t>{2, 4, 0, 7, 9, 1 | D, 3 | D, 5 | D}));
  }
}

TEST(Stages, IdsKeepTheStateIndexUnderTheDeadBit) {
  EXPECT_TRUE(is_live_id(0));
  EXPECT_TRUE(is_live_id(kDeadBit - 1));
  EXPECT_FALSE(is_live_id(kDeadBit));
  EXPECT_FALSE(is_live_id(12345u | kDeadBit));
  EXPECT_EQ((12345u | kDeadBit) & ~kDeadBit, 12345u);
  EXPECT_FALSE(IsLivePath{}(0xFFFFFFFFu));
  const std::size_t count = 7;
  EXPECT_EQ(live_slots(LiveBound{&count, 10}), 7u);
  EXPECT_EQ(live_slots(LiveBound{&count, 5}), 5u);
  EXPECT_EQ(live_slots(LiveBound{nullptr, 5}), 5u);
}

TEST(Stages, GenerateCameraPaths) {
  Scene scene;
  const std::size_t n = 6 * 4;
  Fixture f(n);
  f.view.camera = make_camera_frame(scene.camera, 6, 4);
  PathState& p = f.paths;
  std::vector<std::uint32_t> ids(n, 12345);
  std::size_t live = 0;
  generate_camera_paths(kCpu, f.view, p, ids.data(), n, &live, 3, 42);
  EXPECT_EQ(live, n);
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ids[i], i);
    EXPECT_EQ(p.origin[i], scene.camera.eye);
    EXPECT_NEAR(glm::length(p.direction[i]), 1.0f, 1e-5f);
    EXPECT_EQ(p.throughput[i], glm::vec3(1.0f));
    EXPECT_EQ(p.radiance[i], glm::vec3(0.0f));
    EXPECT_EQ(p.pixel[i], i);
    EXPECT_EQ(p.sample[i], 3u);
    EXPECT_EQ(p.depth[i], 0);
    // The same camera path the megakernel starts from.
    const PathSample expected = camera_path(f.view.camera, std::uint32_t(i), 3, 42);
    EXPECT_EQ(p.direction[i], expected.direction);
  }
  // Row 0 looks up, the last row down; column 0 left, the last column right.
  EXPECT_GT(p.direction[0].y, p.direction[n - 1].y);
  EXPECT_LT(p.direction[0].x, p.direction[5].x);
  // Another sample or seed jitters the rays differently.
  const PathSample other = camera_path(f.view.camera, 0, 4, 42);
  EXPECT_NE(other.direction, p.direction[0]);
}

// Expects slot `to_slot` of `to` to hold the carried state of slot `from_slot` of `from`.
void expect_carried(const PathState& from, std::uint32_t from_slot, const PathState& to,
                    std::uint32_t to_slot) {
  SCOPED_TRACE("slot " + std::to_string(to_slot) + " from " + std::to_string(from_slot));
#define RAYSTREAM_TEST_EXPECT_MOVED(type, name, member, what) \
  EXPECT_EQ(to.name[to_slot], from.name[from_slot]) << what;
  RAYSTREAM_PATH_CARRIED_FIELDS(RAYSTREAM_TEST_EXPECT_MOVED)
#undef RAYSTREAM_TEST_EXPECT_MOVED
}

// Expects slot `slot` of `to` to hold the camera path of sample k.
void expect_camera_path(const SceneView& view, const PathState& to, std::uint32_t slot,
                        std::uint32_t k, std::uint32_t pixels, std::uint64_t seed) {
  SCOPED_TRACE("slot " + std::to_string(slot) + ", sample index " + std::to_string(k));
  const PathSample expected = camera_path(view.camera, k % pixels, k / pixels, seed);
  EXPECT_EQ(to.pixel[slot], k % pixels);
  EXPECT_EQ(to.sample[slot], k / pixels);
  EXPECT_EQ(to.depth[slot], 0);
  EXPECT_EQ(to.throughput[slot], glm::vec3(1.0f));
  EXPECT_EQ(to.radiance[slot], glm::vec3(0.0f));
  EXPECT_EQ(to.origin[slot], expected.origin);
  EXPECT_EQ(to.direction[slot], expected.direction);
}

TEST(Stages, RefillPacksSurvivorsStartsNewSamplesAndAdvanceCountsThem) {
  Scene scene;
  const std::uint32_t pixels = 6;
  const unsigned long long total = 2 * pixels;  // 12 samples
  const std::size_t pool = 8;
  const std::uint64_t seed = 7;
  Fixture a(pool), b(pool);
  a.view.camera = make_camera_frame(scene.camera, 3, 2);
  const SceneView& view = a.view;
  std::vector<std::uint32_t> ids(pool, 12345u);  // not read: no survivors yet
  StreamCounters counters;
  WaveRecord record;

  // Wave 1: no survivors; samples 0..7 start in slots 0..7 of b.
  refill_paths(kCpu, view, a.paths, b.paths, ids.data(), pool, &counters, total, pixels, seed);
  advance_stream(kCpu, &counters, pool, total, &record);
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(counters.issued, 8u);
  EXPECT_EQ(counters.active, 8u);
  EXPECT_EQ(counters.live, 0u);
  EXPECT_EQ(record.live_in, 0u);
  EXPECT_EQ(record.regenerated, 8u);
  for (std::uint32_t slot = 0; slot < pool; ++slot)
    expect_camera_path(view, b.paths, slot, slot, pixels, seed);

  // Wave 2: the compaction kept the paths in slots 6, 1 and 4 of b, in that order. They move to
  // slots 0..2 of a, with every carried field; the four samples left start in slots 3..6; slot 7
  // stays empty.
  ids = {6, 1, 4, 999, 999, 999, 999, 999};
  counters.live = 3;
  for (std::uint32_t s : {6u, 1u, 4u}) {
    b.paths.depth[s] = int(s) % 5 + 1;
    b.paths.throughput[s] = glm::vec3(0.25f * float(s));
    b.paths.radiance[s] = glm::vec3(0.5f, 0.125f * float(s), 2.0f);
    b.paths.origin[s] = glm::vec3(float(s), -1.0f, 3.0f);
  }
  for (std::size_t i = 0; i < pool; ++i) a.paths.hit_material[i] = -7;
  refill_paths(kCpu, view, b.paths, a.paths, ids.data(), pool, &counters, total, pixels, seed);
  advance_stream(kCpu, &counters, pool, total, &record);
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 1, 2, 3, 4, 5, 6, 7 | D}));
  EXPECT_EQ(counters.issued, total);
  EXPECT_EQ(counters.active, 7u);
  EXPECT_EQ(record.live_in, 3u);
  EXPECT_EQ(record.regenerated, 4u);
  expect_carried(b.paths, 6, a.paths, 0);
  expect_carried(b.paths, 1, a.paths, 1);
  expect_carried(b.paths, 4, a.paths, 2);
  for (std::uint32_t slot = 3; slot < 7; ++slot)
    expect_camera_path(view, a.paths, slot, 8 + (slot - 3), pixels, seed);
  // The hit fields are not carried: the next intersection writes them.
  for (std::size_t i = 0; i < pool; ++i) EXPECT_EQ(a.paths.hit_material[i], -7) << i;

  // Wave 3: every sample issued; two survivors (slots 1 and 0 of a) and nothing else.
  counters.live = 2;
  ids = {1, 0, 999, 999, 999, 999, 999, 999};
  refill_paths(kCpu, view, a.paths, b.paths, ids.data(), pool, &counters, total, pixels, seed);
  advance_stream(kCpu, &counters, pool, total, &record);
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 1, 2 | D, 3 | D, 4 | D, 5 | D, 6 | D, 7 | D}));
  EXPECT_EQ(counters.issued, total);
  EXPECT_EQ(counters.active, 2u);
  EXPECT_EQ(record.live_in, 2u);
  EXPECT_EQ(record.regenerated, 0u);
  expect_carried(a.paths, 1, b.paths, 0);
  expect_carried(a.paths, 0, b.paths, 1);

  // Wave 4: nothing left; every slot empty.
  counters.live = 0;
  refill_paths(kCpu, view, b.paths, a.paths, ids.data(), pool, &counters, total, pixels, seed);
  advance_stream(kCpu, &counters, pool, total, &record);
  for (std::size_t i = 0; i < pool; ++i) EXPECT_EQ(ids[i], std::uint32_t(i) | D) << i;
  EXPECT_EQ(counters.active, 0u);
  EXPECT_EQ(record.live_in, 0u);
  EXPECT_EQ(record.regenerated, 0u);
}

// Runs the stages over every slot, bounce by bounce, for one sample of every pixel.
void trace_with_stages(const SceneView& view, std::size_t n, std::uint32_t sample, int max_depth,
                       std::uint64_t seed, const FilmView& film, const DepthCounts& counts) {
  PathBuffers buffers(kCpu, n, nullptr);
  std::vector<std::uint32_t> ids(n), shadow_ids(n);
  std::size_t live = 0;
  generate_camera_paths(kCpu, view, buffers.view(), ids.data(), n, &live, sample, seed);
  for (int bounce = 0; bounce < max_depth; ++bounce) {
    intersect_paths(kCpu, view, buffers.view(), ids.data(), LiveBound{nullptr, n}, nullptr, 0, film,
                    counts);
    shade_paths(kCpu, view, buffers.view(), ids.data(), shadow_ids.data(), LiveBound{nullptr, n},
                max_depth, seed, film, counts);
    // The shadow queue uncompacted: the stage skips the slots with the dead bit.
    trace_shadow_rays(kCpu, view, buffers.view(), shadow_ids.data(), LiveBound{nullptr, n}, film);
  }
  for (std::size_t i = 0; i < n; ++i) ASSERT_FALSE(is_live_id(ids[i])) << "slot " << i;
}

TEST(Stages, MegakernelTracesWhatTheStagesTrace) {
  // The same per-path code in registers and through the state arrays: one sample per pixel and
  // the same per-depth counts; the sums agree up to the order of the additions (the megakernel
  // adds its shadow rays to the path's radiance, the stages to the film).
  const Scene scene = test::box_scene();
  const int width = 20, height = 16, depth = 8;
  const std::size_t n = std::size_t(width) * height;
  const SceneUpload upload(kCpu, scene, SceneBvh::sah, cpu_path_primitives(), width, height,
                           nullptr);
  for (const bool count_samples : {false, true}) {
    SCOPED_TRACE(count_samples ? "counting samples" : "radiance");
    std::vector<glm::vec3> film_a(n, glm::vec3(0.0f)), film_b(n, glm::vec3(0.0f));
    Counts in_a(depth, 0), out_a(depth, 0), in_b(depth, 0), out_b(depth, 0);
    Counts shadow_a(depth, 0), shadow_b(depth, 0);
    for (std::uint32_t sample : {0u, 1u}) {
      trace_megakernel(kCpu, upload.view(), std::uint32_t(n), sample, depth, 5,
                       FilmView{film_a.data(), count_samples},
                       DepthCounts{in_a.data(), out_a.data(), shadow_a.data()});
      trace_with_stages(upload.view(), n, sample, depth, 5, FilmView{film_b.data(), count_samples},
                        DepthCounts{in_b.data(), out_b.data(), shadow_b.data()});
    }
    EXPECT_EQ(in_a, in_b);
    EXPECT_EQ(out_a, out_b);
    EXPECT_EQ(shadow_a, shadow_b);
    EXPECT_GT(shadow_a[0], 0u);
    EXPECT_EQ(in_a[0], 2 * n);
    EXPECT_EQ(out_a[depth - 1], 0u);
    EXPECT_GT(in_a[3], 0u);
    double sum = 0.0;
    for (std::size_t px = 0; px < n; ++px) {
      for (int c = 0; c < 3; ++c)
        ASSERT_NEAR(film_a[px][c], film_b[px][c], 1e-5f * (1.0f + film_b[px][c])) << "pixel " << px;
      if (count_samples) {
        ASSERT_EQ(film_a[px], glm::vec3(2.0f)) << "pixel " << px;
      }
      sum += film_a[px].x;
    }
    EXPECT_GT(sum, 0.0);
  }
}

}  // namespace
}  // namespace raystream
