// The Thrust backend: the API of prim::own (scan.cuh, compact.cuh, radix_sort.cuh, scatter.cuh)
// written the way a careful Thrust user would write it, for comparison and as a fallback.
//
//   prim::Workspace ws;  // Thrust needs no workspace bytes: it draws temporaries from
//                        // ws.caching_allocator(), which keeps freed blocks for the next call
//   prim::thrust_backend::exclusive_scan(d_in, d_out, n, 0, prim::Plus{}, ws, stream);
//
// Every call runs on `stream` with the policy thrust::cuda::par_nosync(allocator).on(stream), so
// nothing synchronizes the host. Temporaries are returned to the cache when a call returns while
// its kernels may still run; the next call on the same stream is ordered after them, so one
// workspace serves one stream at a time (as for prim::own).
//
// Counts stay on the device. thrust::copy_if returns an end iterator, and to build it Thrust
// waits for the stream and copies the count to the host: a round trip per bounce in the render
// loop, and a call that cannot be captured in a CUDA graph. The compaction calls here therefore
// use the CUB algorithm underneath thrust::copy_if (cub::DeviceSelect, shipped with Thrust in
// CCCL), which writes the count straight to the caller's device pointer.
//
// Argument checks are those of prim::own; a failing check throws prim::Error naming the function,
// and so does a failure inside Thrust (its thrust::system_error is translated).
#pragma once

#include <thrust/binary_search.h>
#include <thrust/copy.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/gather.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/scan.h>
#include <thrust/scatter.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/system_error.h>
#include <thrust/transform.h>

#include <cstddef>
#include <cstdint>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>
#include <limits>
#include <string>
#include <type_traits>

#include "primitives/caching_allocator.h"
#include "primitives/detail/multisplit_arguments.h"
#include "primitives/detail/sort_arguments.h"
#include "primitives/device_items.h"
#include "primitives/error.h"
#include "primitives/operators.h"
#include "primitives/workspace.h"

namespace prim::thrust_backend {

// Thrust allocates through the workspace's caching allocator: no workspace bytes are needed.
template <class T>
std::size_t scan_workspace_bytes(std::size_t) {
  return 0;
}
template <class T>
std::size_t compact_workspace_bytes(std::size_t) {
  return 0;
}
template <class K, class V>
std::size_t sort_pairs_workspace_bytes(std::size_t, int, int) {
  return 0;
}
template <class K, class V = ::prim::detail::NoValues>
std::size_t multisplit_workspace_bytes(std::size_t, int) {
  return 0;
}

namespace detail {

// The execution policy of every call: asynchronous on `stream`, temporaries from the cache.
inline auto policy(Workspace& ws, cudaStream_t stream) {
  return thrust::cuda::par_nosync(ws.caching_allocator()).on(stream);
}

// A block of device memory from the caching allocator, handed back when it goes out of scope.
class TempBlock {
 public:
  TempBlock(CachingAllocator& allocator, std::size_t bytes)
      : allocator_(allocator),
        bytes_(bytes),
        data_(allocator.allocate(static_cast<std::ptrdiff_t>(bytes))) {}
  ~TempBlock() { allocator_.deallocate(data_, bytes_); }
  TempBlock(const TempBlock&) = delete;
  TempBlock& operator=(const TempBlock&) = delete;
  char* data() const { return data_; }

 private:
  CachingAllocator& allocator_;
  std::size_t bytes_;
  char* data_;
};

inline std::size_t align256(std::size_t bytes) {
  return (bytes + 255) / 256 * 256;
}

template <class Pred>
struct Not {
  Pred pred;
  template <class T>
  __host__ __device__ bool operator()(const T& item) const {
    return !pred(item);
  }
};

// i -> *d_start + i: places the second half of a partition after a count known only on device.
struct AfterCount {
  const std::size_t* d_start;
  __host__ __device__ std::size_t operator()(std::size_t i) const { return *d_start + i; }
};

// The key bits [begin_bit, begin_bit + bits) as an integer of type Field, for a partial range.
template <class K, class Field>
struct KeyBits {
  int begin_bit;
  std::uint32_t mask;
  __host__ __device__ Field operator()(K key) const {
    return static_cast<Field>((static_cast<std::uint32_t>(key) >> begin_bit) & mask);
  }
};

// Selection by index for a count read on the device: item i is kept when i < *d_n and
// pred(in[i]) (Keep == true) or !pred(in[i]) (Keep == false). Items at or past *d_n are never
// kept, whatever they hold, and the predicate never sees them.
template <bool Keep, class T, class Pred>
struct BelowCount {
  const T* in;
  const std::size_t* d_n;
  Pred pred;
  __host__ __device__ bool operator()(std::size_t i) const {
    return i < *d_n && static_cast<bool>(pred(in[i])) == Keep;
  }
};

// Runs body(), turning Thrust's exceptions into prim::Error naming `function`.
template <class Body>
void translate_errors(const char* function, Body body) {
  try {
    body();
  } catch (const thrust::system_error& e) {
    throw Error(std::string(function) + ": " + e.what());
  }
}

inline void check_compact_args(const char* function, const void* d_in, const void* d_out,
                               std::size_t n, const std::size_t* d_count) {
  require(d_count != nullptr, function, "d_count is null");
  if (n == 0) return;
  require(d_in != nullptr, function, "d_in is null with n > 0");
  require(d_out != nullptr, function, "d_out is null with n > 0");
  require(d_in != d_out, function, "d_out must not alias d_in");
}

// The checks of a call with a device-side count, on top of check_compact_args(max_n).
inline void check_device_items(const char* function, const DeviceItems& items,
                               const std::size_t* d_count) {
  require(items.d_n != nullptr, function, "DeviceItems::d_n is null");
  require(items.d_n != d_count, function, "DeviceItems::d_n must not alias d_count");
}

// cub::DeviceSelect::If or FlaggedIf (or DevicePartition::If), sized and run with temporaries from
// the cache.
template <class Select>
void run_select(Select select, Workspace& ws) {
  std::size_t temp_bytes = 0;
  PRIM_CUDA_CHECK(select(nullptr, temp_bytes));
  TempBlock temp(ws.caching_allocator(), temp_bytes);
  PRIM_CUDA_CHECK(select(temp.data(), temp_bytes));
}

// One selection over n items (slots) that writes its count to d_count: *d_count = 0 for n == 0,
// else select(temp, bytes, items) with the item count as CUB's signed 64-bit count.
template <class Select>
void run_counted_select(std::size_t n, std::size_t* d_count, Workspace& ws, cudaStream_t stream,
                        Select select) {
  if (n == 0) {
    PRIM_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
    return;
  }
  const auto items = static_cast<std::int64_t>(n);
  run_select([&](void* temp, std::size_t& bytes) { return select(temp, bytes, items); }, ws);
}

// Sorts by `bits` bits from begin_bit: the field in the narrowest type that holds it (Thrust's
// radix sort makes one pass per byte of the key type), sorted with the item indices, then keys
// and values gathered by the sorted indices.
template <class Field, class K, class V>
void sort_by_bit_field(const char* function, const K* d_keys_in, K* d_keys_out,
                       const V* d_values_in, V* d_values_out, std::size_t n, int begin_bit,
                       int bits, Workspace& ws, cudaStream_t stream) {
  const std::size_t field_bytes = align256(n * sizeof(Field));
  TempBlock temp(ws.caching_allocator(), field_bytes + n * sizeof(std::uint32_t));
  auto* d_field = reinterpret_cast<Field*>(temp.data());
  auto* d_index = reinterpret_cast<std::uint32_t*>(temp.data() + field_bytes);
  const std::uint32_t mask = (std::uint32_t(1) << bits) - 1;  // bits < 32
  auto exec = policy(ws, stream);
  translate_errors(function, [&] {
    thrust::transform(exec, d_keys_in, d_keys_in + n, d_field, KeyBits<K, Field>{begin_bit, mask});
    thrust::sequence(exec, d_index, d_index + n);
    thrust::stable_sort_by_key(exec, d_field, d_field + n, d_index);
    thrust::gather(exec, d_index, d_index + n, d_keys_in, d_keys_out);
    thrust::gather(exec, d_index, d_index + n, d_values_in, d_values_out);
  });
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Scans: thrust::exclusive_scan / thrust::inclusive_scan. In place (d_out == d_in) is allowed,
// n == 0 is a no-op, operand order is kept (non-commutative operators work).
//
//   in = [3, 1, 7, 0, 4, 1, 6, 3], op = +, identity = 0
//   exclusive_scan -> [0, 3, 4, 11, 11, 15, 16, 22]
//   inclusive_scan -> [3, 4, 11, 11, 15, 16, 22, 25]

template <class T, class Op = Plus>
void exclusive_scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, Workspace& ws,
                    cudaStream_t stream = 0) {
  static_assert(std::is_trivially_copyable_v<T>, "scan needs a trivially copyable T");
  const char* function = "prim::thrust_backend::exclusive_scan";
  if (n == 0) return;
  require(d_in != nullptr, function, "d_in is null with n > 0");
  require(d_out != nullptr, function, "d_out is null with n > 0");
  detail::translate_errors(function, [&] {
    thrust::exclusive_scan(detail::policy(ws, stream), d_in, d_in + n, d_out, identity, op);
  });
}

template <class T, class Op = Plus>
void inclusive_scan(const T* d_in, T* d_out, std::size_t n, T identity, Op op, Workspace& ws,
                    cudaStream_t stream = 0) {
  static_assert(std::is_trivially_copyable_v<T>, "scan needs a trivially copyable T");
  const char* function = "prim::thrust_backend::inclusive_scan";
  (void)identity;  // thrust::inclusive_scan starts from the first item
  if (n == 0) return;
  require(d_in != nullptr, function, "d_in is null with n > 0");
  require(d_out != nullptr, function, "d_out is null with n > 0");
  detail::translate_errors(function, [&] {
    thrust::inclusive_scan(detail::policy(ws, stream), d_in, d_in + n, d_out, op);
  });
}

// ---------------------------------------------------------------------------------------------
// Scatter: thrust::scatter, d_out[d_map[i]] = d_in[i]. Needs no temporaries, so no workspace.
//
//   in = [a, b, c, d], map = [2, 0, 3, 1]  ->  out = [b, d, a, c]

template <class T, class I>
void scatter(const T* d_in, const I* d_map, T* d_out, std::size_t n, cudaStream_t stream = 0) {
  const char* function = "prim::thrust_backend::scatter";
  if (n == 0) return;
  require(d_in != nullptr, function, "d_in is null with n > 0");
  require(d_map != nullptr, function, "d_map is null with n > 0");
  require(d_out != nullptr, function, "d_out is null with n > 0");
  require(static_cast<const void*>(d_in) != static_cast<const void*>(d_out), function,
          "d_out must not alias d_in");
  detail::translate_errors(function, [&] {
    thrust::scatter(thrust::cuda::par_nosync.on(stream), d_in, d_in + n, d_map, d_out);
  });
}

// ---------------------------------------------------------------------------------------------
// Compaction, all stable; d_count is a device pointer written without a host round trip;
// n == 0 writes *d_count = 0; d_out must not alias d_in. compact_if and stable_partition also
// take the item count on the device (DeviceItems), as prim::own does.
//
//   in = [5, 2, 8, 1, 9, 4], pred = (x > 3)
//   compact_if       -> out = [5, 8, 9, 4],           *d_count = 4
//   partition        -> out = [5, 8, 9, 4, 1, 2],     *d_count = 4
//   stable_partition -> out = [5, 8, 9, 4, 2, 1],     *d_count = 4
//   compact_flags(in, flags = [1, 0, 1, 0, 1, 1]) -> out = [5, 8, 9, 4], *d_count = 4

// cub::DeviceSelect::If, the algorithm behind thrust::copy_if.
template <class T, class Pred>
void compact_if(const T* d_in, T* d_out, std::size_t n, Pred pred, std::size_t* d_count,
                Workspace& ws, cudaStream_t stream = 0) {
  detail::check_compact_args("prim::thrust_backend::compact_if", d_in, d_out, n, d_count);
  detail::run_counted_select(
      n, d_count, ws, stream, [&](void* temp, std::size_t& bytes, auto items) {
        return cub::DeviceSelect::If(temp, bytes, d_in, d_out, d_count, items, pred, stream);
      });
}

// With the item count on the device (primitives/device_items.h): CUB takes its item count from
// the host, so the selection runs over all max_n slots, with the slot index as its flag
// (thrust::counting_iterator) and the predicate i < *d_n && pred(d_in[i]) (the pattern of
// thrust::copy_if with a stencil). The cost, against the own backend's reading of the live items
// only: the grid, the loads of d_in and the flag evaluations cover max_n slots whatever *d_n is
// (d_in[*d_n, max_n) is read but never kept, so it may hold anything), and *d_n is read once per
// slot (from cache). d_out past *d_count is left as it was.
//
//   in = [5, 2, 8, 1, 9, 4], *d_n = 4, max_n = 6, pred = (x > 3)
//   compact_if(in, out, DeviceItems{d_n, 6}, pred, d_count) -> out = [5, 8, ...], *d_count = 2
template <class T, class Pred>
void compact_if(const T* d_in, T* d_out, DeviceItems items, Pred pred, std::size_t* d_count,
                Workspace& ws, cudaStream_t stream = 0) {
  const char* function = "prim::thrust_backend::compact_if";
  detail::check_device_items(function, items, d_count);
  detail::check_compact_args(function, d_in, d_out, items.max_n, d_count);
  const detail::BelowCount<true, T, Pred> keep{d_in, items.d_n, pred};
  detail::run_counted_select(
      items.max_n, d_count, ws, stream, [&](void* temp, std::size_t& bytes, auto slots) {
        return cub::DeviceSelect::FlaggedIf(temp, bytes, d_in,
                                            thrust::counting_iterator<std::size_t>(0), d_out,
                                            d_count, slots, keep, stream);
      });
}

// cub::DeviceSelect::FlaggedIf with "flag != 0", the algorithm behind thrust::copy_if with a
// stencil.
template <class T, class F>
void compact_flags(const T* d_in, const F* d_flags, T* d_out, std::size_t n, std::size_t* d_count,
                   Workspace& ws, cudaStream_t stream = 0) {
  const char* function = "prim::thrust_backend::compact_flags";
  if (n > 0) require(d_flags != nullptr, function, "d_flags is null with n > 0");
  detail::check_compact_args(function, d_in, d_out, n, d_count);
  detail::run_counted_select(
      n, d_count, ws, stream, [&](void* temp, std::size_t& bytes, auto items) {
        return cub::DeviceSelect::FlaggedIf(temp, bytes, d_in, d_flags, d_out, d_count, items,
                                            NonZero{}, stream);
      });
}

// CUB's one-pass partition, cub::DevicePartition::If: the rejected items after
// the kept ones in reverse order, as prim::own::partition.
template <class T, class Pred>
void partition(const T* d_in, T* d_out, std::size_t n, Pred pred, std::size_t* d_count,
               Workspace& ws, cudaStream_t stream = 0) {
  detail::check_compact_args("prim::thrust_backend::partition", d_in, d_out, n, d_count);
  detail::run_counted_select(
      n, d_count, ws, stream, [&](void* temp, std::size_t& bytes, auto items) {
        return cub::DevicePartition::If(temp, bytes, d_in, d_out, d_count, items, pred, stream);
      });
}

// A copy_if pair: the selected items to d_out (count to *d_count), then the others to
// d_out + *d_count, the offset read on the device through a permutation iterator. (CUB's own
// partition writes the rejected items in reverse order, and thrust::stable_partition_copy needs
// the count on the host before it starts.)
template <class T, class Pred>
void stable_partition(const T* d_in, T* d_out, std::size_t n, Pred pred, std::size_t* d_count,
                      Workspace& ws, cudaStream_t stream = 0) {
  detail::check_compact_args("prim::thrust_backend::stable_partition", d_in, d_out, n, d_count);
  if (n == 0) {
    PRIM_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
    return;
  }
  const auto items = static_cast<std::int64_t>(n);
  // Taken first, so that a repeated call asks the cache for the same sizes in the same order.
  detail::TempBlock rest_count(ws.caching_allocator(), sizeof(std::size_t));
  auto* d_rest_count = reinterpret_cast<std::size_t*>(rest_count.data());
  detail::run_select(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceSelect::If(temp, bytes, d_in, d_out, d_count, items, pred, stream);
      },
      ws);
  auto rest_out = thrust::make_permutation_iterator(
      d_out, thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                             detail::AfterCount{d_count}));
  detail::run_select(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceSelect::If(temp, bytes, d_in, rest_out, d_rest_count, items,
                                     detail::Not<Pred>{pred}, stream);
      },
      ws);
}

// With the item count on the device: the two selections above over all max_n slots, by index
// (as compact_if with DeviceItems), the second keeping i < *d_n && !pred(d_in[i]). Fills
// d_out[0, min(*d_n, max_n)); the rest of d_out is left as it was.
template <class T, class Pred>
void stable_partition(const T* d_in, T* d_out, DeviceItems items, Pred pred, std::size_t* d_count,
                      Workspace& ws, cudaStream_t stream = 0) {
  const char* function = "prim::thrust_backend::stable_partition";
  detail::check_device_items(function, items, d_count);
  detail::check_compact_args(function, d_in, d_out, items.max_n, d_count);
  if (items.max_n == 0) {
    PRIM_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(std::size_t), stream));
    return;
  }
  const auto slots = static_cast<std::int64_t>(items.max_n);
  const thrust::counting_iterator<std::size_t> index(0);
  detail::TempBlock rest_count(ws.caching_allocator(), sizeof(std::size_t));
  auto* d_rest_count = reinterpret_cast<std::size_t*>(rest_count.data());
  const detail::BelowCount<true, T, Pred> keep{d_in, items.d_n, pred};
  detail::run_select(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceSelect::FlaggedIf(temp, bytes, d_in, index, d_out, d_count, slots, keep,
                                            stream);
      },
      ws);
  auto rest_out = thrust::make_permutation_iterator(
      d_out, thrust::make_transform_iterator(thrust::counting_iterator<std::size_t>(0),
                                             detail::AfterCount{d_count}));
  const detail::BelowCount<false, T, Pred> reject{d_in, items.d_n, pred};
  detail::run_select(
      [&](void* temp, std::size_t& bytes) {
        return cub::DeviceSelect::FlaggedIf(temp, bytes, d_in, index, rest_out, d_rest_count, slots,
                                            reject, stream);
      },
      ws);
}

// ---------------------------------------------------------------------------------------------
// Radix sort of (key, value) pairs by the key bits [begin_bit, end_bit), stable.
//
//   keys = [3, 1, 2, 1, 0], values = [a, b, c, d, e], bits [0, 2)
//   -> keys_out = [0, 1, 1, 2, 3], values_out = [e, b, d, c, a]
//
// Thrust sorts whole keys. Over the full key width the pairs are copied to the outputs and
// sorted there by thrust::stable_sort_by_key. Over part of the key the bit field is extracted
// into a temporary key of the narrowest type that holds it (thrust::transform; 8 materials in
// bits [0, 3) become uint8_t keys, one radix pass), sorted with the item indices
// (thrust::sequence, thrust::stable_sort_by_key), and keys and values are gathered by the sorted
// indices (thrust::gather); that path indexes with 32 bits, so n must be below 2^32.

template <class K, class V>
void sort_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                std::size_t n, int begin_bit, int end_bit, Workspace& ws, cudaStream_t stream = 0) {
  const char* function = "prim::thrust_backend::sort_pairs";
  if (!::prim::detail::check_sort_pairs_arguments(function, d_keys_in, d_keys_out, d_values_in,
                                                  d_values_out, n, begin_bit, end_bit))
    return;
  const int key_bits = static_cast<int>(8 * sizeof(K));

  if (begin_bit == 0 && end_bit == key_bits) {
    auto exec = detail::policy(ws, stream);
    detail::translate_errors(function, [&] {
      thrust::copy(exec, d_keys_in, d_keys_in + n, d_keys_out);
      thrust::copy(exec, d_values_in, d_values_in + n, d_values_out);
      thrust::stable_sort_by_key(exec, d_keys_out, d_keys_out + n, d_values_out);
    });
    return;
  }

  require(n <= std::numeric_limits<std::uint32_t>::max(), function,
          [&] { return "n " + std::to_string(n) + " is 2^32 or more with a partial bit range"; });
  const int bits = end_bit - begin_bit;  // below 32 here
  if (bits <= 8) {
    detail::sort_by_bit_field<std::uint8_t>(function, d_keys_in, d_keys_out, d_values_in,
                                            d_values_out, n, begin_bit, bits, ws, stream);
  } else if constexpr (sizeof(K) >= 2) {
    if (sizeof(K) == 2 || bits <= 16) {
      detail::sort_by_bit_field<std::uint16_t>(function, d_keys_in, d_keys_out, d_values_in,
                                               d_values_out, n, begin_bit, bits, ws, stream);
    } else if constexpr (sizeof(K) == 4) {
      detail::sort_by_bit_field<std::uint32_t>(function, d_keys_in, d_keys_out, d_values_in,
                                               d_values_out, n, begin_bit, bits, ws, stream);
    }
  }
}

namespace detail {

// A key's bucket as one byte, results past the last bucket counting as the last.
template <class BucketOf>
struct ClampedBucket {
  BucketOf bucket_of;
  unsigned last;
  template <class K>
  __host__ __device__ std::uint8_t operator()(const K& key) const {
    const auto b = static_cast<unsigned>(bucket_of(key));
    return static_cast<std::uint8_t>(b < last ? b : last);
  }
};

template <class K, class V, class BucketOf>
void multisplit(const char* function, const K* d_keys_in, K* d_keys_out, const V* d_values_in,
                V* d_values_out, std::size_t n, int buckets, BucketOf bucket_of,
                unsigned long long* d_bucket_offsets, Workspace& ws, cudaStream_t stream) {
  auto exec = policy(ws, stream);
  if (!::prim::detail::check_multisplit_arguments(function, d_keys_in, d_keys_out, d_values_in,
                                                  d_values_out, n, buckets, d_bucket_offsets)) {
    translate_errors(function, [&] {
      thrust::fill(exec, d_bucket_offsets, d_bucket_offsets + buckets + 1, 0ull);
    });
    return;
  }
  require(n <= std::numeric_limits<std::uint32_t>::max(), function,
          [&] { return "n " + std::to_string(n) + " is 2^32 or more"; });
  // The buckets as bytes, sorted stably with the item indices; items gathered by the indices; the
  // bucket starts by a vectorized lower_bound of 0 .. buckets in the sorted buckets.
  const std::size_t field_bytes = align256(n);
  TempBlock temp(ws.caching_allocator(), field_bytes + n * sizeof(std::uint32_t));
  auto* d_bucket = reinterpret_cast<std::uint8_t*>(temp.data());
  auto* d_index = reinterpret_cast<std::uint32_t*>(temp.data() + field_bytes);
  translate_errors(function, [&] {
    thrust::transform(exec, d_keys_in, d_keys_in + n, d_bucket,
                      ClampedBucket<BucketOf>{bucket_of, static_cast<unsigned>(buckets - 1)});
    thrust::sequence(exec, d_index, d_index + n);
    thrust::stable_sort_by_key(exec, d_bucket, d_bucket + n, d_index);
    thrust::gather(exec, d_index, d_index + n, d_keys_in, d_keys_out);
    if constexpr (!std::is_same_v<V, ::prim::detail::NoValues>)
      thrust::gather(exec, d_index, d_index + n, d_values_in, d_values_out);
    thrust::lower_bound(exec, d_bucket, d_bucket + n, thrust::counting_iterator<int>(0),
                        thrust::counting_iterator<int>(buckets + 1), d_bucket_offsets);
  });
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// Multisplit (primitives/multisplit.cuh): thrust::stable_sort_by_key of the one-byte buckets
// with the item indices, a gather, and thrust::lower_bound for the bucket offsets.

template <class K, class V, class BucketOf>
void multisplit_pairs(const K* d_keys_in, K* d_keys_out, const V* d_values_in, V* d_values_out,
                      std::size_t n, int buckets, BucketOf bucket_of,
                      unsigned long long* d_bucket_offsets, Workspace& ws,
                      cudaStream_t stream = 0) {
  detail::multisplit("prim::thrust_backend::multisplit_pairs", d_keys_in, d_keys_out, d_values_in,
                     d_values_out, n, buckets, bucket_of, d_bucket_offsets, ws, stream);
}

template <class K, class BucketOf>
void multisplit(const K* d_keys_in, K* d_keys_out, std::size_t n, int buckets, BucketOf bucket_of,
                unsigned long long* d_bucket_offsets, Workspace& ws, cudaStream_t stream = 0) {
  using NoValues = ::prim::detail::NoValues;
  detail::multisplit<K, NoValues>("prim::thrust_backend::multisplit", d_keys_in, d_keys_out,
                                  nullptr, nullptr, n, buckets, bucket_of, d_bucket_offsets, ws,
                                  stream);
}

}  // namespace prim::thrust_backend
