// The Thrust backend's radix sort (whole-key sort, or bit field + index sort + gather), checked
// as the own ones; a repeated call allocates nothing.
#include <gtest/gtest.h>

#include <cstdint>

#include "primitives/caching_allocator.h"
#include "primitives/thrust/thrust_backend.cuh"
#include "sort_checks.h"

namespace prim_test {
namespace {

struct ThrustSortRunner {
  prim::Workspace ws;
  template <class K, class V>
  void reserve(std::size_t, const BitRanges&) {}  // Thrust needs no workspace bytes
  template <class K, class V>
  void sort(const K* keys_in, K* keys_out, const V* values_in, V* values_out, std::size_t n,
            int begin_bit, int end_bit) {
    prim::thrust_backend::sort_pairs(keys_in, keys_out, values_in, values_out, n, begin_bit,
                                     end_bit, ws);
  }
};

TEST(ThrustSort, Uint8Keys) {
  ThrustSortRunner runner;
  check_sort<std::uint8_t, std::uint32_t>(runner, sort_sizes(), kUint8Ranges, all_key_dists());
}

TEST(ThrustSort, Uint16Keys) {
  ThrustSortRunner runner;
  check_sort<std::uint16_t, std::uint32_t>(runner, sort_sizes(), kUint16Ranges, all_key_dists());
}

TEST(ThrustSort, Uint32Keys) {
  ThrustSortRunner runner;
  check_sort<std::uint32_t, std::uint32_t>(runner, sort_sizes(), kUint32Ranges, all_key_dists());
}

TEST(ThrustSort, Uint32KeysItem12Values) {
  ThrustSortRunner runner;
  check_sort<std::uint32_t, Item12>(runner, small_sizes(), {{0, 3}, {0, 32}},
                                    {KeyDist::uniform, KeyDist::materials});
}

TEST(ThrustSort, Large) {
  ThrustSortRunner runner;
  check_sort<std::uint32_t, std::uint32_t>(runner, {(std::size_t(1) << 20) + 3}, {{0, 32}, {0, 3}},
                                           {KeyDist::uniform});
  check_sort<std::uint32_t, std::uint32_t>(runner, {std::size_t(1) << 26}, {{0, 3}},
                                           {KeyDist::materials});
}

TEST(ThrustSort, EmptyInputIsANoOp) {
  prim::Workspace ws;
  EXPECT_NO_THROW((prim::thrust_backend::sort_pairs<std::uint8_t, std::uint32_t>(
      nullptr, nullptr, nullptr, nullptr, 0, 0, 8, ws)));
}

// The cache settles after the first call of a size and bit range: the next ones allocate
// nothing (full width: copy + sort in place; part: bit field + index sort + gather).
TEST(ThrustSort, RepeatedCallAllocatesNothing) {
  const std::vector<std::size_t> sizes = {(std::size_t(1) << 20) + 3};
  for (const BitRanges& ranges : {BitRanges{{0, 32}}, BitRanges{{0, 3}}}) {
    SCOPED_TRACE(range_text(ranges[0].first, ranges[0].second));
    ThrustSortRunner runner;
    check_sort<std::uint32_t, std::uint32_t>(runner, sizes, ranges, {KeyDist::uniform});
    const std::size_t after_first = runner.ws.caching_allocator().allocations();
    EXPECT_GT(after_first, 0u);
    check_sort<std::uint32_t, std::uint32_t>(runner, sizes, ranges, {KeyDist::materials});
    check_sort<std::uint32_t, std::uint32_t>(runner, sizes, ranges, {KeyDist::uniform});
    EXPECT_EQ(runner.ws.caching_allocator().allocations(), after_first);
  }
}

}  // namespace
}  // namespace prim_test
