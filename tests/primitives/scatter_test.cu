// Scatter of both backends against prim::cpu::scatter: random permutations of every edge size,
// uint32 and 12-byte items, uint32 and int64 maps, 2^26 items.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>

#include "device_buffer.h"
#include "primitives/cpu/cpu_backend.h"
#include "primitives/scatter.cuh"
#include "primitives/thrust/thrust_backend.cuh"
#include "test_support.h"

namespace prim_test {
namespace {

enum class Backend { own, thrust };

template <class T>
T item_for_index(std::size_t i);
template <>
std::uint32_t item_for_index<std::uint32_t>(std::size_t i) {
  return static_cast<std::uint32_t>(i * 2654435761u);
}
template <>
Item12 item_for_index<Item12>(std::size_t i) {
  return {static_cast<std::uint32_t>(i), float(i) + 0.5f, -float(i)};
}

template <class T, class I>
void check_scatter(Backend backend, const std::vector<std::size_t>& sizes) {
  const std::size_t max_n = *std::max_element(sizes.begin(), sizes.end());
  DeviceBuffer<T> d_in(max_n), d_out(max_n);
  DeviceBuffer<I> d_map(max_n);
  for (std::size_t n : sizes) {
    SCOPED_TRACE(trace(backend == Backend::own ? "own" : "thrust", n));
    std::vector<I> map(n);
    std::iota(map.begin(), map.end(), I(0));
    std::shuffle(map.begin(), map.end(), std::mt19937_64(n + 1));
    std::vector<T> in(n), expected(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = item_for_index<T>(i);
    prim::cpu::scatter(in.data(), map.data(), expected.data(), n);
    d_in.upload(in);
    d_map.upload(map);
    d_out.poison();
    if (backend == Backend::own)
      prim::own::scatter(d_in.get(), d_map.get(), d_out.get(), n);
    else
      prim::thrust_backend::scatter(d_in.get(), d_map.get(), d_out.get(), n);
    ASSERT_TRUE(same_items(expected, d_out.download(n)));
    ASSERT_TRUE(d_out.guard_intact(n)) << "wrote past the end";
  }
}

TEST(Scatter, OwnUint32) {
  check_scatter<std::uint32_t, std::uint32_t>(Backend::own, standard_sizes());
  check_scatter<std::uint32_t, std::uint32_t>(Backend::own, {std::size_t(1) << 26});
}
TEST(Scatter, OwnItem12WithInt64Map) {
  check_scatter<Item12, std::int64_t>(Backend::own, standard_sizes<Item12>());
}
TEST(Scatter, ThrustUint32) {
  check_scatter<std::uint32_t, std::uint32_t>(Backend::thrust, standard_sizes());
  check_scatter<std::uint32_t, std::uint32_t>(Backend::thrust, {std::size_t(1) << 26});
}
TEST(Scatter, ThrustItem12WithInt64Map) {
  check_scatter<Item12, std::int64_t>(Backend::thrust, standard_sizes<Item12>());
}

TEST(Scatter, WorkedExample) {
  const std::vector<char> in = {'a', 'b', 'c', 'd'};
  const std::vector<std::uint32_t> map = {2, 0, 3, 1};
  DeviceBuffer<char> d_in(4), d_out(4);
  DeviceBuffer<std::uint32_t> d_map(4);
  d_in.upload(in);
  d_map.upload(map);
  prim::own::scatter(d_in.get(), d_map.get(), d_out.get(), 4);
  EXPECT_EQ(d_out.download(4), (std::vector<char>{'b', 'd', 'a', 'c'}));
}

TEST(Scatter, EmptyInputIsANoOp) {
  EXPECT_NO_THROW((prim::own::scatter<std::uint32_t, std::uint32_t>(nullptr, nullptr, nullptr, 0)));
  EXPECT_NO_THROW(
      (prim::thrust_backend::scatter<std::uint32_t, std::uint32_t>(nullptr, nullptr, nullptr, 0)));
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace
}  // namespace prim_test
