// Own compaction of 12-byte items (compact_if, stable_partition) and with uint32 flags whose
// nonzero values have an empty low byte, for every compaction configuration.
#include <gtest/gtest.h>

#include <cstdint>

#include "compact_own_runner.h"

namespace prim_test {
namespace {

using Runner = OwnCompactRunner<std::uint32_t, Item12>;

class OwnCompactWide : public ::testing::TestWithParam<CompactCase> {};

TEST_P(OwnCompactWide, Item12AndWideFlags) {
  Runner runner(GetParam().config());
  check_select_wide(
      runner, small_sizes<Item12>(),
      {Pattern::all_zero, Pattern::all_one, Pattern::alternating, Pattern::random_half});
}

TEST_P(OwnCompactWide, Item12Large) {
  Runner runner(GetParam().config());
  check_select_wide(runner, {(std::size_t(1) << 20) + 3}, {Pattern::random_sparse});
}

INSTANTIATE_TEST_SUITE_P(AllCompactions, OwnCompactWide, ::testing::ValuesIn(all_compact_cases()),
                         compact_case_name);

}  // namespace
}  // namespace prim_test
