// Own compaction of uint32 items: compact_if, compact_flags (uint8 flags), stable_partition, for
// fused and for scan_scatter over every scan algorithm; all flag patterns at every edge size,
// 2^20 + 3 and 2^26 for the production configurations; n == 0; argument errors.
#include <gtest/gtest.h>

#include <cstdint>

#include "compact_own_runner.h"

namespace prim_test {
namespace {

using Runner = OwnCompactRunner<std::uint32_t>;

class OwnCompact : public ::testing::TestWithParam<CompactCase> {};

TEST_P(OwnCompact, EveryPatternAtEdgeSizes) {
  Runner runner(GetParam().config());
  check_select_u32(runner, kAllSelectKinds, small_sizes(), all_patterns());
}

TEST_P(OwnCompact, LargeRandom) {
  Runner runner(GetParam().config());
  check_select_u32(runner, kAllSelectKinds, {(std::size_t(1) << 20) + 3, std::size_t(1) << 21},
                   {Pattern::random_half, Pattern::random_sparse});
}

TEST_P(OwnCompact, EmptyInputWritesCountZero) {
  Runner runner(GetParam().config());
  check_select_empty(runner);
}

TEST_P(OwnCompact, RepeatedCallsKeepTheWorkspace) {
  Runner runner(GetParam().config());
  const std::size_t n = 5 * kLookbackTile + 3;
  runner.reserve(n);
  const void* buffer = runner.ws.data();
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    check_select_u32(runner, {SelectKind::compact_if}, {n}, {Pattern::random_half});
  }
  EXPECT_EQ(runner.ws.data(), buffer) << "the workspace was reallocated";
}

TEST_P(OwnCompact, WorkspaceTooSmallThrows) {
  const prim::classic::CompactConfig config = GetParam().config();
  const std::size_t n = std::size_t(1) << 20;
  const std::size_t needed = prim::classic::compact_workspace_bytes<std::uint32_t>(n, config);
  ASSERT_GT(needed, 0u) << "a compaction of 2^20 items needs temporary storage";
  prim::Workspace ws(needed - 1);
  DeviceBuffer<std::uint32_t> d_in(n), d_out(n);
  DeviceCount d_count;
  expect_error(
      [&] {
        prim::classic::compact_if(d_in.get(), d_out.get(), n, IsOdd{}, d_count.get(), ws, 0,
                                  config);
      },
      {"prim::classic::compact_if", "workspace too small"});
  expect_error(
      [&] {
        prim::classic::stable_partition(d_in.get(), d_out.get(), n, IsOdd{}, d_count.get(), ws, 0,
                                        config);
      },
      {"prim::classic::stable_partition", "workspace too small"});
}

INSTANTIATE_TEST_SUITE_P(AllCompactions, OwnCompact, ::testing::ValuesIn(all_compact_cases()),
                         compact_case_name);

// The count read on the device (the fused compaction: scan_scatter sizes its passes on the host),
// the same check as the Thrust backend's.
TEST(OwnCompactFused, DeviceSideItemCount) {
  Runner runner(
      CompactCase{prim::classic::CompactAlgorithm::fused, prim::classic::ScanAlgorithm::lookback}
          .config());
  check_select_device_count(runner, device_count_sizes(kLookbackTile));
}

// 2^26 items for the configurations the renderer uses: fused and scan_scatter over lookback.
class OwnCompactHuge : public ::testing::TestWithParam<CompactCase> {};

TEST_P(OwnCompactHuge, At2Pow26) {
  Runner runner(GetParam().config());
  check_select_u32(runner, {SelectKind::compact_if, SelectKind::stable_partition},
                   {std::size_t(1) << 26}, {Pattern::random_half});
}

INSTANTIATE_TEST_SUITE_P(ProductionCompactions, OwnCompactHuge,
                         ::testing::Values(CompactCase{prim::classic::CompactAlgorithm::fused,
                                                       prim::classic::ScanAlgorithm::lookback},
                                           CompactCase{
                                               prim::classic::CompactAlgorithm::scan_scatter,
                                               prim::classic::ScanAlgorithm::lookback}),
                         compact_case_name);

}  // namespace
}  // namespace prim_test
