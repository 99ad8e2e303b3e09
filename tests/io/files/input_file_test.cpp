// Input files: the scene, OBJ and MTL files, textures and environment maps must be regular files
// within their kind's size cap. A FIFO or a device is refused at once: each load runs in a child
// process with an alarm and a memory limit, so a load that waits on a FIFO or reads /dev/zero
// without end fails the test instead of hanging it.
#include "io/files/input_file.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "io/image/environment_reader.h"
#include "io/image/image_reader.h"
#include "io/scene/obj_loader.h"
#include "io/scene/scene_loader.h"
#include "temp_folder.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;

#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "expected \"" << (needle) << "\" in \"" << (haystack) << "\""

// A folder of the test's own, removed at the end.
class TempDir : public test::TempDir {
 public:
  TempDir() : test::TempDir("raystream-input-file-test-") {}
};

// Runs `load` in a child process limited to 10 s and 1 GiB: exit 2 with the SceneError message
// on stderr, 0 when it loads. (AddressSanitizer maps terabytes of shadow memory up front, so a
// sanitized build keeps the time limit only.)
void load_in_child(const std::function<void()>& load) {
  ::alarm(10);
#if !defined(__SANITIZE_ADDRESS__)
  const rlimit memory{rlim_t(1) << 30, rlim_t(1) << 30};
  ::setrlimit(RLIMIT_AS, &memory);
#endif
  try {
    load();
  } catch (const SceneError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::fflush(stderr);
    std::_Exit(2);
  }
  std::_Exit(0);
}

#define EXPECT_REFUSED(load, message) \
  EXPECT_EXIT(load_in_child(load), ::testing::ExitedWithCode(2), message)

const std::string kMaterials = R"("light": {"TYPE": "Emitting", "RGB": [1, 1, 1], "EMITTANCE": 5},
  "white": {"TYPE": "Diffuse", "RGB": [0.5, 0.5, 0.5]})";
const std::string kCamera = R"("Camera": {"RES": [8, 8], "FOVY": 45, "ITERATIONS": 1,
  "DEPTH": 2, "EYE": [0, 0, 5], "LOOKAT": [0, 0, 0], "UP": [0, 1, 0]})";

std::string scene_text(const std::string& extra_material, const std::string& objects,
                       const std::string& environment = "") {
  return "{\"Materials\": {" + kMaterials + extra_material + "},\n" + kCamera +
         ",\n\"Objects\": [{\"TYPE\": \"sphere\", \"MATERIAL\": \"light\"}" + objects + "]" +
         environment + "}\n";
}

const std::string kObj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n";

TEST(InputFile, SceneThatIsAFifoOrADeviceIsRefused) {
  TempDir dir;
  const std::string fifo = dir.fifo("scene.json");
  EXPECT_REFUSED([&] { load_scene(fifo); }, "scene.json: is not a regular file \\(a FIFO\\)");
  if (fs::exists("/dev/zero")) {
    EXPECT_REFUSED([] { load_scene("/dev/zero"); },
                   "^/dev/zero: is not a regular file \\(a character device\\), expected a scene "
                   "file\n$");
  }
}

TEST(InputFile, ObjAndMtlThatAreFifosAreRefused) {
  TempDir dir;
  dir.fifo("fifo.obj");
  const std::string scene =
      dir.file("obj.json", scene_text("", R"(, {"TYPE": "mesh", "FILE": "fifo.obj"})"));
  EXPECT_REFUSED([&] { load_scene(scene); },
                 "Objects\\[1\\]\\.FILE: .*fifo.obj: is not a regular file \\(a FIFO\\), "
                 "expected an? OBJ file");

  dir.fifo("fifo.mtl");
  dir.file("mesh.obj", "mtllib fifo.mtl\nusemtl m\n" + kObj);
  const std::string with_mtl =
      dir.file("mtl.json", scene_text("", R"(, {"TYPE": "mesh", "FILE": "mesh.obj"})"));
  EXPECT_REFUSED([&] { load_scene(with_mtl); },
                 "fifo.mtl: is not a regular file \\(a FIFO\\), expected an? MTL file");
}

TEST(InputFile, TexturesThatAreFifosOrDevicesAreRefused) {
  TempDir dir;
  dir.fifo("fifo.png");
  const std::string scene = dir.file(
      "texture.json",
      scene_text(R"(, "wood": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "TEXTURE": "fifo.png"})", ""));
  EXPECT_REFUSED([&] { load_scene(scene); },
                 "Materials.wood.TEXTURE: .*fifo.png: is not a regular file \\(a FIFO\\)");

  dir.file("mesh.mtl", "newmtl m\nKd 1 1 1\nmap_Kd fifo.png\n");
  dir.file("mesh.obj", "mtllib mesh.mtl\nusemtl m\n" + kObj);
  const std::string mesh =
      dir.file("map_kd.json", scene_text("", R"(, {"TYPE": "mesh", "FILE": "mesh.obj"})"));
  EXPECT_REFUSED([&] { load_scene(mesh); },
                 "mesh.mtl:3: map_Kd: .*fifo.png: is not a regular file \\(a FIFO\\)");

  if (fs::exists("/dev/zero")) {
    EXPECT_REFUSED([] { load_texture_image("/dev/zero"); },
                   "^/dev/zero: is not a regular file \\(a character device\\), expected an "
                   "image file\n$");
  }
}

TEST(InputFile, EnvironmentMapThatIsAFifoIsRefused) {
  TempDir dir;
  dir.fifo("sky.hdr");
  const std::string scene =
      dir.file("sky.json", scene_text("", "", R"(, "Environment": {"FILE": "sky.hdr"})"));
  EXPECT_REFUSED([&] { load_scene(scene); },
                 "Environment.FILE: .*sky.hdr: is not a regular file \\(a FIFO\\)");
}

TEST(InputFile, ReadsRegularFilesWhole) {
  TempDir dir;
  const std::string text(100000, 'x');
  EXPECT_EQ(read_input_file(dir.file("a.txt", text), kSceneFile), text);
  EXPECT_EQ(read_input_file(dir.file("empty.txt", ""), kSceneFile), "");
}

TEST(InputFile, SizeCapsAreEnforced) {
  TempDir dir;
  const InputKind small{"test file", "a test file", 10};
  EXPECT_EQ(read_input_file(dir.file("ten", "0123456789"), small), "0123456789");
  try {
    read_input_file(dir.file("eleven", "0123456789a"), small);
    ADD_FAILURE() << "an 11-byte file passed a cap of 10";
  } catch (const SceneError& e) {
    EXPECT_CONTAINS(e.what(), "eleven: the test file is too large (11 bytes; at most 10)");
  }
  // A file whose size stat does not know (/proc) is held to the cap while it is read.
  if (fs::exists("/proc/self/status")) {
    try {
      read_input_file("/proc/self/status", small);
      ADD_FAILURE() << "/proc/self/status passed a cap of 10 bytes";
    } catch (const SceneError& e) {
      EXPECT_CONTAINS(e.what(), "/proc/self/status: the test file is too large (more than 10");
    }
  }
  // The scene's cap, on a sparse file: refused by its size, before anything is read.
  const std::string big = dir.path("big.json");
  fs::resize_file(dir.file("big.json", "{"), kSceneFile.max_bytes + 1);
  try {
    load_scene(big);
    ADD_FAILURE() << "a scene file over the cap loaded";
  } catch (const SceneError& e) {
    EXPECT_CONTAINS(e.what(), big + ": the scene file is too large (" +
                                  std::to_string(kSceneFile.max_bytes + 1) + " bytes; at most " +
                                  std::to_string(kSceneFile.max_bytes) + ")");
  }
}

TEST(InputFile, MissingFilesAndFoldersNameTheKind) {
  TempDir dir;
  try {
    read_input_file(dir.path("none.obj"), kObjFile);
    ADD_FAILURE();
  } catch (const SceneError& e) {
    EXPECT_CONTAINS(e.what(), "none.obj: cannot open the OBJ file: No such file or directory");
  }
  try {
    read_input_file(dir.path(""), kImageFile);
    ADD_FAILURE();
  } catch (const SceneError& e) {
    EXPECT_CONTAINS(e.what(), ": is a directory, expected an image file");
  }
}

// Issue 40, item 2: the files a load reads are recorded (kind, path, device and inode), so that no
// output of the render replaces one; logs nest.
TEST(InputFileLog, ScenesListTheirInputs) {
  std::vector<std::string> warnings;
  const std::string scene_path = "tests/data/environment_sky.json";
  const Scene scene = load_scene(scene_path, warnings);
  ASSERT_EQ(scene.inputs.size(), 2u);
  EXPECT_EQ(scene.inputs[0].kind, "scene file");
  EXPECT_EQ(scene.inputs[0].path, scene_path);
  EXPECT_EQ(scene.inputs[1].kind, "environment map");
  EXPECT_EQ(scene.inputs[1].path, "scenes/sky.hdr");
  struct stat st {};
  ASSERT_EQ(::stat("scenes/sky.hdr", &st), 0);
  EXPECT_EQ(scene.inputs[1].device, std::uint64_t(st.st_dev));
  EXPECT_EQ(scene.inputs[1].inode, std::uint64_t(st.st_ino));
  // Nested logs: the inner one's files reach the outer one.
  InputFileLog outer;
  {
    InputFileLog inner;
    read_input_file("scenes/sky.hdr", kEnvironmentFile);
    EXPECT_EQ(inner.files().size(), 1u);
  }
  read_input_file(scene_path, kSceneFile);
  ASSERT_EQ(outer.files().size(), 2u);
  EXPECT_EQ(outer.files()[1].kind, "scene file");
}

}  // namespace
}  // namespace raystream
