// BlockReserve (primitives/block/block_reserve.cuh): a kernel writes the items it keeps, in one to
// three streams, at the indices BlockReserve gives. Every kept item lands exactly once, the
// counters end at the kept counts, a block's items stay in thread order in one run, the totals it
// returns are the block's, and nothing is written past the counts; for every edge size and block
// sizes of 32 to 1024 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "device_buffer.h"
#include "primitives/block/block_reserve.cuh"
#include "test_support.h"

namespace prim_test {
namespace {

// Item i is kept in stream s when bit s of flags[i] is set; it writes i at its reserved index in
// each stream it is kept in. totals[block * Streams + s]: the block's total that reserve returned
// (thread 0's; every thread's must agree, else the total is written as ~0).
template <int Block, int Streams>
__global__ void __launch_bounds__(Block)
    compact_streams(const std::uint8_t* flags, std::size_t n, unsigned long long* counters,
                    std::uint32_t* out, std::size_t stride, unsigned long long* totals) {
  using Reserve = prim::block::BlockReserve<Block, Streams>;
  __shared__ typename Reserve::TempStorage storage;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint8_t f = i < n ? flags[i] : 0;
  bool keep[Streams];
  unsigned long long* counter[Streams];
  unsigned long long index[Streams];
  for (int s = 0; s < Streams; ++s) {
    keep[s] = (f >> s) & 1u;
    counter[s] = counters + s;
  }
  const typename Reserve::Counts total = Reserve(storage).reserve(keep, counter, index);
  for (int s = 0; s < Streams; ++s) {
    if (keep[s]) out[s * stride + index[s]] = static_cast<std::uint32_t>(i);
    unsigned long long& t = totals[blockIdx.x * Streams + s];
    if (threadIdx.x == 0) t = total.v[s];
  }
  __syncthreads();
  for (int s = 0; s < Streams; ++s)
    if (total.v[s] != totals[blockIdx.x * Streams + s]) totals[blockIdx.x * Streams + s] = ~0ull;
}

// The items of `stream` in output order, and checks against the flags: each kept item once,
// and the items of one block in one run, in thread order.
void check_stream(const std::vector<std::uint8_t>& flags, std::uint8_t bit,
                  const std::vector<std::uint32_t>& out, unsigned long long count, int block) {
  std::vector<std::uint32_t> expected;
  for (std::size_t i = 0; i < flags.size(); ++i)
    if (flags[i] & bit) expected.push_back(static_cast<std::uint32_t>(i));
  ASSERT_EQ(count, expected.size());
  std::vector<std::uint32_t> got(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(count));
  std::vector<std::uint32_t> sorted = got;
  std::sort(sorted.begin(), sorted.end());
  ASSERT_EQ(sorted, expected) << "kept items lost, repeated or invented";
  // Runs: consecutive outputs of the same block, ascending; each block forms one run.
  std::map<std::uint32_t, int> runs;
  for (std::size_t k = 0; k < got.size(); ++k) {
    const std::uint32_t b = got[k] / static_cast<std::uint32_t>(block);
    if (k == 0 || got[k - 1] / static_cast<std::uint32_t>(block) != b) {
      ++runs[b];
    } else {
      ASSERT_LT(got[k - 1], got[k]) << "a block's items out of thread order at " << k;
    }
  }
  for (const auto& [b, count_of_runs] : runs) ASSERT_EQ(count_of_runs, 1) << "block " << b;
}

template <int Streams>
void launch(int block, unsigned blocks, const std::uint8_t* flags, std::size_t n,
            unsigned long long* counters, std::uint32_t* out, std::size_t stride,
            unsigned long long* totals) {
  if (block == 32)
    compact_streams<32, Streams><<<blocks, 32>>>(flags, n, counters, out, stride, totals);
  else if (block == 256)
    compact_streams<256, Streams><<<blocks, 256>>>(flags, n, counters, out, stride, totals);
  else
    compact_streams<1024, Streams><<<blocks, 1024>>>(flags, n, counters, out, stride, totals);
}

// keep[s]: the chance that an item is kept in stream s (the number of entries is Streams).
template <int Streams>
void check(std::size_t n, int block, const std::vector<double>& keep, unsigned seed) {
  SCOPED_TRACE(::testing::Message() << "n " << n << ", block " << block << ", streams " << Streams
                                    << ", keep " << keep[0]);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::uint8_t> flags(n);
  for (auto& f : flags)
    for (int s = 0; s < Streams; ++s)
      if (u(rng) < keep[s]) f = static_cast<std::uint8_t>(f | (1u << s));
  const std::size_t stride = std::max<std::size_t>(n, 1);
  const unsigned blocks = static_cast<unsigned>((n + block - 1) / block);
  DeviceBuffer<std::uint8_t> d_flags(stride);
  DeviceBuffer<std::uint32_t> d_out(Streams * stride);
  DeviceBuffer<unsigned long long> d_counters(Streams);
  DeviceBuffer<unsigned long long> d_totals(std::max<std::size_t>(blocks, 1) * Streams);
  d_flags.upload(flags);
  d_counters.upload(std::vector<unsigned long long>(Streams, 0));
  if (blocks > 0)
    launch<Streams>(block, blocks, d_flags.get(), n, d_counters.get(), d_out.get(), stride,
                    d_totals.get());
  PRIM_CUDA_CHECK(cudaGetLastError());
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<unsigned long long> counts = d_counters.download(Streams);
  const std::vector<std::uint32_t> out = d_out.download(Streams * stride);
  const std::vector<unsigned long long> totals =
      d_totals.download(std::max<std::size_t>(blocks, 1) * Streams);
  for (int s = 0; s < Streams; ++s) {
    SCOPED_TRACE(::testing::Message() << "stream " << s);
    const auto first = out.begin() + static_cast<std::ptrdiff_t>(s * stride);
    check_stream(flags, static_cast<std::uint8_t>(1u << s),
                 std::vector<std::uint32_t>(first, first + static_cast<std::ptrdiff_t>(stride)),
                 counts[s], block);
    for (unsigned b = 0; b < blocks; ++b) {
      unsigned long long kept = 0;
      for (std::size_t i = std::size_t(b) * block; i < std::min(n, std::size_t(b + 1) * block); ++i)
        kept += (flags[i] >> s) & 1u;
      ASSERT_EQ(totals[b * Streams + s], kept) << "block " << b << "'s total";
    }
  }
  EXPECT_TRUE(d_out.guard_intact(Streams * stride));
}

TEST(BlockReserve, EveryKeptItemOnceInBlockRuns) {
  unsigned seed = 1;
  for (std::size_t n : standard_sizes()) {
    if (n > (std::size_t(1) << 22)) continue;
    for (int block : {32, 256, 1024}) check<2>(n, block, {0.5, 0.2}, seed++);
  }
}

TEST(BlockReserve, OneAndThreeStreams) {
  unsigned seed = 100;
  for (std::size_t n : {std::size_t(1), std::size_t(31), std::size_t(1000), std::size_t(100003)})
    for (int block : {32, 256, 1024}) {
      check<1>(n, block, {0.3}, seed++);
      check<3>(n, block, {0.9, 0.05, 0.5}, seed++);
    }
}

TEST(BlockReserve, AllNoneAndOneStream) {
  for (int block : {32, 256}) {
    check<2>(100003, block, {1.0, 0.0}, 7);
    check<2>(100003, block, {0.0, 1.0}, 8);
    check<2>(100003, block, {0.0, 0.0}, 9);
    check<2>(100003, block, {1.0, 1.0}, 10);
  }
}

}  // namespace
}  // namespace prim_test
