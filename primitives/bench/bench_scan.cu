// scan: exclusive sum of int32 by every own variant, the Thrust backend, CUB and a copy; and the
// block-size sweep of the blocked scans.
#include <cub/device/device_scan.cuh>

#include "bench_harness.h"
#include "primitives/classic/scan.cuh"
#include "primitives/classic/variants.h"
#include "primitives/operators.h"
#include "primitives/thrust/thrust_backend.cuh"

namespace bench {
namespace {

const char* impl_name(prim::classic::ScanAlgorithm a) {
  return a == prim::classic::ScanAlgorithm::lookback ? "own" : prim::classic::name(a);
}

struct ScanBuffers {
  Rotating<int> in, out;
  ScanBuffers(Bench& bench, std::size_t n, int slots) : in(n, slots), out(n, slots) {
    for (int s = 0; s < slots; ++s) fill_uniform(in[s], n, -100, 100, n * 7919 + s, bench.stream());
    bench.flush_l2();
  }
};

}  // namespace

void bench_scan(Bench& bench, std::size_t n) {
  const std::string op = "scan";
  if (!bench.wants_op(op)) return;
  const double bytes = 2.0 * n * sizeof(int);  // read and write every item once
  const int slots = bench.slots(static_cast<std::size_t>(bytes));
  ScanBuffers buf(bench, n, slots);
  cudaStream_t stream = bench.stream();

  bench.measure(op, "memcpy", n, bytes, slots, [&](int s) {
    PRIM_CUDA_CHECK(
        cudaMemcpyAsync(buf.out[s], buf.in[s], n * sizeof(int), cudaMemcpyDeviceToDevice, stream));
  });

  if (bench.wants(op, "cub")) {
    std::size_t temp_bytes = 0;
    PRIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, buf.in[0], buf.out[0],
                                                  static_cast<std::int64_t>(n), stream));
    void* temp = nullptr;
    PRIM_CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
    bench.measure(op, "cub", n, bytes, slots, [&](int s) {
      PRIM_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, buf.in[s], buf.out[s],
                                                    static_cast<std::int64_t>(n), stream));
    });
    PRIM_CUDA_CHECK(cudaFree(temp));
  }

  if (bench.wants(op, "thrust")) {
    prim::Workspace ws(prim::thrust_backend::scan_workspace_bytes<int>(n));
    bench.measure(op, "thrust", n, bytes, slots, [&](int s) {
      prim::thrust_backend::exclusive_scan(buf.in[s], buf.out[s], n, 0, prim::Plus{}, ws, stream);
    });
  }

  for (prim::classic::ScanAlgorithm a : prim::classic::all_scan_algorithms()) {
    if (!bench.wants(op, impl_name(a))) continue;
    prim::classic::ScanConfig config;
    config.algorithm = a;
    prim::Workspace ws;
    try {
      ws.reserve(prim::classic::scan_workspace_bytes<int>(n, config));
    } catch (const prim::Error& e) {
      std::fprintf(stderr, "skipping %s/%s: %s\n", op.c_str(), impl_name(a), e.what());
      continue;
    }
    bench.measure(op, impl_name(a), n, bytes, slots, [&](int s) {
      prim::classic::exclusive_scan(buf.in[s], buf.out[s], n, 0, prim::Plus{}, ws, stream, config);
    });
  }
}

void bench_scan_sweep(Bench& bench, std::size_t n) {
  const std::string op = "scan_sweep";
  if (!bench.wants_op(op)) return;
  const double bytes = 2.0 * n * sizeof(int);
  const int slots = bench.slots(static_cast<std::size_t>(bytes));
  ScanBuffers buf(bench, n, slots);
  for (prim::classic::ScanAlgorithm a : {prim::classic::ScanAlgorithm::blocked_brent_kung,
                                         prim::classic::ScanAlgorithm::blocked_blelloch}) {
    for (int threads = 64; threads <= 1024; threads *= 2) {
      for (int items = 1; items <= 16; items *= 2) {
        prim::classic::ScanConfig config;
        config.algorithm = a;
        config.block_threads = threads;
        config.items_per_thread = items;
        prim::Workspace ws;
        try {
          ws.reserve(prim::classic::scan_workspace_bytes<int>(n, config));
        } catch (const prim::Error& e) {
          std::fprintf(stderr, "skipping %s/%s %dx%d: %s\n", op.c_str(), prim::classic::name(a),
                       threads, items, e.what());
          continue;
        }
        bench.measure(
            op, prim::classic::name(a), n, bytes, slots,
            [&](int s) {
              prim::classic::exclusive_scan(buf.in[s], buf.out[s], n, 0, prim::Plus{}, ws,
                                            bench.stream(), config);
            },
            threads, items);
      }
    }
  }
}

}  // namespace bench
