// The end-of-run report: derived numbers, the table on stdout and the --stats JSON.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "io/files/atomic_file.h"
#include "stats/report.h"

namespace raystream {
namespace {

// A frame-schedule render: two samples per pixel of 10 x 5 pixels, depth 3, one timed frame.
RenderStats sample_stats() {
  RenderStats s;
  s.schedule = Schedule::frame;
  s.timing = StageTiming::sampled;
  s.backend = PrimitivesBackend::own;
  s.executor = ExecutorKind::gpu;
  s.device = "Test GPU";
  s.spp = 2;
  s.width = 10;
  s.height = 5;
  s.depth = 3;
  s.pool = 50;
  // bounce, paths in, out, shadow rays, ms by stage (regenerate, intersect, sort, shade, shadow,
  // compact)
  s.bounces = {{0, 100, 60, 20, {0.0, 4.0, 1.0, 2.0, 1.0, 0.5}},
               {1, 60, 20, 8, {0.0, 2.0, 0.5, 1.0, 0.5, 0.25}},
               {2, 20, 0, 0, {0.0, 1.0, 0.25, 0.5, 0.0, 0.125}}};
  s.nee = true;
  s.sort_by_material = true;
  s.compact = false;
  s.shadow_rays = 28;
  s.frame_ms = {30.0, 10.0};
  s.timed_units = 1;
  // The stage totals are the per-bounce sums.
  s.stage_ms[int(Stage::intersect)] = 7.0;
  s.stage_ms[int(Stage::sort)] = 1.75;
  s.stage_ms[int(Stage::shade)] = 3.5;
  s.stage_ms[int(Stage::shadow)] = 1.5;
  s.stage_ms[int(Stage::compact)] = 0.875;
  s.total_ms = 40.0;
  s.path_segments = 180;
  s.peak_device_bytes = 3 * 1024 * 1024;
  return s;
}

WaveStats wave(std::uint64_t live_in, std::uint64_t regenerated, std::uint64_t paths_out,
               double ms) {
  WaveStats w;
  w.live_in = live_in;
  w.regenerated = regenerated;
  w.paths_out = paths_out;
  w.ms = ms;
  return w;
}

// A stream-schedule render of the same image through a pool of 60 slots: five waves, two of them
// with timed stages.
RenderStats stream_stats() {
  RenderStats s = sample_stats();
  s.schedule = Schedule::stream;
  s.compact = true;
  s.compaction = Compaction::fused;
  s.pool = 60;
  s.frame_ms.clear();
  for (BounceStats& b : s.bounces)
    b.ms(Stage::intersect) = b.ms(Stage::sort) = b.ms(Stage::shade) = b.ms(Stage::compact) = 0.0;
  // Fill: 100%, 100%, 70%, 30%, 5%.
  s.waves = {wave(0, 60, 45, 2.0), wave(45, 15, 40, 1.5), wave(40, 2, 18, 1.0), wave(18, 0, 3, 0.5),
             wave(3, 0, 0, 0.25)};
  s.waves[0].stages_timed = true;
  s.waves[3].stages_timed = true;
  s.timed_units = 2;
  const double stage_ms[kStageCount] = {0.5, 2.0, 0.0, 1.0, 0.0, 0.5};  // no shadow rays
  for (int k = 0; k < kStageCount; ++k) s.stage_ms[k] = stage_ms[k];
  return s;
}

RunInfo sample_info() {
  RunInfo info;
  info.version = "1.2.3";
  info.binary_backend = PrimitivesBackend::own;
  info.scene = "scenes/box.json";
  info.output = "renders/box.png";
  info.seed = 9;
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
  EXPECT_DOUBLE_EQ(s.ms(Stage::intersect), 7.0);
  EXPECT_DOUBLE_EQ(s.ms(Stage::sort), 1.75);
  EXPECT_DOUBLE_EQ(s.ms(Stage::shade), 3.5);
  EXPECT_DOUBLE_EQ(s.ms(Stage::compact), 0.875);
  EXPECT_DOUBLE_EQ(s.ms(Stage::regenerate), 0.0);
  EXPECT_DOUBLE_EQ(summarize(stream_stats()).ms(Stage::regenerate), 0.5);
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

// Expects every string of `needles` in `text`.
void expect_has(const std::string& text, std::initializer_list<std::string> needles) {
  for (const std::string& s : needles)
    EXPECT_NE(text.find(s), std::string::npos) << "\"" << s << "\" not in:\n" << text;
}

TEST(Report, FrameTableHasEveryDepthWithPerSampleAverages) {
  std::ostringstream out;
  print_report(out, sample_stats(), sample_info());
  const std::string text = out.str();
  expect_has(
      text,
      {"scenes/box.json: 10 x 5, 2 samples per pixel, depth 3, integrator path, schedule frame "
       "(compact off), sort by material on, seed 9\n",
       "per depth, average per sample per pixel (stage ms from 1 timed frame):\n",
       " depth     paths in    paths out  kept %  shadow rays intersect ms    sort ms   shade ms  "
       "shadow ms  compact ms\n",
       // Depth 0: 100 paths in over 2 samples per pixel = 50 per sample; 60 out = 30; 60% kept;
       // 4 ms intersect over 2 samples = 2 ms per sample, and so on.
       // Shadow rays 20, 8, 0 over 2 samples; shadow ms 1.0, 0.5, 0.
       "     0           50           30    60.0           10        2.000      0.500      1.000"
       "      0.500       0.250\n",
       "     1           30           10    33.3            4        1.000      0.250      0.500"
       "      0.250       0.125\n",
       "     2           10            0     0.0            0        0.500      0.125      0.250"
       "      0.000       0.062\n",
       "   all           90           40" + std::string(19, ' ') +
           "14        3.500      0.875      1.750      0.750       0.438\n",
       "frame time        mean 20.000 ms, median 20.000 ms (min 10.000, max 30.000)",
       "samples/s         2.500 k/s", "path segments/s   4.500 k/s (180 segments)",
       "peak GPU memory   3.0 MiB (3145728 bytes)", "backend           own\n",
       "executor          gpu (Test GPU)", "image             renders/box.png"});
  // The wave table and the stage line belong to the stream schedule.
  EXPECT_EQ(text.find("waves by fill"), std::string::npos) << text;
  EXPECT_EQ(text.find("stage ms (from"), std::string::npos) << text;
}

TEST(Report, StreamReportHasTheWaveTableAndTheStageLine) {
  std::ostringstream out;
  print_report(out, stream_stats(), sample_info());
  const std::string text = out.str();
  expect_has(
      text,
      {"scenes/box.json: 10 x 5, 2 samples per pixel, depth 3, integrator path, schedule stream "
       "(pool 60, fused compaction), sort by material on, seed 9\n",
       "per depth, average per sample per pixel:\n",
       " depth     paths in    paths out  kept %  shadow rays\n",
       "     0           50           30    60.0           10\n",
       "     2           10            0     0.0            0\n",
       "waves by fill of the pool: 5 waves\n",
       "    fill    waves        paths    regenerated       GPU ms   time %\n",
       // Fills 100% and 100%; 70%; 30%; 5%. GPU ms of all waves: 5.25.
       "  >= 90%        2          120             75        3.500     66.7\n",
       "  50-90%        1           42              2        1.000     19.0\n",
       "  10-50%        1           18              0        0.500      9.5\n",
       "   < 10%        1            3              0        0.250      4.8\n",
       "stage ms (from 2 timed waves): regenerate 0.500 (12.5%), intersect 2.000 (50.0%), "
       "sort 0.000 (0.0%), shade 1.000 (25.0%), shadow 0.000 (0.0%), compact 0.500 (12.5%)\n",
       "total time        0.040 s\n"});
  // Frame times and per-depth stage times do not exist in a stream render.
  EXPECT_EQ(text.find("frame time"), std::string::npos) << text;
  EXPECT_EQ(text.find("intersect ms"), std::string::npos) << text;
  EXPECT_EQ(text.find("compact on"), std::string::npos) << text;  // the frame schedule's switch
}

TEST(Report, StreamReportWithTimingOff) {
  RenderStats stats = stream_stats();
  stats.timing = StageTiming::off;
  stats.timed_units = 0;
  for (WaveStats& w : stats.waves) {
    w.ms = -1;
    w.stages_timed = false;
  }
  for (double& ms : stats.stage_ms) ms = 0;
  std::ostringstream out;
  print_report(out, stats, sample_info());
  const std::string text = out.str();
  expect_has(text, {"waves by fill of the pool: 5 waves (wave times off)\n",
                    "  >= 90%        2          120             75        0.000      0.0\n"});
  EXPECT_EQ(text.find("stage ms (from"), std::string::npos) << text;
  const auto j = nlohmann::json::parse(stats_json(stats, sample_info()));
  EXPECT_EQ(j["stage_timing"], "off");
  EXPECT_EQ(j["waves"]["each"][0], nlohmann::json::array({0, 60, 45, -1.0}));
}

// Issue 34, item 3: the header and the JSON say what ran (RenderStats), not what was asked: a
// multisplit that fell back to the radix sort is "on", and only a multisplit that ran is
// "multisplit".
TEST(Report, SortByMaterialIsWhatRan) {
  RenderStats stats = stream_stats();
  for (const auto& [sort, multisplit, text] : {std::tuple{false, false, "sort by material off"},
                                               {true, false, "sort by material on"},
                                               {true, true, "sort by material multisplit"}}) {
    stats.sort_by_material = sort;
    stats.material_multisplit = multisplit;
    std::ostringstream out;
    print_report(out, stats, sample_info());
    EXPECT_NE(out.str().find(std::string(text) + ", seed 9\n"), std::string::npos) << out.str();
    const auto j = nlohmann::json::parse(stats_json(stats, sample_info()));
    EXPECT_EQ(j["sort_by_material"], sort);
    EXPECT_EQ(j["material_multisplit"], multisplit);
    EXPECT_EQ(j["compact"], true);
    EXPECT_EQ(j["compaction"], "fused");
    EXPECT_EQ(j["state_bytes"].size(), 4u);
  }
}

// Issue 34, item 13: the wave table's times are the executor's: "CPU ms" on the CPU.
TEST(Report, WaveTableNamesTheExecutorsTime) {
  RenderStats stats = stream_stats();
  stats.executor = ExecutorKind::cpu;
  std::ostringstream out;
  print_report(out, stats, sample_info());
  expect_has(out.str(), {"    fill    waves        paths    regenerated       CPU ms   time %\n"});
  EXPECT_EQ(out.str().find("GPU ms"), std::string::npos) << out.str();
}

TEST(Report, WaveFillClasses) {
  const std::vector<WaveFillClass> classes = wave_fill_classes(stream_stats());
  ASSERT_EQ(classes.size(), 4u);
  const char* names[4] = {">= 90%", "50-90%", "10-50%", "< 10%"};
  const std::uint64_t waves[4] = {2, 1, 1, 1}, paths[4] = {120, 42, 18, 3},
                      regenerated[4] = {75, 2, 0, 0};
  const double ms[4] = {3.5, 1.0, 0.5, 0.25};
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE(names[k]);
    EXPECT_STREQ(classes[k].name, names[k]);
    EXPECT_EQ(classes[k].waves, waves[k]);
    EXPECT_EQ(classes[k].paths, paths[k]);
    EXPECT_EQ(classes[k].regenerated, regenerated[k]);
    EXPECT_DOUBLE_EQ(classes[k].ms, ms[k]);
  }
  // Boundaries: exactly 90% is full, exactly 50% and 10% belong to the class above.
  RenderStats edges = stream_stats();
  edges.pool = 100;
  edges.waves = {wave(90, 0, 0, 1.0), wave(50, 0, 0, 1.0), wave(10, 0, 0, 1.0), wave(9, 0, 0, 1.0)};
  const std::vector<WaveFillClass> e = wave_fill_classes(edges);
  for (int k = 0; k < 4; ++k) EXPECT_EQ(e[k].waves, 1u) << names[k];
  // No pool (megakernel): no classes filled.
  RenderStats none = stream_stats();
  none.pool = 0;
  for (const WaveFillClass& c : wave_fill_classes(none)) EXPECT_EQ(c.waves, 0u);
}

TEST(Report, CpuRunNamesTheBinarysBackendToo) {
  RenderStats stats = sample_stats();
  stats.backend = PrimitivesBackend::cpu;
  stats.executor = ExecutorKind::cpu;
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
  EXPECT_EQ(j["spp"], 2);
  EXPECT_EQ(j["frames"], 2);  // the former name of spp, kept for scripts
  EXPECT_EQ(j["schedule"], "frame");
  EXPECT_EQ(j["pool"], 50);
  EXPECT_EQ(j["stage_timing"], "sampled");
  EXPECT_EQ(j["timed_units"], 1);
  EXPECT_FALSE(j.contains("waves"));  // stream schedule only
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
  EXPECT_EQ(j["stage_ms"]["regenerate"], 0.0);
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

// Issue 40, item 8: docs/report.md lists the --stats fields "in this order": it must be the order
// the JSON has (timed_units came before host_queue_ms, bounces[].ms_per_frame had an undocumented
// shadow), and samples is an integer, as film_samples is (it was written 1005884.0).
TEST(Report, TheDocumentedFieldsAreTheJsonsInItsOrder) {
  std::ifstream in("docs/report.md");
  ASSERT_TRUE(in) << "run from the source folder";
  std::vector<std::string> documented;                     // top-level names, in the table's order
  std::map<std::string, std::vector<std::string>> braces;  // "bounces[].ms": its {a,b,...}
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line.rfind("## Stats JSON", 0) == 0) in_table = true;
    if (!in_table) continue;
    if (line.rfind("A render split across", 0) == 0) break;  // the second table: shares
    if (line.rfind("| `", 0) != 0) continue;
    const std::string cell = line.substr(2, line.find(" |", 2) - 2);
    for (std::size_t at = cell.find('`'); at != std::string::npos;
         at = cell.find('`', cell.find('`', at + 1) + 1)) {
      const std::string name = cell.substr(at + 1, cell.find('`', at + 1) - at - 1);
      if (name.empty() || name[0] == '.') continue;  // a sibling of the name before it
      const std::string top = name.substr(0, name.find_first_of(".["));
      if (documented.empty() || documented.back() != top) documented.push_back(top);
      const std::size_t open = name.find(".{");
      if (open != std::string::npos)
        braces[name.substr(0, open)] = {name.substr(open + 2, name.size() - open - 3)};
    }
  }
  const auto j = nlohmann::ordered_json::parse(stats_json(stream_stats(), sample_info()));
  std::vector<std::string> written;
  for (const auto& item : j.items()) written.push_back(item.key());
  EXPECT_EQ(documented, written);
  for (const char* field : {"ms", "ms_per_frame"}) {
    std::string keys;
    for (const auto& item : j["bounces"][0][field].items())
      keys += (keys.empty() ? "" : ",") + item.key();
    EXPECT_EQ(braces["bounces[]." + std::string(field)], std::vector<std::string>{keys}) << field;
  }
  EXPECT_TRUE(j["samples"].is_number_integer()) << j["samples"];
  EXPECT_TRUE(j["film_samples"].is_number_integer());
}

TEST(Report, StreamJsonHasTheWaves) {
  const RenderStats stats = stream_stats();
  const auto j = nlohmann::json::parse(stats_json(stats, sample_info()));
  EXPECT_EQ(j["schedule"], "stream");
  EXPECT_EQ(j["pool"], 60);
  EXPECT_EQ(j["spp"], 2);
  EXPECT_EQ(j["timed_units"], 2);
  EXPECT_EQ(j["stage_ms"]["regenerate"], 0.5);
  EXPECT_EQ(j["stage_ms"]["intersect"], 2.0);
  EXPECT_EQ(j["frame_ms"]["each"], nlohmann::json::array());
  ASSERT_TRUE(j.contains("waves"));
  EXPECT_EQ(j["waves"]["count"], stats.waves.size());
  ASSERT_EQ(j["waves"]["each"].size(), stats.waves.size());
  EXPECT_EQ(j["waves"]["each"][0], nlohmann::json::array({0, 60, 45, 2.0}));
  EXPECT_EQ(j["waves"]["each"][2], nlohmann::json::array({40, 2, 18, 1.0}));
  EXPECT_EQ(j["waves"]["each"][4], nlohmann::json::array({3, 0, 0, 0.25}));
  ASSERT_EQ(j["waves"]["by_fill"].size(), 4u);
  const auto& full = j["waves"]["by_fill"][0];
  EXPECT_EQ(full["fill"], ">= 90%");
  EXPECT_EQ(full["waves"], 2);
  EXPECT_EQ(full["paths"], 120);
  EXPECT_EQ(full["regenerated"], 75);
  EXPECT_EQ(full["ms"], 3.5);
  EXPECT_EQ(j["waves"]["by_fill"][3]["fill"], "< 10%");
  EXPECT_EQ(j["waves"]["by_fill"][3]["waves"], 1);
}

TEST(Report, StatsFileIsWrittenOrClearlyRefused) {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("raystream-report-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string file = (dir / "stats.json").string();
  const std::string text = stats_json(sample_stats(), sample_info());
  write_file_atomically(file, std::vector<unsigned char>(text.begin(), text.end()));
  std::ifstream in(file);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["spp"], 2);
  EXPECT_THROW(write_file_atomically((dir / "missing" / "stats.json").string(), {'{', '}'}),
               OutputError);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace raystream
