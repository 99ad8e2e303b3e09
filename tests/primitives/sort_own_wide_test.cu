// Own radix sorts with 32-bit keys, with uint32 and 12-byte values: every sort configuration,
// bit ranges from [0, 3) (8 materials) to the full width, 2^20 + 3, 2^24 and 2^26 items.
#include <gtest/gtest.h>

#include <cstdint>

#include "sort_own_runner.h"

namespace prim_test {
namespace {

class OwnSortWide : public ::testing::TestWithParam<SortCase> {};

TEST_P(OwnSortWide, Uint32Keys) {
  OwnSortRunner runner(GetParam().config());
  check_sort<std::uint32_t, std::uint32_t>(runner, sort_sizes(), kUint32Ranges, all_key_dists());
}

TEST_P(OwnSortWide, Uint32KeysItem12Values) {
  OwnSortRunner runner(GetParam().config());
  check_sort<std::uint32_t, Item12>(runner, small_sizes<Item12>(), {{0, 3}, {0, 32}, {3, 11}},
                                    {KeyDist::uniform, KeyDist::materials});
}

TEST_P(OwnSortWide, Uint32KeysLarge) {
  OwnSortRunner runner(GetParam().config());
  check_sort<std::uint32_t, std::uint32_t>(runner, {(std::size_t(1) << 20) + 3},
                                           {{0, 32}, {0, 3}, {5, 27}},
                                           {KeyDist::uniform, KeyDist::materials});
  check_sort<std::uint32_t, std::uint32_t>(runner, {std::size_t(1) << 24}, {{0, 32}},
                                           {KeyDist::uniform});
}

TEST_P(OwnSortWide, MaterialsAt2Pow26) {
  OwnSortRunner runner(GetParam().config());
  check_sort<std::uint32_t, std::uint32_t>(runner, {std::size_t(1) << 26}, {{0, 3}},
                                           {KeyDist::materials});
}

INSTANTIATE_TEST_SUITE_P(AllSorts, OwnSortWide, ::testing::ValuesIn(all_sort_cases()),
                         sort_case_name);

}  // namespace
}  // namespace prim_test
