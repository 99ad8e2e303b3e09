// utf8_bench: decode and encode throughput of the GPU codec (each method) next to the CPU
// reference (one thread, and OpenMP), on generated ASCII-heavy and CJK-heavy text.
//
//   utf8_bench [--sizes=1M,64M,1G] [--methods=tiled,compact] [--scan=NAME] [--compact=NAME]
//              [--no-cpu] [--no-gpu]
//
// GB/s are UTF-8 bytes per second in both directions (GB = 1e9 bytes). GPU times are CUDA-event
// medians after two warm-up runs; "floor" is the time the bytes a decode or encode must move
// (n UTF-8 bytes + 4 bytes per code point) take at the device-to-device copy bandwidth measured
// here. Every GPU output is compared with the CPU reference; a mismatch makes the exit status 1.
#include <cuda_runtime.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "device_buffer.h"
#include "primitives/error.h"
#include "text_generator.h"
#include "utf8_cpu.h"
#include "utf8_gpu.h"

using utf8::DeviceBuffer;

namespace {

struct BenchOptions {
  std::vector<std::size_t> sizes = {1000000, 64000000, 1000000000};
  std::vector<utf8::Method> methods = {utf8::Method::tiled, utf8::Method::compact};
  prim::classic::ScanConfig scan = {};
  prim::classic::CompactConfig compact = {};
  bool cpu = true;
  bool gpu = true;
};

std::size_t parse_size(const std::string& text) {
  std::size_t used = 0;
  const double value = std::stod(text, &used);
  double scale = 1;
  const std::string suffix = text.substr(used);
  if (suffix == "K" || suffix == "k") scale = 1e3;
  if (suffix == "M") scale = 1e6;
  if (suffix == "G") scale = 1e9;
  if (!suffix.empty() && scale == 1) throw std::runtime_error("bad size '" + text + "'");
  return static_cast<std::size_t>(value * scale);
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = s.find(',', start);
    parts.push_back(
        s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return parts;
}

BenchOptions parse_args(int argc, char** argv) {
  BenchOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const std::string& key) -> const char* {
      return arg.compare(0, key.size(), key) == 0 ? argv[i] + key.size() : nullptr;
    };
    if (const char* v = value("--sizes=")) {
      o.sizes.clear();
      for (const auto& s : split(v)) o.sizes.push_back(parse_size(s));
    } else if (const char* v = value("--methods=")) {
      o.methods.clear();
      for (const auto& s : split(v)) o.methods.push_back(utf8::parse_method(s.c_str()));
    } else if (const char* v = value("--scan=")) {
      o.scan.algorithm = prim::classic::parse_scan_algorithm(v);
      o.compact.scan.algorithm = o.scan.algorithm;
    } else if (const char* v = value("--compact=")) {
      o.compact.algorithm = prim::classic::parse_compact_algorithm(v);
    } else if (arg == "--no-cpu") {
      o.cpu = false;
    } else if (arg == "--no-gpu") {
      o.gpu = false;
    } else {
      throw std::runtime_error("unknown argument '" + arg +
                               "' (--sizes=1M,64M,1G --methods=tiled,compact --scan=NAME "
                               "--compact=NAME --no-cpu --no-gpu)");
    }
  }
  return o;
}

std::string size_name(std::size_t bytes) {
  char buf[32];
  if (bytes >= 1000000000 && bytes % 1000000000 == 0) {
    std::snprintf(buf, sizeof buf, "%zu GB", bytes / 1000000000);
  } else if (bytes >= 1000000 && bytes % 1000000 == 0) {
    std::snprintf(buf, sizeof buf, "%zu MB", bytes / 1000000);
  } else {
    std::snprintf(buf, sizeof buf, "%zu B", bytes);
  }
  return buf;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// Median milliseconds of `work` on the GPU by CUDA events, after two warm-up runs.
double gpu_median_ms(int reps, const std::function<void()>& work) {
  cudaEvent_t start, stop;
  PRIM_CUDA_CHECK(cudaEventCreate(&start));
  PRIM_CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 2; ++i) work();
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    PRIM_CUDA_CHECK(cudaEventRecord(start));
    work();
    PRIM_CUDA_CHECK(cudaEventRecord(stop));
    PRIM_CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    PRIM_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return median(times);
}

template <class F>
double cpu_median_ms(int reps, F&& work) {
  std::vector<double> times;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    work();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  return median(times);
}

int gpu_reps(std::size_t bytes) {
  return bytes <= 4000000 ? 100 : bytes <= 100000000 ? 20 : 10;
}
int cpu_reps(std::size_t bytes) {
  return bytes <= 100000000 ? 3 : 1;
}

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written).
double copy_bandwidth(std::size_t bytes) {
  DeviceBuffer a(bytes), b(bytes);
  PRIM_CUDA_CHECK(cudaMemset(a.as<void>(), 1, bytes));
  const double ms = gpu_median_ms(10, [&] {
    PRIM_CUDA_CHECK(cudaMemcpyAsync(b.as<void>(), a.as<void>(), bytes, cudaMemcpyDeviceToDevice));
  });
  return 2.0 * bytes / (ms * 1e-3) / 1e9;
}

void print_header() {
  std::printf(
      "| text | size | implementation | decode GB/s | encode GB/s | decode ms | encode ms | "
      "decode e2e GB/s | decode / floor | encode / floor | check |\n"
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

struct Row {
  Row(std::string text_, std::string size_, std::string implementation_)
      : text(std::move(text_)),
        size(std::move(size_)),
        implementation(std::move(implementation_)) {}
  std::string text, size, implementation;
  double decode_ms = 0, encode_ms = 0, e2e_ms = 0, floor_ms = 0;
  std::size_t bytes = 0;
  std::string check;
};

void print_row(const Row& r) {
  auto gbs = [&](double ms) { return ms > 0 ? r.bytes / (ms * 1e-3) / 1e9 : 0.0; };
  char e2e[32] = "-", dfloor[32] = "-", efloor[32] = "-";
  if (r.e2e_ms > 0) std::snprintf(e2e, sizeof e2e, "%.2f", gbs(r.e2e_ms));
  if (r.floor_ms > 0) {
    std::snprintf(dfloor, sizeof dfloor, "%.0f%%", 100.0 * r.floor_ms / r.decode_ms);
    std::snprintf(efloor, sizeof efloor, "%.0f%%", 100.0 * r.floor_ms / r.encode_ms);
  }
  std::printf("| %s | %s | %s | %.2f | %.2f | %.3f | %.3f | %s | %s | %s | %s |\n", r.text.c_str(),
              r.size.c_str(), r.implementation.c_str(), gbs(r.decode_ms), gbs(r.encode_ms),
              r.decode_ms, r.encode_ms, e2e, dfloor, efloor, r.check.c_str());
  std::fflush(stdout);
}

// Prints the device, and returns its device-to-device copy bandwidth (GB/s, read + write).
double print_device(const BenchOptions& o) {
  cudaDeviceProp prop;
  int device = 0;
  PRIM_CUDA_CHECK(cudaGetDevice(&device));
  PRIM_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  const std::size_t largest = *std::max_element(o.sizes.begin(), o.sizes.end());
  const double bandwidth = copy_bandwidth(std::min<std::size_t>(largest, 1000000000));
  std::printf("device: %s, %d SMs; device-to-device copy %.0f GB/s (read + write)\n", prop.name,
              prop.multiProcessorCount, bandwidth);
  return bandwidth;
}

// Times the GPU decode, encode and end to end into `row`, checking each output against the CPU
// reference; returns whether both matched (row.check says which did not).
bool measure_gpu(const BenchOptions& o, utf8::Method method, const std::vector<std::uint8_t>& text,
                 const utf8::cpu::Decoded& expected, Row& row) {
  const std::size_t size = text.size();
  const std::size_t ncp = expected.code_points.size();
  utf8::Options options;
  options.decode_method = options.encode_method = method;
  options.scan = o.scan;
  options.compact = o.compact;
  utf8::Codec codec({size, ncp}, options);
  DeviceBuffer d_text(size), d_cps(4 * size), d_back(4 * ncp);
  PRIM_CUDA_CHECK(cudaMemcpy(d_text.as<void>(), text.data(), size, cudaMemcpyHostToDevice));

  row.decode_ms = gpu_median_ms(gpu_reps(size), [&] {
    codec.decode(d_text.as<std::uint8_t>(), size, d_cps.as<std::uint32_t>());
  });
  const utf8::Result dr = codec.result();
  std::vector<std::uint32_t> cps(dr.count);
  PRIM_CUDA_CHECK(cudaMemcpy(cps.data(), d_cps.as<void>(), 4 * cps.size(), cudaMemcpyDeviceToHost));
  const bool decode_ok = dr.count == ncp && dr.first_invalid == utf8::kNone &&
                         std::memcmp(cps.data(), expected.code_points.data(), 4 * ncp) == 0;

  row.encode_ms = gpu_median_ms(gpu_reps(size), [&] {
    codec.encode(d_cps.as<std::uint32_t>(), ncp, d_back.as<std::uint8_t>());
  });
  const utf8::Result er = codec.result();
  std::vector<std::uint8_t> back(er.count);
  PRIM_CUDA_CHECK(cudaMemcpy(back.data(), d_back.as<void>(), back.size(), cudaMemcpyDeviceToHost));
  const bool encode_ok = er.count == size && er.first_invalid == utf8::kNone &&
                         std::memcmp(back.data(), text.data(), size) == 0;

  // End to end: copy in (pageable), decode, copy the code points out.
  const auto t0 = std::chrono::steady_clock::now();
  PRIM_CUDA_CHECK(cudaMemcpy(d_text.as<void>(), text.data(), size, cudaMemcpyHostToDevice));
  codec.decode(d_text.as<std::uint8_t>(), size, d_cps.as<std::uint32_t>());
  const std::size_t count = codec.result().count;
  PRIM_CUDA_CHECK(cudaMemcpy(cps.data(), d_cps.as<void>(), 4 * count, cudaMemcpyDeviceToHost));
  row.e2e_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();

  row.check = decode_ok && encode_ok ? "ok"
              : decode_ok            ? "ENCODE MISMATCH"
              : encode_ok            ? "DECODE MISMATCH"
                                     : "DECODE AND ENCODE MISMATCH";
  return decode_ok && encode_ok;
}

// One GPU row (an error is printed in the row); returns whether its outputs matched.
bool bench_gpu(const BenchOptions& o, utf8::Method method, utf8::TextKind kind,
               const std::vector<std::uint8_t>& text, const utf8::cpu::Decoded& expected,
               double floor_ms) {
  const std::size_t size = text.size();
  Row row{utf8::name(kind), size_name(size), std::string("GPU ") + utf8::name(method)};
  row.bytes = size;
  row.floor_ms = floor_ms;
  bool ok = false;
  try {
    ok = measure_gpu(o, method, text, expected, row);
  } catch (const std::exception& e) {
    row.check = std::string("error: ") + e.what();
    row.floor_ms = 0;
  }
  print_row(row);
  return ok;
}

// The CPU rows: one thread (the reference), and every OpenMP thread; returns whether the counts
// and the OpenMP outputs matched.
bool bench_cpu(utf8::TextKind kind, const std::vector<std::uint8_t>& text,
               const utf8::cpu::Decoded& expected) {
  const std::size_t size = text.size();
  const std::size_t ncp = expected.code_points.size();
  bool all_ok = true;
  // Output buffers taken (and touched) before timing, as on the GPU.
  const int reps = cpu_reps(size);
  const std::uint32_t* cps = expected.code_points.data();
  std::vector<std::uint32_t> cpu_cps(size);
  std::vector<std::uint8_t> cpu_bytes(4 * ncp);
  std::size_t bad = 0, decoded = 0, encoded = 0;
  Row one{utf8::name(kind), size_name(size), "CPU 1 thread"};
  one.bytes = size;
  one.decode_ms = cpu_median_ms(
      reps, [&] { decoded = utf8::cpu::decode_range(text.data(), 0, size, cpu_cps.data(), &bad); });
  one.encode_ms = cpu_median_ms(
      reps, [&] { encoded = utf8::cpu::encode_range(cps, 0, ncp, cpu_bytes.data(), &bad); });
  one.check = decoded == ncp && encoded == size ? "reference" : "COUNT MISMATCH";
  all_ok = all_ok && decoded == ncp && encoded == size;
  print_row(one);

  Row many{utf8::name(kind), size_name(size),
           "CPU " + std::to_string(omp_get_max_threads()) + " threads"};
  many.bytes = size;
  many.decode_ms = cpu_median_ms(reps, [&] {
    decoded = utf8::cpu::decode_parallel_into(text.data(), size, cpu_cps.data(), &bad);
  });
  many.encode_ms = cpu_median_ms(
      reps, [&] { encoded = utf8::cpu::encode_parallel_into(cps, ncp, cpu_bytes.data(), &bad); });
  const bool same = decoded == ncp && encoded == size &&
                    std::memcmp(cpu_cps.data(), cps, 4 * ncp) == 0 &&
                    std::memcmp(cpu_bytes.data(), text.data(), size) == 0;
  many.check = same ? "ok" : "MISMATCH";
  all_ok = all_ok && same;
  print_row(many);
  return all_ok;
}

}  // namespace

int main(int argc, char** argv) {
  BenchOptions o;
  try {
    o = parse_args(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "utf8_bench: %s\n", e.what());
    return 2;
  }
  bool all_ok = true;
  try {
    const double bandwidth = o.gpu ? print_device(o) : 0.0;
    std::printf("CPU: %d OpenMP threads; scan '%s', compact '%s'\n\n", omp_get_max_threads(),
                prim::classic::name(o.scan.algorithm), prim::classic::name(o.compact.algorithm));
    print_header();

    for (utf8::TextKind kind : {utf8::TextKind::ascii_heavy, utf8::TextKind::cjk_heavy}) {
      for (std::size_t size : o.sizes) {
        const std::vector<std::uint8_t> text = utf8::generate_text(size, kind, 2024);
        const utf8::cpu::Decoded expected = utf8::cpu::decode_parallel(text.data(), size);
        const std::size_t ncp = expected.code_points.size();
        const double floor_ms = o.gpu ? (size + 4.0 * ncp) / (bandwidth * 1e9) * 1e3 : 0.0;
        for (utf8::Method method : o.gpu ? o.methods : std::vector<utf8::Method>{})
          if (!bench_gpu(o, method, kind, text, expected, floor_ms)) all_ok = false;
        if (o.cpu && !bench_cpu(kind, text, expected)) all_ok = false;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "utf8_bench: %s\n", e.what());
    return 2;
  }
  return all_ok ? 0 : 1;
}
