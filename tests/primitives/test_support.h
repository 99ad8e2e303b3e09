// Host-side helpers shared by the primitives tests: sizes, inputs, comparisons, test types.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "primitives/error.h"
#include "primitives/tuning.h"

namespace prim_test {

// Tiles of the own variants: sizes around them exercise the boundary between blocks.
inline constexpr std::size_t kBlockedTile =
    std::size_t(prim::tuning::kBlockedScanThreads) * prim::tuning::kBlockedScanItemsPerThread;
inline constexpr std::size_t kLookbackTile =
    std::size_t(prim::tuning::kLookbackThreads) * prim::tuning::kLookbackItemsPerThread;
inline constexpr std::size_t kSortTile =
    std::size_t(prim::tuning::kSortThreads) * prim::tuning::kSortItemsPerThread;
inline constexpr std::size_t kOnesweepTile =
    std::size_t(prim::tuning::kOnesweepThreads) * prim::tuning::kSortItemsPerThread;

inline void add_edges(std::vector<std::size_t>& sizes, std::size_t tile) {
  for (std::size_t n : {tile - 1, tile, tile + 1, 2 * tile - 1, 2 * tile + 1}) sizes.push_back(n);
}

inline std::vector<std::size_t> sorted_unique(std::vector<std::size_t> sizes) {
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

// The tile of the single-pass kernels (lookback scan, fused compaction) for items of type T.
template <class T>
constexpr std::size_t lookback_tile() {
  return std::size_t(prim::tuning::kLookbackThreads) * prim::tuning::lookback_items_per_thread<T>();
}

// PRIM_TEST_SANITIZER=1 in the environment (scripts/gpu_check.sh sets it for its
// compute-sanitizer runs) marks a run under a sanitizer, where every launch costs milliseconds and
// launches are serialized. The checks then run a thinner matrix: every edge size still, but not
// the random sizes, and every third flag pattern, key distribution and bit range (sampled()); the
// wall-clock checks of the stream tests are skipped.
inline bool under_sanitizer() {
  static const bool set = [] {
    const char* value = std::getenv("PRIM_TEST_SANITIZER");
    return value != nullptr && *value != '\0' && std::string(value) != "0";
  }();
  return set;
}

// All of `items`, or under a sanitizer every third one from the second (all of them if fewer
// than three).
template <class V>
std::vector<V> sampled(const std::vector<V>& items) {
  if (!under_sanitizer() || items.size() < 3) return items;
  std::vector<V> kept;
  for (std::size_t i = 1; i < items.size(); i += 3) kept.push_back(items[i]);
  return kept;
}

// 0, 1, warp edges, tile edges of every variant (the single-pass tile for items of type T),
// non-powers of two, a three-level blocked scan (2^20 + 3), and a few random sizes from a fixed
// seed (not under a sanitizer).
template <class T = std::uint32_t>
std::vector<std::size_t> standard_sizes() {
  std::vector<std::size_t> sizes = {
      0, 1, 2, 31, 32, 33, 1000, 12345, 65537, 1u << 20, (1u << 20) + 3};
  add_edges(sizes, kBlockedTile);
  add_edges(sizes, kLookbackTile);
  add_edges(sizes, lookback_tile<T>());
  add_edges(sizes, kSortTile);
  add_edges(sizes, kOnesweepTile);
  add_edges(sizes, kBlockedTile * kBlockedTile);  // where blocked needs a third level
  std::mt19937_64 rng(20261121);
  std::uniform_int_distribution<std::size_t> size(2, 300000);
  for (int i = 0; i < 3 && !under_sanitizer(); ++i) sizes.push_back(size(rng));
  return sorted_unique(sizes);
}

// The same without the sizes above 300000: for tests that run many combinations.
template <class T = std::uint32_t>
std::vector<std::size_t> small_sizes() {
  std::vector<std::size_t> sizes;
  for (std::size_t n : standard_sizes<T>())
    if (n <= 300000) sizes.push_back(n);
  return sizes;
}

// Flag patterns for compaction.
enum class Pattern { all_zero, all_one, alternating, random_half, random_sparse, random_dense };
inline const char* name(Pattern p) {
  switch (p) {
    case Pattern::all_zero:
      return "all_zero";
    case Pattern::all_one:
      return "all_one";
    case Pattern::alternating:
      return "alternating";
    case Pattern::random_half:
      return "random_half";
    case Pattern::random_sparse:
      return "random_sparse";
    case Pattern::random_dense:
      return "random_dense";
  }
  return "?";
}
inline std::vector<Pattern> all_patterns() {
  return {Pattern::all_zero,    Pattern::all_one,       Pattern::alternating,
          Pattern::random_half, Pattern::random_sparse, Pattern::random_dense};
}
inline std::vector<bool> make_flags(Pattern p, std::size_t n, std::uint64_t seed) {
  std::vector<bool> flags(n);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    switch (p) {
      case Pattern::all_zero:
        flags[i] = false;
        break;
      case Pattern::all_one:
        flags[i] = true;
        break;
      case Pattern::alternating:
        flags[i] = (i % 2) == 0;
        break;
      case Pattern::random_half:
        flags[i] = u(rng) < 0.5;
        break;
      case Pattern::random_sparse:
        flags[i] = u(rng) < 0.03;
        break;
      case Pattern::random_dense:
        flags[i] = u(rng) < 0.97;
        break;
    }
  }
  return flags;
}

// Items whose low bit is the flag and whose other bits are the index: every item is distinct,
// so a misplaced item cannot compare equal by accident.
inline std::vector<std::uint32_t> flagged_items(const std::vector<bool>& flags) {
  std::vector<std::uint32_t> items(flags.size());
  for (std::size_t i = 0; i < flags.size(); ++i)
    items[i] = (static_cast<std::uint32_t>(i) << 1) | (flags[i] ? 1u : 0u);
  return items;
}

struct IsOdd {
  __host__ __device__ bool operator()(std::uint32_t x) const { return (x & 1u) != 0; }
};

// A 2x2 matrix over the integers mod 2^32 under the product: associative, not commutative.
struct Mat2 {
  std::uint32_t a, b, c, d;  // [[a, b], [c, d]]
  friend bool operator==(const Mat2& x, const Mat2& y) {
    return x.a == y.a && x.b == y.b && x.c == y.c && x.d == y.d;
  }
  friend std::ostream& operator<<(std::ostream& os, const Mat2& m) {
    return os << "[[" << m.a << ", " << m.b << "], [" << m.c << ", " << m.d << "]]";
  }
};
struct Mat2Product {
  __host__ __device__ Mat2 operator()(const Mat2& x, const Mat2& y) const {
    return {x.a * y.a + x.b * y.c, x.a * y.b + x.b * y.d, x.c * y.a + x.d * y.c,
            x.c * y.b + x.d * y.d};
  }
};
inline constexpr Mat2 kMat2Identity = {1, 0, 0, 1};

// A 12-byte item, like a slice of path state: catches code that assumes 4- or 8-byte items.
struct Item12 {
  std::uint32_t id;
  float x, y;
  friend bool operator==(const Item12& p, const Item12& q) {
    return p.id == q.id && p.x == q.x && p.y == q.y;
  }
  friend std::ostream& operator<<(std::ostream& os, const Item12& p) {
    return os << "{" << p.id << ", " << p.x << ", " << p.y << "}";
  }
};
struct Item12IdIsOdd {
  __host__ __device__ bool operator()(const Item12& p) const { return (p.id & 1u) != 0; }
};

template <class T>
auto printable(const T& x) {
  if constexpr (std::is_integral_v<T>)
    return +x;  // uint8_t as a number
  else
    return x;
}

// Compares the first n items; on failure names the first mismatch and how many differ.
template <class T>
::testing::AssertionResult same_items(const std::vector<T>& expected, const std::vector<T>& actual,
                                      std::size_t n) {
  if (expected.size() < n || actual.size() < n)
    return ::testing::AssertionFailure() << "vectors shorter than " << n;
  std::size_t first = n, bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(expected[i] == actual[i])) {
      if (first == n) first = i;
      ++bad;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  std::ostringstream os;
  os << bad << " of " << n << " items differ; first at index " << first << ": expected "
     << printable(expected[first]) << ", got " << printable(actual[first]);
  if (first > 0) os << " (previous item " << printable(actual[first - 1]) << ")";
  return ::testing::AssertionFailure() << os.str();
}

template <class T>
::testing::AssertionResult same_items(const std::vector<T>& expected,
                                      const std::vector<T>& actual) {
  if (expected.size() != actual.size())
    return ::testing::AssertionFailure()
           << "sizes differ: expected " << expected.size() << ", got " << actual.size();
  return same_items(expected, actual, expected.size());
}

// Expects `call` to throw prim::Error whose message holds every string of `parts`.
template <class Call>
void expect_error(Call call, std::initializer_list<const char*> parts) {
  try {
    call();
    ADD_FAILURE() << "no prim::Error";
  } catch (const prim::Error& e) {
    for (const char* part : parts)
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos)
          << "'" << part << "' not in: " << e.what();
  }
}

inline std::string trace(const std::string& what, std::size_t n) {
  return what + ", n = " + std::to_string(n);
}

}  // namespace prim_test
