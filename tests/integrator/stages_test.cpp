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

#include "execution/executor.h"
#include "execution/path_primitives.h"
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
        paths_out(kMaxDepth, 0),
        shadow_rays(kMaxDepth, 0) {
    PathSample p;  // at the origin, looking up: misses everything
    p.direction = glm::vec3(0.0f, 1.0f, 0.0f);
    p.throughput = glm::vec3(1.0f);
    HitRecord hit;
    hit.t = 123.0f;
    hit.primitive = -7;
    for (std::size_t i = 0; i < n; ++i) {
      p.pixel = static_cast<std::uint32_t>(i % kPixels);
      paths.store_path(static_cast<std::uint32_t>(i), p, true);
      paths.store(static_cast<std::uint32_t>(i), hit);
      paths.store_shadow(static_cast<std::uint32_t>(i), ShadowRay{}, true);
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
    std::vector<TextureBinding> bindings;
    materials = {make_material_data(diffuse, bindings), make_material_data(emitter, bindings)};
    view.geometry.objects = objects.data();
    view.geometry.object_count = 2;
    view.materials = materials.data();
    view.material_count = 2;
    view.nee = false;
  }
  StageContext context(bool count_samples = false) {
    StageContext k;
    k.scene = view;
    k.film.sums = film.data();
    k.film.count_samples = count_samples;
    k.counts = DepthCounts{paths_in.data(), paths_out.data(), shadow_rays.data()};
    k.max_depth = kMaxDepth;
    k.seed = 99;
    return k;
  }

  PathBuffers buffers;
  PathState paths;
  std::vector<std::uint16_t> keys;
  std::vector<glm::vec3> film;
  std::vector<unsigned long long> paths_in, paths_out, shadow_rays;
  std::vector<SceneObject> objects;
  std::vector<MaterialData> materials;
  SceneView view;
};

using Counts = std::vector<unsigned long long>;

TEST(Stages, IntersectWritesHitRecordsWithinTheBoundAndKeys) {
  Fixture f(8);
  PathState& p = f.paths;
  const glm::vec3 to_sphere(0.0f, 0.0f, -1.0f), to_light(0.0f, 0.0f, 1.0f);
  // Slots 0..4 are within the bound (5); slot 4 is dead; slot 5 would hit but lies past the
  // bound.
  const std::vector<std::uint32_t> ids = {3, 1, 0, 2, 7 | D, 4, 5, 6};
  p.direction[3] = to_sphere;  // slot 0
  p.direction[1] = to_light;   // slot 1
  p.direction[2] = to_sphere;  // slot 3; path 0 (slot 2) misses
  p.direction[4] = to_sphere;  // slot 5, past the bound
  const std::size_t live = 5;
  const StageContext k = f.context();
  intersect_paths(kCpu, k, p, ids.data(), LiveBound{&live, 8}, f.keys.data(), kDeadKey, false,
                  nullptr);
  // A miss sorts last, with the dead slots and those past the bound.
  EXPECT_EQ(f.keys, (std::vector<std::uint16_t>{0, 1, kDeadKey, 0, kDeadKey, kDeadKey, kDeadKey,
                                                kDeadKey}));
  EXPECT_NEAR(p.hit_t[3], 4.5f, 1e-5f);
  EXPECT_EQ(p.hit_primitive[3], object_reference(0));
  EXPECT_NEAR(p.hit_t[1], 4.5f, 1e-5f);
  EXPECT_EQ(p.hit_primitive[1], object_reference(1));
  EXPECT_EQ(p.hit_t[0], kNoHit);  // the miss
  EXPECT_EQ(p.hit_t[4], 123.0f);  // past the bound: untouched
  EXPECT_EQ(p.hit_t[7], 123.0f);  // the dead slot's path: untouched
  // Intersect deposits nothing and counts nothing: the shade stage does.
  for (const glm::vec3& v : f.film) EXPECT_EQ(v, glm::vec3(0.0f));
  EXPECT_EQ(f.paths_in, Counts(Fixture::kMaxDepth, 0));

  // Keys by lobe kind: a miss goes to kind 0's queue (whose kernel ends it); direct slots (no
  // ids) write the identity for the sort, the dead bit past the bound.
  Fixture g(8);
  g.paths.direction[0] = to_sphere;
  g.paths.direction[1] = to_light;
  std::vector<std::uint32_t> sort_ids(8, 12345u);
  const std::size_t three = 3;
  intersect_paths(kCpu, g.context(), g.paths, nullptr, LiveBound{&three, 8}, g.keys.data(),
                  kDeadKey, true, sort_ids.data());
  EXPECT_EQ(sort_ids, (std::vector<std::uint32_t>{0, 1, 2, D, D, D, D, D}));
  EXPECT_EQ(g.keys[0], static_cast<std::uint16_t>(BsdfKind::kLambertian));
  EXPECT_EQ(g.keys[1], static_cast<std::uint16_t>(BsdfKind::none));  // the emitter
  EXPECT_EQ(g.keys[2], 0u);                                          // the miss
  EXPECT_EQ(g.keys[3], kDeadKey);
}

// Five paths within a bound of 5 (one dead), one past it: a diffuse hit at depth 0 that goes on,
// an emitter hit that ends, a miss, a diffuse hit at the last depth that ends.
void set_up_shading(Fixture& f, std::vector<std::uint32_t>& ids) {
  PathState& p = f.paths;
  ids = {0, 1, 2 | D, 3, 4, 5};
  p.direction[0] = glm::vec3(0.0f, 0.0f, -1.0f);  // sphere
  p.direction[1] = glm::vec3(0.0f, 0.0f, 1.0f);   // light
  p.direction[3] = glm::vec3(0.0f, 0.0f, -1.0f);  // sphere, at the last depth
  p.direction[5] = glm::vec3(0.0f, 0.0f, -1.0f);  // sphere, but past the bound below
  p.throughput[1] = glm::vec3(0.5f);
  p.pixel[1] = 11;
  p.depth[3] = Fixture::kMaxDepth - 1;
  p.pixel[3] = 13;
  p.depth[4] = 2;  // path 4 misses
  const std::size_t all = 6;
  intersect_paths(kCpu, f.context(), p, ids.data(), LiveBound{&all, 6}, nullptr, kDeadKey, false,
                  nullptr);
}

TEST(Stages, ShadeAddsEmissionEndsMissesAndContinuesOthersInPlace) {
  Fixture f(6);
  PathState& p = f.paths;
  std::vector<std::uint32_t> ids;
  set_up_shading(f, ids);
  const std::size_t live = 5;
  ShadeTarget out;
  out.ids = ids.data();
  shade_paths(kCpu, f.context(), p, ids.data(), LiveBound{&live, 6}, out);
  // The light: radiance = throughput * colour * emittance, gathered on pixel 11, and the path
  // ends; the miss (no environment) and the last depth end with nothing.
  EXPECT_EQ(ids[1], 1u | D);
  EXPECT_EQ(ids[3], 3u | D);
  EXPECT_EQ(ids[4], 4u | D);
  for (std::size_t px = 0; px < f.film.size(); ++px)
    EXPECT_EQ(f.film[px], px == 11 ? glm::vec3(1.0f, 2.0f, 3.0f) : glm::vec3(0.0f)) << px;
  // The diffuse sphere at depth 0: weight 0.5, a new ray from just above the surface, leaving
  // it, one bounce deeper.
  EXPECT_EQ(ids[0], 0u);
  EXPECT_EQ(p.throughput[0], glm::vec3(0.5f));
  EXPECT_GT(p.origin[0].z, -4.5f);
  EXPECT_LT(p.origin[0].z, -4.4f);
  EXPECT_GT(glm::dot(p.direction[0], glm::vec3(0.0f, 0.0f, 1.0f)), 0.0f);
  EXPECT_EQ(p.depth[0], 1);
  // Per depth: every path shaded came in, only the one that went on went out.
  Counts expected_in(Fixture::kMaxDepth, 0), expected_out(Fixture::kMaxDepth, 0);
  expected_in[0] = 2;  // paths 0 and 1
  expected_in[2] = 1;  // the miss
  expected_in[Fixture::kMaxDepth - 1] = 1;
  expected_out[0] = 1;
  EXPECT_EQ(f.paths_in, expected_in);
  EXPECT_EQ(f.paths_out, expected_out);
  // Past the bound and the dead slot: nothing changes.
  EXPECT_EQ(ids[5], 5u);
  EXPECT_EQ(p.throughput[5], glm::vec3(1.0f));
  EXPECT_EQ(p.depth[5], 0);
  EXPECT_EQ(ids[2], 2u | D);
}

TEST(Stages, ShadeCountingSamplesDepositsOnePerEndedPath) {
  Fixture f(6);
  std::vector<std::uint32_t> ids;
  set_up_shading(f, ids);
  const std::size_t live = 5;
  ShadeTarget out;
  out.ids = ids.data();
  shade_paths(kCpu, f.context(true), f.paths, ids.data(), LiveBound{&live, 6}, out);
  for (std::size_t px = 0; px < f.film.size(); ++px)
    EXPECT_EQ(f.film[px], px == 11 || px == 13 || px == 4 ? glm::vec3(1.0f) : glm::vec3(0.0f))
        << px;
}

TEST(Stages, FusedShadeWritesThePathsThatGoOnCompactedIntoTheNextState) {
  // The same paths, shaded in place and fused: the fused stage writes each path that goes on,
  // with the state the in-place stage leaves in its slot, into the next state's first slots, and
  // the film and counts agree.
  const std::size_t n = 64;
  Fixture a(n), b(n), next(n);
  for (Fixture* f : {&a, &b}) {
    for (std::size_t i = 0; i < n; ++i) {
      const float x = 0.02f * float(i % 16) - 0.15f, y = 0.02f * float(i / 16) - 0.03f;
      f->paths.direction[i] = glm::normalize(glm::vec3(x, y, i % 3 == 0 ? 1.0f : -1.0f));
      f->paths.sample[i] = static_cast<std::uint32_t>(i);
      f->paths.depth[i] = static_cast<int>(i % 4);
    }
  }
  std::vector<std::uint32_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<std::uint32_t>(i);
  const std::size_t live = n - 5;  // the last five slots lie past the bound
  intersect_paths(kCpu, a.context(), a.paths, ids.data(), LiveBound{&live, n}, nullptr, kDeadKey,
                  false, nullptr);
  intersect_paths(kCpu, b.context(), b.paths, nullptr, LiveBound{&live, n}, nullptr, kDeadKey,
                  false, nullptr);
  ShadeTarget in_place;
  in_place.ids = ids.data();
  shade_paths(kCpu, a.context(), a.paths, ids.data(), LiveBound{&live, n}, in_place);
  std::size_t survivors = 0;
  ShadeTarget fused;
  fused.next = next.paths;
  fused.survivors = &survivors;
  shade_paths(kCpu, b.context(), b.paths, nullptr, LiveBound{&live, n}, fused);
  std::vector<std::uint32_t> went_on;
  for (std::size_t i = 0; i < live; ++i)
    if (is_live_id(ids[i])) went_on.push_back(ids[i]);
  ASSERT_GT(went_on.size(), 0u);
  ASSERT_LT(went_on.size(), live);
  ASSERT_EQ(survivors, went_on.size());
  // The fused order is not fixed: match each survivor by its sample number.
  std::vector<int> seen(n, 0);
  for (std::size_t s = 0; s < survivors; ++s) {
    const std::uint32_t i = next.paths.sample[s];
    ASSERT_LT(i, live);
    ASSERT_TRUE(is_live_id(ids[i])) << "slot " << i << " ended in place";
    ++seen[i];
#define RAYSTREAM_TEST_EXPECT_SAME(type, name, member, what) \
  EXPECT_EQ(next.paths.name[s], a.paths.name[i]) << what << ", slot " << i;
    RAYSTREAM_PATH_CARRIED_FIELDS(RAYSTREAM_TEST_EXPECT_SAME)
#undef RAYSTREAM_TEST_EXPECT_SAME
  }
  for (std::uint32_t i : went_on) EXPECT_EQ(seen[i], 1) << "slot " << i;
  EXPECT_EQ(a.film, b.film);
  EXPECT_EQ(a.paths_in, b.paths_in);
  EXPECT_EQ(a.paths_out, b.paths_out);
}

TEST(Stages, DepositGatherAndFinish) {
  std::vector<glm::vec3> sums(4, glm::vec3(1.0f));
  FilmView film;
  film.sums = sums.data();
  deposit(film, 2, glm::vec3(0.5f, 0.25f, 2.0f));
  deposit(film, 2, glm::vec3(0.5f, 0.25f, 2.0f));
  EXPECT_EQ(sums[2], glm::vec3(2.0f, 1.5f, 5.0f));
  deposit(film, 3, glm::vec3(std::nanf(""), 1.0f, 1.0f));  // dropped: never poisons the film
  deposit(film, 3, glm::vec3(1.0f, std::numeric_limits<float>::infinity(), 1.0f));
  EXPECT_EQ(sums[3], glm::vec3(1.0f));
  // Gathered light goes to the film at once; the path's ending adds nothing more.
  glm::vec3 radiance(0.0f);
  gather(film, 1, radiance, glm::vec3(0.5f));
  finish_sample(film, 1, glm::vec3(7.0f));
  EXPECT_EQ(sums[1], glm::vec3(1.5f));
  EXPECT_EQ(radiance, glm::vec3(0.0f));
  // Carried: gathered into the path (a non-finite part dropped alone), added when it ends.
  FilmView carried = film;
  carried.carry = true;
  gather(carried, 0, radiance, glm::vec3(0.25f));
  gather(carried, 0, radiance, glm::vec3(std::nanf(""), 1.0f, 1.0f));
  EXPECT_EQ(radiance, glm::vec3(0.25f));
  EXPECT_EQ(sums[0], glm::vec3(1.0f));
  finish_sample(carried, 0, radiance);
  EXPECT_EQ(sums[0], glm::vec3(1.25f));
  // Counting samples: nothing gathered, every ending adds exactly 1.
  FilmView counting = film;
  counting.count_samples = true;
  gather(counting, 0, radiance, glm::vec3(5.0f));
  finish_sample(counting, 0, glm::vec3(std::nanf(""), 5.0f, 7.0f));
  EXPECT_EQ(sums[0], glm::vec3(2.25f));
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
    std::vector<unsigned long long> offsets(5, 99);
    cpu.sort_by_material(keys.data(), keys_out.data(), ids.data(), ids_out.data(), n,
                         material_key_bits(3), multisplit, offsets.data(), ws, nullptr);
    EXPECT_EQ(keys_out, (std::vector<std::uint16_t>{0, 0, 1, 2, 2, 3, 3, 3}));
    EXPECT_EQ(ids_out, (std::vector<std::uint32_t>{2, 4, 0, 7, 9, 1 | D, 3 | D, 5 | D}));
    // The multisplit's buckets (the material queues' bounds); the radix sort writes none.
    if (multisplit)
      EXPECT_EQ(offsets, (std::vector<unsigned long long>{0, 2, 3, 5, 8}));
    else
      EXPECT_EQ(offsets, std::vector<unsigned long long>(5, 99));
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
  StageContext k = f.context();
  k.seed = 42;
  generate_camera_paths(kCpu, k, p, ids.data(), n, &live, 3);
  EXPECT_EQ(live, n);
  for (std::size_t i = 0; i < n; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ids[i], i);
    EXPECT_EQ(p.origin[i], scene.camera.eye);
    EXPECT_NEAR(glm::length(p.direction[i]), 1.0f, 1e-5f);
    EXPECT_EQ(p.throughput[i], glm::vec3(1.0f));
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
  StageContext k = a.context();
  k.seed = seed;
  std::vector<std::uint32_t> ids(pool, 12345u);  // not read: no survivors yet
  StreamCounters counters;
  WaveRecord record;

  // Wave 1: no survivors; samples 0..7 start in slots 0..7 of b.
  refill_paths(kCpu, k, a.paths, b.paths, ids.data(), pool, &counters, total, pixels);
  advance_stream(kCpu, &counters, pool, total, false, &record);
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
  for (std::size_t i = 0; i < pool; ++i) a.paths.hit_t[i] = -7.0f;
  refill_paths(kCpu, k, b.paths, a.paths, ids.data(), pool, &counters, total, pixels);
  advance_stream(kCpu, &counters, pool, total, false, &record);
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
  for (std::size_t i = 0; i < pool; ++i) EXPECT_EQ(a.paths.hit_t[i], -7.0f) << i;

  // Wave 3: every sample issued; two survivors (slots 1 and 0 of a) and nothing else.
  counters.live = 2;
  ids = {1, 0, 999, 999, 999, 999, 999, 999};
  refill_paths(kCpu, k, a.paths, b.paths, ids.data(), pool, &counters, total, pixels);
  advance_stream(kCpu, &counters, pool, total, false, &record);
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{0, 1, 2 | D, 3 | D, 4 | D, 5 | D, 6 | D, 7 | D}));
  EXPECT_EQ(counters.issued, total);
  EXPECT_EQ(counters.active, 2u);
  EXPECT_EQ(record.live_in, 2u);
  EXPECT_EQ(record.regenerated, 0u);
  expect_carried(a.paths, 1, b.paths, 0);
  expect_carried(a.paths, 0, b.paths, 1);

  // Wave 4: nothing left; every slot empty.
  counters.live = 0;
  refill_paths(kCpu, k, b.paths, a.paths, ids.data(), pool, &counters, total, pixels);
  advance_stream(kCpu, &counters, pool, total, false, &record);
  for (std::size_t i = 0; i < pool; ++i) EXPECT_EQ(ids[i], std::uint32_t(i) | D) << i;
  EXPECT_EQ(counters.active, 0u);
  EXPECT_EQ(record.live_in, 0u);
  EXPECT_EQ(record.regenerated, 0u);
}

TEST(Stages, FusedWavesStartNewSamplesBehindTheSurvivors) {
  // Fused compaction: advance takes the last wave's survivors as the live paths and starts the
  // samples left in the slots behind them; the survivors' slots are not touched.
  Scene scene;
  const std::uint32_t pixels = 6;
  const unsigned long long total = 2 * pixels;
  const std::size_t pool = 8;
  Fixture a(pool);
  a.view.camera = make_camera_frame(scene.camera, 3, 2);
  StageContext k = a.context();
  k.seed = 5;
  StreamCounters counters;
  WaveRecord record;
  advance_stream(kCpu, &counters, pool, total, true, &record);
  start_paths(kCpu, k, a.paths, pool, &counters, pixels);
  EXPECT_EQ(counters.live, 0u);
  EXPECT_EQ(counters.active, 8u);
  EXPECT_EQ(counters.issued, 8u);
  EXPECT_EQ(record.regenerated, 8u);
  for (std::uint32_t slot = 0; slot < pool; ++slot)
    expect_camera_path(a.view, a.paths, slot, slot, pixels, k.seed);
  // Three survivors (written by the last shade stage into slots 0..2), two shadow rays: the four
  // samples left start in slots 3..6.
  counters.survivors = 3;
  counters.shadow = 2;
  for (std::uint32_t s = 0; s < 3; ++s) a.paths.depth[s] = 5;
  advance_stream(kCpu, &counters, pool, total, true, &record);
  start_paths(kCpu, k, a.paths, pool, &counters, pixels);
  EXPECT_EQ(counters.live, 3u);
  EXPECT_EQ(counters.survivors, 0u);
  EXPECT_EQ(counters.shadow, 0u);
  EXPECT_EQ(counters.active, 7u);
  EXPECT_EQ(counters.issued, total);
  EXPECT_EQ(record.live_in, 3u);
  EXPECT_EQ(record.regenerated, 4u);
  for (std::uint32_t s = 0; s < 3; ++s) EXPECT_EQ(a.paths.depth[s], 5);
  for (std::uint32_t slot = 3; slot < 7; ++slot)
    expect_camera_path(a.view, a.paths, slot, 8 + (slot - 3), pixels, k.seed);
}

// Runs the stages bounce by bounce for one sample of every pixel: in place over every slot
// (the shadow queue uncompacted: the shadow stage skips dead slots), or fused (the paths that
// go on written compacted into the other state, the shadow rays into their records).
void trace_with_stages(const StageContext& k, std::size_t n, std::uint32_t sample, bool fused) {
  PathBuffers buffers_a(kCpu, n, nullptr), buffers_b(kCpu, n, nullptr);
  PathState paths = buffers_a.view(), next = buffers_b.view();
  std::vector<std::uint32_t> ids(n), shadow_ids(n);
  std::size_t live = 0;
  generate_camera_paths(kCpu, k, paths, ids.data(), n, &live, sample);
  for (int bounce = 0; bounce < k.max_depth; ++bounce) {
    if (!fused) {
      intersect_paths(kCpu, k, paths, ids.data(), LiveBound{nullptr, n}, nullptr, 0, false,
                      nullptr);
      ShadeTarget out;
      out.ids = ids.data();
      out.shadow_ids = shadow_ids.data();
      shade_paths(kCpu, k, paths, ids.data(), LiveBound{nullptr, n}, out);
      trace_shadow_rays(kCpu, k, paths, shadow_ids.data(), LiveBound{nullptr, n}, paths);
      continue;
    }
    std::size_t survivors = 0, shadow = 0;
    intersect_paths(kCpu, k, paths, nullptr, LiveBound{&live, n}, nullptr, 0, false, nullptr);
    ShadeTarget out;
    out.next = next;
    out.survivors = &survivors;
    out.shadow_count = &shadow;
    shade_paths(kCpu, k, paths, nullptr, LiveBound{&live, n}, out);
    trace_shadow_rays(kCpu, k, paths, nullptr, LiveBound{&shadow, n}, next);
    std::swap(paths, next);
    live = survivors;
  }
  if (fused) {
    ASSERT_EQ(live, 0u);
  } else {
    for (std::size_t i = 0; i < n; ++i) ASSERT_FALSE(is_live_id(ids[i])) << "slot " << i;
  }
}

TEST(Stages, MegakernelTracesWhatTheStagesTrace) {
  // The same per-path code in registers and through the state arrays, in place and fused: one
  // sample per pixel and the same per-depth counts; the sums agree up to the order of the
  // additions (the megakernel adds its light to the path's radiance, the stages to the film).
  const Scene scene = test::box_scene();
  const int width = 20, height = 16, depth = 8;
  const std::size_t n = std::size_t(width) * height;
  const std::vector<MaterialData> materials = scene_materials(scene);
  const SceneUpload upload(kCpu, scene, materials, SceneBvh::sah, cpu_path_primitives(), width,
                           height, nullptr);
  for (const bool count_samples : {false, true}) {
    SCOPED_TRACE(count_samples ? "counting samples" : "radiance");
    std::vector<glm::vec3> film[3];
    Counts in[3], out[3], shadow[3];
    for (int run = 0; run < 3; ++run) {
      film[run].assign(n, glm::vec3(0.0f));
      in[run] = out[run] = shadow[run] = Counts(depth, 0);
      StageContext k;
      k.scene = upload.view();
      k.scene.lobes = lobe_features(materials.data(), materials.size());
      k.film.sums = film[run].data();
      k.film.count_samples = count_samples;
      k.counts = DepthCounts{in[run].data(), out[run].data(), shadow[run].data()};
      k.max_depth = depth;
      k.seed = 5;
      for (std::uint32_t sample : {0u, 1u}) {
        if (run == 0)
          trace_megakernel(kCpu, k, std::uint32_t(n), sample);
        else
          trace_with_stages(k, n, sample, run == 2);
      }
    }
    for (int run = 1; run < 3; ++run) {
      SCOPED_TRACE(run == 1 ? "in place" : "fused");
      EXPECT_EQ(in[0], in[run]);
      EXPECT_EQ(out[0], out[run]);
      EXPECT_EQ(shadow[0], shadow[run]);
      for (std::size_t px = 0; px < n; ++px)
        for (int c = 0; c < 3; ++c)
          ASSERT_NEAR(film[0][px][c], film[run][px][c], 1e-5f * (1.0f + film[run][px][c]))
              << "pixel " << px;
    }
    EXPECT_GT(shadow[0][0], 0u);
    EXPECT_EQ(in[0][0], 2 * n);
    EXPECT_EQ(out[0][depth - 1], 0u);
    EXPECT_GT(in[0][3], 0u);
    double sum = 0.0;
    for (std::size_t px = 0; px < n; ++px) {
      if (count_samples) {
        ASSERT_EQ(film[0][px], glm::vec3(2.0f)) << "pixel " << px;
      }
      sum += film[0][px].x;
    }
    EXPECT_GT(sum, 0.0);
  }
}

}  // namespace
}  // namespace raystream
