// Checkpoint files: written and read back whole, every corruption refused, a checkpoint of
// another render refused naming the difference, and the scene fingerprint that tells scenes
// apart by their content.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "integrator/api/render.h"
#include "io/checkpoint/checkpoint_file.h"
#include "render_test_scenes.h"
#include "scene/scene_error.h"
#include "scene/scene_fingerprint.h"
#include "temp_folder.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;

class CheckpointFiles : public test::TempFolderTest {
 protected:
  CheckpointFiles() : TempFolderTest("raystream_checkpoint_test_") {}
  std::string error_of(const std::string& file) {
    try {
      read_checkpoint(file);
    } catch (const SceneError& e) {
      return e.what();
    }
    return "(no error)";
  }
};

Checkpoint sample_checkpoint(bool layers) {
  Checkpoint c;
  c.key.version = "9.9.9";
  c.key.scene = "scenes/box.json";
  c.key.scene_hash = 0x1234567890abcdefull;
  RenderSettings settings;
  settings.width = 3;
  settings.height = 2;
  settings.depth = 5;
  settings.spp = 16;
  settings.seed = 42;
  settings.nee = false;
  c.key.settings = image_settings(settings);
  c.key.process = 1;
  c.key.processes = 2;
  c.next_samples = {40, 96};
  c.film = empty_film(3, 2, FilmLayers{layers, layers});
  for (std::size_t k = 0; k < c.film.sums.size(); ++k) c.film.sums[k] = 0.5f * float(k) + 1e-7f;
  for (std::size_t k = 0; k < c.film.counts.size(); ++k) c.film.counts[k] = std::uint32_t(k + 7);
  for (std::size_t k = 0; k < c.film.squares.size(); ++k) c.film.squares[k] = float(k * k);
  for (std::size_t k = 0; k < c.film.first_hits.size(); ++k) c.film.first_hits[k] = -float(k);
  return c;
}

TEST_F(CheckpointFiles, WrittenAndReadBackWhole) {
  for (const bool layers : {false, true}) {
    const Checkpoint c = sample_checkpoint(layers);
    write_checkpoint(path("a.checkpoint"), c.key, c.film, c.next_samples);
    const Checkpoint r = read_checkpoint(path("a.checkpoint"));
    EXPECT_EQ(r.key.version, "9.9.9");
    EXPECT_EQ(r.key.scene, "scenes/box.json");
    EXPECT_EQ(r.key.scene_hash, c.key.scene_hash);
    EXPECT_EQ(r.key.settings, c.key.settings);
    EXPECT_EQ(r.key.process, 1);
    EXPECT_EQ(r.key.processes, 2);
    EXPECT_EQ(r.next_samples, c.next_samples);
    EXPECT_EQ(r.film.width, 3);
    EXPECT_EQ(r.film.height, 2);
    EXPECT_EQ(r.film.sums, c.film.sums);
    EXPECT_EQ(r.film.counts, c.film.counts);
    EXPECT_EQ(r.film.squares, c.film.squares);
    EXPECT_EQ(r.film.first_hits, c.film.first_hits);
    EXPECT_NO_THROW(check_checkpoint(r, c.key, "a.checkpoint"));
  }
}

TEST_F(CheckpointFiles, EveryCorruptionIsRefusedNamingTheFile) {
  const Checkpoint sample = sample_checkpoint(true);
  write_checkpoint(path("good"), sample.key, sample.film, sample.next_samples);
  std::ifstream in(path("good"), std::ios::binary);
  const std::vector<unsigned char> good((std::istreambuf_iterator<char>(in)),
                                        std::istreambuf_iterator<char>());
  ASSERT_GT(good.size(), 100u);
  // Cut anywhere, or any byte changed: refused.
  for (std::size_t cut = 0; cut < good.size(); cut += 7) {
    write(path("cut"), std::vector<unsigned char>(good.begin(), good.begin() + long(cut)));
    const std::string e = error_of(path("cut"));
    EXPECT_EQ(e.rfind(path("cut") + ": ", 0), 0u) << e;
    EXPECT_TRUE(e.find("corrupt checkpoint") != std::string::npos ||
                e.find("not a raystream checkpoint") != std::string::npos)
        << cut << ": " << e;
  }
  for (std::size_t at = 21; at < good.size(); at += 5) {
    std::vector<unsigned char> bad = good;
    bad[at] ^= 0x10;
    write(path("flipped"), bad);
    const std::string e = error_of(path("flipped"));
    EXPECT_NE(e, "(no error)") << "byte " << at;
  }
  write(path("text"), std::vector<unsigned char>{'h', 'e', 'l', 'l', 'o'});
  EXPECT_EQ(error_of(path("text")), path("text") + ": not a raystream checkpoint");
  // Another format version.
  std::vector<unsigned char> other = good;
  other[21] = 99;
  write(path("format"), other);
  EXPECT_EQ(error_of(path("format")),
            path("format") + ": a checkpoint of format 99 (this raystream reads format 2)");
  EXPECT_EQ(error_of(path("missing")).rfind(path("missing") + ": cannot open the checkpoint", 0),
            0u);
}

TEST(Checkpoints, ARenderOfOtherSettingsIsRefusedNamingTheDifference) {
  const Checkpoint c = sample_checkpoint(false);
  const auto refusal = [&](auto change) {
    CheckpointKey k = c.key;
    change(k);
    try {
      check_checkpoint(c, k, "x.checkpoint");
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  const std::string tail = "; it resumes only the render that wrote it";
  EXPECT_EQ(refusal([](CheckpointKey& k) { k.version = "1.0.0"; }),
            "x.checkpoint: a checkpoint of raystream 9.9.9 (this is 1.0.0)" + tail);
  EXPECT_EQ(refusal([](CheckpointKey& k) {
              k.scene_hash ^= 1;
              k.scene = "scenes/other.json";
            }),
            "x.checkpoint: a checkpoint of another scene (written for scenes/box.json)" + tail);
  // Issue 40, item 7: the same scene file, edited since ("another scene ... written for" the
  // same path said nothing).
  EXPECT_EQ(refusal([](CheckpointKey& k) { k.scene_hash ^= 1; }),
            "x.checkpoint: the scene scenes/box.json changed since the checkpoint was written (its "
            "content differs)" +
                tail);
  // Each setting's refusal is worded from its entry in the list: its name and both texts.
  const auto with = [](const char* name, const char* text) {
    return [=](CheckpointKey& k) {
      for (auto& [n, t] : k.settings)
        if (n == name) t = text;
    };
  };
  EXPECT_EQ(refusal(with("width", "4")),
            "x.checkpoint: a checkpoint of width 3 (this render's is 4)" + tail);
  EXPECT_EQ(refusal(with("seed", "1")),
            "x.checkpoint: a checkpoint of seed 42 (this render's is 1)" + tail);
  EXPECT_EQ(refusal(with("--spp", "8")),
            "x.checkpoint: a checkpoint of --spp 16 (this render's is 8)" + tail);
  EXPECT_EQ(refusal(with("depth", "4")),
            "x.checkpoint: a checkpoint of depth 5 (this render's is 4)" + tail);
  EXPECT_EQ(refusal(with("--integrator", "path")),
            "x.checkpoint: a checkpoint of --integrator bsdf (this render's is path)" + tail);
  // A setting the checkpoint does not know (written by another list) is refused too.
  EXPECT_EQ(refusal([](CheckpointKey& k) { k.settings.emplace_back("new", "1"); }),
            "x.checkpoint: a checkpoint of new (none) (this render's is 1)" + tail);
  EXPECT_EQ(refusal([](CheckpointKey& k) { k.process = 0; }),
            "x.checkpoint: a checkpoint of process 1 of 2 (this is process 0 of 2)" + tail);
  // The scene's path is for messages only: a moved scene file resumes.
  EXPECT_EQ(refusal([](CheckpointKey& k) { k.scene = "elsewhere/box.json"; }), "(accepted)");
}

// Every setting of the list is compared: a change to any refuses the checkpoint.
TEST(Checkpoints, EverySettingThatChangesTheImageIsCompared) {
  const Checkpoint c = sample_checkpoint(false);
  for (std::size_t i = 0; i < c.key.settings.size(); ++i) {
    CheckpointKey other = c.key;
    other.settings[i].second += "0";
    EXPECT_THROW(check_checkpoint(c, other, "x.checkpoint"), SceneError) << other.settings[i].first;
  }
}

TEST(Checkpoints, SceneFingerprintFollowsTheContentNotTheNames) {
  const Scene scene = test::box_scene();
  const std::uint64_t h = scene_fingerprint(scene);
  EXPECT_EQ(scene_fingerprint(test::box_scene()), h);
  Scene renamed = scene;
  renamed.path = "elsewhere.json";
  renamed.materials[1].name = "chalk";
  EXPECT_EQ(scene_fingerprint(renamed), h);
  Scene changed = scene;
  changed.materials[1].color.x = 0.81f;
  EXPECT_NE(scene_fingerprint(changed), h);
  changed = scene;
  changed.objects[3].translation.y += 1e-3f;
  EXPECT_NE(scene_fingerprint(changed), h);
  changed = scene;
  changed.camera.fovy_degrees = 44.0f;
  EXPECT_NE(scene_fingerprint(changed), h);
  changed = scene;
  changed.triangles.push_back(Triangle{});
  EXPECT_NE(scene_fingerprint(changed), h);
  Scene moved = changed;
  moved.triangles.back().v[2].z = 1.0f;
  EXPECT_NE(scene_fingerprint(moved), scene_fingerprint(changed));
  changed = scene;
  changed.environment.present = true;
  changed.environment.constant = glm::vec3(1.0f);
  EXPECT_NE(scene_fingerprint(changed), h);
}

}  // namespace
}  // namespace raystream
