// lookback_tuning: the look-back scan and the fused compaction (int32, keep below 50 of
// [0, 100)) at other tile shapes, look-back pauses and prefetch distances than the defaults of
// tuning.h, against CUB and a copy, each result checked against the host.
//
//   lookback_tuning [log2 sizes...]        default: 20 21 24 28
//
// One line per run: time, time / copy, time / CUB, ok or WRONG.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <vector>

#include "primitives/device/dispatch_compact.cuh"
#include "primitives/device/dispatch_scan.cuh"
#include "primitives/operators.h"

namespace {

struct Below {
  int limit;
  __host__ __device__ bool operator()(int x) const { return x < limit; }
};
struct Sel {
  Below p;
  __device__ bool operator()(const int& x, std::size_t) const { return p(x); }
};

__global__ void fill(int* d, std::size_t n, unsigned seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    d[i] = static_cast<int>(h % 100u);
  }
}

struct Buffers {
  std::size_t n;
  int slots;
  std::vector<int*> in, out;
  Buffers(std::size_t n_) : n(n_) {
    const std::size_t bytes = 8 * n;
    slots =
        static_cast<int>(std::min<std::size_t>(16, std::max<std::size_t>(1, (512u << 20) / bytes)));
    for (int s = 0; s < slots; ++s) {
      int *a, *b;
      PRIM_CUDA_CHECK(cudaMalloc(&a, n * 4));
      PRIM_CUDA_CHECK(cudaMalloc(&b, n * 4));
      fill<<<1024, 256>>>(a, n, 77 + s);
      in.push_back(a);
      out.push_back(b);
    }
    PRIM_CUDA_CHECK(cudaDeviceSynchronize());
  }
  ~Buffers() {
    for (int* p : in) cudaFree(p);
    for (int* p : out) cudaFree(p);
  }
};

template <class F>
double time_us(Buffers& b, F f) {
  cudaEvent_t e0, e1;
  PRIM_CUDA_CHECK(cudaEventCreate(&e0));
  PRIM_CUDA_CHECK(cudaEventCreate(&e1));
  for (int w = 0; w < 3; ++w) f(w % b.slots);
  std::vector<double> t;
  for (int r = 0; r < 25; ++r) {
    const int s = r % b.slots;
    PRIM_CUDA_CHECK(cudaEventRecord(e0));
    f(s);
    PRIM_CUDA_CHECK(cudaEventRecord(e1));
    PRIM_CUDA_CHECK(cudaEventSynchronize(e1));
    float ms;
    PRIM_CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    t.push_back(ms * 1000.0);
  }
  std::sort(t.begin(), t.end());
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return t[t.size() / 2];
}

void* g_ws = nullptr;
std::size_t* g_count = nullptr;
std::vector<int> g_ref;

bool check_scan(Buffers& b) {
  std::vector<int> in(b.n), out(b.n);
  PRIM_CUDA_CHECK(cudaMemcpy(in.data(), b.in[0], b.n * 4, cudaMemcpyDeviceToHost));
  PRIM_CUDA_CHECK(cudaMemcpy(out.data(), b.out[0], b.n * 4, cudaMemcpyDeviceToHost));
  int acc = 0;
  for (std::size_t i = 0; i < b.n; ++i) {
    if (out[i] != acc) return false;
    acc += in[i];
  }
  return true;
}
bool check_compact(Buffers& b) {
  std::vector<int> in(b.n), out(b.n);
  std::size_t count = 0;
  PRIM_CUDA_CHECK(cudaMemcpy(in.data(), b.in[0], b.n * 4, cudaMemcpyDeviceToHost));
  PRIM_CUDA_CHECK(cudaMemcpy(out.data(), b.out[0], b.n * 4, cudaMemcpyDeviceToHost));
  PRIM_CUDA_CHECK(cudaMemcpy(&count, g_count, sizeof count, cudaMemcpyDeviceToHost));
  std::size_t k = 0;
  for (std::size_t i = 0; i < b.n; ++i)
    if (in[i] < 50) {
      if (k >= count || out[k] != in[i]) return false;
      ++k;
    }
  return k == count;
}

template <int ITEMS>
void scan_new(Buffers& b, const char* label, int threads, prim::agent::LookbackSchedule schedule,
              double copy_us, double cub_us) {
  namespace lb = prim::detail::lookback;
  lb::TileShape shape;
  shape.threads = threads;
  shape.items = ITEMS;
  shape.tiles = (b.n + std::size_t(threads) * ITEMS - 1) / (std::size_t(threads) * ITEMS);
  shape.schedule = schedule;
  const double us = time_us(b, [&](int s) {
    lb::launch<false, ITEMS>(b.in[s], b.out[s], b.n, 0, prim::Plus{}, g_ws, 0, shape);
  });
  lb::launch<false, ITEMS>(b.in[0], b.out[0], b.n, 0, prim::Plus{}, g_ws, 0, shape);
  std::printf(
      "scan    n=%-10zu %-8s %4dx%-2d first=%4u poll=%4u ahead=%3u  %8.2f us  copy %.3f cub %.3f "
      "%s\n",
      b.n, label, threads, ITEMS, schedule.first_ns, schedule.poll_ns, schedule.prefetch_tiles, us,
      us / copy_us, us / cub_us, check_scan(b) ? "ok" : "WRONG");
}

template <int ITEMS>
void compact_new(Buffers& b, const char* label, int threads, prim::agent::LookbackSchedule schedule,
                 double copy_us, double cub_us) {
  namespace cf = prim::detail::compact_fused;
  const std::size_t staging = std::size_t(threads) * ITEMS * 4 + cf::kStagingSlack;
  if (staging > cf::kStagingLimit) return;
  cf::TileShape shape;
  shape.threads = threads;
  shape.items = ITEMS;
  shape.tiles = (b.n + std::size_t(threads) * ITEMS - 1) / (std::size_t(threads) * ITEMS);
  shape.staging_bytes = staging;
  shape.schedule = schedule;
  prim::CompactConfig chained;  // the look-back's pauses: never the one-wave launch
  chained.one_wave = false;
  const double us = time_us(b, [&](int s) {
    cf::launch<cf::Select::compact, ITEMS>(b.in[s], b.out[s], b.n, nullptr, Sel{{50}}, g_count,
                                           g_ws, 0, shape, chained);
  });
  cf::launch<cf::Select::compact, ITEMS>(b.in[0], b.out[0], b.n, nullptr, Sel{{50}}, g_count, g_ws,
                                         0, shape, chained);
  std::printf(
      "compact n=%-10zu %-8s %4dx%-2d first=%4u poll=%4u ahead=%3u  %8.2f us  copy %.3f cub %.3f "
      "%s\n",
      b.n, label, threads, ITEMS, schedule.first_ns, schedule.poll_ns, schedule.prefetch_tiles, us,
      us / copy_us, us / cub_us, check_compact(b) ? "ok" : "WRONG");
}

// Compaction of n - 3 items into out + 1 (scalar stores) and into out (16-byte stores), by the
// production entry point; checked against the host.
bool check_unaligned(Buffers& b) {
  const std::size_t n = b.n - 3;
  std::vector<int> in(n), out(n);
  PRIM_CUDA_CHECK(cudaMemcpy(in.data(), b.in[0], n * 4, cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int offset : {1, 0}) {
    prim::CompactConfig cc;
    prim::detail::compact_fused::select<prim::detail::compact_fused::Select::compact>(
        b.in[0], b.out[0] + offset, n, nullptr, Sel{{50}}, g_count, g_ws, 0, cc);
    std::size_t count = 0;
    PRIM_CUDA_CHECK(cudaMemcpy(out.data(), b.out[0] + offset, n * 4, cudaMemcpyDeviceToHost));
    PRIM_CUDA_CHECK(cudaMemcpy(&count, g_count, sizeof count, cudaMemcpyDeviceToHost));
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (in[i] < 50) {
        if (k >= count || out[k] != in[i]) ok = false;
        ++k;
      }
    ok = ok && k == count;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> log2_sizes;
  for (int a = 1; a < argc; ++a) log2_sizes.push_back(std::atoi(argv[a]));
  if (log2_sizes.empty()) log2_sizes = {20, 21, 24, 28};
  PRIM_CUDA_CHECK(cudaMalloc(&g_ws, 64u << 20));
  PRIM_CUDA_CHECK(cudaMalloc(&g_count, sizeof(std::size_t)));
  for (int k : log2_sizes) {
    Buffers b(std::size_t(1) << k);
    const std::size_t n = b.n;
    const double copy_us = time_us(b, [&](int s) {
      PRIM_CUDA_CHECK(cudaMemcpyAsync(b.out[s], b.in[s], n * 4, cudaMemcpyDeviceToDevice));
    });
    std::size_t temp_bytes = 0;
    PRIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, b.in[0], b.out[0],
                                                  static_cast<std::int64_t>(n)));
    void* temp;
    std::size_t sel_bytes = 0;
    PRIM_CUDA_CHECK(cub::DeviceSelect::If(nullptr, sel_bytes, b.in[0], b.out[0], g_count,
                                          static_cast<std::int64_t>(n), Below{50}));
    PRIM_CUDA_CHECK(cudaMalloc(&temp, std::max(temp_bytes, sel_bytes)));
    const double cub_scan = time_us(b, [&](int s) {
      PRIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, b.in[s], b.out[s],
                                                    static_cast<std::int64_t>(n)));
    });
    const double cub_sel = time_us(b, [&](int s) {
      PRIM_CUDA_CHECK(cub::DeviceSelect::If(temp, sel_bytes, b.in[s], b.out[s], g_count,
                                            static_cast<std::int64_t>(n), Below{50}));
    });
    std::printf("n=%zu copy %.2f us (%.0f GB/s)  cub scan %.2f us  cub select %.2f us\n", n,
                copy_us, 8.0 * n / copy_us / 1e3, cub_scan, cub_sel);

    {
      prim::ScanConfig cfg;
      const double us = time_us(b, [&](int s) {
        prim::detail::lookback::scan<false>(b.in[s], b.out[s], n, 0, prim::Plus{}, g_ws, 0, cfg);
      });
      std::printf("scan    n=%-10zu defaults %8.2f us  copy %.3f cub %.3f\n", n, us, us / copy_us,
                  us / cub_scan);
      prim::CompactConfig cc;
      const double cus = time_us(b, [&](int s) {
        prim::detail::compact_fused::select<prim::detail::compact_fused::Select::compact>(
            b.in[s], b.out[s], n, nullptr, Sel{{50}}, g_count, g_ws, 0, cc);
      });
      std::printf("compact n=%-10zu defaults %8.2f us  copy %.3f cub %.3f\n", n, cus, cus / copy_us,
                  cus / cub_sel);
    }
    std::printf("compact n=%-10zu unaligned output and n - 3: %s\n", n,
                check_unaligned(b) ? "ok" : "WRONG");
    // The pauses at the default prefetch distance, then the distance at the default pauses.
    using Schedule = prim::agent::LookbackSchedule;
    const unsigned ahead = prim::tuning::kLookbackPrefetchTiles;
    for (Schedule d : {Schedule{0, 0, ahead}, Schedule{0, 650, ahead}, Schedule{600, 300, ahead},
                       Schedule{1200, 650, ahead}, Schedule{2000, 1000, ahead},
                       Schedule{1200, 650, 0}, Schedule{1200, 650, 64}, Schedule{1200, 650, 256}}) {
      scan_new<16>(b, "512x16", 512, d, copy_us, cub_scan);
      compact_new<16>(b, "512x16", 512, d, copy_us, cub_sel);
    }
    for (int threads : {128, 256}) {
      for (Schedule d : {Schedule{600, 300, ahead}, Schedule{1200, 650, ahead}}) {
        scan_new<16>(b, "x16", threads, d, copy_us, cub_scan);
        compact_new<16>(b, "x16", threads, d, copy_us, cub_sel);
      }
    }
    scan_new<8>(b, "1024x8", 1024, Schedule{1200, 650, ahead}, copy_us, cub_scan);
    compact_new<8>(b, "1024x8", 1024, Schedule{1200, 650, ahead}, copy_us, cub_sel);
    PRIM_CUDA_CHECK(cudaFree(temp));
  }
  return 0;
}
