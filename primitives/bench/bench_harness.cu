#include <algorithm>
#include <cmath>
#include <cstdio>

#include "bench_harness.h"
#include "primitives/device_info.h"

namespace bench {
namespace {

__global__ void spin_kernel(unsigned long long nanoseconds) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

__host__ __device__ inline std::uint64_t mix(std::uint64_t x) {  // splitmix64 finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

#define GRID_STRIDE(i, n)                                                           \
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < (n); \
       i += std::size_t(gridDim.x) * blockDim.x)

__global__ void uniform_int_kernel(int* d, std::size_t n, int lo, std::uint64_t span,
                                   std::uint64_t seed) {
  GRID_STRIDE(i, n) d[i] = lo + static_cast<int>(mix(seed ^ mix(i)) % span);
}
__global__ void uniform_u32_kernel(std::uint32_t* d, std::size_t n, std::uint64_t bound,
                                   std::uint64_t seed) {
  GRID_STRIDE(i, n) d[i] = static_cast<std::uint32_t>(mix(seed ^ mix(i)) % bound);
}
template <class T>
__global__ void iota_kernel(T* d, std::size_t n) {
  GRID_STRIDE(i, n) d[i] = static_cast<T>(i);
}
__global__ void bernoulli_kernel(std::uint8_t* d, std::size_t n, std::uint64_t threshold,
                                 std::uint64_t seed) {
  GRID_STRIDE(i, n) d[i] = (mix(seed ^ mix(i)) >> 11) < threshold ? 1 : 0;
}

constexpr unsigned kFillBlocks = 2048, kFillThreads = 256;

}  // namespace

void fill_uniform(int* d, std::size_t n, int lo, int hi, std::uint64_t seed, cudaStream_t s) {
  uniform_int_kernel<<<kFillBlocks, kFillThreads, 0, s>>>(d, n, lo, std::uint64_t(hi - lo) + 1,
                                                          seed);
  PRIM_LAUNCH_CHECK("uniform_int_kernel");
}
void fill_uniform(std::uint32_t* d, std::size_t n, std::uint64_t bound, std::uint64_t seed,
                  cudaStream_t s) {
  uniform_u32_kernel<<<kFillBlocks, kFillThreads, 0, s>>>(d, n, bound, seed);
  PRIM_LAUNCH_CHECK("uniform_u32_kernel");
}
void fill_iota(std::uint32_t* d, std::size_t n, cudaStream_t s) {
  iota_kernel<<<kFillBlocks, kFillThreads, 0, s>>>(d, n);
  PRIM_LAUNCH_CHECK("iota_kernel");
}
void fill_iota(int* d, std::size_t n, cudaStream_t s) {
  iota_kernel<<<kFillBlocks, kFillThreads, 0, s>>>(d, n);
  PRIM_LAUNCH_CHECK("iota_kernel");
}
void fill_bernoulli(std::uint8_t* d, std::size_t n, double p, std::uint64_t seed, cudaStream_t s) {
  const auto threshold = static_cast<std::uint64_t>(p * double(std::uint64_t(1) << 53));
  bernoulli_kernel<<<kFillBlocks, kFillThreads, 0, s>>>(d, n, threshold, seed);
  PRIM_LAUNCH_CHECK("bernoulli_kernel");
}

std::vector<std::size_t> sizes(const Options& options, int max_log2) {
  std::vector<std::size_t> out;
  for (int k = options.min_log2; k <= std::min(options.max_log2, max_log2); ++k) {
    const std::size_t p = std::size_t(1) << k;
    out.push_back(p);
    out.push_back(p + p / 8 + 3);
  }
  return out;
}

Bench::Bench(const Options& options, cudaStream_t stream) : options_(options), stream_(stream) {
  PRIM_CUDA_CHECK(cudaEventCreate(&start_));
  PRIM_CUDA_CHECK(cudaEventCreate(&stop_));
  l2_bytes_ = prim::device_info().l2_bytes;
  flush_bytes_ = std::max<std::size_t>(2 * l2_bytes_, std::size_t(64) << 20);
  PRIM_CUDA_CHECK(cudaMalloc(&flush_buffer_, flush_bytes_));
}

Bench::~Bench() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
  cudaFree(flush_buffer_);
}

bool Bench::wants_op(const std::string& op) const {
  return options_.ops.empty() || options_.ops.count(op) > 0;
}
bool Bench::wants(const std::string& op, const std::string& impl) const {
  return wants_op(op) && (options_.impls.empty() || options_.impls.count(impl) > 0);
}

int Bench::slots(std::size_t bytes_per_run) const {
  const std::size_t runs = static_cast<std::size_t>(options_.runs + options_.warmup);
  if (bytes_per_run >= 2 * l2_bytes_) return 1;
  if (bytes_per_run * runs <= (std::size_t(4) << 30)) return static_cast<int>(runs);
  return 2;
}

void Bench::flush_l2() {
  PRIM_CUDA_CHECK(cudaMemsetAsync(flush_buffer_, 0x5A, flush_bytes_, stream_));
}

void Bench::measure(const std::string& op, const std::string& impl, std::size_t n, double bytes,
                    int slots, const std::function<void(int)>& run, int block_threads,
                    int items_per_thread) {
  const auto key = std::make_pair(
      op, impl + (block_threads
                      ? "/" + std::to_string(block_threads) + "x" + std::to_string(items_per_thread)
                      : std::string()));
  if (!wants(op, impl) || failed_.count(op + "/" + impl)) return;
  auto capped = capped_at_.find(key);
  if (capped != capped_at_.end() && n > capped->second) return;
  constexpr unsigned long long kSpinNs = 100000;  // longer than the host needs to queue a run
  std::vector<float> times;
  try {
    for (int r = 0; r < options_.warmup + options_.runs; ++r) {
      spin_kernel<<<1, 1, 0, stream_>>>(kSpinNs);
      PRIM_LAUNCH_CHECK("spin_kernel");
      PRIM_CUDA_CHECK(cudaEventRecord(start_, stream_));
      run(r % slots);
      PRIM_CUDA_CHECK(cudaEventRecord(stop_, stream_));
      PRIM_CUDA_CHECK(cudaEventSynchronize(stop_));
      float ms = 0;
      PRIM_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
      if (r >= options_.warmup) times.push_back(ms);
    }
  } catch (const prim::Error& e) {
    // A variant that fails (a shape it rejects, say) is reported and left out of the tables at
    // this and larger sizes.
    std::fprintf(stderr, "skipping %s/%s: %s\n", op.c_str(), impl.c_str(), e.what());
    PRIM_CUDA_CHECK(cudaStreamSynchronize(stream_));
    failed_.insert(op + "/" + impl);
    return;
  }
  std::sort(times.begin(), times.end());
  const std::size_t mid = times.size() / 2;
  const double median_ms =
      times.size() % 2 ? times[mid] : 0.5 * (double(times[mid - 1]) + double(times[mid]));
  Result result;
  result.op = op;
  result.impl = impl;
  result.n = n;
  result.median_us = median_ms * 1e3;
  result.gbps = bytes / (median_ms * 1e-3) / 1e9;
  result.block_threads = block_threads;
  result.items_per_thread = items_per_thread;
  results_.push_back(result);
  std::fprintf(stderr, "  %-18s %-22s n=%-10zu %12.2f us %9.1f GB/s\n", op.c_str(),
               (impl + (block_threads ? " " + std::to_string(block_threads) + "x" +
                                            std::to_string(items_per_thread)
                                      : std::string()))
                   .c_str(),
               n, result.median_us, result.gbps);
  if (median_ms > options_.cap_ms) {
    capped_at_[key] = n;
    std::fprintf(stderr, "  (%s/%s took %.1f ms at n = %zu: larger sizes skipped)\n", op.c_str(),
                 impl.c_str(), median_ms, n);
  }
}

}  // namespace bench
