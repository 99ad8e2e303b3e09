// Both backends on a non-blocking stream. A kernel that spins on the stream holds it; the input
// arrives by an asynchronous copy queued behind the spin. A primitive that ran anything on
// another stream (the legacy default stream does not wait for a non-blocking one) would read the
// stale input and fail the comparison. The calls must also return while the stream is still
// held: nothing in them waits for the device.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <vector>

#include "device_buffer.h"
#include "primitives/compact.cuh"
#include "primitives/cpu/cpu_backend.h"
#include "primitives/radix_sort.cuh"
#include "primitives/scan.cuh"
#include "primitives/scatter.cuh"
#include "primitives/thrust/thrust_backend.cuh"
#include "test_support.h"

namespace prim_test {
namespace {

__global__ void spin_kernel(unsigned long long nanoseconds) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

constexpr unsigned long long kSpinNs = 300'000'000;  // 300 ms
constexpr double kMaxCallMs = 150.0;                 // a call that waited took >= 300 ms

// A sanitizer serializes launches, so there every call waits and only the results are checked.
void expect_returned_early(double call_ms) {
  if (!under_sanitizer()) EXPECT_LT(call_ms, kMaxCallMs) << "the call waited for the stream";
}

// Pinned host memory, so that asynchronous copies really are asynchronous.
template <class T>
class PinnedBuffer {
 public:
  explicit PinnedBuffer(std::size_t n) : n_(n) {
    PRIM_CUDA_CHECK(cudaMallocHost(&data_, (n ? n : 1) * sizeof(T)));
  }
  ~PinnedBuffer() { cudaFreeHost(data_); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* get() const { return data_; }
  std::vector<T> to_vector() const { return std::vector<T>(data_, data_ + n_); }

 private:
  T* data_ = nullptr;
  std::size_t n_;
};

class Stream {
 public:
  Stream() { PRIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(stream_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  operator cudaStream_t() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Runs `call` on `stream` behind a spin and an asynchronous upload of `input` into `d_input`
// (which holds other data before), and returns how long the call took on the host.
template <class T, class Call>
double run_behind_spin(cudaStream_t stream, const PinnedBuffer<T>& input, T* d_input, std::size_t n,
                       Call call) {
  // The stream is non-blocking: the reset below (on the legacy default stream) would not wait
  // for work still queued on it by a previous call, so that work is drained first.
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  PRIM_CUDA_CHECK(cudaMemset(d_input, 0, n * sizeof(T)));
  PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  spin_kernel<<<1, 1, 0, stream>>>(kSpinNs);
  PRIM_LAUNCH_CHECK("spin_kernel");
  PRIM_CUDA_CHECK(
      cudaMemcpyAsync(d_input, input.get(), n * sizeof(T), cudaMemcpyHostToDevice, stream));
  const auto start = std::chrono::steady_clock::now();
  call();
  const auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(stop - start).count();
}

template <class T>
std::vector<T> download_on(cudaStream_t stream, const T* d_data, std::size_t n) {
  PinnedBuffer<T> host(n);
  PRIM_CUDA_CHECK(
      cudaMemcpyAsync(host.get(), d_data, n * sizeof(T), cudaMemcpyDeviceToHost, stream));
  PRIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host.to_vector();
}

constexpr std::size_t kN = (std::size_t(1) << 20) + 3;

struct ScanData {
  PinnedBuffer<std::int32_t> input{kN};
  std::vector<std::int32_t> expected = std::vector<std::int32_t>(kN);
  DeviceBuffer<std::int32_t> d_in{kN}, d_out{kN};
  ScanData() {
    for (std::size_t i = 0; i < kN; ++i) input.get()[i] = static_cast<std::int32_t>(i % 7) - 3;
    prim::cpu::exclusive_scan(input.get(), expected.data(), kN, 0, prim::Plus{});
  }
};

struct SelectData {
  PinnedBuffer<std::uint32_t> input{kN};
  std::vector<std::uint32_t> expected = std::vector<std::uint32_t>(kN);
  std::size_t kept = 0;
  DeviceBuffer<std::uint32_t> d_in{kN}, d_out{kN};
  DeviceCount d_count;
  SelectData() {
    const auto items = flagged_items(make_flags(Pattern::random_half, kN, 5));
    std::memcpy(input.get(), items.data(), kN * sizeof(std::uint32_t));
    kept = prim::cpu::stable_partition(items.data(), expected.data(), kN, IsOdd{});
  }
};

struct SortData {
  PinnedBuffer<std::uint32_t> keys{kN};
  std::vector<std::uint32_t> values = std::vector<std::uint32_t>(kN);
  std::vector<std::uint32_t> expected_keys = std::vector<std::uint32_t>(kN);
  std::vector<std::uint32_t> expected_values = std::vector<std::uint32_t>(kN);
  DeviceBuffer<std::uint32_t> d_keys_in{kN}, d_keys_out{kN}, d_values_in{kN}, d_values_out{kN};
  SortData() {
    for (std::size_t i = 0; i < kN; ++i) {
      keys.get()[i] = static_cast<std::uint32_t>((i * 2654435761u) >> 13) % 8;
      values[i] = static_cast<std::uint32_t>(i);
    }
    prim::cpu::sort_pairs(keys.get(), expected_keys.data(), values.data(), expected_values.data(),
                          kN, 0, 3);
    d_values_in.upload(values);
  }
};

TEST(NonDefaultStream, OwnScan) {
  Stream stream;
  ScanData data;
  prim::Workspace ws(prim::own::scan_workspace_bytes<std::int32_t>(kN));
  auto call = [&] {
    prim::own::exclusive_scan(data.d_in.get(), data.d_out.get(), kN, 0, prim::Plus{}, ws, stream);
  };
  run_behind_spin(stream, data.input, data.d_in.get(), kN, call);  // warm-up (module loading)
  const double ms = run_behind_spin(stream, data.input, data.d_in.get(), kN, call);
  EXPECT_TRUE(same_items(data.expected, download_on(stream, data.d_out.get(), kN)));
  expect_returned_early(ms);
}

TEST(NonDefaultStream, OwnCompactAndPartition) {
  Stream stream;
  SelectData data;
  prim::Workspace ws(prim::own::compact_workspace_bytes<std::uint32_t>(kN));
  auto partition = [&] {
    prim::own::stable_partition(data.d_in.get(), data.d_out.get(), kN, IsOdd{}, data.d_count.get(),
                                ws, stream);
  };
  run_behind_spin(stream, data.input, data.d_in.get(), kN, partition);
  const double ms = run_behind_spin(stream, data.input, data.d_in.get(), kN, partition);
  EXPECT_TRUE(same_items(data.expected, download_on(stream, data.d_out.get(), kN)));
  EXPECT_EQ(download_on(stream, data.d_count.get(), 1)[0], data.kept);
  expect_returned_early(ms);

  data.d_count.poison();
  const double ms_compact = run_behind_spin(stream, data.input, data.d_in.get(), kN, [&] {
    prim::own::compact_if(data.d_in.get(), data.d_out.get(), kN, IsOdd{}, data.d_count.get(), ws,
                          stream);
  });
  EXPECT_TRUE(
      same_items(data.expected, download_on(stream, data.d_out.get(), data.kept), data.kept));
  EXPECT_EQ(download_on(stream, data.d_count.get(), 1)[0], data.kept);
  expect_returned_early(ms_compact);
}

TEST(NonDefaultStream, OwnSort) {
  Stream stream;
  SortData data;
  prim::Workspace ws(prim::own::sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(kN, 0, 3));
  auto call = [&] {
    prim::own::sort_pairs(data.d_keys_in.get(), data.d_keys_out.get(), data.d_values_in.get(),
                          data.d_values_out.get(), kN, 0, 3, ws, stream);
  };
  run_behind_spin(stream, data.keys, data.d_keys_in.get(), kN, call);
  const double ms = run_behind_spin(stream, data.keys, data.d_keys_in.get(), kN, call);
  EXPECT_TRUE(same_items(data.expected_keys, download_on(stream, data.d_keys_out.get(), kN)));
  EXPECT_TRUE(same_items(data.expected_values, download_on(stream, data.d_values_out.get(), kN)));
  expect_returned_early(ms);
}

TEST(NonDefaultStream, ThrustScan) {
  Stream stream;
  ScanData data;
  prim::Workspace ws;
  auto call = [&] {
    prim::thrust_backend::exclusive_scan(data.d_in.get(), data.d_out.get(), kN, 0, prim::Plus{}, ws,
                                         stream);
  };
  run_behind_spin(stream, data.input, data.d_in.get(), kN, call);  // also fills the cache
  const double ms = run_behind_spin(stream, data.input, data.d_in.get(), kN, call);
  EXPECT_TRUE(same_items(data.expected, download_on(stream, data.d_out.get(), kN)));
  expect_returned_early(ms);
}

TEST(NonDefaultStream, ThrustCompactAndPartition) {
  Stream stream;
  SelectData data;
  prim::Workspace ws;
  auto partition = [&] {
    prim::thrust_backend::stable_partition(data.d_in.get(), data.d_out.get(), kN, IsOdd{},
                                           data.d_count.get(), ws, stream);
  };
  run_behind_spin(stream, data.input, data.d_in.get(), kN, partition);
  const double ms = run_behind_spin(stream, data.input, data.d_in.get(), kN, partition);
  EXPECT_TRUE(same_items(data.expected, download_on(stream, data.d_out.get(), kN)));
  EXPECT_EQ(download_on(stream, data.d_count.get(), 1)[0], data.kept);
  expect_returned_early(ms);

  data.d_count.poison();
  const double ms_compact = run_behind_spin(stream, data.input, data.d_in.get(), kN, [&] {
    prim::thrust_backend::compact_if(data.d_in.get(), data.d_out.get(), kN, IsOdd{},
                                     data.d_count.get(), ws, stream);
  });
  EXPECT_TRUE(
      same_items(data.expected, download_on(stream, data.d_out.get(), data.kept), data.kept));
  EXPECT_EQ(download_on(stream, data.d_count.get(), 1)[0], data.kept);
  expect_returned_early(ms_compact);
}

TEST(NonDefaultStream, ThrustSort) {
  Stream stream;
  SortData data;
  prim::Workspace ws;
  auto call = [&] {
    prim::thrust_backend::sort_pairs(data.d_keys_in.get(), data.d_keys_out.get(),
                                     data.d_values_in.get(), data.d_values_out.get(), kN, 0, 3, ws,
                                     stream);
  };
  run_behind_spin(stream, data.keys, data.d_keys_in.get(), kN, call);
  const double ms = run_behind_spin(stream, data.keys, data.d_keys_in.get(), kN, call);
  EXPECT_TRUE(same_items(data.expected_keys, download_on(stream, data.d_keys_out.get(), kN)));
  EXPECT_TRUE(same_items(data.expected_values, download_on(stream, data.d_values_out.get(), kN)));
  expect_returned_early(ms);
}

TEST(NonDefaultStream, Scatter) {
  Stream stream;
  const std::size_t n = kN;
  PinnedBuffer<std::uint32_t> map(n);
  for (std::size_t i = 0; i < n; ++i) map.get()[i] = static_cast<std::uint32_t>(n - 1 - i);
  std::vector<std::uint32_t> in(n), expected(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint32_t>(3 * i + 1);
  prim::cpu::scatter(in.data(), map.get(), expected.data(), n);
  DeviceBuffer<std::uint32_t> d_in(n), d_map(n), d_out(n);
  d_in.upload(in);
  for (bool use_thrust : {false, true}) {
    SCOPED_TRACE(use_thrust ? "thrust" : "own");
    d_out.poison();
    const double ms = run_behind_spin(stream, map, d_map.get(), n, [&] {
      if (use_thrust)
        prim::thrust_backend::scatter(d_in.get(), d_map.get(), d_out.get(), n, stream);
      else
        prim::own::scatter(d_in.get(), d_map.get(), d_out.get(), n, stream);
    });
    EXPECT_TRUE(same_items(expected, download_on(stream, d_out.get(), n)));
    expect_returned_early(ms);
  }
}

}  // namespace
}  // namespace prim_test
