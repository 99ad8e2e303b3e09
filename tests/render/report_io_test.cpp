// The end-of-run report: derived numbers, the table on stdout and the --stats JSON.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "film/atomic_file.h"
#include "stats/report.h"

namespace raystream {
namespace {

// Two frames of 10 x 5 pixels, three bounces.
RenderStats sample_stats() {
  RenderStats s;
  s.backend = "own";
  s.executor = "gpu";
  s.device = "Test GPU";
  s.frames = 2;
  s.width = 10;
  s.height = 5;
  s.depth = 3;
  s.bounces = {{0, 100, 60, 4.0, 1.0, 2.0, 0.5},
               {1, 60, 20, 2.0, 0.5, 1.0, 0.25},
               {2, 20, 0, 1.0, 0.25, 0.5, 0.125}};
  s.frame_ms = {30.0, 10.0};
  s.total_ms = 40.0;
  s.path_segments = 180;
  s.peak_device_bytes = 3 * 1024 * 1024;
  return s;
}

RunInfo sample_info() {
  RunInfo info;
  info.version = "1.2.3";
  info.binary_backend = "own";
  info.scene = "scenes/box.json";
  info.output = "renders/box.png";
  info.seed = 9;
  info.sort_by_material = true;
  info.compact = false;
  return info;
}

TEST(Report, Summary) {
  const RenderSummary s = summarize(sample_stats());
  EXPECT_DOUBLE_EQ(s.frame_ms_mean, 20.0);
  EXPECT_DOUBLE_EQ(s.frame_ms_median, 20.0);  // even count: mean of the middle two
  EXPECT_DOUBLE_EQ(s.frame_ms_min, 10.0);
  EXPECT_DOUBLE_EQ(s.frame_ms_max, 30.0);
  EXPECT_DOUBLE_EQ(s.seconds, 0.04);
  EXPECT_DOUBLE_EQ(s.samples_per_second, 2 * 10 * 5 / 0.04);  // 2500
  EXPECT_DOUBLE_EQ(s.path_segments_per_second, 180 / 0.04);   // 4500
  EXPECT_DOUBLE_EQ(s.intersect_ms, 7.0);
  EXPECT_DOUBLE_EQ(s.sort_ms, 1.75);
  EXPECT_DOUBLE_EQ(s.shade_ms, 3.5);
  EXPECT_DOUBLE_EQ(s.compact_ms, 0.875);
}

TEST(Report, MedianOfOddCount) {
  RenderStats stats = sample_stats();
  stats.frame_ms = {5.0, 1.0, 3.0};
  EXPECT_DOUBLE_EQ(summarize(stats).frame_ms_median, 3.0);
}

TEST(Report, EmptyStatsGiveZeroesNotNan) {
  const RenderStats empty;
  const RenderSummary s = summarize(empty);
  EXPECT_EQ(s.frame_ms_mean, 0.0);
  EXPECT_EQ(s.frame_ms_median, 0.0);
  EXPECT_EQ(s.samples_per_second, 0.0);
  EXPECT_EQ(s.path_segments_per_second, 0.0);
  std::ostringstream out;
  print_report(out, empty, RunInfo{});
  EXPECT_EQ(out.str().find("nan"), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find("inf"), std::string::npos) << out.str();
  const auto j = nlohmann::json::parse(stats_json(empty, RunInfo{}));
  EXPECT_EQ(j["samples_per_second"], 0.0);
}

TEST(Report, TableHasEveryBounceWithPerFrameAverages) {
  std::ostringstream out;
  print_report(out, sample_stats(), sample_info());
  const std::string text = out.str();
  const auto has = [&](const std::string& s) {
    EXPECT_NE(text.find(s), std::string::npos) << "\"" << s << "\" not in:\n" << text;
  };
  has("scenes/box.json: 10 x 5, 2 frames");
  has("sort by material on, compact off, seed 9");
  has("bounce     paths in    paths out  kept % intersect ms    sort ms   shade ms  compact ms");
  // Bounce 0: 100 paths in over 2 frames = 50 per frame; 60 out = 30; 60% kept;
  // 4 ms intersect over 2 frames = 2 ms per frame, and so on.
  has("     0           50           30    60.0        2.000      0.500      1.000       0.250");
  has("     1           30           10    33.3        1.000      0.250      0.500       0.125");
  has("     2           10            0     0.0        0.500      0.125      0.250       0.062");
  has("   all           90" + std::string(29, ' ') + "3.500      0.875      1.750       0.438");
  has("totals over 2 frames: paths in 180, paths out 80, intersect 7.000 ms, sort 1.750 ms, "
      "shade 3.500 ms, compact 0.875 ms");
  has("frame time        mean 20.000 ms, median 20.000 ms (min 10.000, max 30.000)");
  has("samples/s         2.500 k/s");
  has("path segments/s   4.500 k/s (180 segments)");
  has("peak GPU memory   3.0 MiB (3145728 bytes)");
  has("backend           own\n");
  has("executor          gpu (Test GPU)");
  has("image             renders/box.png");
}

TEST(Report, CpuRunNamesTheBinarysBackendToo) {
  RenderStats stats = sample_stats();
  stats.backend = "cpu";
  stats.executor = "cpu";
  std::ostringstream out;
  print_report(out, stats, sample_info());
  EXPECT_NE(out.str().find("backend           cpu (binary built with own)\n"), std::string::npos)
      << out.str();
  const auto j = nlohmann::json::parse(stats_json(stats, sample_info()));
  EXPECT_EQ(j["backend"], "cpu");
  EXPECT_EQ(j["binary_backend"], "own");
}

TEST(Report, JsonHasTheSameNumbers) {
  const auto j = nlohmann::json::parse(stats_json(sample_stats(), sample_info()));
  EXPECT_EQ(j["version"], "1.2.3");
  EXPECT_EQ(j["scene"], "scenes/box.json");
  EXPECT_EQ(j["output"], "renders/box.png");
  EXPECT_EQ(j["backend"], "own");
  EXPECT_EQ(j["binary_backend"], "own");
  EXPECT_EQ(j["executor"], "gpu");
  EXPECT_EQ(j["device"], "Test GPU");
  EXPECT_EQ(j["width"], 10);
  EXPECT_EQ(j["height"], 5);
  EXPECT_EQ(j["frames"], 2);
  EXPECT_EQ(j["depth"], 3);
  EXPECT_EQ(j["seed"], 9);
  EXPECT_EQ(j["sort_by_material"], true);
  EXPECT_EQ(j["compact"], false);
  EXPECT_EQ(j["total_ms"], 40.0);
  EXPECT_EQ(j["frame_ms"]["mean"], 20.0);
  EXPECT_EQ(j["frame_ms"]["median"], 20.0);
  EXPECT_EQ(j["frame_ms"]["min"], 10.0);
  EXPECT_EQ(j["frame_ms"]["max"], 30.0);
  EXPECT_EQ(j["frame_ms"]["each"], nlohmann::json::array({30.0, 10.0}));
  EXPECT_EQ(j["samples_per_second"], 2500.0);
  EXPECT_EQ(j["path_segments"], 180);
  EXPECT_EQ(j["path_segments_per_second"], 4500.0);
  EXPECT_EQ(j["peak_device_bytes"], 3 * 1024 * 1024);
  EXPECT_EQ(j["stage_ms"]["intersect"], 7.0);
  EXPECT_EQ(j["stage_ms"]["sort"], 1.75);
  EXPECT_EQ(j["stage_ms"]["shade"], 3.5);
  EXPECT_EQ(j["stage_ms"]["compact"], 0.875);
  ASSERT_EQ(j["bounces"].size(), 3u);
  const auto& b1 = j["bounces"][1];
  EXPECT_EQ(b1["bounce"], 1);
  EXPECT_EQ(b1["paths_in"], 60);
  EXPECT_EQ(b1["paths_out"], 20);
  EXPECT_EQ(b1["paths_in_per_frame"], 30.0);
  EXPECT_EQ(b1["paths_out_per_frame"], 10.0);
  EXPECT_EQ(b1["ms"]["intersect"], 2.0);
  EXPECT_EQ(b1["ms"]["sort"], 0.5);
  EXPECT_EQ(b1["ms"]["shade"], 1.0);
  EXPECT_EQ(b1["ms"]["compact"], 0.25);
  EXPECT_EQ(b1["ms_per_frame"]["intersect"], 1.0);
  EXPECT_EQ(b1["ms_per_frame"]["sort"], 0.25);
  EXPECT_EQ(b1["ms_per_frame"]["shade"], 0.5);
  EXPECT_EQ(b1["ms_per_frame"]["compact"], 0.125);
}

TEST(Report, StatsFileIsWrittenOrClearlyRefused) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("raystream-report-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string file = (dir / "stats.json").string();
  write_stats_json(file, sample_stats(), sample_info());
  std::ifstream in(file);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["frames"], 2);
  EXPECT_THROW(
      write_stats_json((dir / "missing" / "stats.json").string(), sample_stats(), sample_info()),
      OutputError);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace raystream
