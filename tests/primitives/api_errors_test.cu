// Argument checks of both device backends. Every call here must throw prim::Error before it
// touches the device, so these run without a GPU; the pointers are host pointers that a correct
// check never dereferences.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "primitives/compact.cuh"
#include "primitives/multisplit.cuh"
#include "primitives/radix_sort.cuh"
#include "primitives/scan.cuh"
#include "primitives/scatter.cuh"
#include "primitives/thrust/thrust_backend.cuh"
#include "test_support.h"

namespace prim_test {
namespace {

struct Buffers {
  std::vector<std::uint32_t> a = std::vector<std::uint32_t>(16), b = std::vector<std::uint32_t>(16);
  std::vector<std::uint8_t> k = std::vector<std::uint8_t>(16), ko = std::vector<std::uint8_t>(16);
  std::size_t count = 0;
};

TEST(OwnApiErrors, ScanNullWithItems) {
  Buffers m;
  prim::Workspace ws;
  expect_error(
      [&] {
        prim::own::exclusive_scan<std::uint32_t>(nullptr, m.b.data(), 16, 0, prim::Plus{}, ws);
      },
      {"prim::own::exclusive_scan", "d_in is null"});
  expect_error(
      [&] {
        prim::own::inclusive_scan<std::uint32_t>(m.a.data(), nullptr, 16, 0, prim::Plus{}, ws);
      },
      {"prim::own::inclusive_scan", "d_out is null"});
  EXPECT_NO_THROW(
      prim::own::exclusive_scan<std::uint32_t>(nullptr, nullptr, 0, 0, prim::Plus{}, ws));
}

TEST(OwnApiErrors, CompactArguments) {
  Buffers m;
  prim::Workspace ws;
  expect_error([&] { prim::own::compact_if(m.a.data(), m.b.data(), 16, IsOdd{}, nullptr, ws); },
               {"prim::own::compact_if", "d_count is null"});
  expect_error(
      [&] { prim::own::compact_if<std::uint32_t>(nullptr, m.b.data(), 16, IsOdd{}, &m.count, ws); },
      {"prim::own::compact_if", "d_in is null"});
  expect_error([&] { prim::own::compact_if(m.a.data(), m.a.data(), 16, IsOdd{}, &m.count, ws); },
               {"prim::own::compact_if", "alias"});
  expect_error(
      [&] {
        prim::own::compact_flags<std::uint32_t, std::uint8_t>(m.a.data(), nullptr, m.b.data(), 16,
                                                              &m.count, ws);
      },
      {"prim::own::compact_flags", "d_flags is null"});
  expect_error(
      [&] {
        prim::own::stable_partition(m.a.data(), static_cast<std::uint32_t*>(nullptr), 16, IsOdd{},
                                    &m.count, ws);
      },
      {"prim::own::stable_partition", "d_out is null"});
  expect_error([&] { prim::own::partition(m.a.data(), m.a.data(), 16, IsOdd{}, &m.count, ws); },
               {"prim::own::partition", "alias"});
}

TEST(OwnApiErrors, SortArguments) {
  Buffers m;
  prim::Workspace ws;
  auto sort = [&](int begin_bit, int end_bit) {
    prim::own::sort_pairs(m.k.data(), m.ko.data(), m.a.data(), m.b.data(), 16, begin_bit, end_bit,
                          ws);
  };
  expect_error([&] { sort(3, 3); },
               {"prim::own::sort_pairs", "begin_bit 3 must be below end_bit 3"});
  expect_error([&] { sort(5, 2); }, {"prim::own::sort_pairs", "begin_bit 5 must be below"});
  expect_error([&] { sort(0, 9); },
               {"prim::own::sort_pairs", "end_bit 9 is past the key width of 8"});
  expect_error([&] { sort(-1, 4); }, {"prim::own::sort_pairs", "negative"});
  expect_error(
      [&] {
        prim::own::sort_pairs<std::uint8_t, std::uint32_t>(m.k.data(), nullptr, m.a.data(),
                                                           m.b.data(), 16, 0, 8, ws);
      },
      {"prim::own::sort_pairs", "null"});
  expect_error(
      [&] { prim::own::sort_pairs(m.k.data(), m.ko.data(), m.a.data(), m.a.data(), 16, 0, 8, ws); },
      {"prim::own::sort_pairs", "alias"});
  // the bit range is checked even with no items; n == 0 is otherwise a no-op
  expect_error(
      [&] {
        prim::own::sort_pairs<std::uint8_t, std::uint32_t>(nullptr, nullptr, nullptr, nullptr, 0, 0,
                                                           9, ws);
      },
      {"prim::own::sort_pairs", "end_bit 9"});
  EXPECT_NO_THROW((prim::own::sort_pairs<std::uint8_t, std::uint32_t>(nullptr, nullptr, nullptr,
                                                                      nullptr, 0, 0, 8, ws)));
}

TEST(OwnApiErrors, ScatterArguments) {
  Buffers m;
  expect_error(
      [&] {
        prim::own::scatter<std::uint32_t, std::uint32_t>(m.a.data(), nullptr, m.b.data(), 16);
      },
      {"prim::own::scatter", "d_map is null"});
  expect_error([&] { prim::own::scatter(m.a.data(), m.b.data(), m.a.data(), 16); },
               {"prim::own::scatter", "alias"});
  EXPECT_NO_THROW((prim::own::scatter<std::uint32_t, std::uint32_t>(nullptr, nullptr, nullptr, 0)));
}

TEST(ThrustApiErrors, ScanNullWithItems) {
  Buffers m;
  prim::Workspace ws;
  expect_error(
      [&] {
        prim::thrust_backend::exclusive_scan<std::uint32_t>(nullptr, m.b.data(), 16, 0,
                                                            prim::Plus{}, ws);
      },
      {"prim::thrust_backend::exclusive_scan", "d_in is null"});
  expect_error(
      [&] {
        prim::thrust_backend::inclusive_scan<std::uint32_t>(m.a.data(), nullptr, 16, 0,
                                                            prim::Plus{}, ws);
      },
      {"prim::thrust_backend::inclusive_scan", "d_out is null"});
}

TEST(ThrustApiErrors, CompactArguments) {
  Buffers m;
  prim::Workspace ws;
  expect_error(
      [&] { prim::thrust_backend::compact_if(m.a.data(), m.b.data(), 16, IsOdd{}, nullptr, ws); },
      {"prim::thrust_backend::compact_if", "d_count is null"});
  expect_error(
      [&] { prim::thrust_backend::compact_if(m.a.data(), m.a.data(), 16, IsOdd{}, &m.count, ws); },
      {"prim::thrust_backend::compact_if", "alias"});
  expect_error(
      [&] {
        prim::thrust_backend::compact_flags<std::uint32_t, std::uint8_t>(
            m.a.data(), nullptr, m.b.data(), 16, &m.count, ws);
      },
      {"prim::thrust_backend::compact_flags", "d_flags is null"});
  expect_error(
      [&] {
        prim::thrust_backend::stable_partition<std::uint32_t>(nullptr, m.b.data(), 16, IsOdd{},
                                                              &m.count, ws);
      },
      {"prim::thrust_backend::stable_partition", "d_in is null"});
  expect_error(
      [&] { prim::thrust_backend::partition(m.a.data(), m.a.data(), 16, IsOdd{}, &m.count, ws); },
      {"prim::thrust_backend::partition", "alias"});
}

// The same checks of a device-side item count in both backends.
TEST(ApiErrors, DeviceItemsArguments) {
  Buffers m;
  prim::Workspace ws;
  std::size_t d_n = 16;
  expect_error(
      [&] {
        prim::own::compact_if(m.a.data(), m.b.data(), prim::DeviceItems{nullptr, 16}, IsOdd{},
                              &m.count, ws);
      },
      {"prim::own::compact_if", "DeviceItems::d_n is null"});
  expect_error(
      [&] {
        prim::own::stable_partition(m.a.data(), m.b.data(), prim::DeviceItems{&m.count, 16},
                                    IsOdd{}, &m.count, ws);
      },
      {"prim::own::stable_partition", "must not alias d_count"});
  expect_error(
      [&] {
        prim::thrust_backend::compact_if(m.a.data(), m.b.data(), prim::DeviceItems{nullptr, 16},
                                         IsOdd{}, &m.count, ws);
      },
      {"prim::thrust_backend::compact_if", "DeviceItems::d_n is null"});
  expect_error(
      [&] {
        prim::thrust_backend::stable_partition(
            m.a.data(), m.b.data(), prim::DeviceItems{&m.count, 16}, IsOdd{}, &m.count, ws);
      },
      {"prim::thrust_backend::stable_partition", "must not alias d_count"});
  expect_error(
      [&] {
        prim::thrust_backend::compact_if(m.a.data(), m.a.data(), prim::DeviceItems{&d_n, 16},
                                         IsOdd{}, &m.count, ws);
      },
      {"prim::thrust_backend::compact_if", "must not alias d_in"});
  expect_error(
      [&] {
        prim::thrust_backend::stable_partition<std::uint32_t>(
            nullptr, m.b.data(), prim::DeviceItems{&d_n, 16}, IsOdd{}, &m.count, ws);
      },
      {"prim::thrust_backend::stable_partition", "d_in is null"});
}

TEST(ThrustApiErrors, SortAndScatterArguments) {
  Buffers m;
  prim::Workspace ws;
  auto sort = [&](int begin_bit, int end_bit) {
    prim::thrust_backend::sort_pairs(m.k.data(), m.ko.data(), m.a.data(), m.b.data(), 16, begin_bit,
                                     end_bit, ws);
  };
  expect_error([&] { sort(4, 4); }, {"prim::thrust_backend::sort_pairs", "must be below end_bit"});
  expect_error([&] { sort(0, 9); }, {"prim::thrust_backend::sort_pairs", "past the key width"});
  expect_error([&] { sort(-2, 3); }, {"prim::thrust_backend::sort_pairs", "negative"});
  expect_error(
      [&] {
        prim::thrust_backend::sort_pairs(m.k.data(), m.k.data(), m.a.data(), m.b.data(), 16, 0, 8,
                                         ws);
      },
      {"prim::thrust_backend::sort_pairs", "alias"});
  expect_error(
      [&] {
        prim::thrust_backend::scatter<std::uint32_t, std::uint32_t>(m.a.data(), nullptr, m.b.data(),
                                                                    16);
      },
      {"prim::thrust_backend::scatter", "d_map is null"});
  EXPECT_NO_THROW((prim::thrust_backend::sort_pairs<std::uint8_t, std::uint32_t>(
      nullptr, nullptr, nullptr, nullptr, 0, 0, 8, ws)));
}

struct Mod4 {
  __host__ __device__ unsigned operator()(std::uint32_t key) const { return key % 4; }
};

// Both backends check the multisplit's arguments alike.
template <class Multisplit, class MultisplitKeys>
void expect_multisplit_checks(const char* pairs_name, const char* keys_name,
                              Multisplit multisplit_pairs, MultisplitKeys multisplit) {
  Buffers m;
  std::vector<unsigned long long> offsets(40);
  expect_error([&] { multisplit_pairs(m.a.data(), m.b.data(), 16, 0, offsets.data()); },
               {pairs_name, "buckets 0 must be in [1, 32]"});
  expect_error([&] { multisplit_pairs(m.a.data(), m.b.data(), 16, 33, offsets.data()); },
               {pairs_name, "buckets 33"});
  expect_error([&] { multisplit_pairs(m.a.data(), m.b.data(), 16, 4, nullptr); },
               {pairs_name, "d_bucket_offsets is null"});
  expect_error([&] { multisplit_pairs(nullptr, m.b.data(), 16, 4, offsets.data()); },
               {pairs_name, "null with n > 0"});
  expect_error([&] { multisplit_pairs(m.a.data(), m.a.data(), 16, 4, offsets.data()); },
               {pairs_name, "alias"});
  expect_error([&] { multisplit(m.a.data(), m.a.data(), 16, 4, offsets.data()); },
               {keys_name, "alias"});
  // buckets and offsets are checked even with no items
  expect_error([&] { multisplit(nullptr, nullptr, 0, 40, offsets.data()); },
               {keys_name, "buckets 40"});
}

TEST(OwnApiErrors, MultisplitArguments) {
  std::vector<std::uint32_t> values(16), values_out(16);
  prim::Workspace ws;
  expect_multisplit_checks(
      "prim::own::multisplit_pairs", "prim::own::multisplit",
      [&](const std::uint32_t* in, std::uint32_t* out, std::size_t n, int buckets,
          unsigned long long* offsets) {
        prim::own::multisplit_pairs(in, out, values.data(), values_out.data(), n, buckets, Mod4{},
                                    offsets, ws);
      },
      [&](const std::uint32_t* in, std::uint32_t* out, std::size_t n, int buckets,
          unsigned long long* offsets) {
        prim::own::multisplit(in, out, n, buckets, Mod4{}, offsets, ws);
      });
  expect_error([] { prim::own::multisplit_workspace_bytes<std::uint32_t>(16, 0); },
               {"prim::own::multisplit_workspace_bytes", "buckets 0"});
  // Too small a workspace is refused before any launch.
  Buffers m;
  std::vector<unsigned long long> offsets(5);
  expect_error(
      [&] { prim::own::multisplit(m.a.data(), m.b.data(), 16, 4, Mod4{}, offsets.data(), ws); },
      {"prim::own::multisplit", "workspace"});
}

TEST(ThrustApiErrors, MultisplitArguments) {
  std::vector<std::uint32_t> values(16), values_out(16);
  prim::Workspace ws;
  expect_multisplit_checks(
      "prim::thrust_backend::multisplit_pairs", "prim::thrust_backend::multisplit",
      [&](const std::uint32_t* in, std::uint32_t* out, std::size_t n, int buckets,
          unsigned long long* offsets) {
        prim::thrust_backend::multisplit_pairs(in, out, values.data(), values_out.data(), n,
                                               buckets, Mod4{}, offsets, ws);
      },
      [&](const std::uint32_t* in, std::uint32_t* out, std::size_t n, int buckets,
          unsigned long long* offsets) {
        prim::thrust_backend::multisplit(in, out, n, buckets, Mod4{}, offsets, ws);
      });
}

}  // namespace
}  // namespace prim_test
