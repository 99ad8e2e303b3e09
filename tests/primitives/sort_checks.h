// Radix sort checks shared by the own and Thrust tests: keys from several distributions, values
// carrying the input index (so comparing with the stable prim::cpu::sort_pairs also checks
// stability), poisoned outputs, guard items, inputs checked unchanged.
//
// A runner offers reserve<K, V>(max_n, ranges) and sort(keys_in, keys_out, values_in, values_out,
// n, begin_bit, end_bit).
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "device_buffer.h"
#include "primitives/cpu/cpu_backend.h"
#include "test_support.h"

namespace prim_test {

using BitRanges = std::vector<std::pair<int, int>>;

enum class KeyDist { uniform, few_distinct, all_equal, ascending, descending, materials };

inline const char* name(KeyDist d) {
  switch (d) {
    case KeyDist::uniform:
      return "uniform";
    case KeyDist::few_distinct:
      return "few_distinct";
    case KeyDist::all_equal:
      return "all_equal";
    case KeyDist::ascending:
      return "ascending";
    case KeyDist::descending:
      return "descending";
    case KeyDist::materials:
      return "materials";
  }
  return "?";
}
inline std::vector<KeyDist> all_key_dists() {
  return {KeyDist::uniform,   KeyDist::few_distinct, KeyDist::all_equal,
          KeyDist::ascending, KeyDist::descending,   KeyDist::materials};
}

template <class K>
std::vector<K> make_keys(KeyDist dist, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<K> keys(n);
  const K pool[5] = {static_cast<K>(rng()), static_cast<K>(rng()), static_cast<K>(rng()),
                     static_cast<K>(rng()), static_cast<K>(rng())};
  for (std::size_t i = 0; i < n; ++i) {
    switch (dist) {
      case KeyDist::uniform:
        keys[i] = static_cast<K>(rng());
        break;
      case KeyDist::few_distinct:
        keys[i] = pool[rng() % 5];
        break;
      case KeyDist::all_equal:
        keys[i] = pool[0];
        break;
      case KeyDist::ascending:
        keys[i] = static_cast<K>(i * 2654435761u >> 7);
        break;
      case KeyDist::descending:
        keys[i] = static_cast<K>(~static_cast<std::uint64_t>(i));
        break;
      case KeyDist::materials:
        keys[i] = static_cast<K>(rng() % 8);
        break;  // 8 material ids
    }
  }
  if (dist == KeyDist::ascending) std::sort(keys.begin(), keys.end());
  return keys;
}

template <class V>
V value_for_index(std::size_t i);
template <>
inline std::uint32_t value_for_index<std::uint32_t>(std::size_t i) {
  return static_cast<std::uint32_t>(i);
}
template <>
inline Item12 value_for_index<Item12>(std::size_t i) {
  return {static_cast<std::uint32_t>(i), float(i) * 0.5f, -float(i)};
}

inline std::string range_text(int begin_bit, int end_bit) {
  return "[" + std::to_string(begin_bit) + ", " + std::to_string(end_bit) + ")";
}

template <class K, class V, class Runner>
void check_sort(Runner& runner, const std::vector<std::size_t>& sizes, const BitRanges& ranges,
                const std::vector<KeyDist>& dists) {
  const std::size_t max_n = *std::max_element(sizes.begin(), sizes.end());
  runner.template reserve<K, V>(max_n, ranges);
  DeviceBuffer<K> d_keys_in(max_n), d_keys_out(max_n);
  DeviceBuffer<V> d_values_in(max_n), d_values_out(max_n);
  for (KeyDist dist : sampled(dists)) {
    for (std::size_t n : sizes) {
      const auto keys = make_keys<K>(dist, n, 977 * n + static_cast<int>(dist));
      std::vector<V> values(n);
      for (std::size_t i = 0; i < n; ++i) values[i] = value_for_index<V>(i);
      d_keys_in.upload(keys);
      d_values_in.upload(values);
      for (auto [begin_bit, end_bit] : sampled(ranges)) {
        SCOPED_TRACE(std::string(name(dist)) + " keys of " + std::to_string(8 * sizeof(K)) +
                     " bits, bits " + range_text(begin_bit, end_bit) +
                     ", n = " + std::to_string(n));
        std::vector<K> expected_keys(n);
        std::vector<V> expected_values(n);
        prim::cpu::sort_pairs(keys.data(), expected_keys.data(), values.data(),
                              expected_values.data(), n, begin_bit, end_bit);
        d_keys_out.poison();
        d_values_out.poison();
        runner.sort(d_keys_in.get(), d_keys_out.get(), d_values_in.get(), d_values_out.get(), n,
                    begin_bit, end_bit);
        ASSERT_TRUE(same_items(expected_values, d_values_out.download(n)))
            << "values (they hold the input index: a mismatch with equal keys is instability)";
        ASSERT_TRUE(same_items(expected_keys, d_keys_out.download(n))) << "keys";
        ASSERT_TRUE(d_keys_out.guard_intact(n)) << "keys written past the end";
        ASSERT_TRUE(d_values_out.guard_intact(n)) << "values written past the end";
      }
      ASSERT_TRUE(same_items(keys, d_keys_in.download(n))) << "the input keys changed";
      ASSERT_TRUE(same_items(values, d_values_in.download(n))) << "the input values changed";
    }
  }
}

inline const BitRanges kUint8Ranges = {{0, 3}, {0, 8}, {3, 8}, {2, 5}, {7, 8}};
inline const BitRanges kUint16Ranges = {{0, 3}, {0, 8}, {3, 11}, {0, 16}, {8, 16}, {5, 6}};
inline const BitRanges kUint32Ranges = {{0, 3},  {0, 8},   {3, 11},  {0, 32},
                                        {5, 27}, {16, 32}, {31, 32}, {0, 13}};

inline std::vector<std::size_t> sort_sizes() {
  return small_sizes();
}

}  // namespace prim_test
