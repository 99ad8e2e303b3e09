// Multisplit (primitives/multisplit.cuh) of both backends against prim::cpu::multisplit_pairs:
// every bucket count from 1 to 32, empty buckets, every item in one bucket, bucket functions
// returning values past the last bucket, keys alone and pairs (4- and 16-byte values), struct
// keys of 8 and 32 bytes, sizes from 0 to 2^26 + 3 (on both sides of the one-wave limit), and a
// workspace reused with stale contents.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "primitives/cpu/cpu_backend.h"
#include "primitives/multisplit.cuh"
#include "primitives/thrust/thrust_backend.cuh"
#include "production_support.h"
#include "test_support.h"

namespace prim_production_test {
namespace {

// The bucket is the key itself (keys past the last bucket test the clamp).
struct KeyIsBucket {
  __host__ __device__ unsigned operator()(std::uint32_t key) const { return key; }
};

// A struct key: a material and an id; the bucket is the material.
struct Ray {
  std::uint32_t material;
  std::uint32_t id;
  bool operator==(const Ray& o) const { return material == o.material && id == o.id; }
};
std::ostream& operator<<(std::ostream& os, const Ray& r) {
  return os << "{" << r.material << ", " << r.id << "}";
}
struct MaterialOf {
  __host__ __device__ unsigned operator()(const Ray& r) const { return r.material; }
};

// A 32-byte key: wider than the pass kernel stages, so it goes by index (the tile's shared
// memory would not hold 8192 of them).
struct WideRay {
  std::uint32_t material;
  std::uint32_t id;
  std::uint32_t payload[6];
  bool operator==(const WideRay& o) const {
    return material == o.material && id == o.id && payload[5] == o.payload[5];
  }
};
std::ostream& operator<<(std::ostream& os, const WideRay& r) {
  return os << "{" << r.material << ", " << r.id << "}";
}
struct WideMaterialOf {
  __host__ __device__ unsigned operator()(const WideRay& r) const { return r.material; }
};

struct Value16 {
  std::uint32_t index, a, b, c;
  bool operator==(const Value16& o) const { return index == o.index && c == o.c; }
};
std::ostream& operator<<(std::ostream& os, const Value16& v) {
  return os << "{" << v.index << "}";
}

enum class Keys { uniform, even_buckets_only, one_bucket, past_the_last, sorted };

const char* name(Keys k) {
  switch (k) {
    case Keys::uniform:
      return "uniform";
    case Keys::even_buckets_only:
      return "even buckets only";
    case Keys::one_bucket:
      return "one bucket";
    case Keys::past_the_last:
      return "past the last bucket";
    case Keys::sorted:
      return "sorted";
  }
  return "?";
}

std::vector<std::uint32_t> make_keys(Keys kind, std::size_t n, int buckets, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint32_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t r = static_cast<std::uint32_t>(rng() >> 33);
    switch (kind) {
      case Keys::uniform:
        keys[i] = r % buckets;
        break;
      case Keys::even_buckets_only:
        keys[i] = (r % ((buckets + 1) / 2)) * 2;
        break;
      case Keys::one_bucket:
        keys[i] = static_cast<std::uint32_t>(buckets / 2);
        break;
      case Keys::past_the_last:
        keys[i] = r % (buckets + 7);
        break;
      case Keys::sorted:
        keys[i] = static_cast<std::uint32_t>(i * buckets / (n ? n : 1));
        break;
    }
  }
  return keys;
}

enum class Backend { own, thrust };

template <class K, class V, class BucketOf>
void run_multisplit(Backend backend, const DeviceArray<K>& keys, DeviceArray<K>& keys_out,
                    const DeviceArray<V>* values, DeviceArray<V>* values_out, std::size_t n,
                    int buckets, BucketOf bucket_of, DeviceArray<unsigned long long>& offsets,
                    prim::Workspace& ws) {
  if (backend == Backend::own) {
    if (values) {
      ws.reserve(prim::own::multisplit_workspace_bytes<K, V>(n, buckets));
      prim::own::multisplit_pairs(keys.get(), keys_out.get(), values->get(), values_out->get(), n,
                                  buckets, bucket_of, offsets.get(), ws);
    } else {
      ws.reserve(prim::own::multisplit_workspace_bytes<K>(n, buckets));
      prim::own::multisplit(keys.get(), keys_out.get(), n, buckets, bucket_of, offsets.get(), ws);
    }
  } else if (values) {
    prim::thrust_backend::multisplit_pairs(keys.get(), keys_out.get(), values->get(),
                                           values_out->get(), n, buckets, bucket_of, offsets.get(),
                                           ws);
  } else {
    prim::thrust_backend::multisplit(keys.get(), keys_out.get(), n, buckets, bucket_of,
                                     offsets.get(), ws);
  }
}

// Runs one multisplit of `keys` (with values recording the input order when with_values) and
// compares keys, values and offsets with prim::cpu::multisplit_pairs; checks that nothing past
// the outputs is written and the inputs are unchanged.
template <class V = std::uint32_t, class K, class BucketOf>
void check(Backend backend, const std::vector<K>& keys, int buckets, BucketOf bucket_of,
           bool with_values, prim::Workspace* shared = nullptr) {
  const std::size_t n = keys.size();
  SCOPED_TRACE(
      std::string(backend == Backend::own ? "own" : "thrust") + ", n = " + std::to_string(n) +
      ", buckets = " + std::to_string(buckets) +
      (with_values ? ", pairs of " + std::to_string(sizeof(V)) + "-byte values" : ", keys alone"));
  std::vector<V> values(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<V, Value16>) {
      values[i] = Value16{static_cast<std::uint32_t>(i), 1, 2, static_cast<std::uint32_t>(~i)};
    } else {
      values[i] = static_cast<V>(i * 3 + 1);
    }
  }
  std::vector<K> expected_keys(n);
  std::vector<V> expected_values(n);
  std::vector<unsigned long long> expected_offsets(buckets + 1);
  prim::cpu::multisplit_pairs(keys.data(), expected_keys.data(), values.data(),
                              expected_values.data(), n, buckets, bucket_of,
                              expected_offsets.data());

  DeviceArray<K> d_keys(n), d_keys_out(n + 16);
  DeviceArray<V> d_values(n), d_values_out(n + 16);
  DeviceArray<unsigned long long> d_offsets(buckets + 1 + 4);
  d_keys.upload(keys);
  d_values.upload(values);
  // DeviceArray fills every byte with 0xAB: items not written, or written past the end, show.
  prim::Workspace own_ws;
  prim::Workspace& ws = shared ? *shared : own_ws;
  run_multisplit<K, V>(backend, d_keys, d_keys_out, with_values ? &d_values : nullptr,
                       with_values ? &d_values_out : nullptr, n, buckets, bucket_of, d_offsets, ws);
  const std::vector<unsigned long long> offsets = d_offsets.download(buckets + 5);
  EXPECT_TRUE(same(expected_offsets, std::vector<unsigned long long>(
                                         offsets.begin(), offsets.begin() + buckets + 1)));
  for (int k = buckets + 1; k < buckets + 5; ++k)
    EXPECT_EQ(offsets[k], 0xABABABABABABABABull) << "written past the offsets";
  EXPECT_TRUE(same(expected_keys, d_keys_out.download(n)));
  if (with_values) EXPECT_TRUE(same(expected_values, d_values_out.download(n)));
  EXPECT_TRUE(same(keys, d_keys.download(n))) << "input keys changed";
}

std::vector<std::size_t> sizes_for_every_bucket_count() {
  // 0, 1, a tile edge and sizes of several tiles.
  constexpr std::size_t tile = prim_test::kOnesweepTile;
  return prim_test::under_sanitizer()
             ? std::vector<std::size_t>{0, 1, tile + 1, 20000}
             : std::vector<std::size_t>{0, 1, tile - 1, tile, tile + 1, 300001};
}

TEST(Multisplit, EveryBucketCountFrom1To32) {
  for (Backend backend : {Backend::own, Backend::thrust}) {
    for (int buckets = 1; buckets <= 32; ++buckets) {
      for (std::size_t n : sizes_for_every_bucket_count()) {
        check(backend, make_keys(Keys::uniform, n, buckets, n * 31 + buckets), buckets,
              KeyIsBucket{}, true);
      }
    }
  }
}

TEST(Multisplit, EmptyBucketsOneBucketAndResultsPastTheLast) {
  const std::size_t n = prim_test::under_sanitizer() ? 30000 : 1000003;
  for (Backend backend : {Backend::own, Backend::thrust}) {
    for (int buckets : {1, 2, 7, 8, 9, 16, 31, 32}) {
      for (Keys kind :
           {Keys::even_buckets_only, Keys::one_bucket, Keys::past_the_last, Keys::sorted}) {
        SCOPED_TRACE(name(kind));
        check(backend, make_keys(kind, n, buckets, buckets * 7 + int(kind)), buckets, KeyIsBucket{},
              true);
      }
    }
  }
}

TEST(Multisplit, KeysAloneWideValuesAndStructKeys) {
  const std::size_t n = prim_test::under_sanitizer() ? 20000 : 777777;
  for (Backend backend : {Backend::own, Backend::thrust}) {
    for (int buckets : {3, 8, 32}) {
      const std::vector<std::uint32_t> keys = make_keys(Keys::uniform, n, buckets, buckets);
      check(backend, keys, buckets, KeyIsBucket{}, false);
      check<Value16>(backend, keys, buckets, KeyIsBucket{}, true);
      std::vector<Ray> rays(n);
      for (std::size_t i = 0; i < n; ++i) rays[i] = Ray{keys[i], static_cast<std::uint32_t>(i)};
      check(backend, rays, buckets, MaterialOf{}, false);
      std::vector<WideRay> wide(n);
      for (std::size_t i = 0; i < n; ++i) {
        const auto id = static_cast<std::uint32_t>(i);
        wide[i] = WideRay{keys[i], id, {1, 2, 3, 4, 5, ~id}};
      }
      check(backend, wide, buckets, WideMaterialOf{}, false);
      check<Value16>(backend, wide, buckets, WideMaterialOf{}, true);
    }
  }
}

// Past one wave (more tiles than the GPU holds at once, which is at most as many blocks of 512
// threads as an SM's thread limit allows) the keys alone, the values and keys moved by index and
// the struct keys take the chained path.
TEST(Multisplit, KeysAloneWideValuesAndStructKeysPastOneWave) {
  const prim::DeviceInfo& info = prim::device_info();
  const std::size_t blocks_per_sm = info.max_threads_per_sm / prim::tuning::kOnesweepThreads;
  const std::size_t n = blocks_per_sm * info.sm_count * prim_test::kOnesweepTile + 1;
  for (int buckets : {3, 32}) {
    const std::vector<std::uint32_t> keys = make_keys(Keys::uniform, n, buckets, buckets + 1);
    check(Backend::own, keys, buckets, KeyIsBucket{}, false);
    check<Value16>(Backend::own, keys, buckets, KeyIsBucket{}, true);
    std::vector<Ray> rays(n);
    for (std::size_t i = 0; i < n; ++i) rays[i] = Ray{keys[i], static_cast<std::uint32_t>(i)};
    check(Backend::own, rays, buckets, MaterialOf{}, false);
    std::vector<WideRay> wide(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto id = static_cast<std::uint32_t>(i);
      wide[i] = WideRay{keys[i], id, {1, 2, 3, 4, 5, ~id}};
    }
    check(Backend::own, wide, buckets, WideMaterialOf{}, false);
    check<Value16>(Backend::own, wide, buckets, WideMaterialOf{}, true);
  }
}

TEST(Multisplit, WorkspaceReusedAcrossSizesAndBucketCounts) {
  // Stale histograms and status words of a larger call must not leak into the next.
  prim::Workspace ws;
  ws.reserve(prim::own::multisplit_workspace_bytes<std::uint32_t, std::uint32_t>(1 << 22, 32));
  for (int round = 0; round < 3; ++round) {
    for (std::size_t n : {std::size_t(1) << 22, std::size_t(5000), std::size_t(123457)}) {
      for (int buckets : {32, 5}) {
        check(Backend::own, make_keys(Keys::uniform, n, buckets, n + round), buckets, KeyIsBucket{},
              true, &ws);
      }
    }
  }
}

// Where every tile fits on the GPU at once the multisplit is one cooperative pass that reads the
// keys once (AgentRadixSortOnesweep's ONE_WAVE); past that, the zeroing and histogram kernels and a
// chained pass. Sizes at the limit and one item past it, for 3- and 5-bit digits (8 and 32
// buckets). The one-wave pass leaves the workspace's histograms as they were (0xAB bytes), the
// other path zeroes and fills them.
TEST(Multisplit, BothSidesOfTheOneWaveLimit) {
  namespace os = prim::detail::radix_sort_onesweep;
  using Digit = prim::agent::onesweep::BucketDigit<KeyIsBucket>;
  if (!prim::device_info().cooperative_launch) GTEST_SKIP() << "no cooperative launch";
  const std::size_t tiles3 = os::one_wave_tiles<3, std::uint32_t, std::uint32_t, Digit>();
  const std::size_t tiles5 = os::one_wave_tiles<5, std::uint32_t, std::uint32_t, Digit>();
  // Two blocks of 512 threads at 64 registers fill an SM's registers; their shared memory fits.
  const std::size_t resident =
      std::size_t(prim::agent::onesweep::kPassBlocksPerSm) * prim::device_info().sm_count;
  EXPECT_EQ(tiles3, resident);
  EXPECT_EQ(tiles5, resident);
  for (auto [buckets, tiles] : {std::pair{8, tiles3}, std::pair{32, tiles5}}) {
    const std::size_t limit = tiles * prim_test::kOnesweepTile;
    for (std::size_t n : {limit, limit + 1}) {
      prim::Workspace ws(
          prim::own::multisplit_workspace_bytes<std::uint32_t, std::uint32_t>(n, buckets));
      ASSERT_EQ(cudaMemset(ws.data(), 0xAB, ws.size()), cudaSuccess);
      check(Backend::own, make_keys(Keys::uniform, n, buckets, n + buckets), buckets, KeyIsBucket{},
            true, &ws);
      const os::Layout<std::uint32_t, std::uint32_t> layout(
          ws.data(), n, os::make_plan(n, prim::detail::multisplit_radix_bits(buckets), 1));
      unsigned histogram = 0;
      ASSERT_EQ(cudaMemcpy(&histogram, layout.histograms, sizeof histogram, cudaMemcpyDeviceToHost),
                cudaSuccess);
      EXPECT_EQ(histogram == 0xABABABABu, n == limit) << "n = " << n << ", limit " << limit;
    }
  }
}

TEST(Multisplit, TwoToThe26PlusThree) {
  if (prim_test::under_sanitizer()) GTEST_SKIP() << "too large under compute-sanitizer";
  const std::size_t n = (std::size_t(1) << 26) + 3;
  for (int buckets : {5, 32}) {
    check(Backend::own, make_keys(Keys::uniform, n, buckets, buckets), buckets, KeyIsBucket{},
          true);
  }
  check(Backend::thrust, make_keys(Keys::uniform, n, 32, 32), 32, KeyIsBucket{}, true);
}

}  // namespace
}  // namespace prim_production_test
