// Compaction checks shared by the own and Thrust tests. A runner holds the backend and its
// workspace and offers
//   reserve(max_n)
//   compact_if(in, out, n, pred, d_count)        compact_flags(in, flags, out, n, d_count)
//   stable_partition(in, out, n, pred, d_count)
// and, for check_select_device_count, the same compact_if and stable_partition with a
// prim::DeviceItems in place of n; each against prim::cpu, with poisoned outputs and counts,
// guard items past the end, and the input checked unchanged.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "device_buffer.h"
#include "primitives/cpu/cpu_backend.h"
#include "primitives/device_items.h"
#include "test_support.h"

namespace prim_test {

enum class SelectKind { compact_if, compact_flags_u8, stable_partition };

inline const char* name(SelectKind k) {
  switch (k) {
    case SelectKind::compact_if:
      return "compact_if";
    case SelectKind::compact_flags_u8:
      return "compact_flags(uint8 flags)";
    case SelectKind::stable_partition:
      return "stable_partition";
  }
  return "?";
}

// Flags as the device gets them: uint8 0/1, or uint32 with the nonzero values in higher bytes
// (so "nonzero" cannot be read as "low byte nonzero").
inline std::vector<std::uint8_t> flags_u8(const std::vector<bool>& flags) {
  return std::vector<std::uint8_t>(flags.begin(), flags.end());
}
inline std::vector<std::uint32_t> flags_u32(const std::vector<bool>& flags) {
  std::vector<std::uint32_t> out(flags.size());
  for (std::size_t i = 0; i < flags.size(); ++i) out[i] = flags[i] ? 0x100u << (i % 3) : 0u;
  return out;
}

// Every kind in `kinds` on uint32 items, for every size and pattern.
template <class Runner>
void check_select_u32(Runner& runner, const std::vector<SelectKind>& kinds,
                      const std::vector<std::size_t>& sizes, const std::vector<Pattern>& patterns) {
  const std::size_t max_n = *std::max_element(sizes.begin(), sizes.end());
  runner.reserve(max_n);
  DeviceBuffer<std::uint32_t> d_in(max_n), d_out(max_n);
  DeviceBuffer<std::uint8_t> d_flags8(max_n);
  DeviceCount d_count;
  for (Pattern pattern : sampled(patterns)) {
    for (std::size_t n : sizes) {
      const auto flags = make_flags(pattern, n, 1000003 * n + static_cast<int>(pattern));
      const auto items = flagged_items(flags);
      std::vector<std::uint32_t> expected(n);
      const std::size_t kept = prim::cpu::compact_if(items.data(), expected.data(), n, IsOdd{});
      std::vector<std::uint32_t> partitioned(n);
      prim::cpu::stable_partition(items.data(), partitioned.data(), n, IsOdd{});
      d_in.upload(items);
      d_flags8.upload(flags_u8(flags));
      for (SelectKind kind : kinds) {
        SCOPED_TRACE(std::string(name(kind)) + ", " + name(pattern) + ", n = " + std::to_string(n));
        d_out.poison();
        d_count.poison();
        switch (kind) {
          case SelectKind::compact_if:
            runner.compact_if(d_in.get(), d_out.get(), n, IsOdd{}, d_count.get());
            break;
          case SelectKind::compact_flags_u8:
            runner.compact_flags(d_in.get(), d_flags8.get(), d_out.get(), n, d_count.get());
            break;
          case SelectKind::stable_partition:
            runner.stable_partition(d_in.get(), d_out.get(), n, IsOdd{}, d_count.get());
            break;
        }
        ASSERT_EQ(d_count.read(), kept) << "count";
        if (kind == SelectKind::stable_partition) {
          ASSERT_TRUE(same_items(partitioned, d_out.download(n)));
        } else {
          ASSERT_TRUE(same_items(expected, d_out.download(kept), kept));
        }
        ASSERT_TRUE(d_out.guard_intact(n)) << "wrote past the end";
      }
      ASSERT_TRUE(same_items(items, d_in.download(n))) << "the input changed";
    }
  }
}

// compact_if and stable_partition of 12-byte items, and compact_flags with uint32 flags.
template <class Runner>
void check_select_wide(Runner& runner, const std::vector<std::size_t>& sizes,
                       const std::vector<Pattern>& patterns) {
  const std::size_t max_n = *std::max_element(sizes.begin(), sizes.end());
  runner.reserve(max_n);
  DeviceBuffer<Item12> d_in(max_n), d_out(max_n);
  DeviceBuffer<std::uint32_t> d_in32(max_n), d_out32(max_n), d_flags32(max_n);
  DeviceCount d_count;
  for (Pattern pattern : sampled(patterns)) {
    for (std::size_t n : sizes) {
      const auto flags = make_flags(pattern, n, 7 * n + 3);
      std::vector<Item12> items(n);
      for (std::size_t i = 0; i < n; ++i)
        items[i] = {static_cast<std::uint32_t>(2 * i + (flags[i] ? 1 : 0)), 0.25f * float(i),
                    -float(i)};
      std::vector<Item12> expected(n), partitioned(n);
      const std::size_t kept =
          prim::cpu::compact_if(items.data(), expected.data(), n, Item12IdIsOdd{});
      prim::cpu::stable_partition(items.data(), partitioned.data(), n, Item12IdIsOdd{});
      d_in.upload(items);
      {
        SCOPED_TRACE(std::string("compact_if(Item12), ") + name(pattern) +
                     ", n = " + std::to_string(n));
        d_out.poison();
        d_count.poison();
        runner.compact_if(d_in.get(), d_out.get(), n, Item12IdIsOdd{}, d_count.get());
        ASSERT_EQ(d_count.read(), kept);
        ASSERT_TRUE(same_items(expected, d_out.download(kept), kept));
        ASSERT_TRUE(d_out.guard_intact(n)) << "wrote past the end";
      }
      {
        SCOPED_TRACE(std::string("stable_partition(Item12), ") + name(pattern) +
                     ", n = " + std::to_string(n));
        d_out.poison();
        d_count.poison();
        runner.stable_partition(d_in.get(), d_out.get(), n, Item12IdIsOdd{}, d_count.get());
        ASSERT_EQ(d_count.read(), kept);
        ASSERT_TRUE(same_items(partitioned, d_out.download(n)));
        ASSERT_TRUE(d_out.guard_intact(n)) << "wrote past the end";
      }
      {
        SCOPED_TRACE(std::string("compact_flags(uint32 flags), ") + name(pattern) +
                     ", n = " + std::to_string(n));
        const auto items32 = flagged_items(flags);
        std::vector<std::uint32_t> expected32(n);
        prim::cpu::compact_if(items32.data(), expected32.data(), n, IsOdd{});
        d_in32.upload(items32);
        d_flags32.upload(flags_u32(flags));
        d_out32.poison();
        d_count.poison();
        runner.compact_flags(d_in32.get(), d_flags32.get(), d_out32.get(), n, d_count.get());
        ASSERT_EQ(d_count.read(), kept);
        ASSERT_TRUE(same_items(expected32, d_out32.download(kept), kept));
        ASSERT_TRUE(d_out32.guard_intact(n)) << "wrote past the end";
      }
    }
  }
}

// n == 0 writes a count of 0 and accepts null item pointers.
template <class Runner>
void check_select_empty(Runner& runner) {
  DeviceCount d_count;
  const std::uint32_t* no_items = nullptr;
  const std::uint8_t* no_flags = nullptr;
  d_count.poison();
  runner.compact_if(no_items, static_cast<std::uint32_t*>(nullptr), 0, IsOdd{}, d_count.get());
  EXPECT_EQ(d_count.read(), 0u) << "compact_if";
  d_count.poison();
  runner.compact_flags(no_items, no_flags, static_cast<std::uint32_t*>(nullptr), 0, d_count.get());
  EXPECT_EQ(d_count.read(), 0u) << "compact_flags";
  d_count.poison();
  runner.stable_partition(no_items, static_cast<std::uint32_t*>(nullptr), 0, IsOdd{},
                          d_count.get());
  EXPECT_EQ(d_count.read(), 0u) << "stable_partition";
}

// DeviceItems{d_n, max_n}: compact_if and stable_partition over the first min(*d_n, max_n) of
// max_n slots, the count read on the device, for each max_n in `max_sizes` and *d_n = 0, 1,
// max_n / 2, max_n - 1, max_n and max_n + 5. The slots at and past the count hold items the
// predicate would keep, so a call that reads past the count shows it; the output past what the
// call must write (the kept items, or min(*d_n, max_n) for a partition) keeps its poison.
template <class Runner>
void check_select_device_count(Runner& runner, const std::vector<std::size_t>& max_sizes) {
  const std::size_t largest = *std::max_element(max_sizes.begin(), max_sizes.end());
  runner.reserve(largest);
  DeviceBuffer<std::uint32_t> d_in(largest), d_out(largest);
  DeviceBuffer<std::size_t> d_n(1);
  DeviceCount d_count;
  std::uint32_t poison;
  std::memset(&poison, kPoisonByte, sizeof(poison));
  for (std::size_t max_n : max_sizes) {
    const auto flags = make_flags(Pattern::random_half, max_n, 5 * max_n + 1);
    const std::size_t zero = 0, one = max_n > 0 ? 1 : 0;
    const std::vector<std::size_t> counts =
        sorted_unique({zero, one, max_n / 2, max_n - one, max_n, max_n + 5});
    for (std::size_t count : counts) {
      const std::size_t n = std::min(count, max_n);
      auto items = flagged_items(flags);
      for (std::size_t i = n; i < max_n; ++i) items[i] |= 1u;  // kept, were it read
      std::vector<std::uint32_t> compacted(n), partitioned(n);
      const std::size_t kept = prim::cpu::compact_if(items.data(), compacted.data(), n, IsOdd{});
      prim::cpu::stable_partition(items.data(), partitioned.data(), n, IsOdd{});
      d_in.upload(items);
      d_n.upload({count});
      const prim::DeviceItems device_items{d_n.get(), max_n};
      for (SelectKind kind : {SelectKind::compact_if, SelectKind::stable_partition}) {
        SCOPED_TRACE(std::string(name(kind)) + ", max_n = " + std::to_string(max_n) +
                     ", *d_n = " + std::to_string(count));
        d_out.poison();
        d_count.poison();
        const bool partition = kind == SelectKind::stable_partition;
        if (partition) {
          runner.stable_partition(d_in.get(), d_out.get(), device_items, IsOdd{}, d_count.get());
        } else {
          runner.compact_if(d_in.get(), d_out.get(), device_items, IsOdd{}, d_count.get());
        }
        ASSERT_EQ(d_count.read(), kept) << "count";
        const std::size_t written = partition ? n : kept;
        const std::vector<std::uint32_t> out = d_out.download(largest);
        ASSERT_TRUE(same_items(partition ? partitioned : compacted, out, written));
        const auto untouched =
            std::count(out.begin() + static_cast<std::ptrdiff_t>(written), out.end(), poison);
        ASSERT_EQ(static_cast<std::size_t>(untouched), largest - written)
            << "wrote past the output";
        ASSERT_TRUE(d_out.guard_intact(largest)) << "wrote past the end";
      }
      ASSERT_TRUE(same_items(items, d_in.download(max_n))) << "the input changed";
    }
  }
}

// max_n for check_select_device_count: 0, 1, around a tile of `tile` items, and 2^20 + 3.
inline std::vector<std::size_t> device_count_sizes(std::size_t tile) {
  return {0, 1, tile - 1, tile, tile + 1, (std::size_t(1) << 20) + 3};
}

inline const std::vector<SelectKind> kAllSelectKinds = {
    SelectKind::compact_if, SelectKind::compact_flags_u8, SelectKind::stable_partition};

}  // namespace prim_test
