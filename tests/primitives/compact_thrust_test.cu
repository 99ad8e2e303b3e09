// The Thrust backend's compaction, checked as the own one; counts land on the device, item counts
// may be read there (DeviceItems), and a repeated call allocates nothing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "compact_checks.h"
#include "primitives/caching_allocator.h"
#include "primitives/thrust/thrust_backend.cuh"

namespace prim_test {
namespace {

struct ThrustCompactRunner {
  prim::Workspace ws;
  void reserve(std::size_t) {}  // Thrust needs no workspace bytes
  template <class T, class Pred>
  void compact_if(const T* in, T* out, std::size_t n, Pred pred, std::size_t* d_count) {
    prim::thrust_backend::compact_if(in, out, n, pred, d_count, ws);
  }
  template <class T, class F>
  void compact_flags(const T* in, const F* flags, T* out, std::size_t n, std::size_t* d_count) {
    prim::thrust_backend::compact_flags(in, flags, out, n, d_count, ws);
  }
  template <class T, class Pred>
  void stable_partition(const T* in, T* out, std::size_t n, Pred pred, std::size_t* d_count) {
    prim::thrust_backend::stable_partition(in, out, n, pred, d_count, ws);
  }
  template <class T, class Pred>
  void compact_if(const T* in, T* out, prim::DeviceItems items, Pred pred, std::size_t* d_count) {
    prim::thrust_backend::compact_if(in, out, items, pred, d_count, ws);
  }
  template <class T, class Pred>
  void stable_partition(const T* in, T* out, prim::DeviceItems items, Pred pred,
                        std::size_t* d_count) {
    prim::thrust_backend::stable_partition(in, out, items, pred, d_count, ws);
  }
};

TEST(ThrustCompact, EveryPatternAtEdgeSizes) {
  ThrustCompactRunner runner;
  check_select_u32(runner, kAllSelectKinds, small_sizes(), all_patterns());
}

TEST(ThrustCompact, LargeRandom) {
  ThrustCompactRunner runner;
  check_select_u32(runner, kAllSelectKinds, {(std::size_t(1) << 20) + 3},
                   {Pattern::random_half, Pattern::random_sparse});
  check_select_u32(runner, {SelectKind::compact_if, SelectKind::stable_partition},
                   {std::size_t(1) << 26}, {Pattern::random_half});
}

TEST(ThrustCompact, Item12AndWideFlags) {
  ThrustCompactRunner runner;
  check_select_wide(runner, small_sizes<Item12>(), {Pattern::all_one, Pattern::random_half});
}

// partition: cub::DevicePartition::If's order (the rejected items reversed), as prim::own's.
TEST(ThrustCompact, PartitionReversesTheRejected) {
  ThrustCompactRunner runner;
  auto sizes = small_sizes();
  sizes.push_back((std::size_t(1) << 20) + 3);
  const std::size_t max_n = *std::max_element(sizes.begin(), sizes.end());
  DeviceBuffer<std::uint32_t> d_in(max_n), d_out(max_n);
  DeviceCount d_count;
  for (Pattern pattern : all_patterns()) {
    for (std::size_t n : sizes) {
      SCOPED_TRACE(std::string(name(pattern)) + ", n = " + std::to_string(n));
      const auto items = flagged_items(make_flags(pattern, n, 31 * n + 7));
      std::vector<std::uint32_t> expected(n);
      const std::size_t kept =
          prim::cpu::partition_reversed(items.data(), expected.data(), n, IsOdd{});
      d_in.upload(items);
      d_out.poison();
      d_count.poison();
      prim::thrust_backend::partition(d_in.get(), d_out.get(), n, IsOdd{}, d_count.get(),
                                      runner.ws);
      ASSERT_EQ(d_count.read(), kept);
      ASSERT_TRUE(same_items(expected, d_out.download(n)));
      ASSERT_TRUE(d_out.guard_intact(n)) << "wrote past the end";
    }
  }
}

// The count read on the device, as for the own backend: all max_n slots are read, none at or past
// *d_n is kept, and the output past the count is left as it was.
TEST(ThrustCompact, DeviceSideItemCount) {
  ThrustCompactRunner runner;
  check_select_device_count(runner, device_count_sizes(kLookbackTile));
}

TEST(ThrustCompact, EmptyInputWritesCountZero) {
  ThrustCompactRunner runner;
  check_select_empty(runner);
}

// The cache settles after the first call of a kind and size: the next ones allocate nothing.
TEST(ThrustCompact, RepeatedCallAllocatesNothing) {
  const std::size_t n = (std::size_t(1) << 20) + 3;
  for (SelectKind kind : kAllSelectKinds) {
    SCOPED_TRACE(name(kind));
    ThrustCompactRunner runner;
    check_select_u32(runner, {kind}, {n}, {Pattern::random_half});
    const std::size_t after_first = runner.ws.caching_allocator().allocations();
    EXPECT_GT(after_first, 0u);
    check_select_u32(runner, {kind}, {n}, {Pattern::random_half});
    check_select_u32(runner, {kind}, {n}, {Pattern::alternating});
    EXPECT_EQ(runner.ws.caching_allocator().allocations(), after_first);
  }
}

}  // namespace
}  // namespace prim_test
