// Own scans on 32-bit integers: every ScanAlgorithm, exclusive and inclusive, in place, at every
// edge size and at 2^26; argument errors and the workspace check.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "scan_own_checks.h"

namespace prim_test {
namespace {

class OwnScanInt : public ::testing::TestWithParam<prim::classic::ScanAlgorithm> {};

TEST_P(OwnScanInt, Int32PlusExclusive) {
  check_own_scan(GetParam(), ScanKind::exclusive, Placement::out_of_place, standard_sizes(),
                 std::int32_t(0), prim::Plus{}, SmallInt32{});
}

TEST_P(OwnScanInt, Int32PlusInclusive) {
  check_own_scan(GetParam(), ScanKind::inclusive, Placement::out_of_place, standard_sizes(),
                 std::int32_t(0), prim::Plus{}, SmallInt32{});
}

TEST_P(OwnScanInt, Int32PlusInPlace) {
  check_own_scan(GetParam(), ScanKind::exclusive, Placement::in_place, standard_sizes(),
                 std::int32_t(0), prim::Plus{}, SmallInt32{});
  check_own_scan(GetParam(), ScanKind::inclusive, Placement::in_place, standard_sizes(),
                 std::int32_t(0), prim::Plus{}, SmallInt32{});
}

TEST_P(OwnScanInt, Uint32PlusWrapping) {
  check_own_scan(GetParam(), ScanKind::exclusive, Placement::out_of_place, standard_sizes(),
                 std::uint32_t(0), prim::Plus{}, AnyUint32{});
  check_own_scan(GetParam(), ScanKind::inclusive, Placement::out_of_place, standard_sizes(),
                 std::uint32_t(0), prim::Plus{}, AnyUint32{});
}

TEST_P(OwnScanInt, Int32MaxWithLowestIdentity) {
  const std::int32_t lowest = std::numeric_limits<std::int32_t>::min();
  check_own_scan(GetParam(), ScanKind::exclusive, Placement::out_of_place, small_sizes(), lowest,
                 prim::Max{}, AnyInt32{});
  check_own_scan(GetParam(), ScanKind::inclusive, Placement::out_of_place, small_sizes(), lowest,
                 prim::Max{}, AnyInt32{});
}

TEST_P(OwnScanInt, Int32PlusAt2Pow26) {
  const std::vector<std::size_t> sizes = {std::size_t(1) << 26};
  check_own_scan(GetParam(), ScanKind::exclusive, Placement::out_of_place, sizes, std::int32_t(0),
                 prim::Plus{}, SmallInt32{});
  check_own_scan(GetParam(), ScanKind::inclusive, Placement::in_place, sizes, std::int32_t(0),
                 prim::Plus{}, SmallInt32{});
}

TEST_P(OwnScanInt, RepeatedCallsReuseOneWorkspace) {
  prim::classic::ScanConfig config;
  config.algorithm = GetParam();
  const std::size_t n = 3 * kLookbackTile + 17;
  prim::Workspace ws(prim::classic::scan_workspace_bytes<std::int32_t>(n, config));
  const void* buffer = ws.data();
  std::vector<std::int32_t> in(n, 1), expected(n);
  prim::cpu::exclusive_scan(in.data(), expected.data(), n, 0, prim::Plus{});
  DeviceBuffer<std::int32_t> d_in(n), d_out(n);
  d_in.upload(in);
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    d_out.poison();
    prim::classic::exclusive_scan(d_in.get(), d_out.get(), n, 0, prim::Plus{}, ws, 0, config);
    ASSERT_TRUE(same_items(expected, d_out.download(n)));
  }
  EXPECT_EQ(ws.data(), buffer) << "the workspace was reallocated";
}

TEST_P(OwnScanInt, EmptyInputIsANoOp) {
  prim::classic::ScanConfig config;
  config.algorithm = GetParam();
  prim::Workspace ws;
  EXPECT_NO_THROW(prim::classic::exclusive_scan<std::int32_t>(nullptr, nullptr, 0, 0, prim::Plus{},
                                                              ws, 0, config));
  EXPECT_NO_THROW(prim::classic::inclusive_scan<std::int32_t>(nullptr, nullptr, 0, 0, prim::Plus{},
                                                              ws, 0, config));
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
}

TEST_P(OwnScanInt, WorkspaceTooSmallThrows) {
  prim::classic::ScanConfig config;
  config.algorithm = GetParam();
  const std::size_t n = std::size_t(1) << 20;
  const std::size_t needed = prim::classic::scan_workspace_bytes<std::int32_t>(n, config);
  ASSERT_GT(needed, 0u) << "a scan of 2^20 items needs temporary storage";
  prim::Workspace ws(needed - 1);
  DeviceBuffer<std::int32_t> d_in(n), d_out(n);
  try {
    prim::classic::exclusive_scan(d_in.get(), d_out.get(), n, 0, prim::Plus{}, ws, 0, config);
    FAIL() << "no prim::Error for a workspace one byte too small";
  } catch (const prim::Error& e) {
    EXPECT_NE(std::string(e.what()).find("workspace too small"), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(AllScans, OwnScanInt,
                         ::testing::ValuesIn(prim::classic::all_scan_algorithms()),
                         scan_param_name);

}  // namespace
}  // namespace prim_test
