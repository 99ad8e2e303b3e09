// Variant names: every algorithm's name parses back to it; unknown names list the valid ones.
#include "primitives/variants.h"

#include <gtest/gtest.h>

#include <string>

#include "primitives/error.h"

namespace {

TEST(Variants, NamesRoundTrip) {
  ASSERT_EQ(prim::all_scan_algorithms().size(), 5u);
  for (auto a : prim::all_scan_algorithms())
    EXPECT_EQ(prim::parse_scan_algorithm(prim::name(a)), a);
  ASSERT_EQ(prim::all_compact_algorithms().size(), 2u);
  for (auto a : prim::all_compact_algorithms())
    EXPECT_EQ(prim::parse_compact_algorithm(prim::name(a)), a);
  ASSERT_EQ(prim::all_sort_algorithms().size(), 3u);
  for (auto a : prim::all_sort_algorithms())
    EXPECT_EQ(prim::parse_sort_algorithm(prim::name(a)), a);
}

TEST(Variants, KnownNames) {
  EXPECT_EQ(prim::parse_scan_algorithm("naive"), prim::ScanAlgorithm::naive);
  EXPECT_EQ(prim::parse_scan_algorithm("work_efficient"), prim::ScanAlgorithm::work_efficient);
  EXPECT_EQ(prim::parse_scan_algorithm("blocked_brent_kung"),
            prim::ScanAlgorithm::blocked_brent_kung);
  EXPECT_EQ(prim::parse_scan_algorithm("blocked_blelloch"), prim::ScanAlgorithm::blocked_blelloch);
  EXPECT_EQ(prim::parse_scan_algorithm("lookback"), prim::ScanAlgorithm::lookback);
  EXPECT_EQ(prim::parse_compact_algorithm("scan_scatter"), prim::CompactAlgorithm::scan_scatter);
  EXPECT_EQ(prim::parse_compact_algorithm("fused"), prim::CompactAlgorithm::fused);
  EXPECT_EQ(prim::parse_sort_algorithm("split_1bit"), prim::SortAlgorithm::split_1bit);
  EXPECT_EQ(prim::parse_sort_algorithm("lsd"), prim::SortAlgorithm::lsd);
  EXPECT_EQ(prim::parse_sort_algorithm("onesweep"), prim::SortAlgorithm::onesweep);
}

TEST(Variants, DefaultsAreTheProductionPath) {
  EXPECT_EQ(prim::ScanConfig{}.algorithm, prim::ScanAlgorithm::lookback);
  EXPECT_EQ(prim::CompactConfig{}.algorithm, prim::CompactAlgorithm::fused);
  EXPECT_EQ(prim::SortConfig{}.algorithm, prim::SortAlgorithm::onesweep);
}

TEST(Variants, UnknownNameListsValidOnes) {
  try {
    prim::parse_scan_algorithm("blelloch");
    FAIL() << "no prim::Error";
  } catch (const prim::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'blelloch'"), std::string::npos) << what;
    for (auto a : prim::all_scan_algorithms())
      EXPECT_NE(what.find(prim::name(a)), std::string::npos) << what;
  }
  EXPECT_THROW(prim::parse_compact_algorithm(""), prim::Error);
  EXPECT_THROW(prim::parse_sort_algorithm("LSD"), prim::Error);
}

}  // namespace
