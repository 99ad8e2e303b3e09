// CPU scans (sequential and OpenMP) against the standard library.
#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "primitives/cpu/cpu_backend.h"
#include "test_support.h"

namespace prim_test {
namespace {

std::vector<std::size_t> cpu_sizes() {
  const std::size_t p = prim::cpu::kParallelMin;
  std::vector<std::size_t> sizes = {
      0, 1, 2, 3, 31, 32, 33, 1000, p - 1, p, p + 1, 3 * p + 7, (std::size_t(1) << 20) + 3};
  std::mt19937_64 rng(99);
  for (int i = 0; i < 4; ++i)
    sizes.push_back(std::uniform_int_distribution<std::size_t>(2, 200000)(rng));
  return sizes;
}

// Runs every CPU scan on `in` and compares it with std::exclusive_scan / std::inclusive_scan.
template <class T, class Op>
void check_cpu_scans(const std::vector<T>& in, T identity, Op op) {
  const std::size_t n = in.size();
  std::vector<T> expected_ex(n), expected_in(n), out(n);
  std::exclusive_scan(in.begin(), in.end(), expected_ex.begin(), identity, op);
  std::inclusive_scan(in.begin(), in.end(), expected_in.begin(), op);

  prim::cpu::exclusive_scan(in.data(), out.data(), n, identity, op);
  EXPECT_TRUE(same_items(expected_ex, out)) << "exclusive_scan";
  prim::cpu::inclusive_scan(in.data(), out.data(), n, identity, op);
  EXPECT_TRUE(same_items(expected_in, out)) << "inclusive_scan";
  prim::cpu::exclusive_scan_parallel(in.data(), out.data(), n, identity, op);
  EXPECT_TRUE(same_items(expected_ex, out)) << "exclusive_scan_parallel";
  prim::cpu::inclusive_scan_parallel(in.data(), out.data(), n, identity, op);
  EXPECT_TRUE(same_items(expected_in, out)) << "inclusive_scan_parallel";

  std::vector<T> inout = in;  // in place
  prim::cpu::exclusive_scan_parallel(inout.data(), inout.data(), n, identity, op);
  EXPECT_TRUE(same_items(expected_ex, inout)) << "exclusive_scan_parallel in place";
  inout = in;
  prim::cpu::inclusive_scan_parallel(inout.data(), inout.data(), n, identity, op);
  EXPECT_TRUE(same_items(expected_in, inout)) << "inclusive_scan_parallel in place";
  inout = in;
  prim::cpu::exclusive_scan(inout.data(), inout.data(), n, identity, op);
  EXPECT_TRUE(same_items(expected_ex, inout)) << "exclusive_scan in place";
}

TEST(CpuScan, Int32PlusAtEdgeSizes) {
  std::mt19937_64 rng(1);
  for (std::size_t n : cpu_sizes()) {
    SCOPED_TRACE(trace("int32", n));
    std::vector<std::int32_t> in(n);
    for (auto& x : in) x = std::uniform_int_distribution<std::int32_t>(-100, 100)(rng);
    check_cpu_scans(in, std::int32_t(0), prim::Plus{});
  }
}

TEST(CpuScan, Int64SumsLeaveInt32Range) {
  const std::size_t n = 3 * prim::cpu::kParallelMin + 5;
  std::vector<std::int64_t> in(n, std::int64_t(3) << 30);  // 3 * 2^30 > INT32_MAX on its own
  std::vector<std::int64_t> out(n);
  prim::cpu::inclusive_scan_parallel(in.data(), out.data(), n, std::int64_t(0), prim::Plus{});
  EXPECT_EQ(out[n - 1], static_cast<std::int64_t>(n) * (std::int64_t(3) << 30));
  check_cpu_scans(in, std::int64_t(0), prim::Plus{});
}

TEST(CpuScan, Mat2ProductKeepsOrder) {
  std::mt19937_64 rng(2);
  for (std::size_t n : cpu_sizes()) {
    SCOPED_TRACE(trace("mat2", n));
    std::vector<Mat2> in(n);
    for (auto& m : in) {
      const std::uint32_t x = std::uniform_int_distribution<std::uint32_t>(1, 3)(rng);
      m = rng() % 2 ? Mat2{1, x, 0, 1} : Mat2{1, 0, x, 1};
    }
    check_cpu_scans(in, kMat2Identity, Mat2Product{});
  }
}

// String concatenation: the clearest non-commutative operator; any reordering shows.
TEST(CpuScan, StringConcatenationKeepsOrder) {
  const std::size_t n = prim::cpu::kParallelMin + 77;
  std::vector<std::string> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = std::string(1, static_cast<char>('a' + i % 26));
  auto concat = [](const std::string& a, const std::string& b) { return a + b; };
  std::vector<std::string> out(n);
  prim::cpu::exclusive_scan_parallel(in.data(), out.data(), n, std::string(), concat);
  std::string expected;
  for (std::size_t i = 0; i < n; i += 997) {
    expected.clear();
    for (std::size_t j = 0; j < i; ++j) expected += in[j];
    ASSERT_EQ(out[i], expected) << "at " << i;
  }
}

TEST(CpuScan, ParallelScanWithManyThreadCounts) {
  const std::size_t n = 5 * prim::cpu::kParallelMin + 3;
  std::vector<std::uint32_t> in(n);
  std::mt19937_64 rng(3);
  for (auto& x : in) x = static_cast<std::uint32_t>(rng());
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 3, 7, 16, 61}) {
    SCOPED_TRACE("threads = " + std::to_string(threads));
    omp_set_num_threads(threads);
    check_cpu_scans(in, std::uint32_t(0), prim::Plus{});
  }
  omp_set_num_threads(saved);
}

TEST(CpuScan, MaxWithLowestIdentity) {
  std::vector<std::int32_t> in(prim::cpu::kParallelMin * 2 + 1);
  std::mt19937_64 rng(4);
  for (auto& x : in) x = static_cast<std::int32_t>(rng());
  check_cpu_scans(in, std::numeric_limits<std::int32_t>::min(), prim::Max{});
}

TEST(CpuScan, WorkedExampleFromTheHeader) {
  const std::vector<int> in = {3, 1, 7, 0, 4, 1, 6, 3};
  std::vector<int> out(8);
  prim::cpu::exclusive_scan(in.data(), out.data(), 8, 0, prim::Plus{});
  EXPECT_EQ(out, (std::vector<int>{0, 3, 4, 11, 11, 15, 16, 22}));
  prim::cpu::inclusive_scan(in.data(), out.data(), 8, 0, prim::Plus{});
  EXPECT_EQ(out, (std::vector<int>{3, 4, 11, 11, 15, 16, 22, 25}));
}

TEST(CpuScan, NullWithItemsThrowsNamingTheArgument) {
  std::vector<int> v(4);
  try {
    prim::cpu::exclusive_scan<int>(nullptr, v.data(), 4, 0, prim::Plus{});
    FAIL() << "no prim::Error";
  } catch (const prim::Error& e) {
    EXPECT_NE(std::string(e.what()).find("prim::cpu::exclusive_scan"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("in is null"), std::string::npos) << e.what();
  }
  EXPECT_THROW(prim::cpu::inclusive_scan<int>(v.data(), nullptr, 4, 0, prim::Plus{}), prim::Error);
  EXPECT_THROW(prim::cpu::exclusive_scan_parallel<int>(nullptr, v.data(), 4, 0, prim::Plus{}),
               prim::Error);
  EXPECT_THROW(prim::cpu::inclusive_scan_parallel<int>(v.data(), nullptr, 4, 0, prim::Plus{}),
               prim::Error);
  EXPECT_NO_THROW(prim::cpu::exclusive_scan<int>(nullptr, nullptr, 0, 0, prim::Plus{}));
  EXPECT_NO_THROW(prim::cpu::exclusive_scan_parallel<int>(nullptr, nullptr, 0, 0, prim::Plus{}));
}

}  // namespace
}  // namespace prim_test
