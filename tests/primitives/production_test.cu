// Special cases of the single-pass lookback scan: tiny tiles (the most tiles and the longest
// look-backs), non-commutative operators through both tile-status layouts, every load path
// (16-byte vectors, unaligned pointers, 1-, 4-, 8- and 16-byte types), odd block sizes, and
// repeated calls that reuse one workspace holding stale status or garbage.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <vector>

#include "primitives/compact.cuh"
#include "primitives/operators.h"
#include "primitives/scan.cuh"
#include "production_support.h"

namespace prim_production_test {
namespace {

template <bool Inclusive, class T, class Op>
std::vector<T> host_scan(const std::vector<T>& in, T identity, Op op) {
  std::vector<T> out(in.size());
  T acc = identity;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (Inclusive) {
      acc = op(acc, in[i]);
      out[i] = acc;
    } else {
      out[i] = acc;
      acc = op(acc, in[i]);
    }
  }
  return out;
}

template <bool Inclusive, class T, class Op>
void run_scan(const T* in, T* out, std::size_t n, T identity, Op op, prim::Workspace& ws,
              cudaStream_t stream, const prim::ScanConfig& config) {
  if (Inclusive) {
    prim::own::inclusive_scan(in, out, n, identity, op, ws, stream, config);
  } else {
    prim::own::exclusive_scan(in, out, n, identity, op, ws, stream, config);
  }
}

struct IsPositive {
  __host__ __device__ bool operator()(int x) const { return x > 0; }
};

struct Placement {
  bool in_place = false;
  std::size_t in_offset = 0;  // items: a non-zero offset breaks 16-byte alignment
  std::size_t out_offset = 0;
};

// Scans `in` on the device and compares with the host scan; also checks that the item after the
// output is untouched.
template <bool Inclusive, class T, class Op>
void check_scan(const std::vector<T>& in, T identity, Op op, const prim::ScanConfig& config,
                Placement where = {}) {
  const std::size_t n = in.size();
  SCOPED_TRACE("n = " + std::to_string(n) + (Inclusive ? ", inclusive" : ", exclusive") +
               ", threads " + std::to_string(config.block_threads) + ", items " +
               std::to_string(config.items_per_thread) + (where.in_place ? ", in place" : ""));
  DeviceArray<T> d_in(n + where.in_offset + 1);
  DeviceArray<T> d_out(n + where.out_offset + 1);
  d_in.upload(in, where.in_offset);
  prim::Workspace ws(prim::own::scan_workspace_bytes<T>(n, config));
  T* src = d_in.get() + where.in_offset;
  T* dst = where.in_place ? src : d_out.get() + where.out_offset;
  run_scan<Inclusive>(src, dst, n, identity, op, ws, 0, config);
  const std::vector<T> got =
      where.in_place ? d_in.download(n, where.in_offset) : d_out.download(n, where.out_offset);
  EXPECT_TRUE(same(host_scan<Inclusive>(in, identity, op), got));
  // The item after the output still holds the poison.
  const std::vector<T> after = where.in_place ? d_in.download(1, where.in_offset + n)
                                              : d_out.download(1, where.out_offset + n);
  std::vector<unsigned char> bytes(sizeof(T));
  std::memcpy(bytes.data(), &after[0], sizeof(T));
  for (unsigned char b : bytes) EXPECT_EQ(b, 0xAB) << "write past the end";
}

std::vector<Affine> random_affine(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Affine> v(n);
  for (auto& f : v) f = {static_cast<std::uint32_t>(rng() | 1), static_cast<std::uint32_t>(rng())};
  return v;
}
std::vector<Affine16> random_affine16(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Affine16> v(n);
  for (auto& f : v) f = {static_cast<std::uint16_t>(rng() | 1), static_cast<std::uint16_t>(rng())};
  return v;
}

TEST(LookbackScan, TinyTilesInt) {
  // The largest size runs 32,769 tiles of 32 items: a long grid, whose tiles pause in their
  // look-back and prefetch the input of the tiles ahead, up to the last whole tile.
  const prim::agent::LookbackSchedule schedule =
      prim::detail::lookback_shape<int>((std::size_t(1) << 20) + 7, tiny_tiles(), "test").schedule;
  EXPECT_GT(schedule.prefetch_tiles, 0u);
  EXPECT_GT(schedule.first_ns, 0u);
  for (std::size_t n :
       {std::size_t(1), std::size_t(31), std::size_t(32), std::size_t(33), std::size_t(1000),
        std::size_t(32 * 1024 + 5), (std::size_t(1) << 20) + 7}) {
    const auto in = random_ints<int>(n, n, -1000, 1000);
    check_scan<false>(in, 0, prim::Plus{}, tiny_tiles());
    check_scan<true>(in, 0, prim::Plus{}, tiny_tiles());
  }
}

TEST(LookbackScan, TinyTilesNonCommutative) {
  for (std::size_t n : {std::size_t(33), std::size_t(5000), std::size_t(100003)}) {
    check_scan<true>(random_affine(n, 1), Affine{1, 0}, Compose{}, tiny_tiles());
    check_scan<false>(random_affine(n, 2), Affine{1, 0}, Compose{}, tiny_tiles());
    check_scan<true>(random_affine16(n, 3), Affine16{1, 0}, Compose16{}, tiny_tiles());
    check_scan<false>(random_affine16(n, 4), Affine16{1, 0}, Compose16{}, tiny_tiles());
  }
}

TEST(LookbackScan, DefaultTilesNonCommutative) {
  for (std::size_t n : {std::size_t(4095), std::size_t(4097), std::size_t(1000003)}) {
    check_scan<true>(random_affine(n, 5), Affine{1, 0}, Compose{}, default_tiles());
    check_scan<false>(random_affine16(n, 6), Affine16{1, 0}, Compose16{}, default_tiles());
  }
}

TEST(LookbackScan, LargeInPlace) {
  const std::size_t n = (std::size_t(1) << 24) + 3;
  const auto in = random_ints<int>(n, 7, -5, 5);
  check_scan<true>(in, 0, prim::Plus{}, default_tiles(), Placement{true, 0, 0});
  check_scan<false>(in, 0, prim::Plus{}, default_tiles(), Placement{true, 0, 0});
}

TEST(LookbackScan, UnalignedPointersTakeScalarPath) {
  const std::size_t n = 100003;
  const auto in = random_ints<int>(n, 8, -100, 100);
  check_scan<false>(in, 0, prim::Plus{}, default_tiles(), Placement{false, 1, 3});
  check_scan<true>(in, 0, prim::Plus{}, default_tiles(), Placement{false, 0, 1});
  check_scan<true>(in, 0, prim::Plus{}, default_tiles(), Placement{true, 2, 0});
}

TEST(LookbackScan, ByteAndWideTypes) {
  const std::size_t n = (std::size_t(1) << 20) + 1;
  check_scan<true>(random_ints<std::uint8_t>(n, 9, 0, 255), std::uint8_t(0), prim::Plus{},
                   default_tiles());
  check_scan<false>(random_ints<std::uint16_t>(n, 10, 0, 65535), std::uint16_t(0), prim::Plus{},
                    default_tiles());
  check_scan<false>(random_ints<long long>(n, 11, -1000000, 1000000), 0ll, prim::Plus{},
                    default_tiles());
  check_scan<true>(random_ints<int>(n, 12, -1000000, 1000000), INT_MIN, prim::Max{},
                   default_tiles());
  check_scan<true>(random_ints<std::uint8_t>(n, 13, 0, 255), std::uint8_t(0), prim::Plus{},
                   tiny_tiles());
  check_scan<false>(random_ints<long long>(5000, 14, -9, 9), 0ll, prim::Plus{}, tiny_tiles());
}

TEST(LookbackScan, BlockSizes) {
  const std::size_t n = 300007;
  const auto in = random_ints<int>(n, 15, -3, 3);
  for (int threads : {64, 96, 1024}) {
    for (int items : {1, 16}) {
      prim::ScanConfig config = default_tiles();
      config.block_threads = threads;
      config.items_per_thread = items;
      check_scan<false>(in, 0, prim::Plus{}, config);
    }
  }
}

TEST(LookbackScan, RejectsUnsupportedShapes) {
  prim::ScanConfig config = default_tiles();
  config.block_threads = 48;
  EXPECT_THROW(prim::own::scan_workspace_bytes<int>(1000, config), prim::Error);
  config.block_threads = 2048;
  EXPECT_THROW(prim::own::scan_workspace_bytes<int>(1000, config), prim::Error);
  config.block_threads = 256;
  config.items_per_thread = 3;
  EXPECT_THROW(prim::own::scan_workspace_bytes<int>(1000, config), prim::Error);
}

// The look-back kernels are held to tuning::kLookbackMaxRegisters registers so that three blocks
// of 512 threads stay resident per SM; the int32 scans fit without spilling to local memory (warp
// 0 parks its items in shared memory during its look-back, agent/tile_lookback.cuh).
TEST(LookbackScan, Int32KernelsKeepToTheirRegisters) {
  namespace lb = prim::detail::lookback;
  constexpr int kItems = prim::tuning::lookback_items_per_thread<int>();
  constexpr int kVec = prim::block::vector_width<int, kItems>();
  using Status = prim::agent::TileStatusFor<int>;
  expect_no_spills(lb::scan_kernel<false, kItems, kVec, int, prim::Plus, Status>, "exclusive");
  expect_no_spills(lb::scan_kernel<true, kItems, kVec, int, prim::Plus, Status>, "inclusive");
}

// Workspace at most 1% of the input (int32, default tiles, from 2^20 up).
TEST(LookbackScan, WorkspaceIsSmall) {
  for (std::size_t n : {std::size_t(1) << 20, std::size_t(1) << 28}) {
    EXPECT_LE(prim::own::scan_workspace_bytes<int>(n), n * sizeof(int) / 100);
    EXPECT_LE(prim::own::compact_workspace_bytes<int>(n), n * sizeof(int) / 100);
  }
}

// One workspace for a sequence of calls: stale tile status of the previous scan, status of a
// different tile size, garbage bytes, and a compaction in between must not leak into a result.
TEST(LookbackScan, RepeatedCallsReuseOneWorkspace) {
  const std::size_t big = 1000003, small = 77777;
  std::size_t bytes = 0;
  for (const prim::ScanConfig& c : {tiny_tiles(), default_tiles()}) {
    bytes = std::max(bytes, prim::own::scan_workspace_bytes<int>(big, c));
    bytes = std::max(bytes, prim::own::scan_workspace_bytes<long long>(big, c));
  }
  bytes = std::max(bytes, prim::own::compact_workspace_bytes<int>(big));
  prim::Workspace ws(bytes);
  cudaStream_t stream;
  PRIM_CUDA_CHECK(cudaStreamCreate(&stream));
  DeviceArray<int> d_in(big), d_out(big), d_compact(big);
  DeviceArray<long long> d_wide_in(big), d_wide_out(big);
  DeviceArray<std::size_t> d_count(1);

  PRIM_CUDA_CHECK(cudaMemset(ws.data(), 0xFF, ws.size()));  // garbage from "someone else"
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    const auto a = random_ints<int>(big, 100 + round, -50, 50);
    d_in.upload(a);
    run_scan<false>(d_in.get(), d_out.get(), big, 0, prim::Plus{}, ws, stream, tiny_tiles());
    EXPECT_TRUE(same(host_scan<false>(a, 0, prim::Plus{}), d_out.download(big)));

    const auto b = random_ints<int>(big, 200 + round, -50, 50);  // same shape, stale status
    d_in.upload(b);
    run_scan<false>(d_in.get(), d_out.get(), big, 0, prim::Plus{}, ws, stream, tiny_tiles());
    EXPECT_TRUE(same(host_scan<false>(b, 0, prim::Plus{}), d_out.download(big)));

    const std::vector<int> c(b.begin(), b.begin() + small);  // fewer, larger tiles
    run_scan<true>(d_in.get(), d_out.get(), small, 0, prim::Plus{}, ws, stream, default_tiles());
    EXPECT_TRUE(same(host_scan<true>(c, 0, prim::Plus{}), d_out.download(small)));

    const auto w = random_ints<long long>(big, 300 + round, -50, 50);  // split status layout
    d_wide_in.upload(w);
    run_scan<true>(d_wide_in.get(), d_wide_out.get(), big, 0ll, prim::Plus{}, ws, stream,
                   default_tiles());
    EXPECT_TRUE(same(host_scan<true>(w, 0ll, prim::Plus{}), d_wide_out.download(big)));

    prim::own::compact_if(d_in.get(), d_compact.get(), big, IsPositive{}, d_count.get(), ws,
                          stream);
    std::vector<int> kept;
    for (int x : b)
      if (x > 0) kept.push_back(x);
    PRIM_CUDA_CHECK(cudaStreamSynchronize(stream));
    EXPECT_EQ(read_count(d_count.get()), kept.size());
    EXPECT_TRUE(same(kept, d_compact.download(kept.size())));

    PRIM_CUDA_CHECK(cudaMemsetAsync(ws.data(), round * 0x35, ws.size(), stream));
  }
  PRIM_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace
}  // namespace prim_production_test
