#include "stats/report.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

#include "film/atomic_file.h"

namespace raystream {
namespace {

double per(double value, int frames) {
  return frames > 0 ? value / frames : 0.0;
}

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char buffer[256];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buffer, sizeof buffer, fmt, args);
  va_end(args);
  return buffer;
}

std::string bytes_text(std::size_t bytes) {
  if (bytes == 0) return "n/a (CPU)";
  return format("%.1f MiB (%zu bytes)", static_cast<double>(bytes) / (1024.0 * 1024.0), bytes);
}

std::string rate_text(double per_second) {
  if (per_second >= 1e9) return format("%.3f G/s", per_second / 1e9);
  if (per_second >= 1e6) return format("%.3f M/s", per_second / 1e6);
  if (per_second >= 1e3) return format("%.3f k/s", per_second / 1e3);
  return format("%.1f /s", per_second);
}

}  // namespace

RenderSummary summarize(const RenderStats& stats) {
  RenderSummary s;
  if (!stats.frame_ms.empty()) {
    std::vector<double> sorted = stats.frame_ms;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    double sum = 0;
    for (double v : sorted) sum += v;
    s.frame_ms_mean = sum / static_cast<double>(n);
    s.frame_ms_median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    s.frame_ms_min = sorted.front();
    s.frame_ms_max = sorted.back();
  }
  s.seconds = stats.total_ms / 1000.0;
  if (s.seconds > 0) {
    const double samples = static_cast<double>(stats.frames) * stats.width * stats.height;
    s.samples_per_second = samples / s.seconds;
    s.path_segments_per_second = static_cast<double>(stats.path_segments) / s.seconds;
  }
  for (const BounceStats& b : stats.bounces) {
    s.intersect_ms += b.intersect_ms;
    s.sort_ms += b.sort_ms;
    s.shade_ms += b.shade_ms;
    s.compact_ms += b.compact_ms;
  }
  return s;
}

void print_report(std::ostream& out, const RenderStats& stats, const RunInfo& info) {
  const RenderSummary s = summarize(stats);
  const int f = stats.frames;
  out << format(
      "%s: %d x %d, %d frame%s (samples per pixel), depth %d, sort by material %s, "
      "compact %s, seed %llu\n",
      info.scene.c_str(), stats.width, stats.height, f, f == 1 ? "" : "s", stats.depth,
      info.sort_by_material ? "on" : "off", info.compact ? "on" : "off",
      static_cast<unsigned long long>(info.seed));
  out << "\nper bounce, average per frame:\n";
  out << format("%6s %12s %12s %7s %12s %10s %10s %11s\n", "bounce", "paths in", "paths out",
                "kept %", "intersect ms", "sort ms", "shade ms", "compact ms");
  std::uint64_t in_sum = 0, out_sum = 0;
  for (const BounceStats& b : stats.bounces) {
    in_sum += b.paths_in;
    out_sum += b.paths_out;
    const double kept = b.paths_in ? 100.0 * static_cast<double>(b.paths_out) / b.paths_in : 0.0;
    out << format("%6d %12.0f %12.0f %7.1f %12.3f %10.3f %10.3f %11.3f\n", b.bounce,
                  per(static_cast<double>(b.paths_in), f), per(static_cast<double>(b.paths_out), f),
                  kept, per(b.intersect_ms, f), per(b.sort_ms, f), per(b.shade_ms, f),
                  per(b.compact_ms, f));
  }
  out << format("%6s %12.0f %12s %7s %12.3f %10.3f %10.3f %11.3f\n", "all",
                per(static_cast<double>(in_sum), f), "", "", per(s.intersect_ms, f),
                per(s.sort_ms, f), per(s.shade_ms, f), per(s.compact_ms, f));
  out << format(
      "totals over %d frame%s: paths in %llu, paths out %llu, intersect %.3f ms, "
      "sort %.3f ms, shade %.3f ms, compact %.3f ms\n",
      f, f == 1 ? "" : "s", static_cast<unsigned long long>(in_sum),
      static_cast<unsigned long long>(out_sum), s.intersect_ms, s.sort_ms, s.shade_ms,
      s.compact_ms);
  out << "\n";
  out << format("%-17s mean %.3f ms, median %.3f ms (min %.3f, max %.3f)\n", "frame time",
                s.frame_ms_mean, s.frame_ms_median, s.frame_ms_min, s.frame_ms_max);
  out << format("%-17s %.3f s\n", "total time", s.seconds);
  out << format("%-17s %s\n", "samples/s", rate_text(s.samples_per_second).c_str());
  out << format("%-17s %s (%llu segments)\n", "path segments/s",
                rate_text(s.path_segments_per_second).c_str(),
                static_cast<unsigned long long>(stats.path_segments));
  out << format("%-17s %s\n", "peak GPU memory", bytes_text(stats.peak_device_bytes).c_str());
  const BvhStats& bvh = stats.bvh;
  if (bvh.built) {
    out << format(
        "%-17s %llu nodes (%llu leaves), depth %d, SAH cost %.2f, built in %.1f ms "
        "over %llu primitives (%llu triangles)\n",
        "BVH", static_cast<unsigned long long>(bvh.nodes),
        static_cast<unsigned long long>(bvh.leaves), bvh.depth, bvh.sah_cost, bvh.build_ms,
        static_cast<unsigned long long>(bvh.primitives),
        static_cast<unsigned long long>(bvh.triangles));
  } else {
    out << format("%-17s off (brute force over %llu primitives, %llu triangles)\n", "BVH",
                  static_cast<unsigned long long>(bvh.primitives),
                  static_cast<unsigned long long>(bvh.triangles));
  }
  if (!info.binary_backend.empty() && info.binary_backend != stats.backend) {
    out << format("%-17s %s (binary built with %s)\n", "backend", stats.backend.c_str(),
                  info.binary_backend.c_str());
  } else {
    out << format("%-17s %s\n", "backend", stats.backend.c_str());
  }
  out << format("%-17s %s (%s)\n", "executor", stats.executor.c_str(), stats.device.c_str());
  if (!info.output.empty()) out << format("%-17s %s\n", "image", info.output.c_str());
}

std::string stats_json(const RenderStats& stats, const RunInfo& info) {
  const RenderSummary s = summarize(stats);
  const int f = stats.frames;
  nlohmann::ordered_json j;
  j["version"] = info.version;
  j["scene"] = info.scene;
  j["output"] = info.output;
  j["backend"] = stats.backend;
  j["binary_backend"] = info.binary_backend;
  j["executor"] = stats.executor;
  j["device"] = stats.device;
  j["width"] = stats.width;
  j["height"] = stats.height;
  j["frames"] = f;
  j["depth"] = stats.depth;
  j["seed"] = info.seed;
  j["sort_by_material"] = info.sort_by_material;
  j["compact"] = info.compact;
  j["total_ms"] = stats.total_ms;
  j["frame_ms"] = {{"mean", s.frame_ms_mean},
                   {"median", s.frame_ms_median},
                   {"min", s.frame_ms_min},
                   {"max", s.frame_ms_max},
                   {"each", stats.frame_ms}};
  j["samples_per_second"] = s.samples_per_second;
  j["path_segments"] = stats.path_segments;
  j["path_segments_per_second"] = s.path_segments_per_second;
  j["peak_device_bytes"] = stats.peak_device_bytes;
  j["bvh"] = {{"built", stats.bvh.built},         {"primitives", stats.bvh.primitives},
              {"triangles", stats.bvh.triangles}, {"nodes", stats.bvh.nodes},
              {"leaves", stats.bvh.leaves},       {"depth", stats.bvh.depth},
              {"sah_cost", stats.bvh.sah_cost},   {"build_ms", stats.bvh.build_ms}};
  j["stage_ms"] = {{"intersect", s.intersect_ms},
                   {"sort", s.sort_ms},
                   {"shade", s.shade_ms},
                   {"compact", s.compact_ms}};
  nlohmann::ordered_json bounces = nlohmann::ordered_json::array();
  for (const BounceStats& b : stats.bounces) {
    nlohmann::ordered_json row;
    row["bounce"] = b.bounce;
    row["paths_in"] = b.paths_in;
    row["paths_out"] = b.paths_out;
    row["paths_in_per_frame"] = per(static_cast<double>(b.paths_in), f);
    row["paths_out_per_frame"] = per(static_cast<double>(b.paths_out), f);
    row["ms"] = {{"intersect", b.intersect_ms},
                 {"sort", b.sort_ms},
                 {"shade", b.shade_ms},
                 {"compact", b.compact_ms}};
    row["ms_per_frame"] = {{"intersect", per(b.intersect_ms, f)},
                           {"sort", per(b.sort_ms, f)},
                           {"shade", per(b.shade_ms, f)},
                           {"compact", per(b.compact_ms, f)}};
    bounces.push_back(row);
  }
  j["bounces"] = bounces;
  return j.dump(2) + "\n";
}

void write_stats_json(const std::string& path, const RenderStats& stats, const RunInfo& info) {
  const std::string text = stats_json(stats, info);
  write_file_atomically(path, std::vector<unsigned char>(text.begin(), text.end()));
}

}  // namespace raystream
