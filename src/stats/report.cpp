#include "stats/report.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <vector>

namespace raystream {
namespace {

double per(double value, double frames) {
  return frames > 0 ? value / frames : 0.0;
}

// The samples this run rendered: the statistics' count, or for statistics made without one
// (a render of every sample that was neither stopped nor resumed) spp x width x height.
double samples_rendered(const RenderStats& stats) {
  if (stats.samples > 0 || stats.stopped != StopReason::none || stats.film_samples > 0)
    return static_cast<double>(stats.samples);
  return static_cast<double>(stats.spp) * stats.width * stats.height;
}

// Samples per pixel this run, in passes over the image (fractional when it stopped within one).
double passes_rendered(const RenderStats& stats) {
  const double pixels = double(stats.width) * double(stats.height);
  return pixels > 0 ? samples_rendered(stats) / pixels : 0.0;
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

std::string mib_text(std::uint64_t bytes) {
  if (bytes < (1u << 20)) return format("%.1f KiB", static_cast<double>(bytes) / 1024.0);
  return format("%.1f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

// The BVH line's second half: which builder, with what, and its memory.
std::string bvh_build_text(const BvhStats& bvh, ExecutorKind executor) {
  std::string text;
  if (bvh.builder == BvhBuilder::lbvh) {
    text = format("lbvh on the %s executor (radix sort: %s)", executor_kind_name(executor),
                  primitives_backend_name(bvh.sort));
  } else {
    text = "sah on the host";
  }
  text += format("; tree %s, primitives %s", mib_text(bvh.tree_bytes).c_str(),
                 mib_text(bvh.primitive_bytes).c_str());
  if (bvh.build_peak_bytes > 0)
    text += format(", build peak %s", mib_text(bvh.build_peak_bytes).c_str());
  return text;
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
    s.samples_per_second = samples_rendered(stats) / s.seconds;
    s.path_segments_per_second = static_cast<double>(stats.path_segments) / s.seconds;
  }
  for (int k = 0; k < kStageCount; ++k) s.stage_ms[k] = stats.stage_ms[k];
  return s;
}

std::vector<WaveFillClass> wave_fill_classes(const RenderStats& stats) {
  std::vector<WaveFillClass> classes(4);
  const char* names[4] = {">= 90%", "50-90%", "10-50%", "< 10%"};
  const double bounds[5] = {2.0, 0.9, 0.5, 0.1, 0.0};
  for (int k = 0; k < 4; ++k) {
    classes[k].name = names[k];
    classes[k].upper = bounds[k];
    classes[k].lower = bounds[k + 1];
  }
  if (stats.pool == 0) return classes;
  for (const WaveStats& w : stats.waves) {
    const std::uint64_t active = w.live_in + w.regenerated;
    const double fill = static_cast<double>(active) / static_cast<double>(stats.pool);
    for (WaveFillClass& c : classes) {
      if (fill >= c.lower && fill < c.upper) {
        ++c.waves;
        c.paths += active;
        c.regenerated += w.regenerated;
        if (w.ms >= 0) c.ms += w.ms;
        break;
      }
    }
  }
  return classes;
}

namespace {

// A render stopped early or resumed rendered another count than it was asked for.
bool partial_render(const RenderStats& stats) {
  return samples_rendered(stats) != static_cast<double>(stats.spp) * stats.width * stats.height;
}

double timed_wave_ms(const RenderStats& stats) {
  double wave_ms = 0;
  for (const WaveStats& w : stats.waves)
    if (w.ms >= 0) wave_ms += w.ms;
  return wave_ms;
}

// The first line: the scene, the image, the samples and the settings that shaped the render.
void print_settings(std::ostream& out, const RenderStats& stats, const RunInfo& info, double spp) {
  std::string schedule = schedule_name(stats.schedule);
  if (stats.schedule == Schedule::stream)
    schedule += format(" (pool %zu, %s compaction)", stats.pool, compaction_text(stats));
  if (stats.schedule == Schedule::frame)
    schedule += stats.compact ? " (compact on)" : " (compact off)";
  const std::string samples_text =
      partial_render(stats) ? format("%.2f of %d samples per pixel", spp, stats.spp)
                            : format("%d sample%s per pixel", stats.spp, stats.spp == 1 ? "" : "s");
  out << format(
      "%s: %d x %d, %s, depth %d, integrator %s, schedule %s, sort by "
      "material %s, seed %llu\n",
      info.scene.c_str(), stats.width, stats.height, samples_text.c_str(), stats.depth,
      integrator_name(stats.nee), schedule.c_str(),
      stats.sort_by_material ? (stats.material_multisplit ? "multisplit" : "on") : "off",
      static_cast<unsigned long long>(info.seed));
}

// Per depth; the frame schedule also has stage times per bounce.
void print_depth_table(std::ostream& out, const RenderStats& stats, const RenderSummary& s,
                       double spp) {
  const bool frame = stats.schedule == Schedule::frame;
  const bool bounce_ms = frame && stats.timing != StageTiming::off;
  const auto stage_columns = [&](const auto& ms) {
    return format(" %12.3f %10.3f %10.3f %10.3f %11.3f", per(ms(Stage::intersect), spp),
                  per(ms(Stage::sort), spp), per(ms(Stage::shade), spp),
                  per(ms(Stage::shadow), spp), per(ms(Stage::compact), spp));
  };
  out << "\nper depth, average per sample per pixel";
  out << (bounce_ms ? format(" (stage ms from %d timed frame%s):\n", stats.timed_units,
                             stats.timed_units == 1 ? "" : "s")
                    : std::string(":\n"));
  out << format("%6s %12s %12s %7s %12s", "depth", "paths in", "paths out", "kept %",
                "shadow rays");
  if (bounce_ms)
    out << format(" %12s %10s %10s %10s %11s", "intersect ms", "sort ms", "shade ms", "shadow ms",
                  "compact ms");
  out << "\n";
  std::uint64_t in_sum = 0, out_sum = 0, shadow_sum = 0;
  for (const BounceStats& b : stats.bounces) {
    if (b.paths_in == 0 && !frame) continue;
    in_sum += b.paths_in;
    out_sum += b.paths_out;
    shadow_sum += b.shadow_rays;
    const double kept = b.paths_in ? 100.0 * static_cast<double>(b.paths_out) / b.paths_in : 0.0;
    out << format("%6d %12.0f %12.0f %7.1f %12.0f", b.bounce,
                  per(static_cast<double>(b.paths_in), spp),
                  per(static_cast<double>(b.paths_out), spp), kept,
                  per(static_cast<double>(b.shadow_rays), spp));
    if (bounce_ms) out << stage_columns([&](Stage k) { return b.ms(k); });
    out << "\n";
  }
  out << format("%6s %12.0f %12.0f %7s %12.0f", "all", per(static_cast<double>(in_sum), spp),
                per(static_cast<double>(out_sum), spp), "",
                per(static_cast<double>(shadow_sum), spp));
  if (bounce_ms) out << stage_columns([&](Stage k) { return s.ms(k); });
  out << "\n";
}

// The stream schedule's waves by the pool's fill, and the host's time in the launch calls.
void print_waves(std::ostream& out, const RenderStats& stats) {
  if (stats.schedule != Schedule::stream) return;
  out << format("\nwaves by fill of the pool: %zu wave%s", stats.waves.size(),
                stats.waves.size() == 1 ? "" : "s");
  out << (stats.timing == StageTiming::off ? std::string(" (wave times off)\n")
                                           : std::string("\n"));
  out << format("%8s %8s %12s %14s %12s %8s\n", "fill", "waves", "paths", "regenerated",
                stats.executor == ExecutorKind::cpu ? "CPU ms" : "GPU ms", "time %");
  const double wave_ms = timed_wave_ms(stats);
  for (const WaveFillClass& c : wave_fill_classes(stats)) {
    out << format(
        "%8s %8llu %12llu %14llu %12.3f %8.1f\n", c.name, static_cast<unsigned long long>(c.waves),
        static_cast<unsigned long long>(c.paths), static_cast<unsigned long long>(c.regenerated),
        c.ms, wave_ms > 0 ? 100.0 * c.ms / wave_ms : 0.0);
  }
  if (stats.executor == ExecutorKind::gpu && !stats.waves.empty() && stats.host_queue_ms > 0) {
    // The host's time in the launch calls: they return at once while the launch queue has room,
    // and wait for the GPU once it is full, so a figure near the wave's GPU time means the GPU,
    // not the host, sets the pace.
    out << format("host: %.1f us per wave in launch calls",
                  1000.0 * stats.host_queue_ms / double(stats.waves.size()));
    if (stats.timing != StageTiming::off && stats.total_ms > 0)
      out << format("; waves cover %.1f%% of the loop's time", 100.0 * wave_ms / stats.total_ms);
    out << "\n";
  }
}

// The stages' times over the render (the frame schedule gives them per bounce instead).
void print_stage_times(std::ostream& out, const RenderStats& stats, const RenderSummary& s) {
  if (stats.schedule == Schedule::frame || stats.timing == StageTiming::off ||
      stats.timed_units <= 0)
    return;
  double total = 0;
  for (double ms : s.stage_ms) total += ms;
  out << format("stage ms (from %d timed wave%s):", stats.timed_units,
                stats.timed_units == 1 ? "" : "s");
  for (int k = 0; k < kStageCount; ++k)
    out << format("%s %s %.3f (%.1f%%)", k == 0 ? "" : ",", kStageNames[k], s.stage_ms[k],
                  total > 0 ? 100.0 * s.stage_ms[k] / total : 0.0);
  out << "\n";
}

// A render split across devices or processes: each share's samples and render loop.
void print_shares(std::ostream& out, const RenderStats& stats) {
  if (stats.shares.empty()) return;
  out << format("\nsplit across %zu share%s (samples per pixel of each, its render loop):\n",
                stats.shares.size(), stats.shares.size() == 1 ? "" : "s");
  out << format("%6s %6s %6s %-28s %10s %6s %10s %12s %12s\n", "share", "rank", "device", "name",
                "first", "spp", "loop ms", "samples/s", "segments");
  for (std::size_t k = 0; k < stats.shares.size(); ++k) {
    const RenderStats& sh = stats.shares[k];
    const RenderSummary ss = summarize(sh);
    out << format("%6zu %6s %6s %-28.28s %10d %6d %10.1f %12s %12llu\n", k,
                  sh.rank >= 0 ? std::to_string(sh.rank).c_str() : "-",
                  sh.device_index >= 0 ? std::to_string(sh.device_index).c_str() : "cpu",
                  sh.device.c_str(), sh.first_sample, sh.spp, sh.total_ms,
                  rate_text(ss.samples_per_second).c_str(),
                  static_cast<unsigned long long>(sh.path_segments));
  }
  if (stats.wall_ms > 0)
    out << format("wall time with every share's set-up: %.3f s\n", stats.wall_ms / 1000.0);
}

// Times, the samples on the film, the rates, the shading and the memory.
void print_totals(std::ostream& out, const RenderStats& stats, const RenderSummary& s) {
  if (!stats.frame_ms.empty())
    out << format("%-17s mean %.3f ms, median %.3f ms (min %.3f, max %.3f)\n", "frame time",
                  s.frame_ms_mean, s.frame_ms_median, s.frame_ms_min, s.frame_ms_max);
  out << format("%-17s %.3f s\n", "total time", s.seconds);
  if (partial_render(stats) || stats.film_samples > 0) {
    // The film's samples per pixel: with a time budget or a resumed film, not every pixel got
    // the same count.
    out << format("%-17s %.0f this run, %llu on the film (per pixel %u to %u)%s%s\n", "samples",
                  samples_rendered(stats), static_cast<unsigned long long>(stats.film_samples),
                  stats.pixel_samples_min, stats.pixel_samples_max,
                  stats.stopped == StopReason::none ? "" : ", stopped by ",
                  stop_reason_name(stats.stopped));
  }
  out << format("%-17s %s\n", "samples/s", rate_text(s.samples_per_second).c_str());
  out << format("%-17s %s (%llu segments)\n", "path segments/s",
                rate_text(s.path_segments_per_second).c_str(),
                static_cast<unsigned long long>(stats.path_segments));
  if (stats.shadow_rays > 0)
    out << format("%-17s %s (%llu rays)\n", "shadow rays/s",
                  rate_text(s.seconds > 0 ? double(stats.shadow_rays) / s.seconds : 0.0).c_str(),
                  static_cast<unsigned long long>(stats.shadow_rays));
  {
    // Shade queues: each lobe kind's share of the shaded paths.
    std::string shading = shading_text(stats);
    if (!stats.kernel_variant.empty()) shading += " (" + stats.kernel_variant + ")";
    std::uint64_t queued = 0;
    for (const std::uint64_t n : stats.queue_paths) queued += n;
    for (std::size_t k = 0; k < stats.queue_paths.size() && queued > 0; ++k)
      shading += format("%s %s %.1f%%", k == 0 ? ":" : ",", stats.queue_names[k].c_str(),
                        100.0 * double(stats.queue_paths[k]) / double(queued));
    out << format("%-17s %s\n", "shading", shading.c_str());
  }
  if (stats.textures.images > 0) {
    const TextureStats& t = stats.textures;
    out << format("%-17s %llu image%s, %.2f M texels, %s with mips (%.2f bytes/texel)\n",
                  "textures", static_cast<unsigned long long>(t.images), t.images == 1 ? "" : "s",
                  double(t.texels) / 1e6, bytes_text(t.bytes).c_str(),
                  t.texels > 0 ? double(t.bytes) / double(t.texels) : 0.0);
  }
  out << format("%-17s %s\n", "peak GPU memory", bytes_text(stats.peak_device_bytes).c_str());
}

// The BVH and the steps before the render loop.
void print_startup(std::ostream& out, const RenderStats& stats) {
  const BvhStats& bvh = stats.bvh;
  if (bvh.built) {
    out << format(
        "%-17s %llu nodes (%llu leaves), depth %d, SAH cost %.2f, built in %.1f ms "
        "over %llu primitives (%llu triangles)\n",
        "BVH", static_cast<unsigned long long>(bvh.nodes),
        static_cast<unsigned long long>(bvh.leaves), bvh.depth, bvh.sah_cost, bvh.build_ms,
        static_cast<unsigned long long>(bvh.primitives),
        static_cast<unsigned long long>(bvh.triangles));
    out << format("%-17s %s\n", "BVH build", bvh_build_text(bvh, stats.executor).c_str());
  } else {
    out << format("%-17s off (brute force over %llu primitives, %llu triangles)\n", "BVH",
                  static_cast<unsigned long long>(bvh.primitives),
                  static_cast<unsigned long long>(bvh.triangles));
  }
  const StartupStats& st = stats.startup;
  const std::string context =
      st.context_ms > 0 ? format(" (context %.1f ms, made during the scene load)", st.context_ms)
                        : std::string();
  out << format(
      "%-17s scene %.1f ms (OBJ %.1f, meshes %.1f), device %.1f ms%s, prepare %.1f ms, "
      "BVH %.1f ms, upload %.1f ms, allocate %.1f ms\n",
      "start-up", st.scene_ms, st.obj_ms, st.meshes_ms, st.device_ms, context.c_str(),
      st.prepare_ms, st.bvh_ms, st.upload_ms, st.allocate_ms);
}

// What ran the render and what it wrote: the wall time, the denoiser, the backend, the executor,
// the files.
void print_run(std::ostream& out, const RenderStats& stats, const RunInfo& info) {
  if (info.elapsed_ms >= 0)
    out << format("%-17s %.3f s from the start to the image encoded (encoding %.1f ms)\n",
                  "wall time", info.elapsed_ms / 1000.0, info.encode_ms);
  if (!info.denoiser.empty()) {
    const std::string transfers =
        info.denoise_transfer_ms >= 0
            ? format(" (kernels), %.1f ms copying the image there and back",
                     info.denoise_transfer_ms)
            : std::string();
    out << format("%-17s %s on the %s: %.2f ms%s\n", "denoiser", info.denoiser.c_str(),
                  executor_kind_name(info.denoise_device), info.denoise_ms, transfers.c_str());
  }
  const char* backend = primitives_backend_name(stats.backend);
  if (info.binary_backend != stats.backend) {
    out << format("%-17s %s (binary built with %s)\n", "backend", backend,
                  primitives_backend_name(info.binary_backend));
  } else {
    out << format("%-17s %s\n", "backend", backend);
  }
  out << format("%-17s %s (%s)\n", "executor", executor_kind_name(stats.executor),
                stats.device.c_str());
  if (!info.output.empty()) out << format("%-17s %s\n", "image", info.output.c_str());
  if (!info.resumed_from.empty())
    out << format("%-17s %s\n", "resumed from", info.resumed_from.c_str());
  if (!info.checkpoint.empty()) out << format("%-17s %s\n", "checkpoint", info.checkpoint.c_str());
}

using OrderedJson = nlohmann::ordered_json;

// The run and its settings.
void add_settings_json(OrderedJson& j, const RenderStats& stats, const RunInfo& info) {
  j["version"] = info.version;
  j["scene"] = info.scene;
  j["output"] = info.output;
  j["backend"] = primitives_backend_name(stats.backend);
  j["binary_backend"] = primitives_backend_name(info.binary_backend);
  j["executor"] = executor_kind_name(stats.executor);
  j["device"] = stats.device;
  j["integrator"] = integrator_name(stats.nee);
  j["schedule"] = schedule_name(stats.schedule);
  j["pool"] = stats.pool;
  j["stage_timing"] = stage_timing_name(stats.timing);
  j["width"] = stats.width;
  j["height"] = stats.height;
  j["spp"] = stats.spp;
  j["frames"] = stats.spp;
  j["samples"] = static_cast<std::uint64_t>(samples_rendered(stats));  // whole samples
  j["film_samples"] = stats.film_samples;
  j["pixel_samples"] = {{"min", stats.pixel_samples_min}, {"max", stats.pixel_samples_max}};
  j["stopped"] = stop_reason_name(stats.stopped);
  j["resumed_from"] = info.resumed_from;
  j["checkpoint"] = info.checkpoint;
  j["depth"] = stats.depth;
  j["seed"] = info.seed;
  j["sort_by_material"] = stats.sort_by_material;
  j["material_multisplit"] = stats.material_multisplit;
  j["compact"] = stats.compact;
  j["compaction"] = compaction_text(stats);
  j["shade"] = shading_text(stats);
  j["state_bytes"] = {{"carried", stats.layout.carried},
                      {"radiance", stats.layout.radiance},
                      {"hit", stats.layout.hit},
                      {"shadow", stats.layout.shadow}};
  j["kernel_variant"] = stats.kernel_variant;
  nlohmann::json queues = nlohmann::json::object();
  for (std::size_t k = 0; k < stats.queue_paths.size(); ++k)
    queues[stats.queue_names[k]] = stats.queue_paths[k];
  j["queue_paths"] = queues;
}

// The times and rates, the BVH, the start-up, the denoiser and the encoding.
void add_totals_json(OrderedJson& j, const RenderStats& stats, const RenderSummary& s,
                     const RunInfo& info) {
  j["total_ms"] = stats.total_ms;
  j["frame_ms"] = {{"mean", s.frame_ms_mean},
                   {"median", s.frame_ms_median},
                   {"min", s.frame_ms_min},
                   {"max", s.frame_ms_max},
                   {"each", stats.frame_ms}};
  j["samples_per_second"] = s.samples_per_second;
  j["path_segments"] = stats.path_segments;
  j["path_segments_per_second"] = s.path_segments_per_second;
  j["shadow_rays"] = stats.shadow_rays;
  j["peak_device_bytes"] = stats.peak_device_bytes;
  j["textures"] = {{"images", stats.textures.images},
                   {"texels", stats.textures.texels},
                   {"bytes", stats.textures.bytes}};
  j["bvh"] = {
      {"built", stats.bvh.built},
      {"primitives", stats.bvh.primitives},
      {"triangles", stats.bvh.triangles},
      {"nodes", stats.bvh.nodes},
      {"leaves", stats.bvh.leaves},
      {"depth", stats.bvh.depth},
      {"sah_cost", stats.bvh.sah_cost},
      {"build_ms", stats.bvh.build_ms},
      {"builder", stats.bvh.built ? bvh_builder_name(stats.bvh.builder) : ""},
      {"sort",
       stats.bvh.builder == BvhBuilder::lbvh ? primitives_backend_name(stats.bvh.sort) : ""},
      {"tree_bytes", stats.bvh.tree_bytes},
      {"primitive_bytes", stats.bvh.primitive_bytes},
      {"build_peak_bytes", stats.bvh.build_peak_bytes}};
  const StartupStats& st = stats.startup;
  j["startup_ms"] = {
      {"scene", st.scene_ms},     {"obj", st.obj_ms},       {"meshes", st.meshes_ms},
      {"context", st.context_ms}, {"device", st.device_ms}, {"prepare", st.prepare_ms},
      {"bvh", st.bvh_ms},         {"upload", st.upload_ms}, {"allocate", st.allocate_ms}};
  if (info.denoiser.empty()) {
    j["denoise"] = nullptr;
  } else {
    j["denoise"] = {{"filter", info.denoiser},
                    {"device", executor_kind_name(info.denoise_device)},
                    {"ms", info.denoise_ms},
                    {"transfer_ms", info.denoise_transfer_ms}};
  }
  j["encode_ms"] = info.encode_ms;
  j["elapsed_ms"] = info.elapsed_ms;
  j["timed_units"] = stats.timed_units;
  j["host_queue_ms"] = stats.host_queue_ms;
  j["stage_ms"] = OrderedJson::object();
  for (int k = 0; k < kStageCount; ++k) j["stage_ms"][kStageNames[k]] = s.stage_ms[k];
}

OrderedJson bounces_json(const RenderStats& stats) {
  const double passes = passes_rendered(stats);
  OrderedJson bounces = OrderedJson::array();
  for (const BounceStats& b : stats.bounces) {
    OrderedJson row;
    row["bounce"] = b.bounce;
    row["paths_in"] = b.paths_in;
    row["paths_out"] = b.paths_out;
    row["shadow_rays"] = b.shadow_rays;
    row["paths_in_per_frame"] = per(static_cast<double>(b.paths_in), passes);
    row["paths_out_per_frame"] = per(static_cast<double>(b.paths_out), passes);
    // Per bounce the frame schedule times every stage but the regeneration, which it has not.
    row["ms"] = OrderedJson::object();
    row["ms_per_frame"] = OrderedJson::object();
    for (int k = int(Stage::intersect); k < kStageCount; ++k) {
      row["ms"][kStageNames[k]] = b.stage_ms[k];
      row["ms_per_frame"][kStageNames[k]] = per(b.stage_ms[k], passes);
    }
    bounces.push_back(row);
  }
  return bounces;
}

OrderedJson shares_json(const RenderStats& stats) {
  OrderedJson shares = OrderedJson::array();
  for (const RenderStats& sh : stats.shares) {
    const RenderSummary ss = summarize(sh);
    shares.push_back({{"rank", sh.rank},
                      {"device_index", sh.device_index},
                      {"device", sh.device},
                      {"first_sample", sh.first_sample},
                      {"spp", sh.spp},
                      {"total_ms", sh.total_ms},
                      {"samples_per_second", ss.samples_per_second},
                      {"path_segments", sh.path_segments},
                      {"peak_device_bytes", sh.peak_device_bytes}});
  }
  return shares;
}

OrderedJson waves_json(const RenderStats& stats) {
  OrderedJson fill = OrderedJson::array();
  for (const WaveFillClass& c : wave_fill_classes(stats))
    fill.push_back({{"fill", c.name},
                    {"waves", c.waves},
                    {"paths", c.paths},
                    {"regenerated", c.regenerated},
                    {"ms", c.ms}});
  // Every wave as [live_in, regenerated, paths_out, ms (-1: not timed)].
  OrderedJson each = OrderedJson::array();
  for (const WaveStats& w : stats.waves)
    each.push_back({w.live_in, w.regenerated, w.paths_out, w.ms});
  return {{"count", stats.waves.size()}, {"by_fill", fill}, {"each", each}};
}

}  // namespace

void print_report(std::ostream& out, const RenderStats& stats, const RunInfo& info) {
  const RenderSummary s = summarize(stats);
  const double spp = passes_rendered(stats);
  print_settings(out, stats, info, spp);
  print_depth_table(out, stats, s, spp);
  print_waves(out, stats);
  print_stage_times(out, stats, s);
  print_shares(out, stats);
  out << "\n";
  print_totals(out, stats, s);
  print_startup(out, stats);
  print_run(out, stats, info);
}

std::string stats_json(const RenderStats& stats, const RunInfo& info) {
  const RenderSummary s = summarize(stats);
  OrderedJson j;
  add_settings_json(j, stats, info);
  add_totals_json(j, stats, s, info);
  j["bounces"] = bounces_json(stats);
  if (!stats.shares.empty()) {
    j["shares"] = shares_json(stats);
    j["wall_ms"] = stats.wall_ms;
  }
  if (stats.schedule == Schedule::stream) j["waves"] = waves_json(stats);
  return j.dump(2) + "\n";
}

}  // namespace raystream
