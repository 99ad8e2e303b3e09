// CPU compaction, partition, scatter and radix sort against the standard library.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "primitives/cpu/cpu_backend.h"
#include "test_support.h"

namespace prim_test {
namespace {

std::vector<std::size_t> select_sizes() {
  const std::size_t p = prim::cpu::kParallelMin;
  return {0, 1, 2, 31, 32, 33, 1000, p - 1, p, p + 1, 4 * p + 13, (std::size_t(1) << 20) + 3};
}

TEST(CpuSelect, EveryCompactionMatchesCopyIf) {
  for (Pattern pattern : all_patterns()) {
    for (std::size_t n : select_sizes()) {
      SCOPED_TRACE(trace(name(pattern), n));
      const auto items = flagged_items(make_flags(pattern, n, n + 11));
      std::vector<std::uint32_t> expected;
      std::copy_if(items.begin(), items.end(), std::back_inserter(expected), IsOdd{});

      std::vector<std::uint32_t> out(n + 1, 0xABABABABu);
      std::size_t kept = prim::cpu::compact_if(items.data(), out.data(), n, IsOdd{});
      ASSERT_EQ(kept, expected.size()) << "compact_if";
      ASSERT_TRUE(same_items(expected, out, kept)) << "compact_if";

      std::fill(out.begin(), out.end(), 0xABABABABu);
      kept = prim::cpu::compact_if_with_scan(items.data(), out.data(), n, IsOdd{});
      ASSERT_EQ(kept, expected.size()) << "compact_if_with_scan";
      ASSERT_TRUE(same_items(expected, out, kept)) << "compact_if_with_scan";

      std::fill(out.begin(), out.end(), 0xABABABABu);
      kept = prim::cpu::compact_if_parallel(items.data(), out.data(), n, IsOdd{});
      ASSERT_EQ(kept, expected.size()) << "compact_if_parallel";
      ASSERT_TRUE(same_items(expected, out, kept)) << "compact_if_parallel";

      // flags of a wide type whose nonzero values have an empty low byte
      std::vector<std::uint32_t> flags(n);
      for (std::size_t i = 0; i < n; ++i) flags[i] = (items[i] & 1u) ? 0x100u << (i % 3) : 0u;
      std::fill(out.begin(), out.end(), 0xABABABABu);
      kept = prim::cpu::compact_flags(items.data(), flags.data(), out.data(), n);
      ASSERT_EQ(kept, expected.size()) << "compact_flags";
      ASSERT_TRUE(same_items(expected, out, kept)) << "compact_flags";
      EXPECT_EQ(out[n], 0xABABABABu) << "wrote past the end";
    }
  }
}

TEST(CpuSelect, ParallelCompactionWithManyThreadCounts) {
  const std::size_t n = 6 * prim::cpu::kParallelMin + 1;
  const auto items = flagged_items(make_flags(Pattern::random_half, n, 5));
  std::vector<std::uint32_t> expected;
  std::copy_if(items.begin(), items.end(), std::back_inserter(expected), IsOdd{});
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 3, 7, 16, 61}) {
    SCOPED_TRACE("threads = " + std::to_string(threads));
    omp_set_num_threads(threads);
    std::vector<std::uint32_t> out(n);
    ASSERT_EQ(prim::cpu::compact_if_parallel(items.data(), out.data(), n, IsOdd{}),
              expected.size());
    ASSERT_TRUE(same_items(expected, out, expected.size()));
    ASSERT_EQ(prim::cpu::compact_if_with_scan(items.data(), out.data(), n, IsOdd{}),
              expected.size());
    ASSERT_TRUE(same_items(expected, out, expected.size()));
  }
  omp_set_num_threads(saved);
}

TEST(CpuSelect, PartitionsMatchStdStablePartition) {
  for (Pattern pattern : all_patterns()) {
    for (std::size_t n : select_sizes()) {
      SCOPED_TRACE(trace(name(pattern), n));
      const auto items = flagged_items(make_flags(pattern, n, 3 * n + 1));
      std::vector<std::uint32_t> expected = items;
      const auto middle = std::stable_partition(expected.begin(), expected.end(), IsOdd{});
      std::vector<std::uint32_t> out(n);
      const std::size_t kept = prim::cpu::stable_partition(items.data(), out.data(), n, IsOdd{});
      ASSERT_EQ(kept, static_cast<std::size_t>(middle - expected.begin()));
      ASSERT_TRUE(same_items(expected, out));
      // partition_reversed: the same, the rejected run reversed.
      std::reverse(expected.begin() + static_cast<std::ptrdiff_t>(kept), expected.end());
      ASSERT_EQ(prim::cpu::partition_reversed(items.data(), out.data(), n, IsOdd{}), kept);
      ASSERT_TRUE(same_items(expected, out));
    }
  }
}

TEST(CpuSelect, WorkedExamplesFromTheHeader) {
  const std::vector<int> in = {5, 2, 8, 1, 9, 4};
  const auto above3 = [](int x) { return x > 3; };
  std::vector<int> out(6, -1);
  EXPECT_EQ(prim::cpu::compact_if(in.data(), out.data(), 6, above3), 4u);
  EXPECT_EQ(std::vector<int>(out.begin(), out.begin() + 4), (std::vector<int>{5, 8, 9, 4}));
  EXPECT_EQ(prim::cpu::stable_partition(in.data(), out.data(), 6, above3), 4u);
  EXPECT_EQ(out, (std::vector<int>{5, 8, 9, 4, 2, 1}));
  EXPECT_EQ(prim::cpu::partition_reversed(in.data(), out.data(), 6, above3), 4u);
  EXPECT_EQ(out, (std::vector<int>{5, 8, 9, 4, 1, 2}));
  const std::vector<int> flags = {1, 0, 1, 0, 1, 1};
  std::fill(out.begin(), out.end(), -1);
  EXPECT_EQ(prim::cpu::compact_flags(in.data(), flags.data(), out.data(), 6), 4u);
  EXPECT_EQ(std::vector<int>(out.begin(), out.begin() + 4), (std::vector<int>{5, 8, 9, 4}));
}

TEST(CpuScatter, PermutationMatchesLoop) {
  for (std::size_t n : select_sizes()) {
    SCOPED_TRACE(trace("scatter", n));
    std::vector<std::uint32_t> map(n);
    std::iota(map.begin(), map.end(), 0u);
    std::shuffle(map.begin(), map.end(), std::mt19937_64(n));
    std::vector<Item12> in(n), out(n), expected(n);
    for (std::size_t i = 0; i < n; ++i)
      in[i] = {static_cast<std::uint32_t>(i), float(i) * 0.5f, -float(i)};
    for (std::size_t i = 0; i < n; ++i) expected[map[i]] = in[i];
    prim::cpu::scatter(in.data(), map.data(), out.data(), n);
    ASSERT_TRUE(same_items(expected, out));
  }
  const std::vector<char> in = {'a', 'b', 'c', 'd'};
  const std::vector<int> map = {2, 0, 3, 1};
  std::vector<char> out(4);
  prim::cpu::scatter(in.data(), map.data(), out.data(), 4);
  EXPECT_EQ(out, (std::vector<char>{'b', 'd', 'a', 'c'}));
}

// sort_pairs against std::stable_sort on the key field, values = original indices (so the
// comparison also checks stability).
template <class K>
void check_cpu_sort(const std::vector<K>& keys, int begin_bit, int end_bit) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> values(n);
  std::iota(values.begin(), values.end(), 0u);
  const int bits = end_bit - begin_bit;
  const std::uint64_t mask = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
  auto field = [&](K k) { return (std::uint64_t(k) >> begin_bit) & mask; };
  std::vector<std::uint32_t> order = values;
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return field(keys[a]) < field(keys[b]);
  });
  std::vector<K> expected_keys(n);
  for (std::size_t i = 0; i < n; ++i) expected_keys[i] = keys[order[i]];

  std::vector<K> keys_out(n);
  std::vector<std::uint32_t> values_out(n);
  prim::cpu::sort_pairs(keys.data(), keys_out.data(), values.data(), values_out.data(), n,
                        begin_bit, end_bit);
  ASSERT_TRUE(same_items(order, values_out)) << "values (stability)";
  ASSERT_TRUE(same_items(expected_keys, keys_out)) << "keys";

  std::fill(keys_out.begin(), keys_out.end(), K(0xAB));
  std::fill(values_out.begin(), values_out.end(), 0xABABABABu);
  prim::cpu::sort_pairs_parallel(keys.data(), keys_out.data(), values.data(), values_out.data(), n,
                                 begin_bit, end_bit);
  ASSERT_TRUE(same_items(order, values_out)) << "sort_pairs_parallel values (stability)";
  ASSERT_TRUE(same_items(expected_keys, keys_out)) << "sort_pairs_parallel keys";
}

template <class K>
std::vector<K> random_keys(std::size_t n, std::uint64_t seed, int distinct) {
  std::mt19937_64 rng(seed);
  std::vector<K> pool(static_cast<std::size_t>(distinct));
  for (auto& k : pool) k = static_cast<K>(rng());
  std::vector<K> keys(n);
  for (auto& k : keys) k = distinct > 0 ? pool[rng() % pool.size()] : static_cast<K>(rng());
  return keys;
}

template <class K>
void check_cpu_sort_ranges(const std::vector<std::pair<int, int>>& ranges) {
  for (auto [begin_bit, end_bit] : ranges) {
    for (std::size_t n : {0u, 1u, 2u, 33u, 1000u, 4097u, 16383u, 16384u, 70001u}) {
      for (int distinct : {0, 1, 5}) {
        SCOPED_TRACE("bits [" + std::to_string(begin_bit) + ", " + std::to_string(end_bit) +
                     "), distinct " + std::to_string(distinct) + ", n = " + std::to_string(n));
        check_cpu_sort(random_keys<K>(n, n * 31 + distinct, distinct), begin_bit, end_bit);
      }
    }
  }
}

TEST(CpuMultisplit, WorkedExampleFromTheHeader) {
  const std::vector<std::uint32_t> keys = {5, 2, 7, 4, 0, 3};
  const std::vector<char> values = {'a', 'b', 'c', 'd', 'e', 'f'};
  std::vector<std::uint32_t> keys_out(6);
  std::vector<char> values_out(6);
  std::vector<unsigned long long> offsets(4);
  prim::cpu::multisplit_pairs(
      keys.data(), keys_out.data(), values.data(), values_out.data(), 6, 3,
      [](std::uint32_t k) { return k % 3; }, offsets.data());
  EXPECT_EQ(keys_out, (std::vector<std::uint32_t>{0, 3, 7, 4, 5, 2}));
  EXPECT_EQ(values_out, (std::vector<char>{'e', 'f', 'c', 'd', 'a', 'b'}));
  EXPECT_EQ(offsets, (std::vector<unsigned long long>{0, 2, 4, 6}));
}

TEST(CpuMultisplit, MatchesStableSortByBucketForEveryBucketCount) {
  std::mt19937 rng(7);
  for (int buckets = 1; buckets <= 32; ++buckets) {
    for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(1000)}) {
      std::vector<std::uint32_t> keys(n), values(n), keys_out(n), values_out(n);
      for (std::size_t i = 0; i < n; ++i) {
        keys[i] = rng() % (buckets + 3);  // some past the last bucket: they count as the last
        values[i] = static_cast<std::uint32_t>(i);
      }
      auto bucket = [&](std::uint32_t k) { return std::min<std::uint32_t>(k, buckets - 1); };
      std::vector<unsigned long long> offsets(buckets + 1);
      prim::cpu::multisplit_pairs(
          keys.data(), keys_out.data(), values.data(), values_out.data(), n, buckets,
          [](std::uint32_t k) { return k; }, offsets.data());
      std::vector<std::uint32_t> order(values);
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return bucket(keys[a]) < bucket(keys[b]);
      });
      EXPECT_EQ(values_out, order) << buckets << " buckets, n " << n;
      for (int b = 0; b <= buckets; ++b) {
        const auto expected = static_cast<unsigned long long>(std::count_if(
            keys.begin(), keys.end(), [&](std::uint32_t k) { return int(bucket(k)) < b; }));
        EXPECT_EQ(offsets[b], b == buckets ? n : expected) << "bucket " << b;
      }
    }
  }
  std::vector<unsigned long long> offsets(40);
  std::vector<std::uint32_t> a(4), b(4);
  EXPECT_THROW(prim::cpu::multisplit_pairs(
                   a.data(), b.data(), a.data(), b.data(), 4, 33, [](std::uint32_t k) { return k; },
                   offsets.data()),
               prim::Error);
}

TEST(CpuSort, Uint8Keys) {
  check_cpu_sort_ranges<std::uint8_t>({{0, 3}, {0, 8}, {3, 8}, {2, 5}});
}
TEST(CpuSort, Uint16Keys) {
  check_cpu_sort_ranges<std::uint16_t>({{0, 3}, {0, 8}, {3, 11}, {0, 16}, {8, 16}});
}
TEST(CpuSort, Uint32Keys) {
  check_cpu_sort_ranges<std::uint32_t>({{0, 3}, {0, 8}, {3, 11}, {0, 32}, {5, 27}, {31, 32}});
}
TEST(CpuSort, Uint64Keys) {
  check_cpu_sort_ranges<std::uint64_t>({{0, 64}, {40, 61}});
}

TEST(CpuSort, ParallelSortWithManyThreadCounts) {
  const auto keys = random_keys<std::uint32_t>(5 * prim::cpu::kParallelMin + 9, 17, 0);
  const int saved = omp_get_max_threads();
  for (int threads : {1, 2, 3, 7, 16, 61}) {
    SCOPED_TRACE("threads = " + std::to_string(threads));
    omp_set_num_threads(threads);
    check_cpu_sort(keys, 0, 32);  // four passes: the outputs hold the last one
    check_cpu_sort(keys, 3, 20);  // three passes: the last pass reads the temporaries
    check_cpu_sort(keys, 0, 3);   // one pass, straight from the inputs
  }
  omp_set_num_threads(saved);
}

TEST(CpuSort, WorkedExamplesFromTheHeader) {
  const std::vector<std::uint32_t> keys = {3, 1, 2, 1, 0};
  const std::vector<char> values = {'a', 'b', 'c', 'd', 'e'};
  std::vector<std::uint32_t> keys_out(5);
  std::vector<char> values_out(5);
  prim::cpu::sort_pairs(keys.data(), keys_out.data(), values.data(), values_out.data(), 5, 0, 2);
  EXPECT_EQ(keys_out, (std::vector<std::uint32_t>{0, 1, 1, 2, 3}));
  EXPECT_EQ(values_out, (std::vector<char>{'e', 'b', 'd', 'c', 'a'}));
  const std::vector<std::uint32_t> keys2 = {6, 5, 4};
  prim::cpu::sort_pairs(keys2.data(), keys_out.data(), values.data(), values_out.data(), 3, 1, 2);
  EXPECT_EQ(std::vector<std::uint32_t>(keys_out.begin(), keys_out.begin() + 3),
            (std::vector<std::uint32_t>{5, 4, 6}));
  EXPECT_EQ(std::vector<char>(values_out.begin(), values_out.begin() + 3),
            (std::vector<char>{'b', 'c', 'a'}));
}

TEST(CpuErrors, BadArgumentsThrowNamingFunctionAndArgument) {
  std::vector<std::uint32_t> a(8), b(8);
  std::vector<std::uint8_t> k(8), ko(8);
  expect_error([&] { prim::cpu::compact_if(a.data(), a.data(), 8, IsOdd{}); },
               {"prim::cpu::compact_if", "alias"});
  expect_error([&] { prim::cpu::compact_if<std::uint32_t>(nullptr, b.data(), 8, IsOdd{}); },
               {"prim::cpu::compact_if", "in is null"});
  expect_error(
      [&] { prim::cpu::compact_if_with_scan<std::uint32_t>(a.data(), nullptr, 8, IsOdd{}); },
      {"prim::cpu::compact_if_with_scan", "out is null"});
  expect_error([&] { prim::cpu::compact_if_parallel(a.data(), a.data(), 8, IsOdd{}); },
               {"prim::cpu::compact_if_parallel", "alias"});
  expect_error(
      [&] { prim::cpu::compact_flags<std::uint32_t, int>(a.data(), nullptr, b.data(), 8); },
      {"prim::cpu::compact_flags", "flags is null"});
  expect_error([&] { prim::cpu::stable_partition<std::uint32_t>(a.data(), nullptr, 8, IsOdd{}); },
               {"prim::cpu::stable_partition", "out is null"});
  expect_error([&] { prim::cpu::partition_reversed(a.data(), a.data(), 8, IsOdd{}); },
               {"prim::cpu::partition_reversed", "alias"});
  expect_error([&] { prim::cpu::scatter<std::uint32_t, int>(a.data(), nullptr, b.data(), 8); },
               {"prim::cpu::scatter", "map is null"});
  expect_error([&] { prim::cpu::scatter(a.data(), b.data(), a.data(), 8); },
               {"prim::cpu::scatter", "alias"});
  expect_error([&] { prim::cpu::sort_pairs(k.data(), ko.data(), a.data(), b.data(), 8, 3, 3); },
               {"prim::cpu::sort_pairs", "begin_bit 3 must be below end_bit 3"});
  expect_error([&] { prim::cpu::sort_pairs(k.data(), ko.data(), a.data(), b.data(), 8, 0, 9); },
               {"prim::cpu::sort_pairs", "end_bit 9 is past the key width of 8 bits"});
  expect_error([&] { prim::cpu::sort_pairs(k.data(), ko.data(), a.data(), b.data(), 8, -1, 4); },
               {"prim::cpu::sort_pairs", "begin_bit -1 is negative"});
  expect_error(
      [&] { prim::cpu::sort_pairs<std::uint8_t>(k.data(), nullptr, a.data(), b.data(), 8, 0, 8); },
      {"prim::cpu::sort_pairs", "keys_out is null"});
  expect_error([&] { prim::cpu::sort_pairs(k.data(), k.data(), a.data(), b.data(), 8, 0, 8); },
               {"prim::cpu::sort_pairs", "alias"});
  expect_error(
      [&] { prim::cpu::sort_pairs_parallel(k.data(), ko.data(), a.data(), b.data(), 8, 2, 9); },
      {"prim::cpu::sort_pairs_parallel", "end_bit 9 is past the key width of 8 bits"});
  expect_error(
      [&] { prim::cpu::sort_pairs_parallel(k.data(), ko.data(), a.data(), a.data(), 8, 0, 8); },
      {"prim::cpu::sort_pairs_parallel", "alias"});
  // n == 0 accepts null pointers and returns 0
  EXPECT_EQ(prim::cpu::compact_if<std::uint32_t>(nullptr, nullptr, 0, IsOdd{}), 0u);
  EXPECT_EQ(prim::cpu::compact_if_with_scan<std::uint32_t>(nullptr, nullptr, 0, IsOdd{}), 0u);
  EXPECT_EQ(prim::cpu::stable_partition<std::uint32_t>(nullptr, nullptr, 0, IsOdd{}), 0u);
  EXPECT_NO_THROW(
      (prim::cpu::sort_pairs<std::uint8_t, int>(nullptr, nullptr, nullptr, nullptr, 0, 0, 8)));
}

}  // namespace
}  // namespace prim_test
