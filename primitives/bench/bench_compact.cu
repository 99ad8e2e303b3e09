// Compaction and partition: compact10/50/90 (int32 uniform in [0, 100), kept when below 10, 50
// or 90), partition_path48 (48-byte path states, half of them alive) and partition_index (int32
// path indices, kept when alive[index], half alive). Own variants (for the partitions also
// own_partition, the unstable one; own_chained, the own call without the one-wave launch), the
// Thrust backend, plain thrust::copy_if (count returned to the host), CUB DeviceSelect /
// DevicePartition, and a copy.
// compact50_device_count: compact50 over n slots of which the first n / 2 are live, the live
// count read on the device (DeviceItems, the renderer's call), for both backends, against the
// same calls given the live count on the host.
#include <thrust/copy.h>
#include <thrust/execution_policy.h>

#include <cub/device/device_partition.cuh>
#include <cub/device/device_select.cuh>

#include "bench_harness.h"
#include "primitives/caching_allocator.h"
#include "primitives/classic/compact.cuh"
#include "primitives/compact.cuh"
#include "primitives/thrust/thrust_backend.cuh"

namespace bench {
namespace {

struct PathState {  // the renderer's path state scale: 48 bytes
  float origin[3], direction[3], throughput[3];
  std::int32_t pixel, bounce, alive;
};
static_assert(sizeof(PathState) == 48, "48-byte path state");

struct Below {
  int limit;
  __host__ __device__ bool operator()(int x) const { return x < limit; }
};
struct IsAlive {
  __host__ __device__ bool operator()(const PathState& p) const { return p.alive != 0; }
};
struct AliveAt {
  const std::uint8_t* alive;
  __host__ __device__ bool operator()(int index) const { return alive[index] != 0; }
};

__global__ void fill_paths_kernel(PathState* d, std::size_t n, std::uint64_t seed) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    PathState p{};
    p.pixel = static_cast<std::int32_t>(i);
    std::uint64_t h = (seed ^ (i * 0x9e3779b97f4a7c15ull)) * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    p.alive = (h >> 40) & 1;
    p.throughput[0] = p.throughput[1] = p.throughput[2] = 1.0f;
    d[i] = p;
  }
}

const char* impl_name(prim::classic::CompactAlgorithm a) {
  return a == prim::classic::CompactAlgorithm::fused ? "own" : prim::classic::name(a);
}

template <bool Partition, class T, class Pred>
void bench_select(Bench& bench, const std::string& op, std::size_t n, const Rotating<T>& in,
                  const Rotating<T>& out, Pred pred, double bytes) {
  cudaStream_t stream = bench.stream();
  const int slots = in.slots();
  std::size_t* d_count = nullptr;
  PRIM_CUDA_CHECK(cudaMalloc(&d_count, sizeof(std::size_t)));
  const auto items = static_cast<std::int64_t>(n);

  bench.measure(op, "memcpy", n, 2.0 * n * sizeof(T), slots, [&](int s) {
    PRIM_CUDA_CHECK(
        cudaMemcpyAsync(out[s], in[s], n * sizeof(T), cudaMemcpyDeviceToDevice, stream));
  });

  if (bench.wants(op, "cub")) {
    std::size_t temp_bytes = 0;
    if (Partition) {
      PRIM_CUDA_CHECK(cub::DevicePartition::If(nullptr, temp_bytes, in[0], out[0], d_count, items,
                                               pred, stream));
    } else {
      PRIM_CUDA_CHECK(
          cub::DeviceSelect::If(nullptr, temp_bytes, in[0], out[0], d_count, items, pred, stream));
    }
    void* temp = nullptr;
    PRIM_CUDA_CHECK(cudaMalloc(&temp, temp_bytes));
    bench.measure(op, "cub", n, bytes, slots, [&](int s) {
      if (Partition) {
        PRIM_CUDA_CHECK(cub::DevicePartition::If(temp, temp_bytes, in[s], out[s], d_count, items,
                                                 pred, stream));
      } else {
        PRIM_CUDA_CHECK(
            cub::DeviceSelect::If(temp, temp_bytes, in[s], out[s], d_count, items, pred, stream));
      }
    });
    PRIM_CUDA_CHECK(cudaFree(temp));
  }

  if (bench.wants(op, "thrust")) {
    prim::Workspace ws(prim::thrust_backend::compact_workspace_bytes<T>(n));
    bench.measure(op, "thrust", n, bytes, slots, [&](int s) {
      if (Partition) {
        prim::thrust_backend::stable_partition(in[s], out[s], n, pred, d_count, ws, stream);
      } else {
        prim::thrust_backend::compact_if(in[s], out[s], n, pred, d_count, ws, stream);
      }
    });
  }

  if (!Partition && bench.wants(op, "thrust_copy_if")) {
    prim::CachingAllocator allocator;
    bench.measure(op, "thrust_copy_if", n, bytes, slots, [&](int s) {
      T* end =
          thrust::copy_if(thrust::cuda::par(allocator).on(stream), in[s], in[s] + n, out[s], pred);
      const std::size_t count = static_cast<std::size_t>(end - out[s]);  // waits for the stream
      if (count > n) throw prim::Error("thrust::copy_if returned a bad end");
    });
  }

  // own_partition: prim::own::partition, the rejected items reversed (CUB's order, one pass);
  // the "own" row of a partition is the stable one (a second kernel reverses them back).
  if (Partition && bench.wants(op, "own_partition")) {
    prim::Workspace ws(prim::own::compact_workspace_bytes<T>(n));
    bench.measure(op, "own_partition", n, bytes, slots, [&](int s) {
      prim::own::partition(in[s], out[s], n, pred, d_count, ws, stream);
    });
  }

  // own_chained: the own row's call with CompactConfig::one_wave off, the decoupled look-back
  // (and a stable partition's second kernel) at every size. The own row takes one wave from 48
  // tiles (a stable partition: 2) up to about 3.2M int32, and this path elsewhere.
  if (bench.wants(op, "own_chained")) {
    prim::CompactConfig chained;
    chained.one_wave = false;
    prim::Workspace ws(prim::own::compact_workspace_bytes<T>(n, chained));
    bench.measure(op, "own_chained", n, bytes, slots, [&](int s) {
      if (Partition) {
        prim::own::stable_partition(in[s], out[s], n, pred, d_count, ws, stream, chained);
      } else {
        prim::own::compact_if(in[s], out[s], n, pred, d_count, ws, stream, chained);
      }
    });
  }

  for (prim::classic::CompactAlgorithm a : prim::classic::all_compact_algorithms()) {
    if (!bench.wants(op, impl_name(a))) continue;
    prim::classic::CompactConfig config;
    config.algorithm = a;
    prim::Workspace ws;
    try {
      ws.reserve(prim::classic::compact_workspace_bytes<T>(n, config));
    } catch (const prim::Error& e) {
      std::fprintf(stderr, "skipping %s/%s: %s\n", op.c_str(), impl_name(a), e.what());
      continue;
    }
    bench.measure(op, impl_name(a), n, bytes, slots, [&](int s) {
      if (Partition) {
        prim::classic::stable_partition(in[s], out[s], n, pred, d_count, ws, stream, config);
      } else {
        prim::classic::compact_if(in[s], out[s], n, pred, d_count, ws, stream, config);
      }
    });
  }
  PRIM_CUDA_CHECK(cudaFree(d_count));
}

// compact50_device_count: the own backend reads the live slots only, the Thrust backend all n
// slots (CUB takes its item count from the host); the *_host_count rows are the same backends
// called with the live count known on the host, over the live slots alone.
void bench_device_count(Bench& bench, std::size_t n) {
  const std::string op = "compact50_device_count";
  cudaStream_t stream = bench.stream();
  const std::size_t live = n / 2;
  const double bytes = live * sizeof(int) * 1.5;  // live items read, half of them written
  const int slots = bench.slots(static_cast<std::size_t>(2 * n * sizeof(int)));
  Rotating<int> in(n, slots), out(n, slots);
  for (int s = 0; s < slots; ++s) fill_uniform(in[s], n, 0, 99, n * 37 + s, stream);
  std::size_t* d_counts = nullptr;  // [0]: the live count, [1]: the kept count
  PRIM_CUDA_CHECK(cudaMalloc(&d_counts, 2 * sizeof(std::size_t)));
  PRIM_CUDA_CHECK(
      cudaMemcpyAsync(d_counts, &live, sizeof(std::size_t), cudaMemcpyHostToDevice, stream));
  PRIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  const prim::DeviceItems items{d_counts, n};
  std::size_t* d_count = d_counts + 1;
  const Below pred{50};
  bench.flush_l2();

  bench.measure(op, "memcpy", n, 2.0 * live * sizeof(int), slots, [&](int s) {
    PRIM_CUDA_CHECK(
        cudaMemcpyAsync(out[s], in[s], live * sizeof(int), cudaMemcpyDeviceToDevice, stream));
  });
  if (bench.wants(op, "own") || bench.wants(op, "own_host_count")) {
    prim::Workspace ws(prim::own::compact_workspace_bytes<int>(n));
    bench.measure(op, "own", n, bytes, slots, [&](int s) {
      prim::own::compact_if(in[s], out[s], items, pred, d_count, ws, stream);
    });
    bench.measure(op, "own_host_count", n, bytes, slots, [&](int s) {
      prim::own::compact_if(in[s], out[s], live, pred, d_count, ws, stream);
    });
  }
  if (bench.wants(op, "thrust") || bench.wants(op, "thrust_host_count")) {
    prim::Workspace ws;
    bench.measure(op, "thrust", n, bytes, slots, [&](int s) {
      prim::thrust_backend::compact_if(in[s], out[s], items, pred, d_count, ws, stream);
    });
    bench.measure(op, "thrust_host_count", n, bytes, slots, [&](int s) {
      prim::thrust_backend::compact_if(in[s], out[s], live, pred, d_count, ws, stream);
    });
  }
  PRIM_CUDA_CHECK(cudaFree(d_counts));
}

}  // namespace

void bench_compact(Bench& bench, std::size_t n) {
  cudaStream_t stream = bench.stream();
  for (int percent : {10, 50, 90}) {
    const std::string op = "compact" + std::to_string(percent);
    if (!bench.wants_op(op)) continue;
    const double bytes = n * sizeof(int) * (1.0 + percent / 100.0);
    const int slots = bench.slots(static_cast<std::size_t>(2 * n * sizeof(int)));
    Rotating<int> in(n, slots), out(n, slots);
    for (int s = 0; s < slots; ++s) fill_uniform(in[s], n, 0, 99, n * 31 + s, stream);
    bench.flush_l2();
    bench_select<false>(bench, op, n, in, out, Below{percent}, bytes);
  }

  if (bench.wants_op("compact50_device_count")) bench_device_count(bench, n);

  if (bench.wants_op("partition_path48") && n <= (std::size_t(1) << 26)) {
    // Sizes up to 2^26 paths (3.2 GB per copy): far beyond the live paths of a frame.
    const double bytes = 2.0 * n * sizeof(PathState);
    const int slots = bench.slots(static_cast<std::size_t>(bytes));
    Rotating<PathState> in(n, slots), out(n, slots);
    for (int s = 0; s < slots; ++s) {
      fill_paths_kernel<<<2048, 256, 0, stream>>>(in[s], n, n * 131 + s);
      PRIM_LAUNCH_CHECK("fill_paths_kernel");
    }
    bench.flush_l2();
    bench_select<true>(bench, "partition_path48", n, in, out, IsAlive{}, bytes);
  }

  if (bench.wants_op("partition_index")) {
    const double bytes = 2.0 * n * sizeof(int) + n;  // indices in and out, alive flags read
    const int slots = bench.slots(static_cast<std::size_t>(bytes));
    Rotating<int> in(n, slots), out(n, slots);
    Rotating<std::uint8_t> alive(n, 1);
    fill_bernoulli(alive[0], n, 0.5, n * 17, stream);
    for (int s = 0; s < slots; ++s) fill_iota(in[s], n, stream);
    bench.flush_l2();
    bench_select<true>(bench, "partition_index", n, in, out, AliveAt{alive[0]}, bytes);
  }
}

}  // namespace bench
