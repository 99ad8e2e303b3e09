// Sort of (uint32 key, uint32 value) pairs over bits [0, 3), [0, 8) and [0, 32): own variants,
// the Thrust backend, CUB DeviceRadixSort::SortPairs over the same bits, and a copy of the keys
// and values. Over [0, 3) also the multisplit into 8 buckets (bucket = key, the same result as
// the sort): own ("multisplit") and Thrust's ("thrust_multisplit").
#include <cub/device/device_radix_sort.cuh>

#include "bench_harness.h"
#include "primitives/classic/radix_sort.cuh"
#include "primitives/classic/variants.h"
#include "primitives/multisplit.cuh"
#include "primitives/thrust/thrust_backend.cuh"

namespace bench {
namespace {

struct KeyIsBucket {
  __host__ __device__ unsigned operator()(std::uint32_t key) const { return key; }
};

const char* impl_name(prim::classic::SortAlgorithm a) {
  return a == prim::classic::SortAlgorithm::onesweep ? "own" : prim::classic::name(a);
}

}  // namespace

void bench_sort(Bench& bench, std::size_t n) {
  cudaStream_t stream = bench.stream();
  for (int bits : {3, 8, 32}) {
    const std::string op = "sort_pairs_" + std::to_string(bits) + "bit";
    if (!bench.wants_op(op)) continue;
    const double bytes = 2.0 * n * 2 * sizeof(std::uint32_t);  // keys and values, in and out
    const int slots = bench.slots(static_cast<std::size_t>(bytes));
    // Each slot holds the keys, then the values (256-byte aligned), so that one copy moves both.
    const std::size_t values_at = (n + 63) / 64 * 64;
    Rotating<std::uint32_t> in(values_at + n, slots), out(values_at + n, slots);
    for (int s = 0; s < slots; ++s) {
      fill_uniform(in[s], n, std::uint64_t(1) << bits, n * 1009 + bits * 7 + s, stream);
      fill_iota(in[s] + values_at, n, stream);
    }
    bench.flush_l2();
    auto keys_in = [&](int s) { return in[s]; };
    auto values_in = [&](int s) { return in[s] + values_at; };
    auto keys_out = [&](int s) { return out[s]; };
    auto values_out = [&](int s) { return out[s] + values_at; };

    bench.measure(op, "memcpy", n, bytes, slots, [&](int s) {
      PRIM_CUDA_CHECK(cudaMemcpyAsync(out[s], in[s], (values_at + n) * sizeof(std::uint32_t),
                                      cudaMemcpyDeviceToDevice, stream));
    });

    if (bench.wants(op, "cub")) {
      std::size_t temp_bytes = 0;
      PRIM_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
          nullptr, temp_bytes, keys_in(0), keys_out(0), values_in(0), values_out(0),
          static_cast<std::int64_t>(n), 0, bits, stream));
      void* temp = nullptr;
      PRIM_CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
      bench.measure(op, "cub", n, bytes, slots, [&](int s) {
        PRIM_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(
            temp, temp_bytes, keys_in(s), keys_out(s), values_in(s), values_out(s),
            static_cast<std::int64_t>(n), 0, bits, stream));
      });
      PRIM_CUDA_CHECK(cudaFree(temp));
    }

    if (bench.wants(op, "thrust")) {
      prim::Workspace ws(
          prim::thrust_backend::sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(n, 0,
                                                                                         bits));
      bench.measure(op, "thrust", n, bytes, slots, [&](int s) {
        prim::thrust_backend::sort_pairs(keys_in(s), keys_out(s), values_in(s), values_out(s), n, 0,
                                         bits, ws, stream);
      });
    }

    if (bits == 3) {
      unsigned long long* d_offsets = nullptr;
      PRIM_CUDA_CHECK(cudaMalloc(&d_offsets, 9 * sizeof(unsigned long long)));
      if (bench.wants(op, "multisplit")) {
        prim::Workspace ws(
            prim::own::multisplit_workspace_bytes<std::uint32_t, std::uint32_t>(n, 8));
        bench.measure(op, "multisplit", n, bytes, slots, [&](int s) {
          prim::own::multisplit_pairs(keys_in(s), keys_out(s), values_in(s), values_out(s), n, 8,
                                      KeyIsBucket{}, d_offsets, ws, stream);
        });
      }
      if (bench.wants(op, "thrust_multisplit")) {
        prim::Workspace ws;
        bench.measure(op, "thrust_multisplit", n, bytes, slots, [&](int s) {
          prim::thrust_backend::multisplit_pairs(keys_in(s), keys_out(s), values_in(s),
                                                 values_out(s), n, 8, KeyIsBucket{}, d_offsets, ws,
                                                 stream);
        });
      }
      PRIM_CUDA_CHECK(cudaFree(d_offsets));
    }

    for (prim::classic::SortAlgorithm a : prim::classic::all_sort_algorithms()) {
      if (!bench.wants(op, impl_name(a))) continue;
      prim::classic::SortConfig config;
      config.algorithm = a;
      prim::Workspace ws;
      try {
        ws.reserve(prim::classic::sort_pairs_workspace_bytes<std::uint32_t, std::uint32_t>(
            n, 0, bits, config));
      } catch (const prim::Error& e) {
        std::fprintf(stderr, "skipping %s/%s: %s\n", op.c_str(), impl_name(a), e.what());
        continue;
      }
      bench.measure(op, impl_name(a), n, bytes, slots, [&](int s) {
        prim::classic::sort_pairs(keys_in(s), keys_out(s), values_in(s), values_out(s), n, 0, bits,
                                  ws, stream, config);
      });
    }
  }
}

}  // namespace bench
