// Helpers of the production-variant tests (lookback scan, fused compaction): device arrays,
// a non-commutative operator with exact arithmetic, and configs with tiny tiles.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "primitives/config.h"
#include "primitives/error.h"
#include "primitives/tuning.h"

namespace prim_production_test {

// A look-back kernel within its register cap (tuning::kLookbackMaxRegisters) and with no local
// memory: nothing spilled.
template <class Kernel>
void expect_no_spills(Kernel* kernel, const char* name) {
  cudaFuncAttributes attributes{};
  ASSERT_EQ(cudaFuncGetAttributes(&attributes, kernel), cudaSuccess) << name;
  EXPECT_LE(attributes.numRegs, prim::tuning::kLookbackMaxRegisters) << name;
  EXPECT_EQ(attributes.localSizeBytes, 0u) << name << " spills";
}

// Device array with RAII; filled with a poison byte so unwritten items show up.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t n) : n_(n) {
    PRIM_CUDA_CHECK(cudaMalloc(&data_, (n_ ? n_ : 1) * sizeof(T)));
    fill_bytes(0xAB);
  }
  ~DeviceArray() { cudaFree(data_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return data_; }
  std::size_t size() const { return n_; }
  void fill_bytes(int byte) { PRIM_CUDA_CHECK(cudaMemset(data_, byte, (n_ ? n_ : 1) * sizeof(T))); }
  void upload(const std::vector<T>& items, std::size_t offset = 0) {
    PRIM_CUDA_CHECK(
        cudaMemcpy(data_ + offset, items.data(), items.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download(std::size_t count, std::size_t offset = 0) const {
    PRIM_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<T> items(count);
    if (count)
      PRIM_CUDA_CHECK(
          cudaMemcpy(items.data(), data_ + offset, count * sizeof(T), cudaMemcpyDeviceToHost));
    return items;
  }

 private:
  T* data_ = nullptr;
  std::size_t n_;
};

inline std::size_t read_count(const std::size_t* d_count) {
  std::size_t count = 0;
  PRIM_CUDA_CHECK(cudaMemcpy(&count, d_count, sizeof(count), cudaMemcpyDeviceToHost));
  return count;
}

// x -> a * x + b over unsigned 32-bit arithmetic (exact, wraps): associative, not commutative.
// compose(f, g) applies f first, then g. Identity: {1, 0}.
struct Affine {
  std::uint32_t a, b;
  bool operator==(const Affine& o) const { return a == o.a && b == o.b; }
};
struct Compose {
  __host__ __device__ Affine operator()(const Affine& f, const Affine& g) const {
    return {g.a * f.a, g.a * f.b + g.b};
  }
};
// The same over 16 bits: a 4-byte type, so it takes the packed status and 16-byte loads.
struct Affine16 {
  std::uint16_t a, b;
  bool operator==(const Affine16& o) const { return a == o.a && b == o.b; }
};
struct Compose16 {
  __host__ __device__ Affine16 operator()(const Affine16& f, const Affine16& g) const {
    const std::uint32_t ga = g.a;  // unsigned: 16-bit products would overflow int
    return {static_cast<std::uint16_t>(ga * f.a), static_cast<std::uint16_t>(ga * f.b + g.b)};
  }
};

inline std::ostream& operator<<(std::ostream& os, const Affine& f) {
  return os << "{" << f.a << ", " << f.b << "}";
}
inline std::ostream& operator<<(std::ostream& os, const Affine16& f) {
  return os << "{" << f.a << ", " << f.b << "}";
}

// One tile per warp and one item per thread: the most tiles, the longest look-backs.
inline prim::ScanConfig tiny_tiles() {
  prim::ScanConfig config;
  config.block_threads = 32;
  config.items_per_thread = 1;
  return config;
}
inline prim::ScanConfig default_tiles() {
  prim::ScanConfig config;
  return config;
}

// First index where the vectors differ, or n when they agree on [0, n).
template <class T>
::testing::AssertionResult same(const std::vector<T>& expected, const std::vector<T>& actual) {
  if (expected.size() != actual.size())
    return ::testing::AssertionFailure()
           << "sizes differ: " << expected.size() << " vs " << actual.size();
  std::size_t bad = 0, first = expected.size();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (!(expected[i] == actual[i])) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << bad << " of " << expected.size() << " items differ, first at " << first << ": expected "
         << expected[first] << ", got " << actual[first];
}

template <class T>
std::vector<T> random_ints(std::size_t n, std::uint64_t seed, int lo, int hi) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(dist(rng));
  return v;
}

}  // namespace prim_production_test
