// Focused GPU tests of the classic variants (naive, work_efficient, blocked_brent_kung,
// blocked_blelloch scans; scan_scatter compaction; split_1bit and lsd radix sorts): their tuning
// knobs, their 32/64-bit counter paths, recursion depth and 64-bit sizes, each checked against a
// sequential loop on the host. The general suite (every variant, every backend, against
// prim::cpu) lives in the other tests of this folder.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "primitives/classic/compact.cuh"
#include "primitives/classic/radix_sort.cuh"
#include "primitives/classic/scan.cuh"
#include "primitives/error.h"

namespace {

constexpr std::size_t kGuard = 16;       // items past the end that must stay untouched
constexpr unsigned char kPoison = 0xCD;  // their byte value

// Device array of n items plus kGuard poisoned guard items.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t n) : n_(n) {
    PRIM_CUDA_CHECK(cudaMalloc(&data_, (n + kGuard) * sizeof(T)));
    PRIM_CUDA_CHECK(cudaMemset(data_, kPoison, (n + kGuard) * sizeof(T)));
  }
  DeviceArray(const std::vector<T>& items) : DeviceArray(items.size()) {
    if (!items.empty())
      PRIM_CUDA_CHECK(cudaMemcpy(data_, items.data(), n_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return data_; }
  std::vector<T> download() const {
    PRIM_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> items(n_);
    if (n_ > 0)
      PRIM_CUDA_CHECK(cudaMemcpy(items.data(), data_, n_ * sizeof(T), cudaMemcpyDeviceToHost));
    return items;
  }
  bool guard_intact() const {
    PRIM_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> bytes(kGuard * sizeof(T));
    PRIM_CUDA_CHECK(cudaMemcpy(bytes.data(), data_ + n_, bytes.size(), cudaMemcpyDeviceToHost));
    return std::all_of(bytes.begin(), bytes.end(), [](unsigned char b) { return b == kPoison; });
  }

 private:
  T* data_ = nullptr;
  std::size_t n_;
};

std::size_t read_count(const DeviceArray<std::size_t>& count) {
  return count.download()[0];
}

// First mismatch of two vectors, for a readable failure.
template <class T>
::testing::AssertionResult same(const std::vector<T>& expected, const std::vector<T>& actual) {
  if (expected.size() != actual.size())
    return ::testing::AssertionFailure() << "sizes " << expected.size() << " vs " << actual.size();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!(expected[i] == actual[i])) {
      return ::testing::AssertionFailure()
             << "first mismatch at index " << i << " of " << expected.size();
    }
  }
  return ::testing::AssertionSuccess();
}

// 2x2 matrices over the integers mod 2^32 with the matrix product: associative, not commutative.
struct Mat2 {
  std::uint32_t a, b, c, d;
  bool operator==(const Mat2& o) const { return a == o.a && b == o.b && c == o.c && d == o.d; }
};
struct Mat2Product {
  __host__ __device__ Mat2 operator()(const Mat2& x, const Mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
            x.c * y.b + x.d * y.d};
  }
};
constexpr Mat2 kMat2Identity = {1, 0, 0, 1};

template <class T, class Op>
std::vector<T> reference_scan(const std::vector<T>& in, bool inclusive, T identity, Op op) {
  std::vector<T> out(in.size());
  T acc = identity;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!inclusive) out[i] = acc;
    acc = op(acc, in[i]);
    if (inclusive) out[i] = acc;
  }
  return out;
}

const std::vector<prim::classic::ScanAlgorithm> kClassicScans = {
    prim::classic::ScanAlgorithm::naive, prim::classic::ScanAlgorithm::work_efficient,
    prim::classic::ScanAlgorithm::blocked_brent_kung,
    prim::classic::ScanAlgorithm::blocked_blelloch};

std::string label(prim::classic::ScanAlgorithm a, std::size_t n, bool inclusive, bool in_place) {
  return std::string(prim::classic::name(a)) + (inclusive ? " inclusive" : " exclusive") +
         (in_place ? " in place" : "") + ", n = " + std::to_string(n);
}

// Runs one scan on the device (in place or not) and compares it with the host loop, the guard
// items and (out of place) the unchanged input.
template <class T, class Op>
void check_scan(const std::vector<T>& in, bool inclusive, bool in_place, T identity, Op op,
                const prim::classic::ScanConfig& config) {
  const std::size_t n = in.size();
  SCOPED_TRACE(label(config.algorithm, n, inclusive, in_place) + " block_threads " +
               std::to_string(config.block_threads) + " items_per_thread " +
               std::to_string(config.items_per_thread));
  prim::Workspace ws(prim::classic::scan_workspace_bytes<T>(n, config));
  DeviceArray<T> d_in(in);
  DeviceArray<T> d_out(in_place ? 0 : n);
  T* out = in_place ? d_in.get() : d_out.get();
  if (inclusive)
    prim::classic::inclusive_scan(d_in.get(), out, n, identity, op, ws, 0, config);
  else
    prim::classic::exclusive_scan(d_in.get(), out, n, identity, op, ws, 0, config);
  const std::vector<T> expected = reference_scan(in, inclusive, identity, op);
  ASSERT_TRUE(same(expected, in_place ? d_in.download() : d_out.download()));
  ASSERT_TRUE(in_place ? d_in.guard_intact() : d_out.guard_intact()) << "wrote past the end";
  if (!in_place) ASSERT_TRUE(same(in, d_in.download())) << "the input changed";
}

std::vector<int> small_ints(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> value(-9, 9);
  std::vector<int> v(n);
  for (auto& x : v) x = value(rng);
  return v;
}

std::vector<Mat2> random_matrices(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Mat2> v(n);
  for (auto& m : v) {
    m = {static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng()),
         static_cast<std::uint32_t>(rng()), static_cast<std::uint32_t>(rng())};
  }
  return v;
}

// Edge sizes: warps, the default tiles (blocked 1024, sort 4096), non-powers of two, and three
// levels of the default blocked recursion.
const std::vector<std::size_t> kSizes = {1,    2,    31,   32,    33,      255,
                                         256,  257,  1023, 1024,  1025,    4095,
                                         4096, 4097, 5000, 65537, 1000003, (1u << 20) + 3};

TEST(ClassicScan, IntPlusEverySizeBothKindsInAndOutOfPlace) {
  for (auto algorithm : kClassicScans) {
    prim::classic::ScanConfig config;
    config.algorithm = algorithm;
    for (std::size_t n : kSizes) {
      const std::vector<int> in = small_ints(n, n);
      for (bool inclusive : {false, true})
        for (bool in_place : {false, true})
          check_scan(in, inclusive, in_place, 0, prim::Plus{}, config);
    }
  }
}

TEST(ClassicScan, NonCommutativeMatrixProductKeepsOrder) {
  for (auto algorithm : kClassicScans) {
    prim::classic::ScanConfig config;
    config.algorithm = algorithm;
    for (std::size_t n :
         {std::size_t(1), std::size_t(2), std::size_t(33), std::size_t(1025), std::size_t(70001)}) {
      const std::vector<Mat2> in = random_matrices(n, 3 * n);
      for (bool inclusive : {false, true})
        for (bool in_place : {false, true})
          check_scan(in, inclusive, in_place, kMat2Identity, Mat2Product{}, config);
    }
  }
}

TEST(ClassicScan, LargeTwoToTheTwentySix) {
  const std::size_t n = std::size_t(1) << 26;
  const std::vector<int> in = small_ints(n, 26);
  for (auto algorithm : kClassicScans) {
    prim::classic::ScanConfig config;
    config.algorithm = algorithm;
    check_scan(in, true, false, 0, prim::Plus{}, config);
  }
}

// Every tile shape the blocked scan accepts, both trees, sizes around one and two tiles.
TEST(ClassicScan, BlockedTileShapesSweep) {
  for (auto algorithm : {prim::classic::ScanAlgorithm::blocked_brent_kung,
                         prim::classic::ScanAlgorithm::blocked_blelloch}) {
    for (int threads : {32, 64, 128, 256, 512, 1024}) {
      for (int items : {1, 2, 3, 4, 7, 8, 16}) {
        prim::classic::ScanConfig config{algorithm, threads, items};
        const std::size_t tile = std::size_t(threads) * items;
        for (std::size_t n :
             {std::size_t(1), tile - 1, tile, tile + 1, 2 * tile + 7, tile * 5 + 3}) {
          if (n == 0) continue;
          check_scan(small_ints(n, n + tile), items % 2 == 0, false, 0, prim::Plus{}, config);
        }
      }
    }
  }
}

// The smallest tile (32 x 1) recurses five levels deep at 2^20 + 3 items; the largest int tile
// (1024 x 16) needs 67 KB of shared memory, past the 48 KB default, and so does 1024 x 2 for
// 16-byte matrices.
TEST(ClassicScan, BlockedDeepRecursionAndLargeSharedMemory) {
  for (auto algorithm : {prim::classic::ScanAlgorithm::blocked_brent_kung,
                         prim::classic::ScanAlgorithm::blocked_blelloch}) {
    const std::vector<int> in = small_ints((1u << 20) + 3, 5);
    check_scan(in, false, true, 0, prim::Plus{}, prim::classic::ScanConfig{algorithm, 32, 1});
    check_scan(in, true, false, 0, prim::Plus{}, prim::classic::ScanConfig{algorithm, 1024, 16});
    check_scan(random_matrices(100003, 9), true, true, kMat2Identity, Mat2Product{},
               prim::classic::ScanConfig{algorithm, 32, 1});
    // 1024 threads of 16-byte items: 51 KB of shared memory, and the register bound of the kernel.
    check_scan(random_matrices(100003, 10), false, false, kMat2Identity, Mat2Product{},
               prim::classic::ScanConfig{algorithm, 1024, 2});
  }
}

// Runs `call` and checks that it throws a prim::Error whose message names `argument`.
template <class F>
::testing::AssertionResult throws_naming(F call, const std::string& argument) {
  try {
    call();
  } catch (const prim::Error& e) {
    if (std::string(e.what()).find(argument) != std::string::npos)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "the error does not name " << argument << ": " << e.what();
  }
  return ::testing::AssertionFailure() << "no prim::Error";
}

TEST(ClassicScan, BlockedRejectsBadShapes) {
  DeviceArray<int> d(100);
  prim::Workspace ws(1 << 20);
  const std::vector<std::pair<prim::classic::ScanConfig, const char*>> bad = {
      {{prim::classic::ScanAlgorithm::blocked_blelloch, 48, 4}, "block_threads"},
      {{prim::classic::ScanAlgorithm::blocked_blelloch, 16, 4}, "block_threads"},
      {{prim::classic::ScanAlgorithm::blocked_brent_kung, 2048, 4}, "block_threads"},
      {{prim::classic::ScanAlgorithm::blocked_brent_kung, -32, 4}, "block_threads"},
      {{prim::classic::ScanAlgorithm::blocked_blelloch, 256, 17}, "items_per_thread"},
      {{prim::classic::ScanAlgorithm::blocked_brent_kung, 256, -1}, "items_per_thread"},
      {{prim::classic::ScanAlgorithm::naive, 100, 0}, "block_threads"},
      {{prim::classic::ScanAlgorithm::work_efficient, 2048, 0}, "block_threads"}};
  for (const auto& entry : bad) {
    const prim::classic::ScanConfig config = entry.first;
    const std::string argument = entry.second;
    SCOPED_TRACE(std::string(prim::classic::name(config.algorithm)) + " " +
                 std::to_string(config.block_threads) + " x " +
                 std::to_string(config.items_per_thread));
    if (config.algorithm != prim::classic::ScanAlgorithm::naive &&
        config.algorithm != prim::classic::ScanAlgorithm::work_efficient) {
      EXPECT_TRUE(
          throws_naming([&] { prim::classic::scan_workspace_bytes<int>(100, config); }, argument));
      EXPECT_TRUE(throws_naming(
          [&] {
            prim::classic::detail::blocked::scan<false>(d.get(), d.get(), 100, 0, prim::Plus{},
                                                        ws.data(), 0, config);
          },
          argument));
    }
    EXPECT_TRUE(throws_naming(
        [&] {
          prim::classic::exclusive_scan(d.get(), d.get(), 100, 0, prim::Plus{}, ws, 0, config);
        },
        argument));
  }
  // The same calls with a valid odd shape succeed.
  const prim::classic::ScanConfig good{prim::classic::ScanAlgorithm::blocked_blelloch, 64, 5};
  EXPECT_NO_THROW(
      prim::classic::exclusive_scan(d.get(), d.get(), 100, 0, prim::Plus{}, ws, 0, good));
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());

  // A 1024 x 16 tile of 16-byte matrices needs about 290 KB of shared memory: no device has it.
  const prim::classic::ScanConfig huge{prim::classic::ScanAlgorithm::blocked_blelloch, 1024, 16};
  const std::vector<Mat2> in = random_matrices(10, 1);
  DeviceArray<Mat2> d_in(in);
  prim::Workspace big(prim::classic::scan_workspace_bytes<Mat2>(in.size(), huge));
  EXPECT_TRUE(throws_naming(
      [&] {
        prim::classic::inclusive_scan(d_in.get(), d_in.get(), in.size(), kMat2Identity,
                                      Mat2Product{}, big, 0, huge);
      },
      "shared memory"));
}

// Uses 64-bit indices throughout: 2^31 + 5 bytes with max, in place (about 2 GB of device
// memory, 4 GB more for the work-efficient padding).
TEST(ClassicScan, PastTwoToTheThirtyOneItems) {
  const std::size_t n = (std::size_t(1) << 31) + 5;
  std::size_t free_bytes = 0, total_bytes = 0;
  PRIM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < 4 * n) GTEST_SKIP() << "needs " << 4 * n << " bytes of device memory";
  std::vector<std::uint8_t> in(n);
  std::uint64_t state = 31;
  for (auto& x : in) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<std::uint8_t>((state >> 56) % 200);
  }
  in[std::size_t(1) << 31] = 201;  // new maxima only past 2^31
  in[n - 3] = 250;
  const std::vector<std::uint8_t> expected = reference_scan(in, true, std::uint8_t(0), prim::Max{});
  for (auto algorithm : kClassicScans) {
    SCOPED_TRACE(prim::classic::name(algorithm));
    prim::classic::ScanConfig config;
    config.algorithm = algorithm;
    prim::Workspace ws(prim::classic::scan_workspace_bytes<std::uint8_t>(n, config));
    DeviceArray<std::uint8_t> d(in);
    prim::classic::inclusive_scan(d.get(), d.get(), n, std::uint8_t(0), prim::Max{}, ws, 0, config);
    EXPECT_TRUE(same(expected, d.download()));
    EXPECT_TRUE(d.guard_intact());
  }
}

// ---- compaction ------------------------------------------------------------------------------

struct IsOdd {
  __host__ __device__ bool operator()(std::uint32_t x) const { return (x & 1u) != 0; }
};

enum class Pattern { none, all, alternating, random, sparse };

// Distinct items whose low bit says whether they are kept: a misplaced item cannot match.
std::vector<std::uint32_t> flagged_items(std::size_t n, Pattern p, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::uint32_t> items(n);
  for (std::size_t i = 0; i < n; ++i) {
    bool keep = false;
    switch (p) {
      case Pattern::none:
        keep = false;
        break;
      case Pattern::all:
        keep = true;
        break;
      case Pattern::alternating:
        keep = i % 2 == 1;
        break;
      case Pattern::random:
        keep = rng() % 2 == 0;
        break;
      case Pattern::sparse:
        keep = rng() % 50 == 0;
        break;
    }
    items[i] = (static_cast<std::uint32_t>(i) << 1) | (keep ? 1u : 0u);
  }
  return items;
}

// The stable compaction / partition on the host.
std::vector<std::uint32_t> reference_select(const std::vector<std::uint32_t>& in, bool partition) {
  std::vector<std::uint32_t> out;
  for (auto x : in)
    if (x & 1u) out.push_back(x);
  if (partition)
    for (auto x : in)
      if (!(x & 1u)) out.push_back(x);
  return out;
}

enum class Entry { compact_if, compact_flags, stable_partition };

void check_select(Entry entry, const std::vector<std::uint32_t>& in,
                  const prim::classic::CompactConfig& config) {
  const std::size_t n = in.size();
  SCOPED_TRACE(std::string(prim::classic::name(config.scan.algorithm)) + " entry " +
               std::to_string(static_cast<int>(entry)) + ", n = " + std::to_string(n));
  std::vector<std::uint8_t> flags(n);
  for (std::size_t i = 0; i < n; ++i) flags[i] = static_cast<std::uint8_t>((in[i] & 1u) * 7);
  DeviceArray<std::uint32_t> d_in(in);
  DeviceArray<std::uint8_t> d_flags(flags);
  DeviceArray<std::uint32_t> d_out(n);
  DeviceArray<std::size_t> d_count(1);
  prim::Workspace ws(prim::classic::compact_workspace_bytes<std::uint32_t>(n, config));
  switch (entry) {
    case Entry::compact_if:
      prim::classic::compact_if(d_in.get(), d_out.get(), n, IsOdd{}, d_count.get(), ws, 0, config);
      break;
    case Entry::compact_flags:
      prim::classic::compact_flags(d_in.get(), d_flags.get(), d_out.get(), n, d_count.get(), ws, 0,
                                   config);
      break;
    case Entry::stable_partition:
      prim::classic::stable_partition(d_in.get(), d_out.get(), n, IsOdd{}, d_count.get(), ws, 0,
                                      config);
      break;
  }
  const std::vector<std::uint32_t> expected =
      reference_select(in, entry == Entry::stable_partition);
  const std::size_t kept = static_cast<std::size_t>(
      std::count_if(in.begin(), in.end(), [](std::uint32_t x) { return (x & 1u) != 0; }));
  ASSERT_EQ(read_count(d_count), kept);
  std::vector<std::uint32_t> out = d_out.download();
  out.resize(expected.size());
  ASSERT_TRUE(same(expected, out));
  ASSERT_TRUE(d_out.guard_intact()) << "wrote past the end";
  ASSERT_TRUE(same(in, d_in.download())) << "the input changed";
}

TEST(ClassicCompact, ScanScatterWithEveryClassicScan) {
  for (auto algorithm : kClassicScans) {
    prim::classic::CompactConfig config{prim::classic::CompactAlgorithm::scan_scatter,
                                        {algorithm, 0, 0}};
    for (std::size_t n : {std::size_t(1), std::size_t(31), std::size_t(32), std::size_t(33),
                          std::size_t(1025), std::size_t(65537), std::size_t(1000003)}) {
      for (Pattern p :
           {Pattern::none, Pattern::all, Pattern::alternating, Pattern::random, Pattern::sparse}) {
        const auto in = flagged_items(n, p, n + static_cast<int>(p));
        for (Entry e : {Entry::compact_if, Entry::compact_flags, Entry::stable_partition})
          check_select(e, in, config);
      }
    }
  }
}

TEST(ClassicCompact, ScanScatterWithSmallBlockedTiles) {
  prim::classic::CompactConfig config{prim::classic::CompactAlgorithm::scan_scatter,
                                      {prim::classic::ScanAlgorithm::blocked_blelloch, 32, 3}};
  const auto in = flagged_items((1u << 20) + 3, Pattern::random, 11);
  for (Entry e : {Entry::compact_if, Entry::stable_partition}) check_select(e, in, config);
}

// The 64-bit counter path runs by itself only past 2^32 items; call it directly at a small size.
TEST(ClassicCompact, SixtyFourBitCountersPath) {
  namespace css = prim::classic::detail::compact_scan_scatter;
  for (bool partition : {false, true}) {
    const auto in = flagged_items(100003, Pattern::random, 64);
    const std::size_t n = in.size();
    prim::classic::CompactConfig config{prim::classic::CompactAlgorithm::scan_scatter,
                                        {prim::classic::ScanAlgorithm::blocked_brent_kung, 0, 0}};
    prim::Workspace ws(css::workspace_bytes_for<std::uint64_t>(n, config));
    DeviceArray<std::uint32_t> d_in(in);
    DeviceArray<std::uint32_t> d_out(n);
    DeviceArray<std::size_t> d_count(1);
    auto selector = prim::detail::ItemSelector<IsOdd>{IsOdd{}};
    if (partition)
      css::select_with<true, std::uint64_t>(d_in.get(), d_out.get(), n, selector, d_count.get(),
                                            ws.data(), 0, config);
    else
      css::select_with<false, std::uint64_t>(d_in.get(), d_out.get(), n, selector, d_count.get(),
                                             ws.data(), 0, config);
    const auto expected = reference_select(in, partition);
    std::vector<std::uint32_t> out = d_out.download();
    out.resize(expected.size());
    EXPECT_EQ(read_count(d_count), reference_select(in, false).size());
    EXPECT_TRUE(same(expected, out));
  }
}

// Past 2^31 items (still 32-bit counters): positions above INT_MAX.
TEST(ClassicCompact, PastTwoToTheThirtyOneItems) {
  const std::size_t n = (std::size_t(1) << 31) + 33;
  std::size_t free_bytes = 0, total_bytes = 0;
  PRIM_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < 10 * n) GTEST_SKIP() << "needs " << 10 * n << " bytes of device memory";
  std::vector<std::uint8_t> in(n);
  std::uint64_t state = 33;
  for (auto& x : in) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<std::uint8_t>(state >> 56);
  }
  DeviceArray<std::uint8_t> d_in(in);
  DeviceArray<std::uint8_t> d_out(n);
  DeviceArray<std::size_t> d_count(1);
  prim::classic::CompactConfig config{prim::classic::CompactAlgorithm::scan_scatter,
                                      {prim::classic::ScanAlgorithm::blocked_brent_kung, 0, 0}};
  prim::Workspace ws(prim::classic::compact_workspace_bytes<std::uint8_t>(n, config));
  prim::classic::stable_partition(d_in.get(), d_out.get(), n, IsOdd{}, d_count.get(), ws, 0,
                                  config);
  std::vector<std::uint8_t> expected;
  expected.reserve(n);
  for (auto x : in)
    if (x & 1u) expected.push_back(x);
  const std::size_t kept = expected.size();
  for (auto x : in)
    if (!(x & 1u)) expected.push_back(x);
  EXPECT_EQ(read_count(d_count), kept);
  EXPECT_TRUE(same(expected, d_out.download()));
}

// ---- radix sorts -----------------------------------------------------------------------------

// A 12-byte value: catches code that assumes 4- or 8-byte values.
struct Payload {
  std::uint32_t index;
  float x, y;
  bool operator==(const Payload& o) const { return index == o.index && x == o.x && y == o.y; }
};

struct SortCase {
  prim::classic::SortConfig config;
  int begin_bit, end_bit;
};

// Keys with few distinct values in the sorted bits (stability matters) and noise outside them.
template <class K>
std::vector<K> duplicate_keys(std::size_t n, std::uint64_t seed, int distinct) {
  std::mt19937_64 rng(seed);
  std::vector<K> keys(n);
  for (auto& k : keys) {
    const std::uint64_t r = rng();
    k = static_cast<K>(distinct > 0 ? (r % distinct) * 0x9E3779B1u + (r >> 40) : r);
  }
  return keys;
}

// Sorts on the device and compares with std::stable_sort by the masked key bits.
template <class K, class V>
void check_sort(const std::vector<K>& keys, const std::vector<V>& values, const SortCase& c) {
  const std::size_t n = keys.size();
  SCOPED_TRACE(std::string(prim::classic::name(c.config.algorithm)) + " radix_bits " +
               std::to_string(c.config.radix_bits) + " scan " +
               prim::classic::name(c.config.scan.algorithm) + ", bits [" +
               std::to_string(c.begin_bit) + ", " + std::to_string(c.end_bit) + "), key bytes " +
               std::to_string(sizeof(K)) + ", n = " + std::to_string(n));
  const std::uint64_t width = std::uint64_t(c.end_bit - c.begin_bit);
  const std::uint64_t mask = width >= 64 ? ~0ull : ((1ull << width) - 1);
  auto sort_key = [&](K k) { return (std::uint64_t(k) >> c.begin_bit) & mask; };
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return sort_key(keys[a]) < sort_key(keys[b]);
  });
  std::vector<K> expected_keys(n);
  std::vector<V> expected_values(n);
  for (std::size_t i = 0; i < n; ++i) {
    expected_keys[i] = keys[order[i]];
    expected_values[i] = values[order[i]];
  }
  DeviceArray<K> d_keys_in(keys), d_keys_out(n);
  DeviceArray<V> d_values_in(values), d_values_out(n);
  prim::Workspace ws(
      prim::classic::sort_pairs_workspace_bytes<K, V>(n, c.begin_bit, c.end_bit, c.config));
  prim::classic::sort_pairs(d_keys_in.get(), d_keys_out.get(), d_values_in.get(),
                            d_values_out.get(), n, c.begin_bit, c.end_bit, ws, 0, c.config);
  ASSERT_TRUE(same(expected_keys, d_keys_out.download()));
  ASSERT_TRUE(same(expected_values, d_values_out.download())) << "not stable";
  ASSERT_TRUE(d_keys_out.guard_intact() && d_values_out.guard_intact()) << "wrote past the end";
  ASSERT_TRUE(same(keys, d_keys_in.download())) << "the input keys changed";
}

std::vector<std::uint32_t> indices(std::size_t n) {
  std::vector<std::uint32_t> v(n);
  std::iota(v.begin(), v.end(), 0u);
  return v;
}

const prim::classic::ScanConfig kBlockedScan{prim::classic::ScanAlgorithm::blocked_brent_kung, 0,
                                             0};

TEST(ClassicSort, SplitAndLsdOverKeyWidthsAndBitRanges) {
  const std::vector<SortCase> cases = {
      {{prim::classic::SortAlgorithm::split_1bit, 0, kBlockedScan}, 0, 8},
      {{prim::classic::SortAlgorithm::split_1bit, 0, kBlockedScan}, 3, 4},
      {{prim::classic::SortAlgorithm::lsd, 0, kBlockedScan}, 0, 8},
      {{prim::classic::SortAlgorithm::lsd, 4, kBlockedScan}, 0, 8},
      {{prim::classic::SortAlgorithm::lsd, 8, kBlockedScan},
       3,
       17},  // 8 + 6 bits: narrower last digit
      {{prim::classic::SortAlgorithm::lsd, 4, kBlockedScan}, 1, 4},  // one 3-bit digit
      {{prim::classic::SortAlgorithm::lsd, 8, kBlockedScan}, 0, 3},  // 8 materials: one pass
  };
  for (std::size_t n : {std::size_t(1), std::size_t(31), std::size_t(33), std::size_t(4095),
                        std::size_t(4096), std::size_t(4097), std::size_t(100003)}) {
    for (const SortCase& c : cases) {
      const auto values = indices(n);
      if (c.end_bit <= 8) check_sort(duplicate_keys<std::uint8_t>(n, n, 5), values, c);
      if (c.end_bit <= 16) check_sort(duplicate_keys<std::uint16_t>(n, n + 1, 0), values, c);
      check_sort(duplicate_keys<std::uint32_t>(n, n + 2, 37), values, c);
    }
  }
}

TEST(ClassicSort, FullKeysLargeAndWideValues) {
  const std::size_t n = (1u << 20) + 3;
  std::vector<Payload> payload(n);
  for (std::size_t i = 0; i < n; ++i)
    payload[i] = {static_cast<std::uint32_t>(i), float(i) * 0.5f, -float(i)};
  const auto keys = duplicate_keys<std::uint32_t>(n, 99, 0);
  check_sort(keys, payload, {{prim::classic::SortAlgorithm::lsd, 8, kBlockedScan}, 0, 32});
  check_sort(keys, payload, {{prim::classic::SortAlgorithm::lsd, 4, kBlockedScan}, 0, 32});
  check_sort(keys, payload, {{prim::classic::SortAlgorithm::split_1bit, 0, kBlockedScan}, 0, 32});
  const auto few = duplicate_keys<std::uint32_t>(n, 98, 3);
  check_sort(few, indices(n), {{prim::classic::SortAlgorithm::lsd, 8, kBlockedScan}, 0, 32});
}

TEST(ClassicSort, SplitWithEveryClassicScanAndLsdWithBothTrees) {
  const std::size_t n = 20011;
  const auto keys = duplicate_keys<std::uint16_t>(n, 7, 0);
  for (auto algorithm : kClassicScans) {
    const prim::classic::ScanConfig scan{algorithm, 0, 0};
    check_sort(keys, indices(n), {{prim::classic::SortAlgorithm::split_1bit, 0, scan}, 2, 11});
    check_sort(keys, indices(n), {{prim::classic::SortAlgorithm::lsd, 8, scan}, 0, 16});
  }
  check_sort(keys, indices(n),
             {{prim::classic::SortAlgorithm::lsd,
               4,
               {prim::classic::ScanAlgorithm::blocked_blelloch, 32, 1}},
              0,
              16});
}

TEST(ClassicSort, LsdRejectsBadRadixBits) {
  DeviceArray<std::uint32_t> keys(10), keys_out(10), values(10), values_out(10);
  prim::Workspace ws(1 << 20);
  for (int bits : {1, 2, 3, 5, 16, -4}) {
    SCOPED_TRACE(bits);
    const prim::classic::SortConfig config{prim::classic::SortAlgorithm::lsd, bits, kBlockedScan};
    EXPECT_TRUE(throws_naming(
        [&] {
          prim::classic::sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(10, 0, 32,
                                                                                  config);
        },
        "radix_bits"));
    EXPECT_TRUE(throws_naming(
        [&] {
          prim::classic::sort_pairs(keys.get(), keys_out.get(), values.get(), values_out.get(), 10,
                                    0, 32, ws, 0, config);
        },
        "radix_bits"));
  }
}

// The 64-bit counter paths run by themselves only past 2^32 items; call them directly.
TEST(ClassicSort, SixtyFourBitCountersPath) {
  const std::size_t n = 50021;
  const auto keys = duplicate_keys<std::uint32_t>(n, 5, 11);
  const auto values = indices(n);
  for (auto algorithm :
       {prim::classic::SortAlgorithm::split_1bit, prim::classic::SortAlgorithm::lsd}) {
    SCOPED_TRACE(prim::classic::name(algorithm));
    const prim::classic::SortConfig config{algorithm, 8, kBlockedScan};
    const int begin_bit = 0, end_bit = 12;
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return (keys[a] & 0xFFFu) < (keys[b] & 0xFFFu);
    });
    DeviceArray<std::uint32_t> d_keys_in(keys), d_keys_out(n), d_values_in(values), d_values_out(n);
    std::size_t bytes = 0;
    if (algorithm == prim::classic::SortAlgorithm::split_1bit) {
      namespace rs = prim::classic::detail::radix_sort_split;
      bytes = rs::workspace_bytes_for<std::uint32_t, std::uint32_t, std::uint64_t>(n, begin_bit,
                                                                                   end_bit, config);
      prim::Workspace ws(bytes);
      rs::sort_pairs_with<std::uint64_t>(d_keys_in.get(), d_keys_out.get(), d_values_in.get(),
                                         d_values_out.get(), n, begin_bit, end_bit, ws.data(), 0,
                                         config);
      PRIM_CUDA_CHECK(cudaDeviceSynchronize());
    } else {
      namespace rs = prim::classic::detail::radix_sort_lsd;
      bytes = rs::workspace_bytes_for<std::uint32_t, std::uint32_t, std::uint64_t>(n, begin_bit,
                                                                                   end_bit, config);
      prim::Workspace ws(bytes);
      rs::sort_pairs_with<std::uint64_t>(d_keys_in.get(), d_keys_out.get(), d_values_in.get(),
                                         d_values_out.get(), n, begin_bit, end_bit, ws.data(), 0,
                                         config);
      PRIM_CUDA_CHECK(cudaDeviceSynchronize());
    }
    const std::vector<std::uint32_t> out_values = d_values_out.download();
    std::vector<std::uint32_t> expected(n);
    for (std::size_t i = 0; i < n; ++i) expected[i] = values[order[i]];
    EXPECT_TRUE(same(expected, out_values));
  }
}

}  // namespace
