// Host-side checks of the production variants that need no device: tile shapes the kernels
// support, workspace sizes (at most 1% of the input for scan and compaction), the onesweep pass
// plan, and the errors for unsupported shapes and sizes.
#include <gtest/gtest.h>

#include <cstdint>

#include "primitives/compact.cuh"
#include "primitives/radix_sort.cuh"
#include "primitives/scan.cuh"

namespace {

prim::ScanConfig lookback(int threads = 0, int items = 0) {
  prim::ScanConfig c;
  c.block_threads = threads;
  c.items_per_thread = items;
  return c;
}
prim::CompactConfig fused(int threads = 0, int items = 0) {
  prim::CompactConfig c;
  c.scan = lookback(threads, items);
  return c;
}
prim::SortConfig onesweep(int radix_bits = 0) {
  prim::SortConfig c;
  c.radix_bits = radix_bits;
  return c;
}

TEST(ProductionHost, WorkspaceAtMostOnePercentOfInput) {
  for (int k = 16; k <= 34; ++k) {
    const std::size_t n = std::size_t(1) << k;
    EXPECT_LE(prim::own::scan_workspace_bytes<int>(n, lookback()), n * sizeof(int) / 100) << k;
    EXPECT_LE(prim::own::compact_workspace_bytes<int>(n, fused()), n * sizeof(int) / 100) << k;
    EXPECT_LE(prim::own::scan_workspace_bytes<std::uint8_t>(n, lookback()), n / 100) << k;
    EXPECT_LE(prim::own::compact_workspace_bytes<std::uint8_t>(n, fused()), n / 100) << k;
  }
}

TEST(ProductionHost, WorkspaceGrowsWithTiles) {
  const std::size_t n = 1000003;
  // Tiny tiles: 32 items per tile, 8 bytes of status each.
  EXPECT_GE(prim::own::scan_workspace_bytes<int>(n, lookback(32, 1)), n / 32 * 8);
  EXPECT_LT(prim::own::scan_workspace_bytes<int>(n, lookback()),
            prim::own::scan_workspace_bytes<int>(n, lookback(32, 1)));
  // Split status for 8-byte values: a flag and two values per tile.
  EXPECT_GE(prim::own::scan_workspace_bytes<long long>(n, lookback(32, 1)), n / 32 * 20);
  EXPECT_EQ(prim::own::scan_workspace_bytes<int>(0, lookback()), 0u);  // no tiles, no status
}

TEST(ProductionHost, RejectsUnsupportedShapes) {
  EXPECT_THROW(prim::own::scan_workspace_bytes<int>(100, lookback(48)), prim::Error);
  EXPECT_THROW(prim::own::scan_workspace_bytes<int>(100, lookback(16)), prim::Error);
  EXPECT_THROW(prim::own::scan_workspace_bytes<int>(100, lookback(2048)), prim::Error);
  EXPECT_THROW(prim::own::scan_workspace_bytes<int>(100, lookback(256, 4)), prim::Error);
  EXPECT_NO_THROW(prim::own::scan_workspace_bytes<int>(100, lookback(96, 1)));
  EXPECT_NO_THROW(prim::own::scan_workspace_bytes<int>(100, lookback(1024, 16)));
  // A compaction tile is staged in shared memory: 1024 x 16 int32 is 64 KiB, over 48 KiB.
  EXPECT_THROW(prim::own::compact_workspace_bytes<int>(100, fused(1024, 16)), prim::Error);
  EXPECT_NO_THROW(prim::own::compact_workspace_bytes<int>(100, fused(1024, 1)));
  // The kernel's own static shared memory counts too: 48 KiB of staging leaves no room for it
  // (1024 x 1 items of 48 bytes, 768 x 16 int32).
  struct Item48 {
    float f[12];
  };
  EXPECT_THROW(prim::own::compact_workspace_bytes<Item48>(100, fused(1024, 1)), prim::Error);
  EXPECT_THROW(prim::own::compact_workspace_bytes<int>(100, fused(768, 16)), prim::Error);
  EXPECT_NO_THROW(prim::own::compact_workspace_bytes<Item48>(100, fused(992, 1)));
  // More than 2^31 - 1 tiles.
  EXPECT_THROW(prim::own::scan_workspace_bytes<int>(std::size_t(1) << 40, lookback(32, 1)),
               prim::Error);
  EXPECT_THROW((prim::own::sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(1000, 0, 32,
                                                                                    onesweep(5))),
               prim::Error);
}

TEST(ProductionHost, OnesweepPassesAndCopies) {
  using prim::detail::radix_sort_onesweep::make_plan;
  EXPECT_EQ(make_plan(1000, 0, 3, onesweep()).passes, 1);
  EXPECT_EQ(make_plan(1000, 0, 3, onesweep()).radix_bits, 4);  // <= 4 bits: 16 digit values
  EXPECT_EQ(make_plan(1000, 0, 8, onesweep()).passes, 1);
  EXPECT_EQ(make_plan(1000, 0, 8, onesweep()).radix_bits, 8);
  EXPECT_EQ(make_plan(1000, 0, 32, onesweep()).passes, 4);
  EXPECT_EQ(make_plan(1000, 3, 30, onesweep()).passes, 4);
  EXPECT_EQ(make_plan(1000, 0, 32, onesweep(4)).passes, 8);
  EXPECT_EQ(make_plan(std::size_t(3) << 30, 0, 8, onesweep()).portions, 4u);
  const std::size_t n = std::size_t(1) << 21;
  // One pass needs no ping-pong copies; several do.
  const std::size_t one =
      prim::own::sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(n, 0, 3, onesweep());
  const std::size_t four =
      prim::own::sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(n, 0, 32, onesweep());
  EXPECT_LT(one, n * 8 / 100);
  EXPECT_GE(four, n * 8);
}

// The pass kernel's staging: keys up to 8 bytes staged with their values (or value indices),
// wider keys by index alone; never more than 16 bytes an item, so a 512 x 16 tile fits a block's
// shared memory (227 KiB) next to the kernel's static ~19 KiB.
struct Key32 {
  std::uint32_t words[8];
};
struct Value24 {
  std::uint32_t words[6];
};
TEST(ProductionHost, OnesweepStagingFitsSharedMemory) {
  namespace os = prim::agent::onesweep;
  using prim::detail::NoValues;
  constexpr std::size_t tile = os::kTile;
  EXPECT_EQ((os::staging_bytes<std::uint32_t, std::uint32_t>()), tile * 8);
  EXPECT_EQ((os::staging_bytes<std::uint32_t, NoValues>()), tile * 4);
  EXPECT_EQ((os::staging_bytes<std::uint16_t, std::uint64_t>()), tile * 2 + tile * 8);
  EXPECT_EQ((os::staging_bytes<std::uint32_t, Value24>()), tile * 4 + tile * 4);  // value index
  EXPECT_FALSE(os::kStageKeyIndex<std::uint64_t>);
  EXPECT_TRUE(os::kStageKeyIndex<Key32>);
  EXPECT_EQ((os::staging_bytes<Key32, NoValues>()), tile * 4);  // item index only
  EXPECT_EQ((os::staging_bytes<Key32, Value24>()), tile * 4);
  EXPECT_LE((os::staging_bytes<std::uint64_t, std::uint64_t>()), std::size_t(128) * 1024);
}

}  // namespace
