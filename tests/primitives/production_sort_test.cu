// Special cases of the onesweep radix sort: one-pass sorts (3 and 8 bits; 4-bit digits on both
// sides of the one-wave limit), multi-pass sorts with a narrower last digit and a non-zero
// begin_bit, 4- and 8-bit digits, uint8/16/32 keys, values of 4, 8 and 48 bytes, stability (values
// record the input order), tile edges, and repeated calls on one workspace holding stale status or
// garbage.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "primitives/radix_sort.cuh"
#include "production_support.h"
#include "test_support.h"

namespace prim_production_test {
namespace {

struct Wide {  // 48-byte value
  std::uint32_t index;
  std::uint32_t pad[11];
  bool operator==(const Wide& o) const { return index == o.index; }
};
std::ostream& operator<<(std::ostream& os, const Wide& w) {
  return os << "{" << w.index << "}";
}

template <class V>
V value_of(std::uint32_t index) {
  if constexpr (std::is_same_v<V, Wide>) {
    Wide w{};
    w.index = index;
    return w;
  } else {
    return static_cast<V>(index) * V(3) + V(1);
  }
}

prim::SortConfig onesweep(int radix_bits = 0) {
  prim::SortConfig config;
  config.radix_bits = radix_bits;
  return config;
}

template <class K, class V>
void check_sort(const std::vector<K>& keys, int begin_bit, int end_bit,
                const prim::SortConfig& config, prim::Workspace* shared_ws = nullptr) {
  const std::size_t n = keys.size();
  SCOPED_TRACE("n = " + std::to_string(n) + ", bits [" + std::to_string(begin_bit) + ", " +
               std::to_string(end_bit) + "), key bytes " + std::to_string(sizeof(K)) +
               ", value bytes " + std::to_string(sizeof(V)) + ", radix_bits " +
               std::to_string(config.radix_bits));
  std::vector<V> values(n);
  for (std::size_t i = 0; i < n; ++i) values[i] = value_of<V>(static_cast<std::uint32_t>(i));
  // Expected: stable order by the digit bits.
  const unsigned long long mask =
      (end_bit - begin_bit >= 64) ? ~0ull : ((1ull << (end_bit - begin_bit)) - 1);
  auto field = [&](K k) { return (static_cast<unsigned long long>(k) >> begin_bit) & mask; };
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return field(keys[a]) < field(keys[b]); });
  std::vector<K> expected_keys(n);
  std::vector<V> expected_values(n);
  for (std::size_t i = 0; i < n; ++i) {
    expected_keys[i] = keys[order[i]];
    expected_values[i] = values[order[i]];
  }

  DeviceArray<K> d_keys(n), d_keys_out(n + 1);
  DeviceArray<V> d_values(n), d_values_out(n + 1);
  d_keys.upload(keys);
  d_values.upload(values);
  prim::Workspace own_ws;
  prim::Workspace& ws = shared_ws ? *shared_ws : own_ws;
  ws.reserve(prim::own::sort_pairs_workspace_bytes<K, V>(n, begin_bit, end_bit, config));
  prim::own::sort_pairs(d_keys.get(), d_keys_out.get(), d_values.get(), d_values_out.get(), n,
                        begin_bit, end_bit, ws, 0, config);
  EXPECT_TRUE(same(expected_keys, d_keys_out.download(n)));
  EXPECT_TRUE(same(expected_values, d_values_out.download(n)));
  EXPECT_TRUE(same(keys, d_keys.download(n))) << "input keys changed";
  // Nothing written past the outputs.
  const std::vector<K> after = d_keys_out.download(1, n);
  const auto* bytes = reinterpret_cast<const unsigned char*>(&after[0]);
  for (std::size_t b = 0; b < sizeof(K); ++b) EXPECT_EQ(bytes[b], 0xAB) << "write past the end";
}

template <class K>
std::vector<K> random_keys(std::size_t n, std::uint64_t seed, unsigned long long bound) {
  std::mt19937_64 rng(seed);
  std::vector<K> v(n);
  for (auto& k : v) k = static_cast<K>(bound ? rng() % bound : rng());
  return v;
}

// Onesweep tile edges (kOnesweepTile = 8192 items) among them.
const std::size_t kSizes[] = {1,
                              2,
                              31,
                              33,
                              prim_test::kOnesweepTile - 1,
                              prim_test::kOnesweepTile,
                              prim_test::kOnesweepTile + 1,
                              100003,
                              (std::size_t(1) << 20) + 5};

TEST(OnesweepSort, OnePassMaterials) {
  for (std::size_t n : kSizes) {
    check_sort<std::uint32_t, std::uint32_t>(random_keys<std::uint32_t>(n, n, 8), 0, 3, onesweep());
    check_sort<std::uint32_t, std::uint32_t>(random_keys<std::uint32_t>(n, n + 1, 256), 0, 8,
                                             onesweep());
  }
}

// A one-pass sort of 4-bit digits runs as one cooperative pass while its tiles fit on the GPU at
// once (AgentRadixSortOnesweep's ONE_WAVE), else as the zeroing and histogram kernels and a chained
// pass: sizes at the limit and past it take each path. Which one ran shows in the workspace: the
// one-wave pass leaves the histograms as they were (here 0xAB bytes), the other path zeroes and
// fills them.
TEST(OnesweepSort, BothSidesOfTheOneWaveLimit) {
  namespace os = prim::detail::radix_sort_onesweep;
  if (!prim::device_info().cooperative_launch) GTEST_SKIP() << "no cooperative launch";
  const std::size_t tiles =
      os::one_wave_tiles<4, std::uint32_t, std::uint32_t, prim::agent::onesweep::RadixDigit<4>>();
  EXPECT_EQ(tiles,
            std::size_t(prim::agent::onesweep::kPassBlocksPerSm) * prim::device_info().sm_count);
  const std::size_t limit = tiles * prim_test::kOnesweepTile;
  for (std::size_t n : {limit - 1, limit, limit + 1}) {
    prim::Workspace ws(
        prim::own::sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(n, 0, 4, onesweep()));
    ASSERT_EQ(cudaMemset(ws.data(), 0xAB, ws.size()), cudaSuccess);
    check_sort<std::uint32_t, std::uint32_t>(random_keys<std::uint32_t>(n, n, 16), 0, 4, onesweep(),
                                             &ws);
    const os::Layout<std::uint32_t, std::uint32_t> layout(ws.data(), n, os::make_plan(n, 4, 1));
    unsigned histogram = 0;
    ASSERT_EQ(cudaMemcpy(&histogram, layout.histograms, sizeof histogram, cudaMemcpyDeviceToHost),
              cudaSuccess);
    EXPECT_EQ(histogram == 0xABABABABu, n <= limit) << "n = " << n << ", limit " << limit;
  }
}

TEST(OnesweepSort, ExplicitDigitWidths) {
  for (std::size_t n : {prim_test::kOnesweepTile + 1, std::size_t(300007)}) {
    const auto keys = random_keys<std::uint32_t>(n, n + 2, 0);
    check_sort<std::uint32_t, std::uint32_t>(keys, 0, 3, onesweep(8));
    check_sort<std::uint32_t, std::uint32_t>(keys, 0, 8, onesweep(4));
    check_sort<std::uint32_t, std::uint32_t>(keys, 0, 32, onesweep(4));
    check_sort<std::uint32_t, std::uint32_t>(keys, 0, 32, onesweep(8));
  }
}

TEST(OnesweepSort, PartialRangesAndNarrowLastDigit) {
  const std::size_t n = 200003;
  const auto keys = random_keys<std::uint32_t>(n, 11, 0);
  check_sort<std::uint32_t, std::uint32_t>(keys, 5, 17, onesweep());   // 8 + 4 bits
  check_sort<std::uint32_t, std::uint32_t>(keys, 3, 30, onesweep());   // 8 + 8 + 8 + 3
  check_sort<std::uint32_t, std::uint32_t>(keys, 31, 32, onesweep());  // the top bit alone
  check_sort<std::uint32_t, std::uint32_t>(keys, 13, 16, onesweep(8));
}

TEST(OnesweepSort, KeyAndValueTypes) {
  const std::size_t n = 100003;
  check_sort<std::uint8_t, std::uint32_t>(random_keys<std::uint8_t>(n, 21, 0), 0, 8, onesweep());
  check_sort<std::uint8_t, std::uint32_t>(random_keys<std::uint8_t>(n, 22, 0), 2, 5, onesweep());
  check_sort<std::uint16_t, std::uint32_t>(random_keys<std::uint16_t>(n, 23, 0), 0, 16, onesweep());
  check_sort<std::uint16_t, std::uint64_t>(random_keys<std::uint16_t>(n, 24, 0), 3, 11, onesweep());
  check_sort<std::uint32_t, std::uint64_t>(random_keys<std::uint32_t>(n, 25, 0), 0, 32, onesweep());
  check_sort<std::uint32_t, Wide>(random_keys<std::uint32_t>(n, 26, 8), 0, 3, onesweep());
  check_sort<std::uint8_t, Wide>(random_keys<std::uint8_t>(n, 27, 0), 0, 8, onesweep());
}

TEST(OnesweepSort, ManyDuplicatesAndSortedInputs) {
  const std::size_t n = (std::size_t(1) << 20) + 7;
  check_sort<std::uint32_t, std::uint32_t>(std::vector<std::uint32_t>(n, 5u), 0, 32, onesweep());
  std::vector<std::uint32_t> ascending(n), descending(n);
  for (std::size_t i = 0; i < n; ++i) {
    ascending[i] = static_cast<std::uint32_t>(i / 3);
    descending[i] = static_cast<std::uint32_t>((n - i) / 3);
  }
  check_sort<std::uint32_t, std::uint32_t>(ascending, 0, 32, onesweep());
  check_sort<std::uint32_t, std::uint32_t>(descending, 0, 20, onesweep());
  check_sort<std::uint32_t, std::uint32_t>(random_keys<std::uint32_t>(n, 31, 2), 0, 1, onesweep());
}

TEST(OnesweepSort, LargeMultiPass) {
  const std::size_t n = (std::size_t(1) << 24) + 3;
  check_sort<std::uint32_t, std::uint32_t>(random_keys<std::uint32_t>(n, 41, 0), 0, 32, onesweep());
}

// One workspace through sorts of different shapes, with garbage written into it in between.
TEST(OnesweepSort, RepeatedCallsReuseOneWorkspace) {
  prim::Workspace ws;
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    check_sort<std::uint32_t, std::uint32_t>(random_keys<std::uint32_t>(500003, round, 8), 0, 3,
                                             onesweep(), &ws);
    check_sort<std::uint32_t, std::uint32_t>(random_keys<std::uint32_t>(500003, round + 9, 0), 0,
                                             32, onesweep(), &ws);
    check_sort<std::uint32_t, std::uint32_t>(random_keys<std::uint32_t>(70001, round + 5, 0), 4, 12,
                                             onesweep(), &ws);
    PRIM_CUDA_CHECK(cudaMemset(ws.data(), 0x40 + round, ws.size()));
  }
}

}  // namespace
}  // namespace prim_production_test
