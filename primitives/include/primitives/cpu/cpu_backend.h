// The CPU backend (namespace prim::cpu): the primitives on host arrays. Its sequential versions
// are what every device variant is tested against; its OpenMP versions are what the renderer's
// CPU executor runs (and the light tables' scans). Same argument order as the device API
// (primitives/scan.cuh, compact.cuh, radix_sort.cuh, scatter.cuh, multisplit.cuh) but without
// workspace or stream; counts are returned as std::size_t.
//
// Bad arguments throw prim::Error naming the function and the argument, as on the device: a null
// pointer with n > 0, an output aliasing the input where that is not allowed, a bit range with
// begin_bit >= end_bit or end_bit past the key width.
//
// The OpenMP variants run sequentially when the including file is compiled without OpenMP, and
// fall back to the sequential loop below kParallelMin items, where threads cost more than they
// save.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "primitives/error.h"
#include "primitives/operators.h"

namespace prim::cpu {

// Below this many items the OpenMP variants run the sequential loop.
inline constexpr std::size_t kParallelMin = std::size_t(1) << 14;

namespace detail {

inline int thread_index() {
#ifdef _OPENMP
  return omp_get_thread_num();
#else
  return 0;
#endif
}
inline int thread_count() {
#ifdef _OPENMP
  return omp_get_num_threads();
#else
  return 1;
#endif
}

// The contiguous share [begin, end) of n items that thread t of nt owns.
inline std::pair<std::size_t, std::size_t> thread_range(std::size_t n, int t, int nt) {
  const std::size_t base = n / static_cast<std::size_t>(nt);
  const std::size_t extra = n % static_cast<std::size_t>(nt);
  const std::size_t ut = static_cast<std::size_t>(t);
  const std::size_t begin = ut * base + (ut < extra ? ut : extra);
  return {begin, begin + base + (ut < extra ? 1 : 0)};
}

inline void require_data(const void* p, std::size_t n, const char* function, const char* arg) {
  require(p != nullptr || n == 0, function,
          [&] { return std::string(arg) + " is null with n > 0"; });
}

inline void require_distinct(const void* in, const void* out, std::size_t n, const char* function,
                             const char* in_name, const char* out_name) {
  require(n == 0 || in != out, function,
          [&] { return std::string(out_name) + " must not alias " + std::string(in_name); });
}

// The checks of an out-of-place call on n items: in and out present, out not aliasing in.
inline void require_in_out(const void* in, const void* out, std::size_t n, const char* function) {
  require_data(in, n, function, "in");
  require_data(out, n, function, "out");
  require_distinct(in, out, n, function, "in", "out");
}

// The checks of an out-of-place call on n (key, value) pairs.
inline void require_pairs(const void* keys_in, const void* keys_out, const void* values_in,
                          const void* values_out, std::size_t n, const char* function) {
  require_data(keys_in, n, function, "keys_in");
  require_data(keys_out, n, function, "keys_out");
  require_data(values_in, n, function, "values_in");
  require_data(values_out, n, function, "values_out");
  require_distinct(keys_in, keys_out, n, function, "keys_in", "keys_out");
  require_distinct(values_in, values_out, n, function, "values_in", "values_out");
}

template <class K>
void require_bit_range(int begin_bit, int end_bit, const char* function) {
  const int key_bits = static_cast<int>(8 * sizeof(K));
  require(begin_bit >= 0, function,
          [&] { return "begin_bit " + std::to_string(begin_bit) + " is negative"; });
  require(begin_bit < end_bit, function, [&] {
    return "begin_bit " + std::to_string(begin_bit) + " must be below end_bit " +
           std::to_string(end_bit);
  });
  require(end_bit <= key_bits, function, [&] {
    return "end_bit " + std::to_string(end_bit) + " is past the key width of " +
           std::to_string(key_bits) + " bits";
  });
}

// Scan in two passes over per-thread blocks: each thread reduces its block left to right, one
// thread scans the block totals, each thread scans its block starting from its block's prefix.
// The operator is only ever applied as op(earlier, later), so non-commutative operators work.
template <bool Inclusive, class T, class Op>
void scan_parallel(const T* in, T* out, std::size_t n, T identity, Op op) {
  std::vector<T> prefix;  // prefix[t] = op over the blocks before thread t's block
#pragma omp parallel
  {
    const int t = thread_index();
    const int nt = thread_count();
#pragma omp single
    prefix.assign(static_cast<std::size_t>(nt) + 1, identity);
    // (implicit barrier after single)
    const auto [begin, end] = thread_range(n, t, nt);
    T total = identity;
    for (std::size_t i = begin; i < end; ++i) total = op(total, in[i]);
    prefix[static_cast<std::size_t>(t) + 1] = total;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= nt; ++k) prefix[k] = op(prefix[k - 1], prefix[k]);
    // (implicit barrier after single)
    T acc = prefix[static_cast<std::size_t>(t)];
    for (std::size_t i = begin; i < end; ++i) {
      const T x = in[i];  // read before writing: in == out is allowed
      if constexpr (Inclusive) {
        acc = op(acc, x);
        out[i] = acc;
      } else {
        out[i] = acc;
        acc = op(acc, x);
      }
    }
  }
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Scans. out == in (in place) is allowed. n == 0 is a no-op.

// out[i] = identity op in[0] op ... op in[i-1], left to right, one thread.
//
//   in = [3, 1, 7, 0, 4, 1, 6, 3], op = +, identity = 0  ->  out = [0, 3, 4, 11, 11, 15, 16, 22]
template <class T, class Op = Plus>
void exclusive_scan(const T* in, T* out, std::size_t n, T identity, Op op = {}) {
  detail::require_data(in, n, "prim::cpu::exclusive_scan", "in");
  detail::require_data(out, n, "prim::cpu::exclusive_scan", "out");
  T acc = identity;
  for (std::size_t i = 0; i < n; ++i) {
    const T x = in[i];
    out[i] = acc;
    acc = op(acc, x);
  }
}

// out[i] = in[0] op ... op in[i], left to right, one thread.
//
//   in = [3, 1, 7, 0, 4, 1, 6, 3], op = +  ->  out = [3, 4, 11, 11, 15, 16, 22, 25]
template <class T, class Op = Plus>
void inclusive_scan(const T* in, T* out, std::size_t n, T identity, Op op = {}) {
  detail::require_data(in, n, "prim::cpu::inclusive_scan", "in");
  detail::require_data(out, n, "prim::cpu::inclusive_scan", "out");
  T acc = identity;
  for (std::size_t i = 0; i < n; ++i) {
    acc = op(acc, in[i]);
    out[i] = acc;
  }
}

// exclusive_scan on all OpenMP threads: per-thread block totals, a scan of the totals, then each
// block scanned from its prefix. Keeps operand order, so non-commutative operators work.
//
//   in = [3, 1, 7, 0, 4, 1, 6, 3], 2 threads: totals [11, 14] -> prefixes [0, 11]
//   -> out = [0, 3, 4, 11, 11, 15, 16, 22]
template <class T, class Op = Plus>
void exclusive_scan_parallel(const T* in, T* out, std::size_t n, T identity, Op op = {}) {
  detail::require_data(in, n, "prim::cpu::exclusive_scan_parallel", "in");
  detail::require_data(out, n, "prim::cpu::exclusive_scan_parallel", "out");
  if (n < kParallelMin) return exclusive_scan(in, out, n, identity, op);
  detail::scan_parallel<false>(in, out, n, identity, op);
}

// inclusive_scan on all OpenMP threads, as exclusive_scan_parallel.
//
//   in = [3, 1, 7, 0, 4, 1, 6, 3], op = +  ->  out = [3, 4, 11, 11, 15, 16, 22, 25]
template <class T, class Op = Plus>
void inclusive_scan_parallel(const T* in, T* out, std::size_t n, T identity, Op op = {}) {
  detail::require_data(in, n, "prim::cpu::inclusive_scan_parallel", "in");
  detail::require_data(out, n, "prim::cpu::inclusive_scan_parallel", "out");
  if (n < kParallelMin) return inclusive_scan(in, out, n, identity, op);
  detail::scan_parallel<true>(in, out, n, identity, op);
}

// ---------------------------------------------------------------------------------------------
// Scatter. out must not alias in; map must hold distinct indices into out.

// out[map[i]] = in[i] for i in [0, n), on all OpenMP threads.
//
//   in = [a, b, c, d], map = [2, 0, 3, 1]  ->  out = [b, d, a, c]
template <class T, class I>
void scatter(const T* in, const I* map, T* out, std::size_t n) {
  const char* function = "prim::cpu::scatter";
  detail::require_in_out(in, out, n, function);
  detail::require_data(map, n, function, "map");
  const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static) if (n >= kParallelMin)
  for (std::ptrdiff_t i = 0; i < count; ++i) out[map[i]] = in[i];
}

// ---------------------------------------------------------------------------------------------
// Compaction and partition. The kept items stay in input order; out must not alias in. They return
// the number kept.

// Keeps the items where pred(item) is true, in order; one thread, one pass.
//
//   in = [5, 2, 8, 1, 9, 4], pred = (x > 3)  ->  out = [5, 8, 9, 4], returns 4
template <class T, class Pred>
std::size_t compact_if(const T* in, T* out, std::size_t n, Pred pred) {
  const char* function = "prim::cpu::compact_if";
  detail::require_in_out(in, out, n, function);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (pred(in[i])) out[kept++] = in[i];
  return kept;
}

// compact_if the way the GPU does it, each step on all OpenMP threads: flags[i] = pred(in[i]),
// ranks = exclusive scan of flags, out[ranks[i]] = in[i] where flagged. Allocates n + 1 ranks.
//
//   in = [5, 2, 8, 1, 9, 4], pred = (x > 3)
//   flags = [1, 0, 1, 0, 1, 1] -> ranks = [0, 1, 1, 2, 2, 3, 4] -> out = [5, 8, 9, 4], returns 4
template <class T, class Pred>
std::size_t compact_if_with_scan(const T* in, T* out, std::size_t n, Pred pred) {
  const char* function = "prim::cpu::compact_if_with_scan";
  detail::require_in_out(in, out, n, function);
  if (n == 0) return 0;
  std::vector<std::size_t> ranks(n + 1);  // flags, then scanned in place into ranks
  const auto count = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel for schedule(static) if (n >= kParallelMin)
  for (std::ptrdiff_t i = 0; i < count; ++i) ranks[i] = pred(in[i]) ? 1 : 0;
  ranks[n] = 0;
  exclusive_scan_parallel(ranks.data(), ranks.data(), n + 1, std::size_t(0), Plus{});
#pragma omp parallel for schedule(static) if (n >= kParallelMin)
  for (std::ptrdiff_t i = 0; i < count; ++i)
    if (ranks[i + 1] != ranks[i]) out[ranks[i]] = in[i];
  return ranks[n];
}

// compact_if on all OpenMP threads without a rank array: each thread counts what it keeps in its
// block, the counts are scanned, each thread copies its kept items from its block's offset. The
// predicate is evaluated twice per item. The fastest CPU compaction here.
//
//   in = [5, 2, 8, 1, 9, 4], pred = (x > 3), 2 threads: counts [2, 2] -> offsets [0, 2]
//   -> out = [5, 8, 9, 4], returns 4
template <class T, class Pred>
std::size_t compact_if_parallel(const T* in, T* out, std::size_t n, Pred pred) {
  const char* function = "prim::cpu::compact_if_parallel";
  detail::require_in_out(in, out, n, function);
  if (n < kParallelMin) return compact_if(in, out, n, pred);
  std::vector<std::size_t> offset;
#pragma omp parallel
  {
    const int t = detail::thread_index();
    const int nt = detail::thread_count();
#pragma omp single
    offset.assign(static_cast<std::size_t>(nt) + 1, 0);
    const auto [begin, end] = detail::thread_range(n, t, nt);
    std::size_t kept = 0;
    for (std::size_t i = begin; i < end; ++i) kept += pred(in[i]) ? 1 : 0;
    offset[static_cast<std::size_t>(t) + 1] = kept;
#pragma omp barrier
#pragma omp single
    for (int k = 1; k <= nt; ++k) offset[k] += offset[k - 1];
    std::size_t at = offset[static_cast<std::size_t>(t)];
    for (std::size_t i = begin; i < end; ++i)
      if (pred(in[i])) out[at++] = in[i];
  }
  return offset.back();
}

// Keeps the items whose flag is nonzero, in order; one thread.
//
//   in = [5, 2, 8, 1, 9, 4], flags = [1, 0, 1, 0, 1, 1]  ->  out = [5, 8, 9, 4], returns 4
template <class T, class F>
std::size_t compact_flags(const T* in, const F* flags, T* out, std::size_t n) {
  const char* function = "prim::cpu::compact_flags";
  detail::require_in_out(in, out, n, function);
  detail::require_data(flags, n, function, "flags");
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (flags[i] != F(0)) out[kept++] = in[i];
  return kept;
}

// The items where pred is true first, then the others, both in their input order; one thread.
// Returns the number of items where pred is true.
//
//   in = [5, 2, 8, 1, 9, 4], pred = (x > 3)  ->  out = [5, 8, 9, 4, 2, 1], returns 4
template <class T, class Pred>
std::size_t stable_partition(const T* in, T* out, std::size_t n, Pred pred) {
  const char* function = "prim::cpu::stable_partition";
  detail::require_in_out(in, out, n, function);
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (pred(in[i])) out[kept++] = in[i];
  std::size_t rest = kept;
  for (std::size_t i = 0; i < n; ++i)
    if (!pred(in[i])) out[rest++] = in[i];
  return kept;
}

// The items where pred is true first, in input order, then the others in reverse input order
// (the order of prim::own::partition and CUB's DevicePartition::If); one thread. Returns the
// number of items where pred is true.
//
//   in = [5, 2, 8, 1, 9, 4], pred = (x > 3)  ->  out = [5, 8, 9, 4, 1, 2], returns 4
template <class T, class Pred>
std::size_t partition_reversed(const T* in, T* out, std::size_t n, Pred pred) {
  const char* function = "prim::cpu::partition_reversed";
  detail::require_in_out(in, out, n, function);
  std::size_t kept = 0;
  std::size_t rest = n;  // the rejected items fill out[kept, n) from the end
  for (std::size_t i = 0; i < n; ++i) {
    if (pred(in[i])) {
      out[kept++] = in[i];
    } else {
      out[--rest] = in[i];
    }
  }
  return kept;
}

// ---------------------------------------------------------------------------------------------
// Radix sort.

// Stable sort of (key, value) pairs by the key bits [begin_bit, end_bit): LSD counting sort with
// 8-bit digits, one thread; allocates two n-item ping-pong buffers. Keys are unsigned integers;
// 0 <= begin_bit < end_bit <= 8 * sizeof(K). Inputs are left unchanged; outputs must not alias
// inputs.
//
//   keys = [3, 1, 2, 1, 0], values = [a, b, c, d, e], bits [0, 2)
//   -> keys_out = [0, 1, 1, 2, 3], values_out = [e, b, d, c, a]   (b stays before d)
//   keys = [6, 5, 4], values = [a, b, c], bits [1, 2): digits [1, 0, 0]
//   -> keys_out = [5, 4, 6], values_out = [b, c, a]
template <class K, class V>
void sort_pairs(const K* keys_in, K* keys_out, const V* values_in, V* values_out, std::size_t n,
                int begin_bit, int end_bit) {
  static_assert(std::is_unsigned_v<K>, "prim::cpu::sort_pairs keys are unsigned integers");
  const char* function = "prim::cpu::sort_pairs";
  detail::require_bit_range<K>(begin_bit, end_bit, function);
  detail::require_pairs(keys_in, keys_out, values_in, values_out, n, function);
  if (n == 0) return;

  constexpr int kDigitBits = 8;
  std::vector<K> keys_tmp(keys_in, keys_in + n);
  std::vector<V> values_tmp(values_in, values_in + n);
  K* keys_src = keys_tmp.data();
  V* values_src = values_tmp.data();
  K* keys_dst = keys_out;
  V* values_dst = values_out;
  std::vector<std::size_t> start(std::size_t(1) << kDigitBits);
  for (int shift = begin_bit; shift < end_bit; shift += kDigitBits) {
    const int bits = end_bit - shift < kDigitBits ? end_bit - shift : kDigitBits;
    const std::uint64_t mask = (std::uint64_t(1) << bits) - 1;
    auto digit = [&](K key) {
      return static_cast<std::size_t>((std::uint64_t(key) >> shift) & mask);
    };
    std::fill(start.begin(), start.end(), 0);
    for (std::size_t i = 0; i < n; ++i) ++start[digit(keys_src[i])];
    std::size_t sum = 0;
    for (auto& s : start) sum += std::exchange(s, sum);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t at = start[digit(keys_src[i])]++;
      keys_dst[at] = keys_src[i];
      values_dst[at] = values_src[i];
    }
    std::swap(keys_src, keys_dst);
    std::swap(values_src, values_dst);
  }
  if (keys_src != keys_out) {  // the last pass wrote into the temporaries
    std::copy(keys_src, keys_src + n, keys_out);
    std::copy(values_src, values_src + n, values_out);
  }
}

// ---------------------------------------------------------------------------------------------
// Multisplit.

// Stable k-way partition of (key, value) pairs by bucket_of(key) (results >= buckets count as
// bucket buckets - 1): counts, exclusive scan, scatter; one thread. offsets gets buckets + 1
// entries: where each bucket starts, then n. 1 <= buckets <= 32; outputs must not alias inputs.
//
//   keys = [5, 2, 7, 4, 0, 3], bucket_of(k) = k % 3, 3 buckets
//   -> keys_out = [0, 3, 7, 4, 5, 2], offsets = [0, 2, 4, 6]
template <class K, class V, class BucketOf>
void multisplit_pairs(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                      std::size_t n, int buckets, BucketOf bucket_of, unsigned long long* offsets) {
  const char* function = "prim::cpu::multisplit_pairs";
  require(buckets >= 1 && buckets <= 32, function,
          [&] { return "buckets " + std::to_string(buckets) + " must be in [1, 32]"; });
  require(offsets != nullptr, function, "offsets is null");
  detail::require_pairs(keys_in, keys_out, values_in, values_out, n, function);
  auto bucket = [&](const K& key) {
    const auto b = static_cast<unsigned>(bucket_of(key));
    return b < unsigned(buckets) ? b : unsigned(buckets - 1);
  };
  std::vector<unsigned long long> start(std::size_t(buckets) + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++start[bucket(keys_in[i]) + 1];
  for (int b = 0; b < buckets; ++b) start[b + 1] += start[b];
  std::copy(start.begin(), start.end(), offsets);
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned long long at = start[bucket(keys_in[i])]++;
    keys_out[at] = keys_in[i];
    values_out[at] = values_in[i];
  }
}

// sort_pairs on all OpenMP threads: per pass of 8 bits, each thread counts the digits of its
// block, the counts are scanned digit-major then thread-minor (so equal digits keep the thread
// order, which is the input order), and each thread moves its block to the scanned offsets.
// Same result as sort_pairs; allocates two n-item buffers when there is more than one pass.
//
//   keys = [3, 1, 2, 1, 0], values = [a, b, c, d, e], bits [0, 2), 2 threads ([3, 1, 2], [1, 0])
//   digit counts per thread: t0 {1: 1, 2: 1, 3: 1}, t1 {0: 1, 1: 1}
//   offsets: t1 digit 0 -> 0, t0 digit 1 -> 1, t1 digit 1 -> 2, t0 digit 2 -> 3, t0 digit 3 -> 4
//   -> keys_out = [0, 1, 1, 2, 3], values_out = [e, b, d, c, a]
template <class K, class V>
void sort_pairs_parallel(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                         std::size_t n, int begin_bit, int end_bit) {
  static_assert(std::is_unsigned_v<K>, "prim::cpu::sort_pairs_parallel keys are unsigned integers");
  const char* function = "prim::cpu::sort_pairs_parallel";
  detail::require_bit_range<K>(begin_bit, end_bit, function);
  detail::require_pairs(keys_in, keys_out, values_in, values_out, n, function);
  if (n < kParallelMin)
    return sort_pairs(keys_in, keys_out, values_in, values_out, n, begin_bit, end_bit);

  constexpr int kDigitBits = 8;
  constexpr std::size_t kDigits = std::size_t(1) << kDigitBits;
  const int passes = (end_bit - begin_bit + kDigitBits - 1) / kDigitBits;
  std::vector<K> keys_tmp(passes > 1 ? n : 0);
  std::vector<V> values_tmp(passes > 1 ? n : 0);
  std::vector<std::size_t> offset;  // offset[t * kDigits + digit]
#pragma omp parallel
  {
    const int t = detail::thread_index();
    const int nt = detail::thread_count();
#pragma omp single
    offset.assign(static_cast<std::size_t>(nt) * kDigits, 0);
    const auto [begin, end] = detail::thread_range(n, t, nt);
    std::size_t* mine = offset.data() + static_cast<std::size_t>(t) * kDigits;
    const K* keys_src = keys_in;
    const V* values_src = values_in;
    for (int pass = 0; pass < passes; ++pass) {
      // the last pass writes the outputs, the ones before alternate between buffers
      const bool to_out = (passes - 1 - pass) % 2 == 0;
      K* keys_dst = to_out ? keys_out : keys_tmp.data();
      V* values_dst = to_out ? values_out : values_tmp.data();
      const int shift = begin_bit + pass * kDigitBits;
      const int bits = end_bit - shift < kDigitBits ? end_bit - shift : kDigitBits;
      const std::uint64_t mask = (std::uint64_t(1) << bits) - 1;
      auto digit = [&](K key) {
        return static_cast<std::size_t>((std::uint64_t(key) >> shift) & mask);
      };
      std::fill(mine, mine + kDigits, 0);
      for (std::size_t i = begin; i < end; ++i) ++mine[digit(keys_src[i])];
#pragma omp barrier
#pragma omp single
      {
        std::size_t sum = 0;
        for (std::size_t d = 0; d < kDigits; ++d)
          for (int u = 0; u < nt; ++u) sum += std::exchange(offset[u * kDigits + d], sum);
      }
      for (std::size_t i = begin; i < end; ++i) {
        const std::size_t at = mine[digit(keys_src[i])]++;
        keys_dst[at] = keys_src[i];
        values_dst[at] = values_src[i];
      }
#pragma omp barrier
      keys_src = keys_dst;
      values_src = values_dst;
    }
  }
}

}  // namespace prim::cpu
