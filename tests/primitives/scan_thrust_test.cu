// The Thrust backend's scans, checked as the own ones: every type, exclusive and inclusive, in
// place, edge sizes and 2^26; its caching allocator allocates nothing on a repeated call.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>

#include "primitives/caching_allocator.h"
#include "primitives/thrust/thrust_backend.cuh"
#include "scan_checks.h"

namespace prim_test {
namespace {

template <class T, class Op, class Gen>
void check_thrust_scan(ScanKind kind, Placement placement, const std::vector<std::size_t>& sizes,
                       T identity, Op op, Gen gen) {
  prim::Workspace ws;
  check_scan(kind, placement, sizes, identity, op, gen, [&](const T* in, T* out, std::size_t n) {
    if (kind == ScanKind::exclusive)
      prim::thrust_backend::exclusive_scan(in, out, n, identity, op, ws);
    else
      prim::thrust_backend::inclusive_scan(in, out, n, identity, op, ws);
  });
}

TEST(ThrustScan, Int32Plus) {
  check_thrust_scan(ScanKind::exclusive, Placement::out_of_place, standard_sizes(), std::int32_t(0),
                    prim::Plus{}, SmallInt32{});
  check_thrust_scan(ScanKind::inclusive, Placement::out_of_place, standard_sizes(), std::int32_t(0),
                    prim::Plus{}, SmallInt32{});
  check_thrust_scan(ScanKind::exclusive, Placement::in_place, small_sizes(), std::int32_t(0),
                    prim::Plus{}, SmallInt32{});
}

TEST(ThrustScan, Int32PlusAt2Pow26) {
  const std::vector<std::size_t> sizes = {std::size_t(1) << 26};
  check_thrust_scan(ScanKind::exclusive, Placement::out_of_place, sizes, std::int32_t(0),
                    prim::Plus{}, SmallInt32{});
}

TEST(ThrustScan, Uint32PlusWrapping) {
  check_thrust_scan(ScanKind::exclusive, Placement::out_of_place, standard_sizes(),
                    std::uint32_t(0), prim::Plus{}, AnyUint32{});
}

TEST(ThrustScan, Int32Max) {
  check_thrust_scan(ScanKind::inclusive, Placement::out_of_place, small_sizes(),
                    std::numeric_limits<std::int32_t>::min(), prim::Max{}, AnyInt32{});
}

TEST(ThrustScan, Int64PlusPastInt32Range) {
  check_thrust_scan(ScanKind::exclusive, Placement::out_of_place, standard_sizes<std::int64_t>(),
                    std::int64_t(0), prim::Plus{}, BigInt64{});
  check_thrust_scan(ScanKind::inclusive, Placement::out_of_place, standard_sizes<std::int64_t>(),
                    std::int64_t(0), prim::Plus{}, BigInt64{});
}

TEST(ThrustScan, FloatPlusOfIntegers) {
  check_thrust_scan(ScanKind::exclusive, Placement::out_of_place, float_sizes(), 0.0f, prim::Plus{},
                    IntegerFloat{});
}

TEST(ThrustScan, Mat2ProductKeepsOrder) {
  check_thrust_scan(ScanKind::exclusive, Placement::out_of_place, standard_sizes<Mat2>(),
                    kMat2Identity, Mat2Product{}, RandomMat2{});
  check_thrust_scan(ScanKind::inclusive, Placement::in_place, small_sizes<Mat2>(), kMat2Identity,
                    Mat2Product{}, RandomMat2{});
}

// The cache settles after the first call of a size: the next ones allocate nothing.
TEST(ThrustScan, RepeatedCallAllocatesNothing) {
  const std::size_t n = (std::size_t(1) << 20) + 3;
  DeviceBuffer<std::int32_t> d_in(n), d_out(n);
  d_in.upload(std::vector<std::int32_t>(n, 1));
  for (ScanKind kind : {ScanKind::exclusive, ScanKind::inclusive}) {
    SCOPED_TRACE(kind == ScanKind::exclusive ? "exclusive" : "inclusive");
    prim::Workspace ws;
    auto scan = [&] {
      if (kind == ScanKind::exclusive)
        prim::thrust_backend::exclusive_scan(d_in.get(), d_out.get(), n, 0, prim::Plus{}, ws);
      else
        prim::thrust_backend::inclusive_scan(d_in.get(), d_out.get(), n, 0, prim::Plus{}, ws);
    };
    scan();
    const std::size_t after_first = ws.caching_allocator().allocations();
    EXPECT_GT(after_first, 0u);
    for (int round = 0; round < 3; ++round) scan();
    const auto out = d_out.download(n);
    EXPECT_EQ(out[n - 1], static_cast<std::int32_t>(kind == ScanKind::exclusive ? n - 1 : n));
    EXPECT_EQ(ws.caching_allocator().allocations(), after_first);
  }
}

TEST(ThrustScan, EmptyInputIsANoOp) {
  prim::Workspace ws;
  EXPECT_NO_THROW(
      prim::thrust_backend::exclusive_scan<std::int32_t>(nullptr, nullptr, 0, 0, prim::Plus{}, ws));
  EXPECT_NO_THROW(
      prim::thrust_backend::inclusive_scan<std::int32_t>(nullptr, nullptr, 0, 0, prim::Plus{}, ws));
}

}  // namespace
}  // namespace prim_test
