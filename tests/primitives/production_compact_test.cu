// Special cases of the fused single-pass compaction, partition and stable partition: tiny tiles
// (many look-backs), all/none/alternating/random selections, selection by index (flags),
// unaligned input, 48- and 20-byte items (moved as words), the order of both partition halves,
// and an item count read on the device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "primitives/classic/compact.cuh"
#include "primitives/compact.cuh"
#include "primitives/cpu/cpu_backend.h"
#include "primitives/device_info.h"
#include "production_support.h"

namespace prim_production_test {
namespace {

struct PathState {  // 48 bytes: moved as 16-byte words through shared memory
  float origin[3], direction[3], throughput[3];
  std::int32_t pixel, depth, material;
  bool operator==(const PathState& o) const {  // every byte (no padding)
    return std::memcmp(this, &o, sizeof(PathState)) == 0;
  }
};
static_assert(sizeof(PathState) == 48, "48-byte path state");
struct Item20 {  // 20 bytes: moved as 4-byte words through shared memory
  std::int32_t id, a, b, c, d;
  bool operator==(const Item20& o) const { return std::memcmp(this, &o, sizeof(Item20)) == 0; }
};
std::ostream& operator<<(std::ostream& os, const Item20& p) {
  return os << "{id " << p.id << "}";
}
struct IdPositive {
  __host__ __device__ bool operator()(const Item20& p) const { return p.id > 0; }
};
// 24 bytes, moved in 8-byte words: aligned to 4 (words only from an 8-aligned address) or to 8.
struct Item24x4 {
  std::int32_t id, v[5];
  bool operator==(const Item24x4& o) const { return std::memcmp(this, &o, sizeof(o)) == 0; }
};
struct Item24x8 {
  std::int64_t id, a, b;
  bool operator==(const Item24x8& o) const { return std::memcmp(this, &o, sizeof(o)) == 0; }
};
static_assert(sizeof(Item24x4) == 24 && sizeof(Item24x8) == 24, "24-byte items");
template <class I>
std::ostream& print_id(std::ostream& os, const I& p) {
  return os << "{id " << p.id << "}";
}
std::ostream& operator<<(std::ostream& os, const Item24x4& p) {
  return print_id(os, p);
}
std::ostream& operator<<(std::ostream& os, const Item24x8& p) {
  return print_id(os, p);
}
struct OddId {
  template <class I>
  __host__ __device__ bool operator()(const I& p) const {
    return (p.id & 1) != 0;
  }
};
struct Odd {
  template <class I>
  __host__ __device__ bool operator()(I x) const {
    return (x & 1) != 0;
  }
};
std::ostream& operator<<(std::ostream& os, const PathState& p) {
  return os << "{pixel " << p.pixel << ", depth " << p.depth << "}";
}

struct Alive {
  __host__ __device__ bool operator()(const PathState& p) const { return p.depth < 4; }
};
struct Positive {
  __host__ __device__ bool operator()(int x) const { return x > 0; }
};

enum class Keep { none, all, alternating, random_half, random_sparse };
const Keep kPatterns[] = {Keep::none, Keep::all, Keep::alternating, Keep::random_half,
                          Keep::random_sparse};

// Items whose sign says kept (> 0) or not, in the given pattern.
std::vector<int> items_for(Keep pattern, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int magnitude = static_cast<int>(i % 1000003) + 1;  // distinct nearby: order visible
    bool keep = false;
    switch (pattern) {
      case Keep::none:
        keep = false;
        break;
      case Keep::all:
        keep = true;
        break;
      case Keep::alternating:
        keep = i % 2 == 0;
        break;
      case Keep::random_half:
        keep = rng() % 2 == 0;
        break;
      case Keep::random_sparse:
        keep = rng() % 20 == 0;
        break;
    }
    v[i] = keep ? magnitude : -magnitude;
  }
  return v;
}

prim::CompactConfig fused(const prim::ScanConfig& tiles) {
  prim::CompactConfig config;
  config.scan = tiles;
  return config;
}

enum class Op { compact, partition, stable_partition };
const char* name(Op op) {
  return op == Op::compact ? "compact" : op == Op::partition ? "partition" : "stable_partition";
}

// The call on in[0, n), the input and the output placed in_shift and out_shift bytes (multiples
// of alignof(T)) into their buffers, checked against prim::cpu.
template <Op Call, class T, class Pred>
void check_select_once(const std::vector<T>& in, Pred pred, const prim::CompactConfig& config,
                       std::size_t in_shift, std::size_t out_shift) {
  const std::size_t n = in.size();
  SCOPED_TRACE("n = " + std::to_string(n) + ", " + name(Call) + ", threads " +
               std::to_string(config.scan.block_threads) + ", shifts " + std::to_string(in_shift) +
               " " + std::to_string(out_shift) + (config.one_wave ? "" : ", chained"));
  const std::size_t spare = 2 + (std::max(in_shift, out_shift) + sizeof(T) - 1) / sizeof(T);
  DeviceArray<T> in_buffer(n + spare), out_buffer(n + spare);
  auto at = [](const DeviceArray<T>& buffer, std::size_t shift) {
    return reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(buffer.get()) + shift);
  };
  T* d_in = at(in_buffer, in_shift);
  T* d_out = at(out_buffer, out_shift);
  if (n) PRIM_CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  DeviceArray<std::size_t> d_count(1);
  prim::Workspace ws(prim::own::compact_workspace_bytes<T>(n, config));
  std::vector<T> expected(n);
  std::size_t kept = 0;
  if (Call == Op::compact) {
    prim::own::compact_if(d_in, d_out, n, pred, d_count.get(), ws, 0, config);
    kept = prim::cpu::compact_if(in.data(), expected.data(), n, pred);
    expected.resize(kept);
  } else if (Call == Op::partition) {
    prim::own::partition(d_in, d_out, n, pred, d_count.get(), ws, 0, config);
    kept = prim::cpu::partition_reversed(in.data(), expected.data(), n, pred);
  } else {
    prim::own::stable_partition(d_in, d_out, n, pred, d_count.get(), ws, 0, config);
    kept = prim::cpu::stable_partition(in.data(), expected.data(), n, pred);
  }
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(read_count(d_count.get()), kept);
  std::vector<T> out(expected.size());
  if (!out.empty())
    PRIM_CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(T), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(same(expected, out));
  // Every byte of the output buffer around the output still holds the poison.
  std::vector<unsigned char> bytes((n + spare) * sizeof(T));
  PRIM_CUDA_CHECK(cudaMemcpy(bytes.data(), out_buffer.get(), bytes.size(), cudaMemcpyDeviceToHost));
  const std::size_t end = out_shift + expected.size() * sizeof(T);
  std::size_t touched = 0;
  for (std::size_t b = 0; b < bytes.size(); ++b)
    if ((b < out_shift || b >= end) && bytes[b] != 0xAB) ++touched;
  EXPECT_EQ(touched, 0u) << "bytes written outside the output";
}

// Both paths: one wave where the tiles fit on the GPU at once (most sizes here), and the chained
// look-back (CompactConfig::one_wave = false).
template <Op Call, class T, class Pred>
void check_select(const std::vector<T>& in, Pred pred, prim::CompactConfig config,
                  std::size_t in_shift = 0, std::size_t out_shift = 0) {
  for (bool one_wave : {true, false}) {
    config.one_wave = one_wave;
    check_select_once<Call>(in, pred, config, in_shift, out_shift);
  }
}

const std::size_t kSizes[] = {1, 31, 32, 33, 4095, 4096, 4097, 100003, (std::size_t(1) << 20) + 5};

TEST(FusedCompaction, PatternsDefaultTiles) {
  for (std::size_t n : kSizes)
    for (Keep pattern : kPatterns) {
      const auto in = items_for(pattern, n, n + 1);
      check_select<Op::compact>(in, Positive{}, fused(default_tiles()));
      check_select<Op::partition>(in, Positive{}, fused(default_tiles()));
      check_select<Op::stable_partition>(in, Positive{}, fused(default_tiles()));
    }
}

TEST(FusedCompaction, PatternsTinyTiles) {
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(5000), std::size_t(300007)})
    for (Keep pattern : kPatterns) {
      const auto in = items_for(pattern, n, n + 2);
      check_select<Op::compact>(in, Positive{}, fused(tiny_tiles()));
      check_select<Op::partition>(in, Positive{}, fused(tiny_tiles()));
      check_select<Op::stable_partition>(in, Positive{}, fused(tiny_tiles()));
    }
}

TEST(FusedCompaction, OddBlockSizes) {
  const auto in = items_for(Keep::random_half, 200003, 3);
  for (int threads : {64, 96, 1024}) {
    prim::ScanConfig tiles = default_tiles();
    tiles.block_threads = threads;
    tiles.items_per_thread = threads == 1024 ? 1 : 16;  // 1024 x 16 ints exceed 48 KiB staging
    check_select<Op::partition>(in, Positive{}, fused(tiles));
    check_select<Op::stable_partition>(in, Positive{}, fused(tiles));
  }
}

TEST(FusedCompaction, UnalignedInput) {
  const auto in = items_for(Keep::random_half, 100003, 4);
  check_select<Op::compact>(in, Positive{}, fused(default_tiles()), 4);
  check_select<Op::compact>(in, Positive{}, fused(default_tiles()), 0, 4);
  check_select<Op::partition>(in, Positive{}, fused(default_tiles()), 8, 12);
  check_select<Op::stable_partition>(in, Positive{}, fused(default_tiles()), 12, 0);
}

// Wide items move through shared memory as words: every byte of every item must arrive, at tile
// edges, with tiny tiles, and off 16-byte alignment (member accesses).
TEST(FusedCompaction, WideItems) {
  for (std::size_t n : {std::size_t(1), std::size_t(511), std::size_t(513), std::size_t(100003)}) {
    std::mt19937_64 rng(5 + n);
    std::vector<PathState> in(n);
    for (std::size_t i = 0; i < n; ++i) {
      for (int k = 0; k < 3; ++k) {
        in[i].origin[k] = static_cast<float>(i) + 0.25f * k;
        in[i].direction[k] = -static_cast<float>(i) - 0.5f * k;
        in[i].throughput[k] = static_cast<float>(rng() % 1000) / 7.0f;
      }
      in[i].pixel = static_cast<std::int32_t>(i);
      in[i].depth = static_cast<std::int32_t>(rng() % 8);
      in[i].material = static_cast<std::int32_t>(rng());
    }
    for (const prim::ScanConfig& tiles : {default_tiles(), tiny_tiles()}) {
      check_select<Op::compact>(in, Alive{}, fused(tiles));
      check_select<Op::partition>(in, Alive{}, fused(tiles));
      check_select<Op::stable_partition>(in, Alive{}, fused(tiles));
    }
    // 4 bytes off 16-byte alignment: the input, the output, or both.
    check_select<Op::compact>(in, Alive{}, fused(default_tiles()), 4, 0);
    check_select<Op::partition>(in, Alive{}, fused(default_tiles()), 0, 4);
    check_select<Op::stable_partition>(in, Alive{}, fused(default_tiles()), 4, 4);
    std::vector<Item20> in20(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto v = static_cast<std::int32_t>(i + 1);
      in20[i] = {rng() % 3 == 0 ? -v : v, 2 * v, 3 * v, 4 * v, 5 * v};
    }
    check_select<Op::compact>(in20, IdPositive{}, fused(default_tiles()));
    check_select<Op::partition>(in20, IdPositive{}, fused(default_tiles()), 20, 40);
    check_select<Op::stable_partition>(in20, IdPositive{}, fused(tiny_tiles()));
  }
}

// 24-byte items move as 8-byte words; 4 bytes off 8-byte alignment they take member accesses.
TEST(FusedCompaction, EightByteWords) {
  for (std::size_t n : {std::size_t(1), std::size_t(1023), std::size_t(100003)}) {
    std::mt19937_64 rng(11 + n);
    std::vector<Item24x4> in4(n);
    std::vector<Item24x8> in8(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto v = static_cast<std::int32_t>(rng() & 0x7fffffff);
      in4[i] = {v, {v + 1, v + 2, v + 3, v + 4, static_cast<std::int32_t>(i)}};
      in8[i] = {static_cast<std::int64_t>(rng()), static_cast<std::int64_t>(i), v};
    }
    for (std::size_t shift : {std::size_t(0), std::size_t(4)}) {
      check_select<Op::compact>(in4, OddId{}, fused(default_tiles()), shift, shift);
      check_select<Op::partition>(in4, OddId{}, fused(default_tiles()), shift, 0);
      check_select<Op::stable_partition>(in4, OddId{}, fused(tiny_tiles()), 0, shift);
    }
    check_select<Op::compact>(in8, OddId{}, fused(default_tiles()), 8, 16);
    check_select<Op::partition>(in8, OddId{}, fused(default_tiles()));
    check_select<Op::stable_partition>(in8, OddId{}, fused(default_tiles()), 16, 8);
  }
}

// Partitions of 1-, 2- and 8-byte items (16, 8 and 2 per 16-byte vector): the rejected run's
// 16-byte stores at every shift the random patterns produce, and at every output shift.
template <class T>
void check_partition_vectors() {
  for (std::size_t n : {std::size_t(0), std::size_t(17), std::size_t(8191), std::size_t(8192),
                        std::size_t(300007)}) {
    std::mt19937_64 rng(n + sizeof(T));
    std::vector<T> in(n);
    for (T& x : in) x = static_cast<T>(rng());
    for (std::size_t shift = 0; shift < 16; shift += sizeof(T)) {
      check_select<Op::partition>(in, Odd{}, fused(default_tiles()), 0, shift);
      check_select<Op::stable_partition>(in, Odd{}, fused(default_tiles()), shift, shift);
    }
  }
}
TEST(FusedCompaction, PartitionVectorStores) {
  check_partition_vectors<std::uint8_t>();
  check_partition_vectors<std::uint16_t>();
  check_partition_vectors<std::uint64_t>();
}

// compact_flags selects by index inside the kernel: the flag array is read at each item's index.
TEST(FusedCompaction, FlagsByIndex) {
  for (std::size_t n : {std::size_t(4097), std::size_t(1000003)}) {
    std::vector<int> in(n);
    std::vector<std::uint8_t> flags(n);
    std::mt19937_64 rng(n);
    std::vector<int> expected;
    for (std::size_t i = 0; i < n; ++i) {
      in[i] = static_cast<int>(i);
      flags[i] = static_cast<std::uint8_t>(rng() % 3 == 0 ? 1 + rng() % 200 : 0);
      if (flags[i]) expected.push_back(in[i]);
    }
    for (const prim::ScanConfig& tiles : {default_tiles(), tiny_tiles()}) {
      for (bool one_wave : {true, false}) {
        prim::CompactConfig config = fused(tiles);
        config.one_wave = one_wave;
        DeviceArray<int> d_in(n), d_out(n);
        DeviceArray<std::uint8_t> d_flags(n);
        DeviceArray<std::size_t> d_count(1);
        d_in.upload(in);
        d_flags.upload(flags);
        prim::Workspace ws(prim::own::compact_workspace_bytes<int>(n, config));
        prim::own::compact_flags(d_in.get(), d_flags.get(), d_out.get(), n, d_count.get(), ws, 0,
                                 config);
        PRIM_CUDA_CHECK(cudaDeviceSynchronize());
        EXPECT_EQ(read_count(d_count.get()), expected.size());
        EXPECT_TRUE(same(expected, d_out.download(expected.size())));
      }
    }
  }
}

// DeviceItems: the item count is read on the device. Over max_n = 2^20 + 5 slots, counts from 0
// to past max_n (clamped): the first min(*d_n, max_n) items are compacted or partitioned, with
// every tile size, and nothing past that output is written.
template <bool Partition>
void check_device_count(const std::vector<int>& in, std::size_t count,
                        const prim::CompactConfig& config) {
  const std::size_t max_n = in.size();
  const std::size_t n = std::min(count, max_n);
  SCOPED_TRACE("*d_n = " + std::to_string(count) + (Partition ? ", partition" : ", compact") +
               ", threads " + std::to_string(config.scan.block_threads) +
               (config.one_wave ? "" : ", chained"));
  DeviceArray<int> d_in(max_n), d_out(max_n);
  DeviceArray<std::size_t> d_n(1), d_count(1);
  d_in.upload(in);
  d_n.upload({count});
  prim::Workspace ws(prim::own::compact_workspace_bytes<int>(max_n, config));
  const prim::DeviceItems items{d_n.get(), max_n};
  if (Partition) {
    prim::own::stable_partition(d_in.get(), d_out.get(), items, Positive{}, d_count.get(), ws, 0,
                                config);
  } else {
    prim::own::compact_if(d_in.get(), d_out.get(), items, Positive{}, d_count.get(), ws, 0, config);
  }
  std::vector<int> expected;
  std::copy_if(in.begin(), in.begin() + n, std::back_inserter(expected), Positive{});
  const std::size_t kept = expected.size();
  if (Partition) {
    for (std::size_t i = 0; i < n; ++i)
      if (!Positive{}(in[i])) expected.push_back(in[i]);
  }
  EXPECT_EQ(read_count(d_count.get()), kept);
  const std::vector<int> out = d_out.download(max_n);
  EXPECT_TRUE(same(expected, std::vector<int>(out.begin(), out.begin() + expected.size())));
  const auto untouched = static_cast<int>(0xABABABABu);
  EXPECT_EQ(std::count(out.begin() + expected.size(), out.end(), untouched),
            static_cast<std::ptrdiff_t>(max_n - expected.size()))
      << "written past the output";
}

TEST(FusedCompaction, DeviceSideItemCount) {
  const std::size_t max_n = (std::size_t(1) << 20) + 5;
  const auto in = items_for(Keep::random_half, max_n, 8);
  for (const prim::ScanConfig& tiles : {default_tiles(), tiny_tiles()}) {
    for (bool one_wave : {true, false}) {
      prim::CompactConfig config = fused(tiles);
      config.one_wave = one_wave;
      // Tile edges of both tile sizes (tiny: 32 items, default: 512 x 16 = 8192 ints).
      for (std::size_t count :
           {std::size_t(0), std::size_t(1), std::size_t(4095), std::size_t(4096), std::size_t(4097),
            std::size_t(8191), std::size_t(8192), std::size_t(8193), std::size_t(16384),
            std::size_t(100003), max_n - 1, max_n, max_n + 1000}) {
        check_device_count<false>(in, count, config);
        check_device_count<true>(in, count, config);
      }
    }
  }
}

// Where every tile fits on the GPU at once a selection is one cooperative launch in which every
// tile publishes its kept count as an aggregate (flag A) and looks back on none; past that, the
// chained pass, in which every tile ends with its inclusive prefix published (flag P). Which one
// ran shows in the last tile's status word. Sizes at the limit and one item past it, for the
// compaction and the stable partition (input order in one pass, or the chained pass and the
// second kernel).
TEST(FusedCompaction, BothSidesOfTheOneWaveLimit) {
  namespace cf = prim::detail::compact_fused;
  using Selector = prim::detail::ItemSelector<Positive>;
  constexpr int kItems = prim::tuning::lookback_items_per_thread<int>();
  if (!prim::device_info().cooperative_launch) GTEST_SKIP() << "no cooperative launch";
  const cf::TileShape shape = cf::tile_shape<int>(std::size_t(1) << 22, prim::CompactConfig{}, "");
  const std::size_t tile = std::size_t(shape.threads) * shape.items;
  EXPECT_EQ(tile, 512u * 16u);
  for (Op call : {Op::compact, Op::stable_partition}) {
    const std::size_t tiles =
        call == Op::compact
            ? cf::one_wave_tile_limit<cf::Select::compact, kItems, int, Selector>(shape)
            : cf::one_wave_tile_limit<cf::Select::stable_partition, kItems, int, Selector>(shape);
    // Three blocks of 512 threads at 40 registers fill an SM's registers.
    EXPECT_EQ(tiles, 3u * prim::device_info().sm_count) << name(call);
    const std::size_t limit = tiles * tile;
    for (std::size_t n : {limit, limit + 1}) {
      const auto in = items_for(Keep::random_half, n, n);
      SCOPED_TRACE("n = " + std::to_string(n) + " (limit " + std::to_string(limit) + "), " +
                   name(call));
      DeviceArray<int> d_in(n), d_out(n);
      DeviceArray<std::size_t> d_count(1);
      d_in.upload(in);
      prim::Workspace ws(prim::own::compact_workspace_bytes<int>(n));
      // 0xFF bytes: a status word whose flag bits (3) are neither A nor P, so a word the run did
      // not write fails both checks below, and a chained pass that skipped its reset would look
      // back on garbage.
      ASSERT_EQ(cudaMemset(ws.data(), 0xFF, ws.size()), cudaSuccess);
      std::vector<int> expected(n);
      std::size_t kept = 0;
      if (call == Op::compact) {
        prim::own::compact_if(d_in.get(), d_out.get(), n, Positive{}, d_count.get(), ws);
        kept = prim::cpu::compact_if(in.data(), expected.data(), n, Positive{});
        expected.resize(kept);
      } else {
        prim::own::stable_partition(d_in.get(), d_out.get(), n, Positive{}, d_count.get(), ws);
        kept = prim::cpu::stable_partition(in.data(), expected.data(), n, Positive{});
      }
      EXPECT_EQ(read_count(d_count.get()), kept);
      EXPECT_TRUE(same(expected, d_out.download(expected.size())));
      const std::size_t tiles_of_n = (n + tile - 1) / tile;
      const cf::Layout layout(ws.data(), tiles_of_n);
      unsigned long long word = 0;
      ASSERT_EQ(cudaMemcpy(&word, layout.status.words + tiles_of_n - 1, sizeof word,
                           cudaMemcpyDeviceToHost),
                cudaSuccess);
      const auto flag = static_cast<unsigned>(word >> prim::agent::CountTileStatus::kShift);
      if (n == limit) {
        EXPECT_EQ(flag, prim::agent::kTileAggregate) << "not one wave";
      } else {
        EXPECT_EQ(flag, prim::agent::kTileInclusive) << "not the chained path";
      }
    }
  }
}

// Within the look-back kernels' register cap without spilling: the chained compaction, and the
// one-wave compaction and stable partition. (The chained partition, CUB's order, still spills:
// agent/agent_select.cuh.)
TEST(FusedCompaction, Int32KernelsKeepToTheirRegisters) {
  namespace cf = prim::detail::compact_fused;
  using prim::agent::Rejected;
  using Selector = prim::detail::ItemSelector<Positive>;
  constexpr int kItems = prim::tuning::lookback_items_per_thread<int>();
  constexpr int kVec = prim::block::vector_width<int, kItems>();
  expect_no_spills(cf::select_kernel<Rejected::dropped, false, kItems, kVec, int, Selector>,
                   "compaction, chained");
  expect_no_spills(cf::select_kernel<Rejected::dropped, true, kItems, kVec, int, Selector>,
                   "compaction, one wave");
  expect_no_spills(cf::select_kernel<Rejected::in_order, true, kItems, kVec, int, Selector>,
                   "stable partition, one wave");
}

TEST(FusedCompaction, DeviceSideItemCountRejectsBadArguments) {
  DeviceArray<int> d_in(10), d_out(10);
  DeviceArray<std::size_t> d_n(1), d_count(1);
  prim::Workspace ws(1 << 20);
  auto message = [&](auto call) {
    try {
      call();
    } catch (const prim::Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  auto own = [&](const prim::DeviceItems& items) {
    return message([&] {
      prim::own::compact_if(d_in.get(), d_out.get(), items, Positive{}, d_count.get(), ws);
    });
  };
  // The classic scan-and-scatter compaction sizes its passes on the host.
  prim::classic::CompactConfig scan_scatter;
  scan_scatter.algorithm = prim::classic::CompactAlgorithm::scan_scatter;
  EXPECT_NE(message([&] {
              prim::classic::compact_if(d_in.get(), d_out.get(), prim::DeviceItems{d_n.get(), 10},
                                        Positive{}, d_count.get(), ws, 0, scan_scatter);
            }).find("needs CompactAlgorithm::fused"),
            std::string::npos);
  EXPECT_NE(own({d_count.get(), 10}).find("must not alias d_count"), std::string::npos);
  EXPECT_NE(own({nullptr, 10}).find("DeviceItems::d_n is null"), std::string::npos);
}

}  // namespace
}  // namespace prim_production_test
