// The loop's stages on the GPU executor against the same stages on the CPU executor, one at a time
// (skipped without a CUDA device): the same inputs give the same path state, dead bits, film
// deposits and per-depth counts. When an end-to-end GPU render disagrees, these say which stage.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "execution/buffer.h"
#include "execution/executor.h"
#include "execution/path_primitives.h"
#include "integrator/path/path_buffers.h"
#include "integrator/path/path_state.h"
#include "integrator/scene_upload.h"
#include "integrator/stages/stages.h"
#include "integrator/wavefront.h"
#include "primitives/workspace.h"
#include "render_test_scenes.h"

namespace raystream {
namespace {

const Executor kCpu{ExecutorKind::cpu, nullptr};
const Executor kGpu{ExecutorKind::gpu, nullptr};  // the default stream

constexpr int kWidth = 64, kHeight = 48;
constexpr std::uint32_t kPixels = kWidth * kHeight;
constexpr int kMaxDepth = 9;

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

// A field of CPU path buffers as a vector.
template <class T>
std::vector<T> values(const Buffer<T>& b) {
  return std::vector<T>(b.data(), b.data() + b.size());
}

// Every field of the path state, CPU buffers to GPU buffers and back.
void copy_paths_to_gpu(const PathBuffers& host, const PathBuffers& device) {
#define RAYSTREAM_TEST_UPLOAD(type, name, member, what) \
  copy_from_host(kGpu, device.name.data(), host.name.data(), host.name.bytes());
  RAYSTREAM_PATH_FIELDS(RAYSTREAM_TEST_UPLOAD)
#undef RAYSTREAM_TEST_UPLOAD
}

void copy_paths_to_host(const PathBuffers& device, const PathBuffers& host) {
#define RAYSTREAM_TEST_DOWNLOAD(type, name, member, what) \
  copy_to_host(kGpu, host.name.data(), device.name.data(), device.name.bytes());
  RAYSTREAM_PATH_FIELDS(RAYSTREAM_TEST_DOWNLOAD)
#undef RAYSTREAM_TEST_DOWNLOAD
}

// The path state of n paths on both executors: set on the CPU (every field), copied to the GPU.
// Three in four rays start inside the closed test box; the fourth starts far outside it and
// leaves, so intersection ends it. Pixels are shared by many paths (their deposits add up);
// depths cover the first bounces, Russian roulette and the last depth.
struct Paths {
  Paths(std::size_t n, unsigned seed)
      : cpu(kCpu, n, nullptr), gpu(kGpu, n, nullptr), back(kCpu, n, nullptr) {
    const PathState p = cpu.view();
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (std::size_t i = 0; i < n; ++i) {
      glm::vec3 d(u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f);
      d = glm::normalize(d + glm::vec3(1e-3f));
      PathSample path;
      if (i % 4 == 3) {
        d.z = std::fabs(d.z) + 0.1f;  // away from the box, which ends at z = 11
        path.origin = glm::vec3(0.0f, 5.0f, 40.0f);
        path.direction = glm::normalize(d);
      } else {
        path.origin =
            glm::vec3(-4.5f + 9.0f * u(rng), 0.5f + 9.0f * u(rng), -4.5f + 15.0f * u(rng));
        path.direction = d;
      }
      path.throughput = glm::vec3(0.2f + u(rng), 0.2f + u(rng), 0.2f + u(rng));
      path.pixel = static_cast<std::uint32_t>(i % kPixels);
      path.sample = static_cast<std::uint32_t>(i / kPixels);
      path.depth = static_cast<std::int32_t>((i / 4) % kMaxDepth);
      const auto id = static_cast<std::uint32_t>(i);
      p.store_path(id, path, true);
      p.store(id, HitRecord{});
      p.store_shadow(id, ShadowRay{}, true);
    }
    copy_paths_to_gpu(cpu, gpu);
  }
  // The GPU's state, in `back` (host memory).
  const PathBuffers& from_gpu() {
    copy_paths_to_host(gpu, back);
    return back;
  }
  PathBuffers cpu, gpu, back;
};

// The box scene on both executors.
struct Scenes {
  Scenes()
      : scene(test::box_scene()),
        materials(scene_materials(scene)),
        cpu(kCpu, scene, materials, SceneBvh::sah, cpu_path_primitives(), kWidth, kHeight, nullptr),
        gpu(kGpu, scene, materials, SceneBvh::sah, own_primitives::path_primitives(), kWidth,
            kHeight, nullptr) {}
  std::uint16_t dead_key() const { return static_cast<std::uint16_t>(scene.materials.size()); }
  Scene scene;
  std::vector<MaterialData> materials;
  SceneUpload cpu, gpu;
};

// A film and per-depth counts on both executors, all zero, and the stages' context over them.
struct Tallies {
  Tallies()
      : film(kPixels, glm::vec3(0.0f)),
        counts(2 * kMaxDepth, 0),
        d_film(upload(film)),
        d_counts(upload(counts)) {}
  StageContext context(const Scenes& s, bool gpu, bool count_samples = false,
                       std::uint64_t seed = 77) {
    StageContext k;
    k.scene = gpu ? s.gpu.view() : s.cpu.view();
    k.scene.lobes = lobe_features(s.materials.data(), s.materials.size());
    k.film.sums = gpu ? d_film.data() : film.data();
    k.film.count_samples = count_samples;
    unsigned long long* c = gpu ? d_counts.data() : counts.data();
    k.counts = DepthCounts{c, c + kMaxDepth};
    k.max_depth = kMaxDepth;
    k.seed = seed;
    return k;
  }
  std::vector<glm::vec3> film;
  std::vector<unsigned long long> counts;  // paths_in, then paths_out
  Buffer<glm::vec3> d_film;
  Buffer<unsigned long long> d_counts;
};

std::vector<std::uint32_t> shuffled_ids(std::size_t n, std::size_t dead_every, unsigned seed) {
  std::vector<std::uint32_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<std::uint32_t>(i);
  std::shuffle(ids.begin(), ids.end(), std::mt19937(seed));
  for (std::size_t i = 0; i < n; i += dead_every) ids[i] |= kDeadBit;
  return ids;
}

// At most `allowed` entries differ by more than tol.
void expect_near(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b, float tol,
                 std::size_t allowed, const char* what) {
  ASSERT_EQ(a.size(), b.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(glm::length(a[i] - b[i]) <= tol)) ++bad;
  EXPECT_LE(bad, allowed) << what << ": " << bad << " of " << a.size() << " differ";
}

template <class T>
std::size_t count_different(const std::vector<T>& a, const std::vector<T>& b) {
  EXPECT_EQ(a.size(), b.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) bad += !(a[i] == b[i]);
  return bad;
}

// Films: equal up to the order of the additions, but for at most `allowed` pixels (each path
// that took another turn changes one pixel); the totals within rounding when allowed is 0.
void expect_films_agree(const std::vector<glm::vec3>& gpu, const std::vector<glm::vec3>& cpu,
                        std::size_t allowed, float relative = 1e-5f) {
  ASSERT_EQ(gpu.size(), cpu.size());
  std::size_t bad = 0;
  double sum_gpu = 0, sum_cpu = 0;
  for (std::size_t p = 0; p < gpu.size(); ++p) {
    for (int c = 0; c < 3; ++c) {
      sum_gpu += gpu[p][c];
      sum_cpu += cpu[p][c];
    }
    const float scale = std::max(glm::length(cpu[p]), glm::length(gpu[p]));
    if (!(glm::length(gpu[p] - cpu[p]) <= relative * scale + 1e-6f)) ++bad;
  }
  EXPECT_LE(bad, allowed) << bad << " of " << gpu.size() << " pixels differ";
  EXPECT_GT(sum_cpu, 0.0);
  if (allowed == 0) {
    EXPECT_NEAR(sum_gpu, sum_cpu, 1e-5 * sum_cpu);
  }
}

TEST(StagesGpu, GenerateMatchesCpu) {
  Scenes s;
  const std::size_t n = kPixels;
  Paths paths(n, 1);
  std::vector<std::uint32_t> ids(n, 7);
  Buffer<std::uint32_t> d_ids = upload(ids);
  std::vector<std::size_t> live(1, 0);
  Buffer<std::size_t> d_live = upload(live);
  Tallies t;
  generate_camera_paths(kCpu, t.context(s, false, false, 42), paths.cpu.view(), ids.data(), n,
                        live.data(), 3);
  generate_camera_paths(kGpu, t.context(s, true, false, 42), paths.gpu.view(), d_ids.data(), n,
                        d_live.data(), 3);
  EXPECT_EQ(live[0], n);
  EXPECT_EQ(download(d_ids), ids);
  EXPECT_EQ(download(d_live), live);
  const PathBuffers& g = paths.from_gpu();
  EXPECT_EQ(values(g.pixel), values(paths.cpu.pixel));
  EXPECT_EQ(values(g.sample), values(paths.cpu.sample));
  EXPECT_EQ(values(g.depth), values(paths.cpu.depth));
  EXPECT_EQ(values(g.throughput), values(paths.cpu.throughput));
  expect_near(values(g.origin), values(paths.cpu.origin), 1e-5f, 0, "origin");
  expect_near(values(g.direction), values(paths.cpu.direction), 1e-5f, 0, "direction");
}

TEST(StagesGpu, RefillAndAdvanceMatchCpu) {
  Scenes s;
  const std::size_t pool = 5000;
  const unsigned long long total = 3ull * kPixels;  // 9216 samples
  // Two waves' starts: samples left for every free slot, and fewer samples than free slots.
  for (const unsigned long long issued : {4000ull, total - 1000}) {
    SCOPED_TRACE("issued " + std::to_string(issued));
    Paths from(pool, 11), to(pool, 13);
    // 1234 survivors, their state slots in `from` in any order (as a sort leaves them); the ids
    // past them are not read.
    std::vector<std::uint32_t> ids(pool);
    for (std::size_t i = 0; i < pool; ++i) ids[i] = static_cast<std::uint32_t>(i);
    std::shuffle(ids.begin(), ids.end(), std::mt19937(12));
    const std::size_t live = 1234;
    const std::vector<std::uint32_t> survivors(ids.begin(), ids.begin() + live);
    for (std::size_t i = live; i < pool; ++i) ids[i] = 0xFFFFFFFFu;
    StreamCounters counters;
    counters.issued = issued;
    counters.live = live;
    counters.active = 77;
    WaveRecord record;
    Buffer<std::uint32_t> d_ids = upload(ids);
    Buffer<StreamCounters> d_counters = upload(std::vector<StreamCounters>(1, counters));
    Buffer<WaveRecord> d_record = upload(std::vector<WaveRecord>(1, record));
    Tallies tallies;
    refill_paths(kCpu, tallies.context(s, false, false, 5), from.cpu.view(), to.cpu.view(),
                 ids.data(), pool, &counters, total, kPixels);
    advance_stream(kCpu, &counters, pool, total, false, &record);
    refill_paths(kGpu, tallies.context(s, true, false, 5), from.gpu.view(), to.gpu.view(),
                 d_ids.data(), pool, d_counters.data(), total, kPixels);
    advance_stream(kGpu, d_counters.data(), pool, total, false, d_record.data());
    const unsigned long long fresh = std::min<unsigned long long>(total - issued, pool - live);
    EXPECT_EQ(counters.issued, issued + fresh);
    EXPECT_EQ(counters.active, live + fresh);
    EXPECT_EQ(record.live_in, live);
    EXPECT_EQ(record.regenerated, fresh);
    const StreamCounters g_counters = download(d_counters)[0];
    const WaveRecord g_record = download(d_record)[0];
    EXPECT_EQ(g_counters.issued, counters.issued);
    EXPECT_EQ(g_counters.live, counters.live);
    EXPECT_EQ(g_counters.active, counters.active);
    EXPECT_EQ(g_record.live_in, record.live_in);
    EXPECT_EQ(g_record.regenerated, record.regenerated);
    // Slots in order, the empty ones with the dead bit.
    for (std::size_t i = 0; i < pool; ++i)
      ASSERT_EQ(ids[i], std::uint32_t(i) | (i < live + fresh ? 0u : kDeadBit)) << "slot " << i;
    EXPECT_EQ(download(d_ids), ids);
    // The survivors' carried state moved exactly on the CPU.
    const PathState f = from.cpu.view(), t = to.cpu.view();
    for (std::size_t i = 0; i < live; ++i) {
      ASSERT_EQ(t.origin[i], f.origin[survivors[i]]) << "slot " << i;
      ASSERT_EQ(t.throughput[i], f.throughput[survivors[i]]) << "slot " << i;
      ASSERT_EQ(t.depth[i], f.depth[survivors[i]]) << "slot " << i;
    }
    // The GPU's state equals the CPU's: moved fields exactly, the new camera rays within
    // rounding. The hit fields are not touched.
    const PathBuffers& g = to.from_gpu();
    EXPECT_EQ(values(g.pixel), values(to.cpu.pixel));
    EXPECT_EQ(values(g.sample), values(to.cpu.sample));
    EXPECT_EQ(values(g.depth), values(to.cpu.depth));
    EXPECT_EQ(values(g.throughput), values(to.cpu.throughput));
    EXPECT_EQ(values(g.hit_t), values(to.cpu.hit_t));
    expect_near(values(g.origin), values(to.cpu.origin), 1e-5f, 0, "origin");
    expect_near(values(g.direction), values(to.cpu.direction), 1e-5f, 0, "direction");
    for (std::size_t i = 0; i < live; ++i)
      ASSERT_EQ(g.origin.data()[i], f.origin[survivors[i]]) << "slot " << i;
  }
}

TEST(StagesGpu, StartPathsMatchesCpu) {
  // Fused compaction: advance takes the survivors as the live paths, and new samples start
  // behind them; the survivors' slots stay as they were.
  Scenes s;
  const std::size_t pool = 5000;
  const unsigned long long total = 3ull * kPixels;
  for (const unsigned long long issued : {4000ull, total - 1000}) {
    SCOPED_TRACE("issued " + std::to_string(issued));
    Paths paths(pool, 21);
    StreamCounters counters;
    counters.issued = issued;
    counters.survivors = 1234;
    counters.shadow = 99;
    WaveRecord record;
    Buffer<StreamCounters> d_counters = upload(std::vector<StreamCounters>(1, counters));
    Buffer<WaveRecord> d_record = upload(std::vector<WaveRecord>(1, record));
    Tallies t;
    advance_stream(kCpu, &counters, pool, total, true, &record);
    start_paths(kCpu, t.context(s, false, false, 5), paths.cpu.view(), pool, &counters, kPixels);
    advance_stream(kGpu, d_counters.data(), pool, total, true, d_record.data());
    start_paths(kGpu, t.context(s, true, false, 5), paths.gpu.view(), pool, d_counters.data(),
                kPixels);
    const unsigned long long fresh = std::min<unsigned long long>(total - issued, pool - 1234);
    EXPECT_EQ(counters.live, 1234u);
    EXPECT_EQ(counters.survivors, 0u);
    EXPECT_EQ(counters.shadow, 0u);
    EXPECT_EQ(counters.active, 1234 + fresh);
    EXPECT_EQ(counters.issued, issued + fresh);
    const StreamCounters g = download(d_counters)[0];
    EXPECT_EQ(g.live, counters.live);
    EXPECT_EQ(g.active, counters.active);
    EXPECT_EQ(g.issued, counters.issued);
    EXPECT_EQ(g.survivors, 0u);
    const PathBuffers& back = paths.from_gpu();
    EXPECT_EQ(values(back.pixel), values(paths.cpu.pixel));
    EXPECT_EQ(values(back.sample), values(paths.cpu.sample));
    EXPECT_EQ(values(back.depth), values(paths.cpu.depth));
    expect_near(values(back.origin), values(paths.cpu.origin), 1e-5f, 0, "origin");
    expect_near(values(back.direction), values(paths.cpu.direction), 1e-5f, 0, "direction");
    for (std::size_t i = 1234; i < 1234 + fresh; ++i) {
      ASSERT_EQ(paths.cpu.view().depth[i], 0) << "slot " << i;
      ASSERT_EQ(paths.cpu.view().pixel[i], (issued + (i - 1234)) % kPixels) << "slot " << i;
    }
  }
}

TEST(StagesGpu, IntersectMatchesCpuWithBoundsAndKeys) {
  Scenes s;
  const std::size_t n = 100003;
  for (const bool with_bound : {false, true}) {
    for (const bool by_kind : {false, true}) {
      SCOPED_TRACE(std::string(with_bound ? "live bound" : "all slots") +
                   (by_kind ? ", keys by kind" : ", keys by material"));
      Paths paths(n, 2);
      Tallies t;
      const std::vector<std::uint32_t> ids = shuffled_ids(n, 7, 3);
      std::vector<std::uint16_t> keys(n, 0xABCD);
      Buffer<std::uint32_t> d_ids = upload(ids);
      Buffer<std::uint16_t> d_keys = upload(keys);
      std::vector<std::size_t> live(1, with_bound ? n - 12345 : n);
      Buffer<std::size_t> d_live = upload(live);
      intersect_paths(kCpu, t.context(s, false), paths.cpu.view(), ids.data(),
                      LiveBound{live.data(), n}, keys.data(), s.dead_key(), by_kind, nullptr);
      intersect_paths(kGpu, t.context(s, true), paths.gpu.view(), d_ids.data(),
                      LiveBound{d_live.data(), n}, d_keys.data(), s.dead_key(), by_kind, nullptr);
      const std::vector<std::uint16_t> g_keys = download(d_keys);
      const PathBuffers& g = paths.from_gpu();
      // Grazing hits may go either way on rare rays.
      EXPECT_LE(count_different(g_keys, keys), n / 1000) << "keys";
      EXPECT_LE(count_different(values(g.hit_primitive), values(paths.cpu.hit_primitive)),
                n / 1000);
      for (std::size_t i = live[0]; i < n; ++i) ASSERT_EQ(g_keys[i], s.dead_key()) << "slot " << i;
      std::size_t misses = 0, hits = 0;
      const PathState c = paths.cpu.view();
      for (std::size_t i = 0; i < live[0]; ++i) {
        if (!is_live_id(ids[i])) {
          ASSERT_EQ(keys[i], s.dead_key()) << "slot " << i;
          continue;
        }
        (c.hit_t[ids[i]] < kNoHit ? hits : misses) += 1;
      }
      EXPECT_GT(misses, n / 8);  // the rays that start outside the box
      EXPECT_GT(hits, n / 2);
      std::vector<float> g_t = values(g.hit_t), c_t = values(paths.cpu.hit_t);
      std::size_t far = 0;
      for (std::size_t i = 0; i < n; ++i)
        far += !(std::fabs(g_t[i] - c_t[i]) <= 1e-3f * (1.0f + std::fabs(c_t[i])));
      EXPECT_LE(far, n / 1000) << "hit distances";
      // Intersect deposits and counts nothing: the shade stage does.
      EXPECT_EQ(download(t.d_counts), std::vector<unsigned long long>(2 * kMaxDepth, 0));
      for (const glm::vec3& v : download(t.d_film)) ASSERT_EQ(v, glm::vec3(0.0f));
    }
  }
}

TEST(StagesGpu, ShadeMatchesCpu) {
  Scenes s;
  const std::size_t n = 100003;
  Paths paths(n, 4);
  Tallies t;
  std::vector<std::uint32_t> ids = shuffled_ids(n, 5, 5);
  std::vector<std::size_t> live(1, n - 999);
  // Hits from the CPU intersect, so both executors shade the same hits.
  intersect_paths(kCpu, t.context(s, false), paths.cpu.view(), ids.data(),
                  LiveBound{live.data(), n}, nullptr, 0, false, nullptr);
  copy_paths_to_gpu(paths.cpu, paths.gpu);
  const std::vector<std::uint32_t> hit_ids = ids;
  Buffer<std::uint32_t> d_ids = upload(ids);
  Buffer<std::size_t> d_live = upload(live);
  ShadeTarget cpu_out, gpu_out;
  cpu_out.ids = ids.data();
  gpu_out.ids = d_ids.data();
  shade_paths(kCpu, t.context(s, false), paths.cpu.view(), ids.data(), LiveBound{live.data(), n},
              cpu_out);
  shade_paths(kGpu, t.context(s, true), paths.gpu.view(), d_ids.data(), LiveBound{d_live.data(), n},
              gpu_out);
  const std::vector<std::uint32_t> g_ids = download(d_ids);
  // Roulette and BSDF sampling use the same random numbers; rounding may rarely flip a decision.
  EXPECT_LE(count_different(g_ids, ids), n / 1000);
  std::size_t ended = 0, went_on = 0;
  for (std::size_t i = 0; i < live[0]; ++i)
    if (is_live_id(hit_ids[i])) (is_live_id(ids[i]) ? went_on : ended) += 1;
  EXPECT_GT(ended, n / 8);     // misses, emitter hits, roulette, the last depth
  EXPECT_GT(went_on, n / 10);  // diffuse and specular bounces
  const std::vector<unsigned long long> g_counts = download(t.d_counts);
  unsigned long long out_total = 0, in_total = 0;
  for (int d = 0; d < kMaxDepth; ++d) {
    EXPECT_EQ(g_counts[d], t.counts[d]) << "paths in at depth " << d;
    in_total += t.counts[d];
    EXPECT_NEAR(double(g_counts[kMaxDepth + d]), double(t.counts[kMaxDepth + d]), double(n / 1000))
        << "paths out at depth " << d;
    out_total += t.counts[kMaxDepth + d];
  }
  EXPECT_EQ(out_total, went_on);
  EXPECT_EQ(in_total, went_on + ended);
  EXPECT_EQ(t.counts[kMaxDepth + kMaxDepth - 1], 0u);  // the last depth never goes on
  const PathBuffers& g = paths.from_gpu();
  expect_near(values(g.throughput), values(paths.cpu.throughput), 1e-4f, n / 1000, "throughput");
  expect_near(values(g.origin), values(paths.cpu.origin), 1e-3f, n / 1000, "origin");
  expect_near(values(g.direction), values(paths.cpu.direction), 1e-3f, n / 1000, "direction");
  EXPECT_LE(count_different(values(g.depth), values(paths.cpu.depth)), n / 1000);
  // The emission and environment gathered, on their pixels.
  expect_films_agree(download(t.d_film), t.film, n / 1000);

  // Fused: the same paths shaded with the next state compacted. The paths that go on are those
  // that went on in place (matched by pixel and sample), with their new state.
  {
    Paths fused(n, 4);
    Tallies f;
    const std::vector<std::uint32_t> fused_ids = shuffled_ids(n, 5, 5);
    std::vector<std::uint32_t> in = fused_ids;
    intersect_paths(kCpu, f.context(s, false), fused.cpu.view(), in.data(),
                    LiveBound{live.data(), n}, nullptr, 0, false, nullptr);
    copy_paths_to_gpu(fused.cpu, fused.gpu);
    Buffer<std::uint32_t> d_in = upload(fused_ids);
    PathBuffers next(kGpu, n, nullptr), next_back(kCpu, n, nullptr);
    Buffer<std::size_t> d_survivors = upload(std::vector<std::size_t>(1, 0));
    ShadeTarget out;
    out.next = next.view();
    out.survivors = d_survivors.data();
    shade_paths(kGpu, f.context(s, true), fused.gpu.view(), d_in.data(),
                LiveBound{d_live.data(), n}, out);
    const std::size_t survivors = download(d_survivors)[0];
    EXPECT_NEAR(double(survivors), double(went_on), double(n / 1000));
    copy_paths_to_host(next, next_back);
    std::size_t matched = 0;
    const PathState c = paths.cpu.view(), g = next_back.view();
    std::vector<std::size_t> slot_of(kPixels * 64, ~std::size_t(0));
    for (std::size_t i = 0; i < live[0]; ++i)
      if (is_live_id(ids[i])) slot_of[c.sample[ids[i]] * kPixels + c.pixel[ids[i]]] = ids[i];
    for (std::size_t k = 0; k < survivors; ++k) {
      const std::size_t key = g.sample[k] * kPixels + g.pixel[k];
      ASSERT_LT(key, slot_of.size());
      const std::size_t id = slot_of[key];
      if (id == ~std::size_t(0)) continue;  // rounding sent it another way
      ++matched;
      ASSERT_EQ(g.depth[k], c.depth[id]);
      ASSERT_LE(glm::length(g.throughput[k] - c.throughput[id]), 1e-4f);
    }
    EXPECT_GE(matched + n / 1000, went_on);
    expect_films_agree(download(f.d_film), t.film, n / 1000);
  }

  // Counting samples: each ended path deposits exactly 1.
  Paths again(n, 4);
  Tallies c;
  std::vector<std::uint32_t> ids2 = shuffled_ids(n, 5, 5);
  intersect_paths(kCpu, c.context(s, false), again.cpu.view(), ids2.data(),
                  LiveBound{live.data(), n}, nullptr, 0, false, nullptr);
  copy_paths_to_gpu(again.cpu, again.gpu);
  const std::vector<std::uint32_t> hit_ids2 = ids2;
  Buffer<std::uint32_t> d_ids2 = upload(ids2);
  ShadeTarget cpu_out2, gpu_out2;
  cpu_out2.ids = ids2.data();
  gpu_out2.ids = d_ids2.data();
  shade_paths(kCpu, c.context(s, false, true), again.cpu.view(), ids2.data(),
              LiveBound{live.data(), n}, cpu_out2);
  shade_paths(kGpu, c.context(s, true, true), again.gpu.view(), d_ids2.data(),
              LiveBound{d_live.data(), n}, gpu_out2);
  const std::vector<glm::vec3> g_film = download(c.d_film);
  double cpu_sum = 0, gpu_sum = 0;
  for (std::size_t p = 0; p < kPixels; ++p) {
    cpu_sum += c.film[p].x;
    gpu_sum += g_film[p].x;
    ASSERT_EQ(g_film[p].x, g_film[p].y);
    ASSERT_EQ(g_film[p].x, std::floor(g_film[p].x)) << "pixel " << p;
  }
  std::size_t ended2 = 0;
  for (std::size_t i = 0; i < live[0]; ++i)
    ended2 += is_live_id(hit_ids2[i]) && !is_live_id(ids2[i]);
  EXPECT_EQ(ended2, ended);  // the same paths and hits as above
  EXPECT_EQ(cpu_sum, double(ended2));
  EXPECT_NEAR(gpu_sum, cpu_sum, double(n / 1000));
}

TEST(StagesGpu, MegakernelMatchesCpu) {
  Scenes s;
  const int depth = 8;
  Tallies t;
  for (std::uint32_t sample : {0u, 1u, 2u, 3u}) {
    StageContext kc = t.context(s, false, false, 9), kg = t.context(s, true, false, 9);
    kc.max_depth = kg.max_depth = depth;
    kc.counts = DepthCounts{t.counts.data(), t.counts.data() + depth};
    kg.counts = DepthCounts{t.d_counts.data(), t.d_counts.data() + depth};
    trace_megakernel(kCpu, kc, kPixels, sample);
    trace_megakernel(kGpu, kg, kPixels, sample);
  }
  const std::vector<unsigned long long> g_counts = download(t.d_counts);
  EXPECT_EQ(g_counts[0], 4ull * kPixels);
  EXPECT_EQ(t.counts[0], 4ull * kPixels);
  for (int d = 0; d < 2 * depth; ++d)
    EXPECT_NEAR(double(g_counts[d]), double(t.counts[d]), 0.005 * double(t.counts[d]) + 2.0)
        << "entry " << d;
  // Whole paths: rounding (fused multiply-adds, library sin and cos on the device) moves the
  // throughputs a little and, rarely, sends a path elsewhere, which changes its pixel.
  expect_films_agree(download(t.d_film), t.film, kPixels / 20, 1e-3f);
}

// The backends' compaction and sort of path ids against the CPU's.
void check_primitives(const PathPrimitives& gpu, const char* name) {
  SCOPED_TRACE(name);
  const PathPrimitives& cpu = cpu_path_primitives();
  const std::uint32_t sentinel = 0x12345678u;
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(2073600)}) {
    SCOPED_TRACE(n);
    const std::vector<std::uint32_t> ids = shuffled_ids(n, 3, 9);
    std::vector<std::uint16_t> keys(n);
    std::mt19937 rng(10);
    for (std::size_t i = 0; i < n; ++i)
      keys[i] = is_live_id(ids[i]) ? static_cast<std::uint16_t>(rng() % 300) : 300;
    prim::Workspace ws(gpu.workspace_bytes(n, true, material_key_bits(300), false));
    prim::Workspace no_ws;

    // Compaction over all slots, then the first half: past the live count the slots hold stale
    // live ids, which no backend may keep (the Thrust backend reads them, the own one does not).
    for (std::size_t live : {n, n / 2}) {
      SCOPED_TRACE("compact, live " + std::to_string(live));
      std::vector<std::uint32_t> in = ids;
      for (std::size_t i = live; i < n; ++i) in[i] = std::uint32_t(i);
      // The outputs start as a sentinel, which every backend leaves past the count.
      std::vector<std::uint32_t> out(n, sentinel);
      std::size_t kept = 0;
      cpu.compact_live(in.data(), out.data(), n, &live, &kept, no_ws, nullptr);
      Buffer<std::uint32_t> d_in = upload(in);
      Buffer<std::uint32_t> d_out = upload(std::vector<std::uint32_t>(n, sentinel));
      Buffer<std::size_t> d_live = upload(std::vector<std::size_t>(1, live));
      Buffer<std::size_t> d_kept = upload(std::vector<std::size_t>(1, 0));
      gpu.compact_live(d_in.data(), d_out.data(), n, d_live.data(), d_kept.data(), ws, nullptr);
      EXPECT_EQ(download(d_kept)[0], kept);
      EXPECT_EQ(download(d_out), out);
    }

    // The radix sort over 300 materials (the multisplit falls back to it past 32 keys), and both
    // over 20 materials.
    Buffer<std::uint32_t> d_ids = upload(ids);
    for (const int materials : {300, 20}) {
      for (const bool multisplit : {false, true}) {
        SCOPED_TRACE(std::to_string(materials) + " materials" + (multisplit ? ", multisplit" : ""));
        std::vector<std::uint16_t> m_keys(keys);
        for (auto& k : m_keys) k = static_cast<std::uint16_t>(k == 300 ? materials : k % materials);
        std::vector<std::uint16_t> keys_out(n);
        std::vector<std::uint32_t> ids_out(n);
        const int bits = material_key_bits(materials);
        std::vector<unsigned long long> offsets((1u << kMultisplitKeyBits) + 1, 0);
        cpu.sort_by_material(m_keys.data(), keys_out.data(), ids.data(), ids_out.data(), n, bits,
                             multisplit, offsets.data(), no_ws, nullptr);
        prim::Workspace sort_ws(gpu.workspace_bytes(n, false, bits, multisplit));
        Buffer<std::uint16_t> d_keys = upload(m_keys);
        Buffer<std::uint16_t> d_keys_out(kGpu, "keys out", n, nullptr);
        Buffer<std::uint32_t> d_ids_out(kGpu, "ids out", n, nullptr);
        Buffer<unsigned long long> d_offsets = upload(offsets);
        gpu.sort_by_material(d_keys.data(), d_keys_out.data(), d_ids.data(), d_ids_out.data(), n,
                             bits, multisplit, d_offsets.data(), sort_ws, nullptr);
        EXPECT_EQ(download(d_keys_out), keys_out);
        EXPECT_EQ(download(d_ids_out), ids_out);
        if (multisplit && bits <= kMultisplitKeyBits) {
          EXPECT_EQ(download(d_offsets), offsets);  // the material queues' bounds
        }
      }
    }
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
