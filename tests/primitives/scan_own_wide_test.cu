// Own scans on other types: int64 sums that leave the int32 range, integer-valued floats, and the
// non-commutative 2x2 matrix product, for every ScanAlgorithm.
#include <gtest/gtest.h>

#include <cstdint>

#include "scan_own_checks.h"

namespace prim_test {
namespace {

class OwnScanWide : public ::testing::TestWithParam<prim::classic::ScanAlgorithm> {};

TEST_P(OwnScanWide, Int64PlusPastInt32Range) {
  check_own_scan(GetParam(), ScanKind::exclusive, Placement::out_of_place,
                 standard_sizes<std::int64_t>(), std::int64_t(0), prim::Plus{}, BigInt64{});
  check_own_scan(GetParam(), ScanKind::inclusive, Placement::in_place,
                 standard_sizes<std::int64_t>(), std::int64_t(0), prim::Plus{}, BigInt64{});
}

TEST_P(OwnScanWide, FloatPlusOfIntegers) {
  check_own_scan(GetParam(), ScanKind::exclusive, Placement::out_of_place, float_sizes(), 0.0f,
                 prim::Plus{}, IntegerFloat{});
  check_own_scan(GetParam(), ScanKind::inclusive, Placement::out_of_place, float_sizes(), 0.0f,
                 prim::Plus{}, IntegerFloat{});
}

TEST_P(OwnScanWide, Mat2ProductKeepsOrder) {
  check_own_scan(GetParam(), ScanKind::exclusive, Placement::out_of_place, standard_sizes<Mat2>(),
                 kMat2Identity, Mat2Product{}, RandomMat2{});
  check_own_scan(GetParam(), ScanKind::inclusive, Placement::out_of_place, standard_sizes<Mat2>(),
                 kMat2Identity, Mat2Product{}, RandomMat2{});
}

TEST_P(OwnScanWide, Mat2ProductInPlace) {
  check_own_scan(GetParam(), ScanKind::exclusive, Placement::in_place, small_sizes<Mat2>(),
                 kMat2Identity, Mat2Product{}, RandomMat2{});
}

INSTANTIATE_TEST_SUITE_P(AllScans, OwnScanWide,
                         ::testing::ValuesIn(prim::classic::all_scan_algorithms()),
                         scan_param_name);

}  // namespace
}  // namespace prim_test
