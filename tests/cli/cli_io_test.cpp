// The command line: option parsing, defaults from the scene, output path, progress bar text and
// the CPU sample budget.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/progress.h"
#include "cli/sample_budget.h"
#include "cli/warnings.h"
#include "io/scene/scene_loader.h"

namespace raystream {
namespace {

struct Parsed {
  std::optional<int> code;
  Options options;
  std::string out, err;
};

Parsed parse(std::vector<const char*> args) {
  args.insert(args.begin(), "raystream");
  Parsed p;
  std::ostringstream out, err;
  p.code = parse_options(static_cast<int>(args.size()), args.data(), "raystream 9.9 (own)",
                         p.options, out, err);
  p.out = out.str();
  p.err = err.str();
  return p;
}

Scene test_scene() {
  Scene s;
  s.camera.width = 320;
  s.camera.height = 200;
  s.iterations = 64;
  s.depth = 5;
  s.output_name = "box";
  return s;
}

TEST(Options, SceneAloneTakesEveryDefault) {
  const Parsed p = parse({"scenes/cornell.json"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(p.options.scene, "scenes/cornell.json");
  EXPECT_FALSE(p.options.spp);
  EXPECT_FALSE(p.options.depth);
  EXPECT_FALSE(p.options.resolution);
  EXPECT_FALSE(p.options.output);
  EXPECT_FALSE(p.options.sort_by_material);
  EXPECT_FALSE(p.options.compact);
  EXPECT_FALSE(p.options.stats);
  EXPECT_EQ(p.options.seed, 0u);
  EXPECT_EQ(p.options.device, DeviceChoice::automatic);
  EXPECT_FALSE(p.options.quiet);

  const RenderSettings s = settings_for(test_scene(), p.options, ExecutorKind::gpu);
  EXPECT_EQ(s.spp, 64);
  EXPECT_EQ(s.depth, 5);
  EXPECT_EQ(s.width, 320);
  EXPECT_EQ(s.height, 200);
  EXPECT_EQ(s.seed, 0u);
  EXPECT_EQ(s.sort_by_material, RenderSettings{}.sort_by_material);
  EXPECT_EQ(s.compact, RenderSettings{}.compact);
  EXPECT_EQ(s.executor, ExecutorKind::gpu);
  EXPECT_EQ(output_path_for(test_scene(), p.options), "renders/box.png");
}

TEST(Options, EveryOptionOverrides) {
  const Parsed p = parse({"s.json",       "--spp",     "12",       "--depth", "3",
                          "--resolution", "64x32",     "--output", "x/y.hdr", "--sort-by-material",
                          "on",           "--compact", "off",      "--seed",  "77",
                          "--device",     "cpu",       "--stats",  "s.json",  "--quiet"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(p.options.spp, 12);
  EXPECT_EQ(p.options.depth, 3);
  EXPECT_EQ(p.options.resolution, std::make_pair(64, 32));
  EXPECT_EQ(p.options.output, "x/y.hdr");
  EXPECT_EQ(p.options.sort_by_material, true);
  EXPECT_EQ(p.options.compact, false);
  EXPECT_EQ(p.options.seed, 77u);
  EXPECT_EQ(p.options.device, DeviceChoice::cpu);
  EXPECT_EQ(p.options.stats, "s.json");
  EXPECT_TRUE(p.options.quiet);

  const RenderSettings s = settings_for(test_scene(), p.options, ExecutorKind::cpu);
  EXPECT_EQ(s.spp, 12);
  EXPECT_EQ(s.depth, 3);
  EXPECT_EQ(s.width, 64);
  EXPECT_EQ(s.height, 32);
  EXPECT_TRUE(s.sort_by_material);
  EXPECT_FALSE(s.compact);
  EXPECT_EQ(s.seed, 77u);
  EXPECT_EQ(s.executor, ExecutorKind::cpu);
  EXPECT_EQ(output_path_for(test_scene(), p.options), "x/y.hdr");
}

TEST(Options, CompactChoosesHowEndedPathsAreRemoved) {
  const auto compaction = [](std::vector<const char*> args) {
    return settings_for(test_scene(), parse(args).options, ExecutorKind::gpu).compaction;
  };
  EXPECT_EQ(compaction({"s.json"}), Compaction::automatic);
  EXPECT_EQ(compaction({"s.json", "--compact", "on"}), Compaction::automatic);
  EXPECT_EQ(compaction({"s.json", "--compact", "fused"}), Compaction::fused);
  EXPECT_EQ(compaction({"s.json", "--compact", "separate"}), Compaction::separate);
  EXPECT_TRUE(settings_for(test_scene(), parse({"s.json", "--compact", "separate"}).options,
                           ExecutorKind::gpu)
                  .compact);
}

TEST(Options, OppositeSwitchesAndDevices) {
  Parsed p = parse({"s.json", "--sort-by-material", "off", "--compact", "on", "--device", "gpu"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(p.options.sort_by_material, false);
  EXPECT_EQ(p.options.compact, true);
  EXPECT_EQ(p.options.device, DeviceChoice::gpu);
  p = parse({"--device", "auto", "s.json", "-q"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(p.options.device, DeviceChoice::automatic);
  EXPECT_TRUE(p.options.quiet);
}

TEST(Options, HelpAndVersionExitZero) {
  Parsed p = parse({"--help"});
  EXPECT_EQ(p.code, 0);
  for (const char* option :
       {"--spp", "--depth", "--resolution", "--output", "--sort-by-material", "--compact", "--seed",
        "--device", "--stats", "--quiet", "--version", "Exit codes",
        // Issue 40, item 8: the scene may be a glTF asset ("Scene file (JSON)" said otherwise).
        "a JSON scene file, or a glTF 2.0 asset (.gltf, .glb)"}) {
    EXPECT_NE(p.out.find(option), std::string::npos) << option << " not in help:\n" << p.out;
  }
  p = parse({"--version"});
  EXPECT_EQ(p.code, 0);
  EXPECT_NE(p.out.find("raystream 9.9 (own)"), std::string::npos) << p.out;
}

TEST(Options, BadCommandLinesAreUsageErrors) {
  const std::vector<std::vector<const char*>> bad = {
      {},                        // no scene
      {"s.json", "--spp", "0"},  // non-positive spp
      {"s.json", "--spp", "-4"},
      {"s.json", "--spp", "many"},
      {"s.json", "--depth", "0"},
      {"s.json", "--resolution", "0x10"},
      {"s.json", "--resolution", "640"},
      {"s.json", "--resolution", "-640x480"},
      {"s.json", "--resolution", "100000x100000"},
      {"s.json", "--compact", "maybe"},
      {"s.json", "--sort-by-material", "yes"},
      {"s.json", "--device", "tpu"},
      {"s.json", "--seed", "x"},
      {"s.json", "--frobnicate"},
      {"s.json", "t.json"},  // two scenes
  };
  for (const auto& args : bad) {
    const Parsed p = parse(args);
    std::string line;
    for (const char* a : args) line += std::string(a) + " ";
    EXPECT_EQ(p.code, kExitUsageError) << line;
    EXPECT_NE(p.err.find("raystream: error:"), std::string::npos) << line << ": " << p.err;
    // Finding 9: one line (CLI11's errors used to take two).
    EXPECT_EQ(std::count(p.err.begin(), p.err.end(), '\n'), 1) << line << ": " << p.err;
    EXPECT_EQ(p.err.back(), '\n') << line << ": " << p.err;
  }
}

// Issue 40, item 7: an option given twice is our one line naming it (CLI11 said "At Most 1
// required but received 2").
TEST(Options, AnOptionGivenTwiceIsNamed) {
  Parsed p = parse({"s.json", "--spp", "1", "--spp", "2"});
  EXPECT_EQ(p.code, kExitUsageError);
  EXPECT_EQ(p.err, "raystream: error: --spp: given twice (give each option once)\n");
  p = parse({"s.json", "-o", "a.png", "--depth=3", "--output", "b.png"});
  EXPECT_EQ(p.code, kExitUsageError);
  EXPECT_EQ(p.err,
            "raystream: error: --output: given twice (as -o and --output) (give each option "
            "once)\n");
  p = parse({"s.json", "--depth=3", "--depth=4"});
  EXPECT_EQ(p.err, "raystream: error: --depth: given twice (give each option once)\n");
  // An option's value that looks like an option is its value; a flag may be repeated.
  p = parse({"s.json", "--output", "--spp", "--spp", "2", "-q", "-q"});
  EXPECT_FALSE(p.code) << p.err;
  EXPECT_EQ(p.options.output, std::optional<std::string>("--spp"));
}

// --help and --version win wherever they stand (CLI11 said "At Most 1 required but received 2"
// for --spp 1 --help --spp 2); an empty path is named (it was "error: : unsupported image type").
TEST(Options, HelpWinsAndEmptyPathsAreNamed) {
  Parsed p = parse({"s.json", "--spp", "1", "--help", "--spp", "2"});
  EXPECT_EQ(p.code, kExitOk);
  EXPECT_EQ(p.out.rfind("raystream: a wavefront path tracer", 0), 0u) << p.out;
  p = parse({"--spp", "1", "--version", "--spp", "2"});
  EXPECT_EQ(p.code, kExitOk);
  EXPECT_EQ(p.out, "raystream 9.9 (own)\n");
  p = parse({"s.json", "-o", ""});
  EXPECT_EQ(p.code, kExitUsageError);
  EXPECT_EQ(p.err,
            "raystream: error: --output: an empty path (name the image file, or - for "
            "stdout)\n");
  p = parse({"s.json", "--stats", ""});
  EXPECT_EQ(p.err,
            "raystream: error: --stats: an empty path (name a .json file, or - for stdout)\n");
  p = parse({"s.json", "--resume", ""});
  EXPECT_EQ(p.err,
            "raystream: error: --resume: an empty path (name the checkpoint to go on from)\n");
}

// Issue 40, item 7: repeated warnings are capped with a count (100000 unknown keys printed
// 100000 lines).
TEST(Warnings, EachKindIsCappedWithACount) {
  std::vector<std::string> warnings;
  for (int k = 0; k < 12; ++k)
    warnings.push_back("s.json: Objects[0].K" + std::to_string(k) + ": unknown key, ignored");
  warnings.insert(warnings.begin() + 3, "s.json: Materials.a.IOR: only ... have an IOR; ignored");
  warnings.push_back("x.obj: 2 faces skipped (out-of-range indices)");
  const std::vector<std::string> shown = capped_warnings(warnings, 5);
  ASSERT_EQ(shown.size(), 5u + 1u + 1u + 1u);
  EXPECT_EQ(shown[0], "s.json: Objects[0].K0: unknown key, ignored");
  EXPECT_EQ(shown[3], "s.json: Materials.a.IOR: only ... have an IOR; ignored");
  EXPECT_EQ(shown[5], "s.json: Objects[0].K4: unknown key, ignored");
  EXPECT_EQ(shown[6], "x.obj: 2 faces skipped (out-of-range indices)");
  EXPECT_EQ(shown[7], "s.json: 7 more warnings like the above (unknown key, ignored)");
  EXPECT_EQ(capped_warnings(warnings, 100), warnings);
}

// Finding 7: "--seed -1" became 2^64 - 1 and seeds past the range all clamped to it.
TEST(Options, SeedsOutOfRangeAreRejected) {
  for (const char* bad : {"-1", "1e3", "+5", " 5", "0x10", ""}) {
    const Parsed p = parse({"s.json", "--seed", bad});
    EXPECT_EQ(p.code, kExitUsageError) << bad;
    EXPECT_EQ(p.err, "raystream: error: --seed: '" + std::string(bad) +
                         "' is not an integer (decimal digits only, such as 16)\n")
        << bad;
  }
  for (const char* bad : {"18446744073709551616", "99999999999999999999999"}) {
    const Parsed p = parse({"s.json", "--seed", bad});
    EXPECT_EQ(p.code, kExitUsageError) << bad;
    EXPECT_EQ(p.err, "raystream: error: --seed: " + std::string(bad) +
                         " is out of range (0 to 18446744073709551615)\n");
  }
  Parsed p = parse({"s.json", "--seed", "18446744073709551615"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(p.options.seed, 18446744073709551615u);
  p = parse({"s.json", "--seed", "0"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(p.options.seed, 0u);
}

// Issue 34, item 7: --pool and --spp took "0x10" as 16 while --seed refused it, and "--pool abc"
// said "not in range". Every numeric option follows parse_integer's one rule.
TEST(Options, EveryNumberFollowsOneRule) {
  const struct {
    const char* option;
    const char* range;
  } options[] = {{"--spp", "1 to 1000000"},
                 {"--depth", "1 to 1024"},
                 {"--pool", "1 to 1073741824"},
                 {"--seed", "0 to 18446744073709551615"}};
  for (const auto& o : options) {
    for (const char* bad : {"0x10", "abc", "1e3", "-4", "+4", " 4", "4 ", "1.0", ""}) {
      const Parsed p = parse({"s.json", o.option, bad});
      EXPECT_EQ(p.code, kExitUsageError) << o.option << " " << bad;
      EXPECT_EQ(p.err, std::string("raystream: error: ") + o.option + ": '" + bad +
                           "' is not an integer (decimal digits only, such as 16)\n");
    }
    const std::string beyond =
        o.option == std::string("--seed") ? "18446744073709551616" : "99999999999";
    for (const std::string& far : {beyond, std::string(40, '9')}) {
      const Parsed p = parse({"s.json", o.option, far.c_str()});
      EXPECT_EQ(p.code, kExitUsageError) << o.option << " " << far;
      EXPECT_EQ(p.err, std::string("raystream: error: ") + o.option + ": " + far +
                           " is out of range (" + o.range + ")\n");
    }
    const Parsed p = parse({"s.json", o.option, "0016"});
    ASSERT_FALSE(p.code) << o.option << ": " << p.err;
  }
  Parsed p = parse({"s.json", "--pool", "0016", "--spp", "0016", "--depth", "0016"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(p.options.pool, 16u);
  EXPECT_EQ(p.options.spp, 16);
  EXPECT_EQ(p.options.depth, 16);
  p = parse({"s.json", "--spp", "0"});
  EXPECT_EQ(p.err, "raystream: error: --spp: 0 is out of range (1 to 1000000)\n");
  p = parse({"s.json", "--pool", "1073741825"});
  EXPECT_EQ(p.err, "raystream: error: --pool: 1073741825 is out of range (1 to 1073741824)\n");
  // The sides of --resolution and the numbers of --devices too.
  EXPECT_THROW(parse_resolution("0x10x20"), std::invalid_argument);
  for (const char* bad : {"0x10", "1e2x10", "+5x5", "5x 5"}) {
    p = parse({"s.json", "--resolution", bad});
    EXPECT_EQ(p.code, kExitUsageError) << bad;
  }
  p = parse({"s.json", "--devices", "0x1"});
  EXPECT_NE(p.err.find("'0x1' is not an integer"), std::string::npos) << p.err;
  EXPECT_EQ(parse_integer("007", 0, 10), 7u);
  EXPECT_EQ(parse_integer("0", 0, 10), 0u);
  EXPECT_THROW(parse_integer("-0", 0, 10), std::invalid_argument);
  EXPECT_THROW(parse_integer("11", 0, 10), std::invalid_argument);
}

TEST(Options, ResolutionParsing) {
  EXPECT_EQ(parse_resolution("1920x1080"), std::make_pair(1920, 1080));
  EXPECT_EQ(parse_resolution("1X1"), std::make_pair(1, 1));
  EXPECT_EQ(parse_resolution("8192x8192"), std::make_pair(8192, 8192));
  for (const char* bad : {"", "x", "10x", "x10", "10x10x10", "0x10", "10x0", "1.5x2", "a1x2",
                          "16385x1", "16384x16384", "99999999999x1"}) {
    EXPECT_THROW(parse_resolution(bad), std::invalid_argument) << bad;
  }
}

TEST(Options, OutputNameFromCameraFile) {
  Scene s = test_scene();
  Options o;
  s.output_name = "../elsewhere/shot";
  EXPECT_EQ(output_path_for(s, o), "renders/shot.png");
  s.output_name = "shot.hdr";
  EXPECT_EQ(output_path_for(s, o), "renders/shot.hdr");
  s.output_name = "shot.v2";
  EXPECT_EQ(output_path_for(s, o), "renders/shot.v2.png");
  s.output_name = "dir/";
  EXPECT_EQ(output_path_for(s, o), "renders/render.png");
  // Issue 40, item 8: the folders dropped are said (they went quietly).
  s.path = "scenes/x.json";
  s.output_name = "sub/dir/name";
  EXPECT_EQ(output_name_warning(s, o),
            "scenes/x.json: Camera.FILE: \"sub/dir/name\" is a name, not a path: the image goes to "
            "renders/name.png (its folders are dropped; --output names any path)");
  s.output_name = "name";
  EXPECT_EQ(output_name_warning(s, o), "");
  s.output_name = "sub/name";
  o.output = "elsewhere.png";
  EXPECT_EQ(output_name_warning(s, o), "");
}

// Issue 34, item 2: an output whose name gives no image type (-, /dev/stdout, a FIFO) takes
// --format; "-" is stdout.
TEST(Options, OutputFormatFromTheNameOrFormat) {
  Options o;
  EXPECT_EQ(output_format("a.png", o), ImageFormat::png);
  EXPECT_EQ(output_format("a.HDR", o), ImageFormat::hdr);
  EXPECT_EQ(output_format("a.pfm", o), ImageFormat::pfm);
  EXPECT_THROW(output_format("/dev/stdout", o), std::invalid_argument);
  EXPECT_THROW(output_format("a.jpg", o), std::invalid_argument);
  o.format = "hdr";
  EXPECT_EQ(output_format("/dev/stdout", o), ImageFormat::hdr);
  EXPECT_EQ(output_format("a.hdr", o), ImageFormat::hdr);
  try {
    output_format("a.png", o);
    ADD_FAILURE() << "a.png with --format hdr";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "a.png: the name says png but --format is hdr");
  }
  o.format = "png";
  EXPECT_EQ(output_format("/dev/null", o), ImageFormat::png);
  o.format = "pfm";
  EXPECT_EQ(output_format("-", o), ImageFormat::pfm);

  Parsed p = parse({"s.json", "-o", "-", "--format", "png", "--stats", "-"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(output_path_for(test_scene(), p.options), "/dev/stdout");
  EXPECT_EQ(stats_path_for(p.options), "/dev/stdout");
  p = parse({"s.json", "--format", "hdr"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(output_path_for(test_scene(), p.options), "renders/box.hdr");
  EXPECT_EQ(stats_path_for(p.options), "");
  p = parse({"s.json", "--format", "pfm"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(output_path_for(test_scene(), p.options), "renders/box.pfm");
  p = parse({"s.json", "--format", "exr"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(output_path_for(test_scene(), p.options), "renders/box.exr");
  EXPECT_EQ(output_format("-", p.options), ImageFormat::exr);
  EXPECT_EQ(parse({"s.json", "--format", "jpg"}).code, kExitUsageError);
}

TEST(Options, AovsTimeBudgetCheckpointsAndResume) {
  Parsed p = parse({"s.json", "-o", "a.exr", "--aov", "depth,albedo", "--time", "30",
                    "--checkpoint", "600", "--resume", "old.checkpoint"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_TRUE(p.options.aovs.depth && p.options.aovs.albedo);
  EXPECT_FALSE(p.options.aovs.normal || p.options.aovs.variance);
  EXPECT_EQ(p.options.time_s, 30);
  EXPECT_EQ(p.options.checkpoint_s, 600);
  EXPECT_EQ(p.options.resume, "old.checkpoint");
  EXPECT_EQ(output_format("a.exr", p.options), ImageFormat::exr);
  RenderSettings s = settings_for(test_scene(), p.options, ExecutorKind::cpu);
  EXPECT_EQ(s.time_budget_s, 30.0);
  EXPECT_EQ(s.checkpoint_interval_s, 600.0);
  EXPECT_TRUE(s.layers.first_hits);
  EXPECT_FALSE(s.layers.squares);
  // A budget without --spp: the budget ends the render, not the scene's ITERATIONS.
  EXPECT_EQ(s.spp, kMaxIterations);
  p = parse({"s.json", "--time", "5", "--spp", "9"});
  ASSERT_FALSE(p.code) << p.err;
  EXPECT_EQ(settings_for(test_scene(), p.options, ExecutorKind::cpu).spp, 9);
  p = parse({"s.json"});
  s = settings_for(test_scene(), p.options, ExecutorKind::cpu);
  EXPECT_EQ(s.time_budget_s, 0.0);
  EXPECT_EQ(s.checkpoint_interval_s, 0.0);
  EXPECT_FALSE(s.layers.first_hits || s.layers.squares);

  // The AOVs are layers of an EXR.
  try {
    p = parse({"s.json", "--aov", "variance"});
    output_format("out.png", p.options);
    ADD_FAILURE() << "--aov with a PNG";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "out.png: --aov adds layers to an EXR image; this one is png (name the "
                 "output .exr)");
  }
  // Bad values: one line naming the option.
  for (const std::vector<const char*>& bad :
       {std::vector<const char*>{"s.json", "--aov", "albedo,colour"},
        {"s.json", "--aov", ""},
        {"s.json", "--time", "0"},
        {"s.json", "--time", "1.5"},
        {"s.json", "--checkpoint", "-1"},
        {"s.json", "--checkpoint", "99999999999"}}) {
    const Parsed q = parse(bad);
    EXPECT_EQ(q.code, kExitUsageError) << bad[1] << " " << bad[2];
    EXPECT_EQ(q.err.rfind(std::string("raystream: error: ") + bad[1] + ": ", 0), 0u) << q.err;
    EXPECT_EQ(std::count(q.err.begin(), q.err.end(), '\n'), 1) << q.err;
  }

  // Where checkpoints go, and which one --resume reads, per process.
  EXPECT_EQ(checkpoint_path_for("renders/a.exr", 0, 1), "renders/a.exr.checkpoint");
  EXPECT_EQ(checkpoint_path_for("renders/a.exr", 2, 4), "renders/a.exr.checkpoint.rank2");
  EXPECT_EQ(checkpoint_path_for("/dev/stdout", 0, 1), "");
  EXPECT_EQ(resume_path_for("x.checkpoint", 0, 1), "x.checkpoint");
  EXPECT_EQ(resume_path_for("x.checkpoint", 1, 2), "x.checkpoint.rank1");
}

// A folder of its own under the system's temporary folder, removed at the end.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("raystream-cli-test-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string output_error(const std::string& image, const std::string& stats) {
  try {
    check_output_paths(image, stats);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// Issue 34, item 9: --stats onto the image through a symbolic link is the same problem as by
// name (a bad command line), and --stats writes JSON only into a .json file or through stdout, a
// FIFO or a device.
TEST(Options, OutputPathsAreCheckedBeforeRendering) {
  const TempDir dir;
  const std::string image = dir / "out.png";
  EXPECT_EQ(output_error(image, ""), "");
  EXPECT_EQ(output_error(image, dir / "stats.json"), "");
  EXPECT_EQ(output_error(image, dir / "STATS.JSON"), "");
  EXPECT_EQ(output_error(image, "/dev/stdout"), "");
  EXPECT_EQ(output_error(image, "/dev/null"), "");
  EXPECT_EQ(output_error(image, dir / "b.png"),
            dir / "b.png" + ": --stats writes JSON: name the file .json (or - for stdout)");
  EXPECT_EQ(output_error(image, dir / "stats"),
            dir / "stats" + ": --stats writes JSON: name the file .json (or - for stdout)");
  EXPECT_EQ(output_error(image, dir / "./out.png"),
            dir / "./out.png" + ": --stats and the image output name the same file");
  // Through a symbolic link to the image (which need not exist yet), named .json.
  std::filesystem::create_symlink("out.png", dir / "link.json");
  EXPECT_EQ(output_error(image, dir / "link.json"),
            dir / "link.json" + ": --stats and the image output name the same file");
  std::ofstream(image) << "old";
  EXPECT_EQ(output_error(image, dir / "link.json"),
            dir / "link.json" + ": --stats and the image output name the same file");
  // A hard link to it.
  std::filesystem::create_hard_link(image, dir / "hard.json");
  EXPECT_EQ(output_error(image, dir / "hard.json"),
            dir / "hard.json" + ": --stats and the image output name the same file");
  // Both through stdout.
  EXPECT_EQ(output_error("/dev/stdout", "/dev/stdout"),
            "/dev/stdout: --stats and the image output name the same file");
}

// Issue 34, item 6: a setting that changes nothing in this render says so, once.
TEST(Options, SettingsThatDoNothingGiveANotice) {
  const auto notices = [](std::vector<const char*> args, ExecutorKind executor) {
    const Parsed p = parse(std::move(args));
    EXPECT_FALSE(p.code) << p.err;
    return unused_setting_notices(p.options, settings_for(test_scene(), p.options, executor));
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(notices({"s.json", "--schedule", "frame", "--pool", "64"}, ExecutorKind::gpu),
            V{"--pool sizes the stream schedule's path pool; ignored by the frame schedule"});
  EXPECT_EQ(notices({"s.json", "--schedule", "megakernel", "--pool", "64"}, ExecutorKind::gpu),
            V{"--pool sizes the stream schedule's path pool; ignored by the megakernel schedule"});
  EXPECT_EQ(notices({"s.json", "--devices", "0,1"}, ExecutorKind::cpu),
            V{"--devices names GPUs; ignored by the CPU executor"});
  EXPECT_EQ(notices({"s.json", "--shade", "queues", "--sort-by-material", "on"}, ExecutorKind::gpu),
            V{"--sort-by-material: --shade queues splits the paths by lobe kind instead; ignored"});
  EXPECT_EQ(notices({"s.json", "--shade", "single", "--sort-by-material", "on"}, ExecutorKind::gpu),
            V{});
  EXPECT_EQ(notices({"s.json", "--schedule", "megakernel", "--shade", "queues"}, ExecutorKind::gpu),
            V{"--shade: the megakernel shades each path in place; ignored"});
  EXPECT_EQ(notices({"s.json", "--schedule", "megakernel", "--sort-by-material", "on"},
                    ExecutorKind::gpu),
            V{"--sort-by-material: the megakernel does not sort; ignored"});
  EXPECT_EQ(
      notices({"s.json", "--schedule", "megakernel", "--stage-timing", "all"}, ExecutorKind::gpu),
      V{"--stage-timing: the megakernel has no stages (its frames are always timed); "
        "ignored"});
  EXPECT_EQ(notices({"s.json", "--compact", "off"}, ExecutorKind::gpu),
            V{"--compact off: the stream schedule always compacts; ignored"});
  EXPECT_EQ(notices({"s.json", "--schedule", "frame", "--compact", "fused"}, ExecutorKind::gpu),
            V{"--compact fused: the frame schedule compacts in a separate pass after every "
              "bounce; ignored"});
  EXPECT_EQ(notices({"s.json", "--compact", "separate"}, ExecutorKind::gpu), V{});
  EXPECT_EQ(notices({"s.json", "--schedule", "megakernel", "--compact", "on"}, ExecutorKind::gpu),
            V{"--compact: the megakernel keeps no path list to compact; ignored"});
  // What does something says nothing.
  EXPECT_EQ(notices({"s.json", "--pool", "64", "--shade", "single", "--sort-by-material",
                     "multisplit", "--stage-timing", "all"},
                    ExecutorKind::gpu),
            V{});
  EXPECT_EQ(notices({"s.json", "--schedule", "frame", "--compact", "off", "--shade", "single",
                     "--sort-by-material", "on", "--devices", "0,1"},
                    ExecutorKind::gpu),
            V{});
  EXPECT_EQ(notices({"s.json", "--schedule", "megakernel", "--sort-by-material", "off"},
                    ExecutorKind::gpu),
            V{});
}

TEST(Progress, ClockText) {
  EXPECT_EQ(clock_text(0), "0:00");
  EXPECT_EQ(clock_text(61.4), "1:01");
  EXPECT_EQ(clock_text(3725), "1:02:05");
  EXPECT_EQ(clock_text(-1), "--:--");
  EXPECT_EQ(clock_text(1.0 / 0.0), "--:--");
}

TEST(Progress, LineShowsSamplesElapsedEtaAndRate) {
  // 25 of 100 frames of 1e6 samples each in 10 s: 2.5 Msamples/s, 30 s to go.
  const std::string line = progress_line(25, 100, 10.0, 1e6, 20);
  EXPECT_EQ(line, "[#####...............] 25/100 spp  elapsed 0:10  ETA 0:30  2.50 Msamples/s");
  EXPECT_EQ(progress_line(0, 8, 0.0, 1e6, 4),
            "[....] 0/8 spp  elapsed 0:00  ETA --:--  0.00 Msamples/s");
  EXPECT_EQ(progress_line(8, 8, 4.0, 1e6, 4),
            "[####] 8/8 spp  elapsed 0:04  ETA 0:00  2.00 Msamples/s");
  // A time budget of 40 s: 10 s spent is a quarter of the bar, and 30 s remain however many
  // samples are left (the budget ends the render first).
  EXPECT_EQ(progress_line(2, 1000000, 10.0, 1e6, 4, 40.0),
            "[#...] 2/1000000 spp  elapsed 0:10  ETA 0:30  0.20 Msamples/s");
  EXPECT_EQ(progress_line(0, 1000000, 0.0, 1e6, 4, 40.0),
            "[....] 0/1000000 spp  elapsed 0:00  ETA 0:40  0.00 Msamples/s");
}

TEST(SampleBudget, FramesWithinBudget) {
  EXPECT_EQ(frames_within_budget(0.5, 60.0, 5000), 120);
  EXPECT_EQ(frames_within_budget(0.7, 60.0, 5000), 85);   // floor(85.7)
  EXPECT_EQ(frames_within_budget(0.01, 60.0, 100), 100);  // never more than the scene asks
  EXPECT_EQ(frames_within_budget(120.0, 60.0, 100), 1);   // at least one
  EXPECT_EQ(frames_within_budget(2.0, -5.0, 100), 1);
  EXPECT_EQ(frames_within_budget(0.0, 60.0, 100), 100);  // unmeasurably fast
}

// A trial frame's set-up (the BVH build of 2M triangles: one second) is not a frame's time: the
// frames are its render loop's. Counted as a frame, one second gave 57 frames where thousands fit.
TEST(SampleBudget, TheSetUpIsNotAFrame) {
  EXPECT_EQ(frames_after_trial(0.25, 1.25, 100000), 231);  // (60 - 1.25 - 1) / 0.25
  EXPECT_EQ(frames_after_trial(0.5, 0.5, 5000), 119);      // no set-up: (60 - 0.5) / 0.5
  EXPECT_EQ(frames_after_trial(0.02, 1.04, 500), 500);     // never more than the scene asks
  EXPECT_EQ(frames_after_trial(0.02, 70.0, 500), 1);       // at least one
}

}  // namespace
}  // namespace raystream
