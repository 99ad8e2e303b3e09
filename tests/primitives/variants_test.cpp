// Variant names: every algorithm's name parses back to it; unknown names list the valid ones.
#include "primitives/classic/variants.h"

#include <gtest/gtest.h>

#include <string>

#include "primitives/error.h"

namespace {

TEST(Variants, NamesRoundTrip) {
  ASSERT_EQ(prim::classic::all_scan_algorithms().size(), 5u);
  for (auto a : prim::classic::all_scan_algorithms())
    EXPECT_EQ(prim::classic::parse_scan_algorithm(prim::classic::name(a)), a);
  ASSERT_EQ(prim::classic::all_compact_algorithms().size(), 2u);
  for (auto a : prim::classic::all_compact_algorithms())
    EXPECT_EQ(prim::classic::parse_compact_algorithm(prim::classic::name(a)), a);
  ASSERT_EQ(prim::classic::all_sort_algorithms().size(), 3u);
  for (auto a : prim::classic::all_sort_algorithms())
    EXPECT_EQ(prim::classic::parse_sort_algorithm(prim::classic::name(a)), a);
}

TEST(Variants, KnownNames) {
  EXPECT_EQ(prim::classic::parse_scan_algorithm("naive"), prim::classic::ScanAlgorithm::naive);
  EXPECT_EQ(prim::classic::parse_scan_algorithm("work_efficient"),
            prim::classic::ScanAlgorithm::work_efficient);
  EXPECT_EQ(prim::classic::parse_scan_algorithm("blocked_brent_kung"),
            prim::classic::ScanAlgorithm::blocked_brent_kung);
  EXPECT_EQ(prim::classic::parse_scan_algorithm("blocked_blelloch"),
            prim::classic::ScanAlgorithm::blocked_blelloch);
  EXPECT_EQ(prim::classic::parse_scan_algorithm("lookback"),
            prim::classic::ScanAlgorithm::lookback);
  EXPECT_EQ(prim::classic::parse_compact_algorithm("scan_scatter"),
            prim::classic::CompactAlgorithm::scan_scatter);
  EXPECT_EQ(prim::classic::parse_compact_algorithm("fused"),
            prim::classic::CompactAlgorithm::fused);
  EXPECT_EQ(prim::classic::parse_sort_algorithm("split_1bit"),
            prim::classic::SortAlgorithm::split_1bit);
  EXPECT_EQ(prim::classic::parse_sort_algorithm("lsd"), prim::classic::SortAlgorithm::lsd);
  EXPECT_EQ(prim::classic::parse_sort_algorithm("onesweep"),
            prim::classic::SortAlgorithm::onesweep);
}

TEST(Variants, DefaultsAreTheProductionPath) {
  EXPECT_EQ(prim::classic::ScanConfig{}.algorithm, prim::classic::ScanAlgorithm::lookback);
  EXPECT_EQ(prim::classic::CompactConfig{}.algorithm, prim::classic::CompactAlgorithm::fused);
  EXPECT_EQ(prim::classic::SortConfig{}.algorithm, prim::classic::SortAlgorithm::onesweep);
}

TEST(Variants, UnknownNameListsValidOnes) {
  try {
    prim::classic::parse_scan_algorithm("blelloch");
    FAIL() << "no prim::Error";
  } catch (const prim::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'blelloch'"), std::string::npos) << what;
    for (auto a : prim::classic::all_scan_algorithms())
      EXPECT_NE(what.find(prim::classic::name(a)), std::string::npos) << what;
  }
  EXPECT_THROW(prim::classic::parse_compact_algorithm(""), prim::Error);
  EXPECT_THROW(prim::classic::parse_sort_algorithm("LSD"), prim::Error);
}

}  // namespace
