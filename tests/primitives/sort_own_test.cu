// Own radix sorts with 8- and 16-bit keys: every sort configuration, every key distribution and
// several bit ranges at every edge size; n == 0; the workspace check.
#include <gtest/gtest.h>

#include <cstdint>

#include "sort_own_runner.h"

namespace prim_test {
namespace {

class OwnSortNarrow : public ::testing::TestWithParam<SortCase> {};

TEST_P(OwnSortNarrow, Uint8Keys) {
  OwnSortRunner runner(GetParam().config());
  check_sort<std::uint8_t, std::uint32_t>(runner, sort_sizes(), kUint8Ranges, all_key_dists());
}

TEST_P(OwnSortNarrow, Uint16Keys) {
  OwnSortRunner runner(GetParam().config());
  check_sort<std::uint16_t, std::uint32_t>(runner, sort_sizes(), kUint16Ranges, all_key_dists());
}

TEST_P(OwnSortNarrow, Uint16KeysLarge) {
  OwnSortRunner runner(GetParam().config());
  check_sort<std::uint16_t, std::uint32_t>(runner, {(std::size_t(1) << 20) + 3}, {{0, 16}, {0, 3}},
                                           {KeyDist::uniform});
}

TEST_P(OwnSortNarrow, EmptyInputIsANoOp) {
  OwnSortRunner runner(GetParam().config());
  EXPECT_NO_THROW((prim::classic::sort_pairs<std::uint8_t, std::uint32_t>(
      nullptr, nullptr, nullptr, nullptr, 0, 0, 8, runner.ws, 0, runner.config)));
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST_P(OwnSortNarrow, WorkspaceTooSmallThrows) {
  const prim::classic::SortConfig config = GetParam().config();
  const std::size_t n = std::size_t(1) << 20;
  const std::size_t needed =
      prim::classic::sort_pairs_workspace_bytes<std::uint16_t, std::uint32_t>(n, 0, 16, config);
  ASSERT_GT(needed, 0u) << "a sort of 2^20 pairs needs temporary storage";
  prim::Workspace ws(needed - 1);
  DeviceBuffer<std::uint16_t> keys_in(n), keys_out(n);
  DeviceBuffer<std::uint32_t> values_in(n), values_out(n);
  expect_error(
      [&] {
        prim::classic::sort_pairs(keys_in.get(), keys_out.get(), values_in.get(), values_out.get(),
                                  n, 0, 16, ws, 0, config);
      },
      {"prim::classic::sort_pairs", "workspace too small"});
}

INSTANTIATE_TEST_SUITE_P(AllSorts, OwnSortNarrow, ::testing::ValuesIn(all_sort_cases()),
                         sort_case_name);

}  // namespace
}  // namespace prim_test
