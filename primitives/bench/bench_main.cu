// primitives_bench: the primitives side by side with Thrust, CUB and a device-to-device copy.
//
//   primitives_bench                         every op, impl and size (2^10 .. 2^28)
//   primitives_bench --ops scan,compact50 --impls own,cub,memcpy --max-log2 24
//   primitives_bench --no-sweep --runs 30 --csv out.csv
//
// Prints one table per op (microseconds, effective GB/s, time / copy time, time / CUB time,
// Thrust time / time), the target ratios of the production variants, and writes the CSV
// (op,impl,n,median_us,gbps,block_threads,items_per_thread) and the same tables in Markdown to
// primitives/bench/results/<gpu-name>.{csv,md}.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench_harness.h"
#include "primitives/compact.cuh"
#include "primitives/device_info.h"
#include "primitives/scan.cuh"

#ifndef PRIM_BENCH_RESULTS_DIR
#define PRIM_BENCH_RESULTS_DIR "."
#endif

namespace bench {
namespace {

const char* kOps[] = {"scan",
                      "compact10",
                      "compact50",
                      "compact90",
                      "compact50_device_count",
                      "partition_path48",
                      "partition_index",
                      "sort_pairs_3bit",
                      "sort_pairs_8bit",
                      "sort_pairs_32bit",
                      "scan_sweep"};

std::set<std::string> split_list(const std::string& text) {
  std::set<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.insert(item);
  return out;
}

void usage() {
  std::printf(
      "usage: primitives_bench [--ops a,b] [--impls a,b] [--min-log2 k] [--max-log2 k]\n"
      "                        [--runs r] [--warmup w] [--cap-ms ms] [--no-sweep] [--sweep-only]\n"
      "                        [--csv path]\n"
      "ops:   scan compact10 compact50 compact90 compact50_device_count partition_path48\n"
      "       partition_index sort_pairs_3bit sort_pairs_8bit sort_pairs_32bit scan_sweep\n"
      "impls: own thrust thrust_copy_if cub memcpy naive work_efficient blocked_brent_kung\n"
      "       blocked_blelloch scan_scatter lsd split_1bit own_host_count thrust_host_count\n"
      "       multisplit thrust_multisplit (sort_pairs_3bit only)\n"
      "       own_partition (partition_path48, partition_index)\n");
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw prim::Error("primitives_bench: " + arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--ops") {
      o.ops = split_list(value());
    } else if (arg == "--impls") {
      o.impls = split_list(value());
    } else if (arg == "--min-log2") {
      o.min_log2 = std::stoi(value());
    } else if (arg == "--max-log2") {
      o.max_log2 = std::stoi(value());
    } else if (arg == "--runs") {
      o.runs = std::max(1, std::stoi(value()));
    } else if (arg == "--warmup") {
      o.warmup = std::max(0, std::stoi(value()));
    } else if (arg == "--cap-ms") {
      o.cap_ms = std::stod(value());
    } else if (arg == "--no-sweep") {
      o.sweep = false;
    } else if (arg == "--sweep-only") {
      o.sweep_only = true;
    } else if (arg == "--csv") {
      o.csv = value();
    } else if (arg == "--help" || arg == "-h") {
      usage();
      std::exit(0);
    } else {
      usage();
      throw prim::Error("primitives_bench: unknown option '" + arg + "'");
    }
  }
  for (const std::string& op : o.ops) {
    if (std::find(std::begin(kOps), std::end(kOps), op) == std::end(kOps))
      throw prim::Error("primitives_bench: unknown op '" + op + "'");
  }
  return o;
}

std::string file_name_of(const std::string& gpu) {
  std::string out;
  for (char c : gpu) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out.empty() ? "gpu" : out;
}

// Median time of (op, impl, n), or 0 when not measured.
struct Lookup {
  std::map<std::string, double> us;
  static std::string key(const std::string& op, const std::string& impl, std::size_t n) {
    return op + "|" + impl + "|" + std::to_string(n);
  }
  explicit Lookup(const std::vector<Result>& results) {
    for (const Result& r : results)
      if (r.block_threads == 0) us[key(r.op, r.impl, r.n)] = r.median_us;
  }
  double get(const std::string& op, const std::string& impl, std::size_t n) const {
    auto it = us.find(key(op, impl, n));
    return it == us.end() ? 0.0 : it->second;
  }
};

std::string ratio(double a, double b) {
  if (a <= 0 || b <= 0) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", a / b);
  return buf;
}

void print_tables(const std::vector<Result>& results, std::FILE* text, std::ostream& md) {
  const Lookup lookup(results);
  for (const char* op : kOps) {
    std::vector<const Result*> rows;
    for (const Result& r : results)
      if (r.op == op) rows.push_back(&r);
    if (rows.empty()) continue;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Result* a, const Result* b) { return a->n < b->n; });
    const bool sweep = std::string(op) == "scan_sweep";
    std::fprintf(text, "\n%s\n%12s  %-26s %12s %9s %8s %8s %11s\n", op, "n", "impl", "us", "GB/s",
                 "x copy", "x cub", "thrust/x");
    md << "\n### " << op << "\n\n| n | impl | us | GB/s | x copy | x cub | thrust / x |\n"
       << "|---:|:---|---:|---:|---:|---:|---:|\n";
    for (const Result* r : rows) {
      std::string impl = r->impl;
      if (sweep)
        impl += " " + std::to_string(r->block_threads) + "x" + std::to_string(r->items_per_thread);
      const std::string base_op = sweep ? "scan" : op;
      const std::string copy = ratio(r->median_us, lookup.get(base_op, "memcpy", r->n));
      const std::string cub = ratio(r->median_us, lookup.get(base_op, "cub", r->n));
      const std::string thrust = ratio(lookup.get(base_op, "thrust", r->n), r->median_us);
      std::fprintf(text, "%12zu  %-26s %12.2f %9.1f %8s %8s %11s\n", r->n, impl.c_str(),
                   r->median_us, r->gbps, copy.c_str(), cub.c_str(), thrust.c_str());
      char us[32], gbps[32];
      std::snprintf(us, sizeof us, "%.2f", r->median_us);
      std::snprintf(gbps, sizeof gbps, "%.1f", r->gbps);
      md << "| " << r->n << " | " << impl << " | " << us << " | " << gbps << " | " << copy << " | "
         << cub << " | " << thrust << " |\n";
    }
  }
}

// The targets of the production variants, as ratios from this run.
void print_targets(const std::vector<Result>& results, std::FILE* text, std::ostream& md) {
  const Lookup l(results);
  const std::size_t k20 = std::size_t(1) << 20, k21 = k20 << 1, k24 = k20 << 4, k28 = k20 << 8;
  struct Line {
    std::string what;
    std::string value;
    std::string goal;
  };
  const std::vector<Line> lines = {
      {"scan own / cub at 2^20", ratio(l.get("scan", "own", k20), l.get("scan", "cub", k20)),
       "<= 1.0"},
      {"scan own / cub at 2^21", ratio(l.get("scan", "own", k21), l.get("scan", "cub", k21)),
       "<= 1.0"},
      {"scan own / cub at 2^24", ratio(l.get("scan", "own", k24), l.get("scan", "cub", k24)),
       "<= 1.0"},
      {"scan own / copy at 2^28", ratio(l.get("scan", "own", k28), l.get("scan", "memcpy", k28)),
       "<= 1.15"},
      {"scan cub / copy at 2^28", ratio(l.get("scan", "cub", k28), l.get("scan", "memcpy", k28)),
       "(reference)"},
      {"compact50 own / cub at 2^21",
       ratio(l.get("compact50", "own", k21), l.get("compact50", "cub", k21)), "<= 1.0"},
      {"compact50 own / cub at 2^24",
       ratio(l.get("compact50", "own", k24), l.get("compact50", "cub", k24)), "<= 1.0"},
      {"compact50 thrust::copy_if / own at 2^21",
       ratio(l.get("compact50", "thrust_copy_if", k21), l.get("compact50", "own", k21)), ">= 3"},
      {"sort_pairs_3bit own / cub at 2^21",
       ratio(l.get("sort_pairs_3bit", "own", k21), l.get("sort_pairs_3bit", "cub", k21)), "<= 1.0"},
      {"sort_pairs_3bit thrust / own at 2^21",
       ratio(l.get("sort_pairs_3bit", "thrust", k21), l.get("sort_pairs_3bit", "own", k21)),
       ">= 5"},
      {"multisplit 8 buckets / cub sort 3bit at 2^21",
       ratio(l.get("sort_pairs_3bit", "multisplit", k21), l.get("sort_pairs_3bit", "cub", k21)),
       "<= 0.67 (1.5x faster)"},
      {"multisplit 8 buckets / own sort 3bit at 2^21",
       ratio(l.get("sort_pairs_3bit", "multisplit", k21), l.get("sort_pairs_3bit", "own", k21)),
       "(reference)"},
      {"thrust multisplit / own multisplit at 2^21",
       ratio(l.get("sort_pairs_3bit", "thrust_multisplit", k21),
             l.get("sort_pairs_3bit", "multisplit", k21)),
       "(reference)"},
  };
  std::fprintf(text, "\ntargets\n");
  md << "\n### targets\n\n| ratio | measured | target |\n|:---|---:|:---|\n";
  for (const Line& line : lines) {
    std::fprintf(text, "  %-42s %8s   target %s\n", line.what.c_str(), line.value.c_str(),
                 line.goal.c_str());
    md << "| " << line.what << " | " << line.value << " | " << line.goal << " |\n";
  }
  // Workspace of the production variants relative to the input.
  for (std::size_t n : {k20, k24, k28}) {
    const double input = double(n) * sizeof(int);
    std::fprintf(text, "  workspace / input at n = %zu: scan %.4f%%, compaction %.4f%%\n", n,
                 100.0 * double(prim::own::scan_workspace_bytes<int>(n)) / input,
                 100.0 * double(prim::own::compact_workspace_bytes<int>(n)) / input);
  }
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  try {
    bench::Options options = bench::parse(argc, argv);
    if (!prim::cuda_device_available()) {
      std::fprintf(stderr, "primitives_bench: no CUDA device\n");
      return 1;
    }
    cudaDeviceProp prop{};
    PRIM_CUDA_CHECK(cudaGetDeviceProperties(&prop, prim::device_info().device));
    const std::string gpu = prop.name;
    if (options.csv.empty())
      options.csv = std::string(PRIM_BENCH_RESULTS_DIR) + "/" + bench::file_name_of(gpu) + ".csv";
    std::printf("device: %s (%d SMs, L2 %zu MiB), %d runs after %d warm-up, median\n", gpu.c_str(),
                prop.multiProcessorCount, prim::device_info().l2_bytes >> 20, options.runs,
                options.warmup);

    cudaStream_t stream;
    PRIM_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    {
      bench::Bench b(options, stream);
      if (!options.sweep_only) {
        for (std::size_t n : bench::sizes(options, 28)) {
          std::fprintf(stderr, "n = %zu\n", n);
          bench::bench_scan(b, n);
          bench::bench_compact(b, n);
          bench::bench_sort(b, n);
        }
      }
      if (options.sweep) {
        for (int k : {20, 24, 28}) {
          if (k < options.min_log2 || k > options.max_log2) continue;
          bench::bench_scan_sweep(b, std::size_t(1) << k);
        }
      }
      const std::filesystem::path folder = std::filesystem::path(options.csv).parent_path();
      if (!folder.empty()) std::filesystem::create_directories(folder);
      std::ofstream csv(options.csv);
      if (!csv) throw prim::Error("primitives_bench: cannot write " + options.csv);
      csv << "op,impl,n,median_us,gbps,block_threads,items_per_thread\n";
      for (const bench::Result& r : b.results()) {
        csv << r.op << "," << r.impl << "," << r.n << "," << r.median_us << "," << r.gbps << ","
            << r.block_threads << "," << r.items_per_thread << "\n";
      }
      std::string md_path = options.csv;
      if (md_path.size() > 4 && md_path.substr(md_path.size() - 4) == ".csv")
        md_path = md_path.substr(0, md_path.size() - 4);
      md_path += ".md";
      std::ofstream md(md_path);
      md << "## " << gpu << "\n\nMedian of " << options.runs << " runs after " << options.warmup
         << " warm-up runs; x copy = time / device-to-device copy of the same input bytes; "
            "x cub = time / CUB time; thrust / x = Thrust backend time / time.\n";
      bench::print_tables(b.results(), stdout, md);
      bench::print_targets(b.results(), stdout, md);
      std::printf("\nwrote %s and %s\n", options.csv.c_str(), md_path.c_str());
    }
    PRIM_CUDA_CHECK(cudaStreamDestroy(stream));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
