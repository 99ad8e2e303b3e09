// The benchmark harness: options, device inputs, rotation of buffers so that every timed run
// reads cold memory, and timing with CUDA events (warm-up, then the median of the runs).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "primitives/error.h"

namespace bench {

struct Options {
  std::set<std::string> ops;    // empty: all
  std::set<std::string> impls;  // empty: all
  int min_log2 = 10;
  int max_log2 = 28;
  int runs = 20;
  int warmup = 2;
  bool sweep = true;  // block-size sweep of the blocked scan
  bool sweep_only = false;
  double cap_ms = 100.0;  // an implementation slower than this at some size skips larger sizes
  std::string csv;        // default: primitives/bench/results/<gpu-name>.csv
};

struct Result {
  std::string op;
  std::string impl;
  std::size_t n = 0;
  double median_us = 0;
  double gbps = 0;        // effective: the bytes the operation must move / median time
  int block_threads = 0;  // sweep rows only
  int items_per_thread = 0;
};

// The sizes of a run: 2^k and a non-power of two near it (2^k + 2^k / 8 + 3) for k in range.
std::vector<std::size_t> sizes(const Options& options, int max_log2);

class Bench {
 public:
  Bench(const Options& options, cudaStream_t stream);
  ~Bench();
  Bench(const Bench&) = delete;
  Bench& operator=(const Bench&) = delete;

  const Options& options() const { return options_; }
  cudaStream_t stream() const { return stream_; }
  bool wants_op(const std::string& op) const;
  bool wants(const std::string& op, const std::string& impl) const;

  // How many copies of a run's buffers (bytes in all) to rotate through: one per timed run while
  // they fit in a few GB, so that no run finds its data in L2; 1 when a run moves more than
  // twice the L2 size (it evicts its own input as it streams).
  int slots(std::size_t bytes_per_run) const;
  // Evicts L2 (writes a buffer of twice its size); call after generating inputs.
  void flush_l2();

  // Times run(slot): `warmup` untimed runs, then `runs` timed ones, each between two events
  // recorded after a short spin kernel (so the host has queued the whole run before the GPU
  // reaches the start event and host launch latency is not timed). Records the median; `bytes`
  // gives the effective bandwidth. Skips (op, impl) pairs that were slower than cap_ms at a
  // smaller size, and pairs that failed with a prim::Error at a smaller size.
  void measure(const std::string& op, const std::string& impl, std::size_t n, double bytes,
               int slots, const std::function<void(int slot)>& run, int block_threads = 0,
               int items_per_thread = 0);

  const std::vector<Result>& results() const { return results_; }

 private:
  Options options_;
  cudaStream_t stream_;
  cudaEvent_t start_, stop_;
  void* flush_buffer_ = nullptr;
  std::size_t flush_bytes_ = 0;
  std::size_t l2_bytes_ = 0;
  std::map<std::pair<std::string, std::string>, std::size_t> capped_at_;
  std::set<std::string> failed_;
  std::vector<Result> results_;
};

// `slots` copies of n items, each starting on a 256-byte boundary.
template <class T>
class Rotating {
 public:
  Rotating(std::size_t n, int slots) : stride_((n * sizeof(T) + 255) / 256 * 256), slots_(slots) {
    PRIM_CUDA_CHECK(cudaMalloc(&base_, stride_ * slots_ + 256));
  }
  ~Rotating() { cudaFree(base_); }
  Rotating(const Rotating&) = delete;
  Rotating& operator=(const Rotating&) = delete;
  T* operator[](int slot) const {
    return reinterpret_cast<T*>(static_cast<char*>(base_) + stride_ * (slot % slots_));
  }
  int slots() const { return slots_; }

 private:
  void* base_ = nullptr;
  std::size_t stride_;
  int slots_;
};

// Device inputs from a counter-based hash of (seed, index): fresh per size, fast at 2^28.
void fill_uniform(int* d, std::size_t n, int lo, int hi, std::uint64_t seed, cudaStream_t s);
void fill_uniform(std::uint32_t* d, std::size_t n, std::uint64_t bound, std::uint64_t seed,
                  cudaStream_t s);  // [0, bound); bound 2^32 for any value
void fill_iota(std::uint32_t* d, std::size_t n, cudaStream_t s);
void fill_iota(int* d, std::size_t n, cudaStream_t s);
void fill_bernoulli(std::uint8_t* d, std::size_t n, double p, std::uint64_t seed, cudaStream_t s);

// Op runners, one file each.
void bench_scan(Bench& bench, std::size_t n);
void bench_scan_sweep(Bench& bench, std::size_t n);
void bench_compact(Bench& bench, std::size_t n);
void bench_sort(Bench& bench, std::size_t n);

}  // namespace bench
