// BlockReserve (primitives/block/block_reserve.cuh): a kernel writes the items it keeps, in one or
// two streams, at the indices BlockReserve gives. Every kept item lands exactly once, the
// counters end at the kept counts, a block's items stay in thread order in one run, and nothing is
// written past the counts; for every edge size and block sizes of 32 to 1024 threads.
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

using Reserve = prim::block::BlockReserve<unsigned long long>;

// Item i is kept in the first stream when bit 0 of flags[i] is set, in the second with bit 1; it
// writes i at its reserved index in each stream it is kept in.
__global__ void compact_two_streams(const std::uint8_t* flags, std::size_t n,
                                    unsigned long long* counters, std::uint32_t* first,
                                    std::uint32_t* second) {
  __shared__ Reserve::TempStorage storage;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint8_t f = i < n ? flags[i] : 0;
  unsigned long long a = 0, b = 0;
  Reserve::reserve(storage, (f & 1) != 0, counters, a, (f & 2) != 0, counters + 1, b);
  if (f & 1) first[a] = static_cast<std::uint32_t>(i);
  if (f & 2) second[b] = static_cast<std::uint32_t>(i);
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

void check(std::size_t n, int block, double keep_first, double keep_second, unsigned seed) {
  SCOPED_TRACE(::testing::Message() << "n " << n << ", block " << block << ", keep " << keep_first
                                    << "/" << keep_second);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<std::uint8_t> flags(n);
  for (auto& f : flags)
    f = static_cast<std::uint8_t>((u(rng) < keep_first ? 1 : 0) | (u(rng) < keep_second ? 2 : 0));
  DeviceBuffer<std::uint8_t> d_flags(std::max<std::size_t>(n, 1));
  DeviceBuffer<std::uint32_t> d_first(std::max<std::size_t>(n, 1)),
      d_second(std::max<std::size_t>(n, 1));
  DeviceBuffer<unsigned long long> d_counters(2);
  d_flags.upload(flags);
  const std::vector<unsigned long long> start = {0, 0};
  d_counters.upload(start);
  const unsigned blocks = static_cast<unsigned>((n + block - 1) / block);
  if (blocks > 0)
    compact_two_streams<<<blocks, block>>>(d_flags.get(), n, d_counters.get(), d_first.get(),
                                           d_second.get());
  PRIM_CUDA_CHECK(cudaGetLastError());
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<unsigned long long> counts = d_counters.download(2);
  check_stream(flags, 1, d_first.download(std::max<std::size_t>(n, 1)), counts[0], block);
  check_stream(flags, 2, d_second.download(std::max<std::size_t>(n, 1)), counts[1], block);
  EXPECT_TRUE(d_first.guard_intact(std::max<std::size_t>(n, 1)));
  EXPECT_TRUE(d_second.guard_intact(std::max<std::size_t>(n, 1)));
}

TEST(BlockReserve, EveryKeptItemOnceInBlockRuns) {
  unsigned seed = 1;
  for (std::size_t n : standard_sizes()) {
    if (n > (std::size_t(1) << 22)) continue;
    for (int block : {32, 256, 1024}) check(n, block, 0.5, 0.2, seed++);
  }
}

TEST(BlockReserve, AllNoneAndOneStream) {
  for (int block : {64, 256}) {
    check(100003, block, 1.0, 0.0, 7);
    check(100003, block, 0.0, 1.0, 8);
    check(100003, block, 0.0, 0.0, 9);
    check(100003, block, 1.0, 1.0, 10);
  }
}

}  // namespace
}  // namespace prim_test
