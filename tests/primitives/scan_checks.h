// The scan check shared by the own and Thrust scan tests: random input per size, the device scan
// against prim::cpu, poisoned output, guard items past the end.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "device_buffer.h"
#include "primitives/cpu/cpu_backend.h"
#include "primitives/operators.h"
#include "test_support.h"

namespace prim_test {

enum class ScanKind { exclusive, inclusive };
enum class Placement { out_of_place, in_place };

// run(d_in, d_out, n) performs the device scan of `kind` with `identity` and `op`.
// gen(rng) draws one input item.
template <class T, class Op, class Gen, class Run>
void check_scan(ScanKind kind, Placement placement, const std::vector<std::size_t>& sizes,
                T identity, Op op, Gen gen, Run run) {
  const std::size_t max_n = sizes.empty() ? 0 : *std::max_element(sizes.begin(), sizes.end());
  DeviceBuffer<T> d_in(max_n);
  DeviceBuffer<T> d_out(placement == Placement::in_place ? 0 : max_n);
  std::mt19937_64 rng(7);
  for (std::size_t n : sizes) {
    SCOPED_TRACE(trace(kind == ScanKind::exclusive ? "exclusive" : "inclusive", n));
    std::vector<T> in(n);
    for (auto& x : in) x = gen(rng);
    std::vector<T> expected(n);
    if (kind == ScanKind::exclusive)
      prim::cpu::exclusive_scan(in.data(), expected.data(), n, identity, op);
    else
      prim::cpu::inclusive_scan(in.data(), expected.data(), n, identity, op);

    d_in.poison();
    d_in.upload(in);
    DeviceBuffer<T>& out = placement == Placement::in_place ? d_in : d_out;
    out.poison();
    if (placement == Placement::in_place) d_in.upload(in);
    run(d_in.get(), out.get(), n);
    ASSERT_TRUE(same_items(expected, out.download(n)));
    ASSERT_TRUE(out.guard_intact(n)) << "wrote past the end";
    if (placement == Placement::out_of_place) {
      ASSERT_TRUE(same_items(in, d_in.download(n))) << "the input changed";
    }
  }
}

// Input generators. Values stay small enough that no int32 partial sum overflows at 2^26 items,
// and that float sums (integers below 2^24) are exact in any order.
struct SmallInt32 {
  std::int32_t operator()(std::mt19937_64& rng) const {
    return std::uniform_int_distribution<std::int32_t>(-8, 8)(rng);
  }
};
struct AnyInt32 {
  std::int32_t operator()(std::mt19937_64& rng) const {
    return std::uniform_int_distribution<std::int32_t>(
        std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max())(rng);
  }
};
struct AnyUint32 {  // sums wrap mod 2^32, which is exact and associative
  std::uint32_t operator()(std::mt19937_64& rng) const { return static_cast<std::uint32_t>(rng()); }
};
struct BigInt64 {  // each near 2^31..2^32: sums leave int32 range after a few items
  std::int64_t operator()(std::mt19937_64& rng) const {
    return std::uniform_int_distribution<std::int64_t>(std::int64_t(1) << 31, std::int64_t(1)
                                                                                  << 32)(rng) *
           (rng() % 4 == 0 ? -1 : 1);
  }
};
struct IntegerFloat {
  float operator()(std::mt19937_64& rng) const {
    return static_cast<float>(std::uniform_int_distribution<int>(0, 3)(rng));
  }
};
// Shears [[1, x], [0, 1]] or [[1, 0], [x, 1]]: determinant 1, so products never collapse to
// zero mod 2^32, and two shears of different kinds do not commute.
struct RandomMat2 {
  Mat2 operator()(std::mt19937_64& rng) const {
    const std::uint32_t x = std::uniform_int_distribution<std::uint32_t>(0, 3)(rng);
    return rng() % 2 ? Mat2{1, x, 0, 1} : Mat2{1, 0, x, 1};
  }
};

// Sizes for floats: every partial sum stays an integer below 2^24 (3 * (2^20 + 3) < 2^24).
inline std::vector<std::size_t> float_sizes() {
  std::vector<std::size_t> sizes;
  for (std::size_t n : standard_sizes())
    if (n <= (std::size_t(1) << 21)) sizes.push_back(n);
  return sizes;
}

}  // namespace prim_test
