// The scene loader: every key of the course format, every error with its file, key and line.
#include "io/scene/scene_loader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace raystream {
namespace {

const char* kData = "tests/data/";

// A valid scene; tests replace parts of it to make one thing wrong at a time.
std::string scene_text(const std::string& materials, const std::string& camera,
                       const std::string& objects) {
  return "{\n\"Materials\": {" + materials + "},\n\"Camera\": {" + camera + "},\n\"Objects\": [" +
         objects + "]\n}\n";
}

const std::string kMaterials =
    R"("light": {"TYPE": "Emitting", "RGB": [1, 1, 1], "EMITTANCE": 5},
       "white": {"TYPE": "Diffuse", "RGB": [0.5, 0.5, 0.5]})";
const std::string kCamera =
    R"("RES": [64, 48], "FOVY": 45, "ITERATIONS": 10, "DEPTH": 5, "FILE": "t",
       "EYE": [0, 5, 10], "LOOKAT": [0, 5, 0], "UP": [0, 1, 0])";
const std::string kObjects =
    R"({"TYPE": "cube", "MATERIAL": "light", "TRANS": [0, 10, 0], "SCALE": [3, 0.3, 3]},
       {"TYPE": "sphere", "MATERIAL": "white"})";

Scene parse(const std::string& text, std::vector<std::string>* warnings_out = nullptr) {
  std::vector<std::string> warnings;
  Scene s = parse_scene(text, "scene.json", warnings);
  if (warnings_out) *warnings_out = warnings;
  return s;
}

// The SceneError message of parsing `text`; fails the test when parsing succeeds.
std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const SceneError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no SceneError for:\n" << text;
  return "";
}

#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "expected \"" << (needle) << "\" in \"" << (haystack) << "\""

TEST(SceneLoader, ReadsEveryKey) {
  std::vector<std::string> warnings;
  const Scene s = load_scene(std::string(kData) + "every_key.json", warnings);
  // The one warning: a ROUGHNESS on a material other than Specular or Refractive is ignored.
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_CONTAINS(warnings[0], "Materials.plain.ROUGHNESS");
  EXPECT_CONTAINS(warnings[0], "only Specular, Refractive, Plastic and Pbr materials are rough");
  EXPECT_EQ(s.path, std::string(kData) + "every_key.json");

  ASSERT_EQ(s.materials.size(), 6u);
  // Materials keep the file's order (ids follow it), whatever their names.
  EXPECT_EQ(s.materials[0].name, "lamp");
  EXPECT_EQ(s.materials[0].type, MaterialType::emitting);
  EXPECT_EQ(s.materials[0].color, glm::vec3(1.0f, 0.9f, 0.8f));
  EXPECT_FLOAT_EQ(s.materials[0].emittance, 7.5f);
  EXPECT_EQ(s.materials[1].name, "chalk");
  EXPECT_EQ(s.materials[1].type, MaterialType::diffuse);
  EXPECT_EQ(s.materials[1].color, glm::vec3(0.25f, 0.5f, 0.75f));
  EXPECT_FLOAT_EQ(s.materials[1].emittance, 0.0f);
  EXPECT_EQ(s.materials[2].type, MaterialType::specular);
  EXPECT_FLOAT_EQ(s.materials[2].roughness, 0.25f);
  EXPECT_EQ(s.materials[3].type, MaterialType::refractive);
  EXPECT_FLOAT_EQ(s.materials[3].ior, 1.33f);
  EXPECT_FLOAT_EQ(s.materials[3].roughness, 0.5f);
  EXPECT_EQ(s.materials[3].color, glm::vec3(0.9f, 1.0f, 0.9f));
  // "Dielectric" is accepted for Refractive; RGB defaults to white there; IOR to 1.5.
  EXPECT_EQ(s.materials[4].name, "a_glass");
  EXPECT_EQ(s.materials[4].type, MaterialType::refractive);
  EXPECT_EQ(s.materials[4].color, glm::vec3(1.0f));
  EXPECT_FLOAT_EQ(s.materials[4].ior, 1.5f);
  // TYPE is case-insensitive. EMISSION makes a reflecting surface emit; TWO_SIDED false.
  EXPECT_EQ(s.materials[5].type, MaterialType::diffuse);
  EXPECT_EQ(s.materials[5].emission, glm::vec3(1.0f, 2.0f, 3.0f));
  EXPECT_FALSE(s.materials[5].two_sided);
  EXPECT_TRUE(s.materials[0].two_sided);
  EXPECT_EQ(s.materials[0].emission, glm::vec3(0.0f));  // Emitting: RGB x EMITTANCE instead

  const Camera& c = s.camera;
  EXPECT_EQ(c.width, 40);
  EXPECT_EQ(c.height, 30);
  EXPECT_FLOAT_EQ(c.fovy_degrees, 50.0f);
  EXPECT_EQ(s.iterations, 7);
  EXPECT_EQ(s.depth, 6);
  EXPECT_EQ(s.output_name, "every");
  EXPECT_EQ(c.eye, glm::vec3(1.0f, 2.0f, 3.0f));
  EXPECT_EQ(c.lookat, glm::vec3(1.0f, 2.0f, -3.0f));
  EXPECT_EQ(c.up, glm::vec3(0.0f, 1.0f, 0.0f));
  EXPECT_FLOAT_EQ(c.lens_radius, 0.125f);
  EXPECT_FLOAT_EQ(c.focal_distance, 6.0f);

  ASSERT_EQ(s.objects.size(), 3u);
  EXPECT_EQ(s.objects[0].shape, ShapeType::cube);
  EXPECT_EQ(s.objects[0].material, 0);
  EXPECT_EQ(s.objects[0].translation, glm::vec3(0.0f, 10.0f, -1.0f));
  EXPECT_EQ(s.objects[0].rotation_degrees, glm::vec3(10.0f, 20.0f, 30.0f));
  EXPECT_EQ(s.objects[0].scale, glm::vec3(3.0f, 0.5f, 2.0f));
  EXPECT_EQ(s.objects[1].shape, ShapeType::sphere);
  EXPECT_EQ(s.objects[1].material, 3);
  // TRANS, ROTAT and SCALE default to the identity transform.
  EXPECT_EQ(s.objects[2].material, 4);
  EXPECT_EQ(s.objects[2].translation, glm::vec3(0.0f));
  EXPECT_EQ(s.objects[2].rotation_degrees, glm::vec3(0.0f));
  EXPECT_EQ(s.objects[2].scale, glm::vec3(1.0f));
}

TEST(SceneLoader, ShippedScenesLoadWithoutWarnings) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator("scenes")) {
    if (entry.path().extension() != ".json") continue;
    ++count;
    std::vector<std::string> warnings;
    const Scene s = load_scene(entry.path().string(), warnings);
    EXPECT_TRUE(warnings.empty()) << entry.path() << ": " << warnings.front();
    EXPECT_FALSE(s.objects.empty() && s.triangles.empty()) << entry.path();
    EXPECT_EQ(s.output_name, entry.path().stem().string()) << entry.path();
  }
  EXPECT_GE(count, 4);
}

TEST(SceneLoader, ReadmeExampleLoads) {
  // The complete example in the README's scene format section stays valid.
  std::ifstream in("README.md");
  ASSERT_TRUE(in) << "README.md not found from " << std::filesystem::current_path();
  const std::string readme{std::istreambuf_iterator<char>(in), {}};
  const std::size_t section = readme.find("### Scene format");
  ASSERT_NE(section, std::string::npos);
  const std::size_t begin = readme.find("```json\n", section);
  ASSERT_NE(begin, std::string::npos);
  const std::size_t end = readme.find("```", begin + 8);
  ASSERT_NE(end, std::string::npos);
  std::vector<std::string> warnings;
  const Scene s = parse_scene(readme.substr(begin + 8, end - begin - 8), "README.md", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  EXPECT_EQ(s.materials.size(), 4u);
  EXPECT_EQ(s.objects.size(), 4u);
  EXPECT_EQ(s.output_name, "example");
}

TEST(SceneLoader, CornellIsTheCourseScene) {
  const Scene s = load_scene("scenes/cornell.json");
  EXPECT_EQ(s.camera.width, 800);
  EXPECT_EQ(s.camera.height, 800);
  EXPECT_EQ(s.depth, 8);
  EXPECT_EQ(s.output_name, "cornell");
}

TEST(SceneLoader, FileDefaultsToTheSceneFileName) {
  std::string camera = kCamera;
  camera.replace(camera.find(R"("FILE": "t",)"), 12, "");
  std::vector<std::string> warnings;
  const Scene s =
      parse_scene(scene_text(kMaterials, camera, kObjects), "dir/my.scene.json", warnings);
  EXPECT_EQ(s.output_name, "my.scene");
}

TEST(SceneLoader, CommentsAreAllowed) {
  const Scene s = parse("// a comment\n" + scene_text(kMaterials, kCamera, kObjects));
  EXPECT_EQ(s.objects.size(), 2u);
}

TEST(SceneLoader, MissingFileNamesTheFile) {
  std::vector<std::string> warnings;
  try {
    load_scene("tests/data/there_is_no_such_scene.json", warnings);
    FAIL() << "no error for a missing file";
  } catch (const SceneError& e) {
    EXPECT_CONTAINS(e.what(), "tests/data/there_is_no_such_scene.json");
    EXPECT_CONTAINS(e.what(), "cannot open");
  }
}

TEST(SceneLoader, FolderIsNotAScene) {
  std::vector<std::string> warnings;
  EXPECT_THROW(load_scene("tests/data", warnings), SceneError);
}

TEST(SceneLoader, MalformedJsonReportsLineAndColumn) {
  // The second comma of line 2 is column 19: two spaces, "Camera" in quotes (8), ':' and a
  // space, then '[1, 2,' ends at 18.
  const std::string text = "{\n  \"Camera\": [1, 2,, 3]\n}\n";
  const std::string e = error_of(text);
  EXPECT_CONTAINS(e, "scene.json:2:19: malformed JSON");
}

TEST(SceneLoader, MalformedJsonFileReportsLineAndColumn) {
  // tests/data/malformed.json lacks the comma after "FOVY": 45, so the string
  // "ITERATIONS" on line 9 is unexpected; nlohmann reports the position where that token ends,
  // its closing quote in column 16 (4 spaces, the quote, 10 letters, the quote).
  std::vector<std::string> warnings;
  try {
    load_scene(std::string(kData) + "malformed.json", warnings);
    FAIL() << "no error for malformed JSON";
  } catch (const SceneError& e) {
    EXPECT_CONTAINS(e.what(), "tests/data/malformed.json:9:16: malformed JSON");
  }
}

TEST(SceneLoader, ColumnsCountCharactersNotBytes) {
  // "é" is two bytes in UTF-8 but one column: the stray '}' of line 2 is its 9th character
  // (quote, c, a, f, é, quote, colon, space, brace) and its 10th byte.
  EXPECT_CONTAINS(error_of("{\n\"caf\xc3\xa9\": }"), "scene.json:2:9: malformed JSON");
}

TEST(SceneLoader, MalformedJsonOnFirstLineAndAtEnd) {
  EXPECT_CONTAINS(error_of("{\"Materials\" {}}"), "scene.json:1:14: malformed JSON");
  EXPECT_CONTAINS(error_of(""), "scene.json:1:");
  EXPECT_CONTAINS(error_of("{\n\"Materials\": {\n"), "scene.json:3:");
}

TEST(SceneLoader, NanAndInfinityLiteralsAreMalformed) {
  // JSON has no NaN or Infinity: such files fail as malformed, naming the position.
  std::string camera = kCamera;
  camera.replace(camera.find("45"), 2, "NaN");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, camera, kObjects)), "malformed JSON");
  camera = kCamera;
  camera.replace(camera.find("45"), 2, "Infinity");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, camera, kObjects)), "malformed JSON");
}

TEST(SceneLoader, NumbersThatOverflowFloatAreRejected) {
  std::string camera = kCamera;
  camera.replace(camera.find("45"), 2, "1e39");
  std::string e = error_of(scene_text(kMaterials, camera, kObjects));
  EXPECT_CONTAINS(e, "scene.json: Camera.FOVY:");
  EXPECT_CONTAINS(e, "too large");
  // 1e400 overflows even a double: the message gives its line and column. The text's lines are
  // "{", then the two lines of kMaterials, then the two of kCamera: EYE is on line 5.
  camera = kCamera;
  camera.replace(camera.find("[0, 5, 10]"), 10, "[0, 5, 1e400]");
  const std::string text = scene_text(kMaterials, camera, kObjects);
  e = error_of(text);
  const std::size_t at = text.find("1e400");
  const std::size_t line_start = text.rfind('\n', at) + 1;
  const std::string expected =
      "scene.json:5:" + std::to_string(at - line_start + 1) + ": number out of range";
  EXPECT_CONTAINS(e, expected);
  EXPECT_CONTAINS(e, "1e400");
  EXPECT_EQ(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'), 4);
  std::string objects = kObjects;
  objects.replace(objects.find("[3, 0.3, 3]"), 11, "[3, -1e39, 3]");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, kCamera, objects)), "Objects[0].SCALE[1]");
}

TEST(SceneLoader, DuplicateKeysAreErrors) {
  // Two materials of one name: nlohmann would keep one silently.
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials + R"(, "white": {"TYPE": "Diffuse", "RGB": [1, 0, 0]})",
                          kCamera, kObjects)),
      "scene.json: Materials: duplicate key \"white\"");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, kCamera + R"(, "FOVY": 30)", kObjects)),
                  "scene.json: Camera: duplicate key \"FOVY\"");
  EXPECT_CONTAINS(error_of(scene_text(
                      kMaterials, kCamera,
                      kObjects + R"(, {"TYPE": "cube", "TYPE": "sphere", "MATERIAL": "white"})")),
                  "scene.json: Objects[2]: duplicate key \"TYPE\"");
  EXPECT_CONTAINS(error_of("{\"Objects\": [], " + scene_text(kMaterials, kCamera, "").substr(1)),
                  "scene.json: the top level: duplicate key \"Objects\"");
  // The same key in different objects is fine.
  EXPECT_EQ(parse(scene_text(kMaterials, kCamera, kObjects)).objects.size(), 2u);
}

TEST(SceneLoader, UnknownMaterialNamesObjectAndMaterial) {
  const std::string objects = kObjects + R"(, {"TYPE": "sphere", "MATERIAL": "gold"})";
  const std::string e = error_of(scene_text(kMaterials, kCamera, objects));
  EXPECT_CONTAINS(e, "scene.json: Objects[2].MATERIAL: unknown material \"gold\"");
  EXPECT_CONTAINS(e, "light, white");
}

TEST(SceneLoader, MissingRequiredKeys) {
  const auto without = [](std::string text, const std::string& part) {
    const std::size_t at = text.find(part);
    EXPECT_NE(at, std::string::npos) << part;
    return text.replace(at, part.size(), "");
  };
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, without(kCamera, R"("RES": [64, 48],)"), kObjects)),
      "scene.json: Camera.RES: missing required key");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, without(kCamera, R"("FOVY": 45,)"), kObjects)),
                  "Camera.FOVY: missing required key");
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, without(kCamera, R"("ITERATIONS": 10,)"), kObjects)),
      "Camera.ITERATIONS: missing required key");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, without(kCamera, R"("DEPTH": 5,)"), kObjects)),
                  "Camera.DEPTH: missing required key");
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, without(kCamera, R"("EYE": [0, 5, 10],)"), kObjects)),
      "Camera.EYE: missing required key");
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, without(kCamera, R"("LOOKAT": [0, 5, 0],)"), kObjects)),
      "Camera.LOOKAT: missing required key");
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, without(kCamera, R"(, "UP": [0, 1, 0])"), kObjects)),
      "Camera.UP: missing required key");
  EXPECT_CONTAINS(
      error_of(scene_text(without(kMaterials, R"("TYPE": "Diffuse", )"), kCamera, kObjects)),
      "Materials.white.TYPE: missing required key");
  EXPECT_CONTAINS(
      error_of(scene_text(without(kMaterials, R"(, "RGB": [0.5, 0.5, 0.5])"), kCamera, kObjects)),
      "Materials.white.RGB: missing required key");
  EXPECT_CONTAINS(
      error_of(scene_text(without(kMaterials, R"(, "EMITTANCE": 5)"), kCamera, kObjects)),
      "Materials.light.EMITTANCE: missing required key");
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, kCamera, without(kObjects, R"(, "MATERIAL": "white")"))),
      "Objects[1].MATERIAL: missing required key");
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, kCamera, without(kObjects, R"("TYPE": "sphere", )"))),
      "Objects[1].TYPE: missing required key");
  // No materials at all is fine (glTF objects bring their own), until an object names one.
  EXPECT_CONTAINS(error_of(R"({"Materials": {}, "Camera": {}})"),
                  "Camera.RES: missing required key");
  EXPECT_CONTAINS(error_of("{\"Materials\": {" + kMaterials + "}, \"Objects\": []}"),
                  "scene.json: Camera: missing required key");
  EXPECT_CONTAINS(error_of("{\"Materials\": {" + kMaterials + "}, \"Camera\": {" + kCamera + "}}"),
                  "scene.json: Objects: missing required key");
  EXPECT_CONTAINS(error_of("{\"Camera\": {" + kCamera + "}, \"Objects\": [" + kObjects + "]}"),
                  "scene.json: Objects[0].MATERIAL: unknown material \"light\" (the file defines "
                  "no Materials)");
  std::vector<std::string> warnings;
  EXPECT_TRUE(
      parse("{\"Camera\": {" + kCamera + "}, \"Objects\": []}", &warnings).materials.empty());
}

TEST(SceneLoader, WrongTypes) {
  const auto with = [](std::string text, const std::string& part, const std::string& by) {
    const std::size_t at = text.find(part);
    EXPECT_NE(at, std::string::npos) << part;
    return text.replace(at, part.size(), by);
  };
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, with(kCamera, "[64, 48]", R"("64x48")"), kObjects)),
      "Camera.RES: expected [width, height]");
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, with(kCamera, "[64, 48]", "[64, 48, 1]"), kObjects)),
      "Camera.RES: expected [width, height]");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, with(kCamera, "45", R"("45")"), kObjects)),
                  "Camera.FOVY: expected a number, got a string");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, with(kCamera, R"("t")", "3"), kObjects)),
                  "Camera.FILE: expected a string, got an integer");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, with(kCamera, "[0, 1, 0]", "[0, 1]"), kObjects)),
                  "Camera.UP: expected an array of 3 numbers");
  EXPECT_CONTAINS(error_of(scene_text(with(kMaterials, "[0.5, 0.5, 0.5]", R"([0.5, "red", 0.5])"),
                                      kCamera, kObjects)),
                  "Materials.white.RGB[1]: expected a number, got a string");
  EXPECT_CONTAINS(error_of(scene_text(with(kMaterials, R"("Diffuse")", "true"), kCamera, kObjects)),
                  "Materials.white.TYPE: expected a string, got a boolean");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, kCamera, with(kObjects, "[0, 10, 0]", "null"))),
                  "Objects[0].TRANS: expected an array of 3 numbers");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, kCamera, kObjects + ", 7")),
                  "Objects[2]: expected an object, got an integer");
  EXPECT_CONTAINS(error_of(R"({"Materials": [], "Camera": {}, "Objects": []})"),
                  "scene.json: Materials: expected an object, got an array");
  EXPECT_CONTAINS(error_of("{\"Materials\": {" + kMaterials + "}, \"Camera\": {" + kCamera +
                           "}, \"Objects\": {}}"),
                  "scene.json: Objects: expected an array, got an object");
  EXPECT_CONTAINS(error_of("[1, 2]"), "expected an object, got an array");
  EXPECT_CONTAINS(error_of(scene_text(with(kMaterials, "Diffuse", "Velvet"), kCamera, kObjects)),
                  "Materials.white.TYPE: unknown material TYPE \"Velvet\"");
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, kCamera, with(kObjects, "sphere", "torus"))),
      "Objects[1].TYPE: unknown object TYPE \"torus\" (expected sphere, cube, mesh or gltf)");
}

TEST(SceneLoader, NonPositiveAndAbsurdSizes) {
  const auto camera_with = [](const std::string& part, const std::string& by) {
    std::string c = kCamera;
    c.replace(c.find(part), part.size(), by);
    return scene_text(kMaterials, c, kObjects);
  };
  EXPECT_CONTAINS(error_of(camera_with("[64, 48]", "[-64, 48]")),
                  "Camera.RES[0]: expected a positive integer, got -64");
  EXPECT_CONTAINS(error_of(camera_with("[64, 48]", "[64, 0]")),
                  "Camera.RES[1]: expected a positive integer, got 0");
  EXPECT_CONTAINS(error_of(camera_with("[64, 48]", "[64.5, 48]")),
                  "Camera.RES[0]: expected an integer, got 64.5");
  EXPECT_CONTAINS(error_of(camera_with("[64, 48]", "[100000, 100000]")),
                  "Camera.RES[0]: value 100000 is too large");
  EXPECT_CONTAINS(error_of(camera_with("[64, 48]", "[16384, 16384]")),
                  "Camera.RES: 16384 x 16384 is too large");
  EXPECT_CONTAINS(error_of(camera_with("\"ITERATIONS\": 10", "\"ITERATIONS\": 0")),
                  "Camera.ITERATIONS: expected a positive integer, got 0");
  EXPECT_CONTAINS(error_of(camera_with("\"ITERATIONS\": 10", "\"ITERATIONS\": 1e12")),
                  "Camera.ITERATIONS: value 1");
  EXPECT_CONTAINS(error_of(camera_with("\"ITERATIONS\": 10", "\"ITERATIONS\": 1e12")),
                  "is too large (at most 1000000)");
  EXPECT_CONTAINS(error_of(camera_with("\"DEPTH\": 5", "\"DEPTH\": -3")),
                  "Camera.DEPTH: expected a positive integer, got -3");
  EXPECT_CONTAINS(error_of(camera_with("\"FOVY\": 45", "\"FOVY\": 0")), "Camera.FOVY:");
  EXPECT_CONTAINS(error_of(camera_with("\"FOVY\": 45", "\"FOVY\": 90")),
                  "Camera.FOVY: expected half the vertical field of view in degrees, in (0, 90)");
  EXPECT_EQ(parse(camera_with("\"FOVY\": 45", "\"FOVY\": 89.5")).camera.fovy_degrees, 89.5f);
  // The largest accepted sizes load.
  const Scene s = parse(camera_with("[64, 48]", "[8192, 8192]"));
  EXPECT_EQ(s.camera.width, 8192);
}

TEST(SceneLoader, InvalidValues) {
  const auto with = [](std::string text, const std::string& part, const std::string& by) {
    return text.replace(text.find(part), part.size(), by);
  };
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, with(kCamera, "[0, 5, 0]", "[0, 5, 10]"), kObjects)),
      "Camera.LOOKAT: must differ from Camera.EYE");
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, with(kCamera, "[0, 1, 0]", "[0, 0, -2]"), kObjects)),
      "Camera.UP: must not be parallel");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, kCamera + R"(, "LENS_RADIUS": -1)", kObjects)),
                  "Camera.LENS_RADIUS: expected a non-negative number");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, kCamera + R"(, "FOCAL_DISTANCE": -1)", kObjects)),
                  "Camera.FOCAL_DISTANCE: expected a non-negative number");
  EXPECT_CONTAINS(error_of(scene_text(with(kMaterials, "[0.5, 0.5, 0.5]", "[0.5, -0.5, 0.5]"),
                                      kCamera, kObjects)),
                  "Materials.white.RGB: expected non-negative components");
  EXPECT_CONTAINS(error_of(scene_text(with(kMaterials, "\"EMITTANCE\": 5", "\"EMITTANCE\": -5"),
                                      kCamera, kObjects)),
                  "Materials.light.EMITTANCE: expected a non-negative number");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials + R"(, "g": {"TYPE": "Refractive", "IOR": 0})",
                                      kCamera, kObjects)),
                  "Materials.g.IOR: expected a positive index of refraction");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials + R"(, "m": {"TYPE": "Specular", "RGB": [1, 1, 1],
                                                   "ROUGHNESS": 2})",
                                      kCamera, kObjects)),
                  "Materials.m.ROUGHNESS: expected a value in [0, 1]");
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, kCamera, with(kObjects, "[3, 0.3, 3]", "[3, 0, 3]"))),
      "Objects[0].SCALE: expected non-zero components");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, with(kCamera, R"("t")", R"("")"), kObjects)),
                  "Camera.FILE: expected a non-empty name");
}

TEST(SceneLoader, UnknownKeysAreWarnedAboutWithFileAndKey) {
  std::vector<std::string> warnings;
  const Scene s =
      parse(scene_text(kMaterials + R"(, "odd": {"TYPE": "Diffuse", "RGB": [1, 1, 1],
                                                  "SHINE": 3, "SPECRGB": [1, 1, 1], "SPECEX": 0})",
                       kCamera + R"(, "APERTURE": 2)",
                       kObjects + R"(, {"TYPE": "cube", "MATERIAL": "odd", "COLOR": 1})"),
            &warnings);
  EXPECT_EQ(s.objects.size(), 3u);
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_EQ(warnings[0], "scene.json: Materials.odd.SHINE: unknown key, ignored");
  EXPECT_EQ(warnings[1], "scene.json: Camera.APERTURE: unknown key, ignored");
  EXPECT_EQ(warnings[2], "scene.json: Objects[2].COLOR: unknown key, ignored");

  // At the top level too.
  parse("{\"Extra\": 1," + scene_text(kMaterials, kCamera, kObjects).substr(1), &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "scene.json: Extra: unknown key, ignored");
}

TEST(SceneLoader, ValidSceneHasNoWarnings) {
  std::vector<std::string> warnings;
  parse(scene_text(kMaterials, kCamera, kObjects), &warnings);
  EXPECT_TRUE(warnings.empty());
}

TEST(SceneLoader, NoEmitterIsAWarning) {
  std::vector<std::string> warnings;
  // The emitting material exists but no object uses it.
  parse(scene_text(kMaterials, kCamera, R"({"TYPE": "sphere", "MATERIAL": "white"})"), &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_CONTAINS(warnings[0], "scene.json: no emitter");

  // An emitter of zero emittance does not light the scene either.
  std::string materials = kMaterials;
  materials.replace(materials.find("\"EMITTANCE\": 5"), 14, "\"EMITTANCE\": 0");
  parse(scene_text(materials, kCamera, kObjects), &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_CONTAINS(warnings[0], "no emitter");

  // From a file, the warning names the file.
  warnings.clear();
  load_scene(std::string(kData) + "no_emitter.json", warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_CONTAINS(warnings[0], "tests/data/no_emitter.json: no emitter");

  parse(scene_text(kMaterials, kCamera, ""), &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_CONTAINS(warnings[0], "Objects: the scene has no objects");
}

// Finding 1: arrays and objects nested beyond kMaxJsonNesting are an error naming the position,
// found before the parse has used more than a little memory (40000 '[' used 4 GB before).
TEST(SceneLoader, DeepNestingIsAnErrorWithItsPosition) {
  std::string e = error_of(std::string(40000, '['));
  EXPECT_CONTAINS(e, "scene.json:1:65: arrays and objects nested more than 64 levels deep");
  // A valid scene with one extra key holding deep nesting.
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  e = error_of("{\"Extra\": " + deep + ", " + scene_text(kMaterials, kCamera, kObjects).substr(1));
  EXPECT_CONTAINS(e, "scene.json:1:74: arrays and objects nested more than 64 levels deep");
  // Brackets in strings and comments do not count; nesting up to the limit is fine (an unknown
  // key, ignored with a warning).
  const std::string at_limit = std::string(63, '[') + std::string(63, ']');
  std::vector<std::string> warnings;
  const Scene s =
      parse("{\"Extra\": " + at_limit + ", \"Note\": \"" + std::string(100, '[') + "\", /* " +
                std::string(100, '{') + " */" + scene_text(kMaterials, kCamera, kObjects).substr(1),
            &warnings);
  EXPECT_EQ(s.objects.size(), 2u);
  EXPECT_EQ(warnings.size(), 2u);
  EXPECT_CONTAINS(error_of("{\"Extra\": [" + at_limit + "]}"), "nested more than 64 levels");
}

// Finding 1: duplicate keys are still found, with the index of the array element in the path.
TEST(SceneLoader, DuplicateKeyPathNamesArrayElementsAndNestedKeys) {
  EXPECT_CONTAINS(error_of("{\"A\": [1, {\"x\": 1}, [2, {\"y\": {\"z\": 1, \"z\": 2}}]]}"),
                  "scene.json: A[2][1].y: duplicate key \"z\"");
}

// Finding 3: a finite transform that overflows is a scene error naming the object.
TEST(SceneLoader, TransformsThatOverflowAreSceneErrors) {
  const auto objects_with = [](const std::string& part, const std::string& by) {
    std::string o = kObjects;
    o.replace(o.find(part), part.size(), by);
    return scene_text(kMaterials, kCamera, o);
  };
  EXPECT_CONTAINS(error_of(objects_with("\"TRANS\": [0, 10, 0]", "\"TRANS\": [3e38, 0, 0]")),
                  "scene.json: Objects[0].TRANS: the transformed object is not finite or reaches "
                  "beyond +-1e+18");
  EXPECT_CONTAINS(error_of(objects_with("\"SCALE\": [3, 0.3, 3]", "\"SCALE\": [3e38, 3e38, 1]")),
                  "scene.json: Objects[0].SCALE: the transformed object is not finite");
  // Each within the limit, together beyond it: the larger part is named.
  EXPECT_CONTAINS(error_of(objects_with("\"TRANS\": [0, 10, 0], \"SCALE\": [3, 0.3, 3]",
                                        "\"TRANS\": [9e17, 0, 0], \"SCALE\": [3e17, 1, 1]")),
                  "Objects[0].TRANS: the transformed object");
  EXPECT_CONTAINS(
      error_of(objects_with("\"SCALE\": [3, 0.3, 3]", "\"SCALE\": [1e-30, 1e-30, 1e-30]")),
      "Objects[0].SCALE: the transform cannot be inverted in single precision");
  std::string camera = kCamera;
  camera.replace(camera.find("[0, 5, 10]"), 10, "[3e38, 5, 10]");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, camera, kObjects)),
                  "scene.json: Camera.EYE: coordinates beyond +-1e+18");
  // Large but within the limit: fine.
  EXPECT_EQ(parse(objects_with("\"TRANS\": [0, 10, 0]", "\"TRANS\": [1e17, 10, 0]")).objects.size(),
            2u);
}

// Finding 5: whatever the input holds, a message is one short line: an excerpt of the input.
TEST(SceneLoader, MessagesQuoteShortExcerptsOnOneLine) {
  const auto one_short_line = [](const std::string& message) {
    EXPECT_LE(message.size(), kMaxMessage) << message.substr(0, 200);
    EXPECT_EQ(message.find('\n'), std::string::npos) << message.substr(0, 200);
  };
  // An unterminated string in a 10 MB scene.
  std::string e = error_of("{\"Materials\": \"" + std::string(10 << 20, 'a'));
  one_short_line(e);
  EXPECT_CONTAINS(e, "scene.json:1:");
  EXPECT_CONTAINS(e, "missing closing quote");
  EXPECT_CONTAINS(e, "last read: '\"aaaa");
  // A long material name, a long unknown TYPE, a long unknown key, a key with newlines.
  const std::string name(1 << 20, 'm');
  e = error_of(scene_text(kMaterials, kCamera,
                          kObjects + R"(, {"TYPE": "sphere", "MATERIAL": ")" + name + "\"}"));
  one_short_line(e);
  EXPECT_CONTAINS(e, "Objects[2].MATERIAL: unknown material \"mmm");
  e = error_of(scene_text(kMaterials, kCamera, R"({"TYPE": ")" + name + R"(", "MATERIAL": "x"})"));
  one_short_line(e);
  EXPECT_CONTAINS(e, "Objects[0].TYPE: unknown object TYPE");
  std::vector<std::string> warnings;
  parse(scene_text(kMaterials, kCamera + ", \"" + name + "\": 1, \"a\\nb\": 2", kObjects),
        &warnings);
  ASSERT_EQ(warnings.size(), 2u);
  one_short_line(warnings[0]);
  one_short_line(warnings[1]);
  EXPECT_NE(
      std::find(warnings.begin(), warnings.end(), "scene.json: Camera.a\\nb: unknown key, ignored"),
      warnings.end());
  // Many materials: the list of defined ones is cut short.
  std::string many = kMaterials;
  for (int i = 0; i < 2000; ++i) {
    many += ", \"material_" + std::to_string(i) + "\": {\"TYPE\": \"Diffuse\", \"RGB\": [1, 1, 1]}";
  }
  e = error_of(scene_text(many, kCamera, kObjects + R"(, {"TYPE": "cube", "MATERIAL": "gold"})"));
  one_short_line(e);
  EXPECT_CONTAINS(e, "and 1994 more");
}

TEST(Excerpt, KeepsBothEndsOnOneLine) {
  EXPECT_EQ(excerpt("short"), "short");
  EXPECT_EQ(excerpt("a\nb\tc\x01"), "a\\nb\\tc\\x01");
  const std::string cut = excerpt(std::string(50, 'a') + std::string(50, 'z'), 20);
  EXPECT_EQ(cut, "aaaaaaaaaaa...zzzzzz");
  // Never in the middle of a UTF-8 character.
  std::string accents;
  for (int i = 0; i < 50; ++i) accents += "\xc3\xa9";
  const std::string e = excerpt(accents, 20);
  EXPECT_LE(e.size(), 20u);
  EXPECT_EQ(e.substr(0, 2), "\xc3\xa9");
  EXPECT_EQ(e.substr(e.size() - 2), "\xc3\xa9");
  EXPECT_NE(e.find("\xc3\xa9..."), std::string::npos) << e;
}

// Hardening, fifth round, item 13: a message quoted a UTF-16 file's byte-order mark as the raw
// byte 0xFE. Bytes that are not part of a printable UTF-8 character are escaped.
TEST(Excerpt, EscapesBytesThatAreNotPrintableUtf8) {
  EXPECT_EQ(excerpt("\xfe\xff{"), "\\xfe\\xff{");
  EXPECT_EQ(excerpt("caf\xe9"), "caf\\xe9");                       // Latin-1
  EXPECT_EQ(excerpt("\xc0\xaf"), "\\xc0\\xaf");                    // an overlong '/'
  EXPECT_EQ(excerpt("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
  EXPECT_EQ(excerpt("\xe2\x82"), "\\xe2\\x82");                    // cut short
  EXPECT_EQ(excerpt("\xc2\x85"), "\\xc2\\x85");                    // a C1 control (NEL)
  EXPECT_EQ(excerpt("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // beyond U+10FFFF
  // Printable UTF-8 stays as it is.
  const std::string utf8 = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x94\xa6 \xc2\xa0";
  EXPECT_EQ(excerpt(utf8), utf8);
  // Cut short, a long excerpt is still UTF-8 throughout.
  const std::string cut = excerpt(std::string(100, '\xfe') + "end", 30);
  EXPECT_LE(cut.size(), 30u);
  for (const char c : cut) EXPECT_LT(static_cast<unsigned char>(c), 0x80u) << cut;
}

// Hardening, fifth round, item 13: a UTF-16 scene file (a byte-order mark) was "malformed JSON"
// quoting the mark's raw bytes; it is named as what it is.
TEST(SceneLoader, Utf16FilesAreNamedAsSuch) {
  const std::string utf16 = "scene.json: the file is UTF-16 (byte-order mark); save it as UTF-8";
  EXPECT_EQ(error_of(std::string("\xff\xfe{\0\"\0", 6)), utf16);  // little-endian
  EXPECT_EQ(error_of(std::string("\xfe\xff\0{\0\"", 6)), utf16);  // big-endian
  EXPECT_EQ(error_of(std::string("\xff\xfe\0\0{\0\0\0", 8)),
            "scene.json: the file is UTF-32 (byte-order mark); save it as UTF-8");
  // Any other byte that is not UTF-8 is quoted escaped.
  const std::string e = error_of("{\"Materials\": \xfe}");
  EXPECT_CONTAINS(e, "scene.json:1:15: malformed JSON");
  EXPECT_CONTAINS(e, "last read: '\"Materials\": \\xfe'");
  for (const char c : e) EXPECT_LT(static_cast<unsigned char>(c), 0x80u) << e;
}

// Issue 34, item 1: RGB x EMITTANCE of 10 x 1e38 overflowed to an infinite radiance and rendered
// black. An emitter's radiance must be a float, as the environment's RGB x SCALE must.
TEST(SceneLoader, EmitterRadianceThatOverflowsAFloatIsRefused) {
  const std::string huge =
      R"(, "sun": {"TYPE": "Emitting", "RGB": [10, 10, 10], "EMITTANCE": 1e38})";
  EXPECT_CONTAINS(error_of(scene_text(kMaterials + huge, kCamera, kObjects)),
                  "scene.json: Materials.sun.EMITTANCE: RGB x EMITTANCE overflows a float");
  // 1 x 1e38 is a float: accepted.
  const Scene s = parse(scene_text(
      kMaterials + R"(, "sun": {"TYPE": "Emitting", "RGB": [1, 1, 1], "EMITTANCE": 1e38})", kCamera,
      kObjects));
  EXPECT_FLOAT_EQ(s.materials[2].emittance, 1e38f);
}

// Issue 34, item 5: Camera.FILE "a\u0000b" ended as a failed write of "renders/a" (exit 1); every
// path key follows one rule.
TEST(SceneLoader, EveryPathKeyRefusesNulCharacters) {
  const auto with = [](std::string text, const std::string& part, const std::string& by) {
    return text.replace(text.find(part), part.size(), by);
  };
  EXPECT_CONTAINS(
      error_of(scene_text(kMaterials, with(kCamera, R"("t")", R"("a\u0000b")"), kObjects)),
      "scene.json: Camera.FILE: the path holds a NUL character");
  EXPECT_CONTAINS(
      error_of(scene_text(
          kMaterials + R"(, "wood": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "TEXTURE": "a\u0000b"})",
          kCamera, kObjects)),
      "scene.json: Materials.wood.TEXTURE: the path holds a NUL character");
  EXPECT_CONTAINS(error_of(scene_text(kMaterials, kCamera,
                                      kObjects + R"(, {"TYPE": "mesh", "FILE": "a\u0000b.obj"})")),
                  "scene.json: Objects[2].FILE: the path holds a NUL character");
  EXPECT_CONTAINS(error_of("{\"Environment\": {\"FILE\": \"a\\u0000b\"}, " +
                           scene_text(kMaterials, kCamera, kObjects).substr(1)),
                  "scene.json: Environment.FILE: the path holds a NUL character");
}

// Issue 34, item 6: keys that change nothing say so, each in one warning naming the key.
TEST(SceneLoader, SettingsThatDoNothingAreWarnedAbout) {
  const struct {
    std::string material, key, message;
  } cases[] = {
      {R"("x": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "IOR": 1.5})", "Materials.x.IOR",
       "only Refractive, Plastic and Pbr materials have an IOR; ignored"},
      {R"("x": {"TYPE": "Specular", "RGB": [1, 1, 1], "IOR": 1.5})", "Materials.x.IOR",
       "only Refractive, Plastic and Pbr materials have an IOR; ignored"},
      {R"("x": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "TWO_SIDED": false})", "Materials.x.TWO_SIDED",
       "only emitters (Emitting, or EMISSION above 0) have sides to emit from; ignored"},
      {R"("x": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "EMITTANCE": 3})", "Materials.x.EMITTANCE",
       "only Emitting materials use EMITTANCE (the others emit EMISSION); ignored"},
      {R"("x": {"TYPE": "Plastic", "RGB": [1, 1, 1], "ROUGHNESS": 0.05})", "Materials.x.ROUGHNESS",
       "a Plastic's coat is at least 0.1 rough; rendered as 0.1"},
  };
  for (const auto& c : cases) {
    std::vector<std::string> warnings;
    parse(scene_text(kMaterials + ", " + c.material, kCamera, kObjects), &warnings);
    ASSERT_EQ(warnings.size(), 1u) << c.material;
    EXPECT_EQ(warnings[0], "scene.json: " + c.key + ": " + c.message);
  }
  // What does something is not warned about.
  for (const char* quiet : {
           R"("x": {"TYPE": "Refractive", "IOR": 1.3})",
           R"("x": {"TYPE": "Plastic", "RGB": [1, 1, 1], "IOR": 1.3, "ROUGHNESS": 0.1})",
           R"("x": {"TYPE": "Emitting", "RGB": [1, 1, 1], "EMITTANCE": 2, "TWO_SIDED": false})",
           R"("x": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "EMISSION": [1, 1, 1],
                    "TWO_SIDED": false, "EMITTANCE": 0})",
       }) {
    std::vector<std::string> warnings;
    parse(scene_text(kMaterials + ", " + quiet, kCamera, kObjects), &warnings);
    EXPECT_TRUE(warnings.empty()) << quiet << ": " << warnings.front();
  }
  // MISSING_MATERIAL beside MATERIAL, which gives every face its material.
  std::vector<std::string> warnings;
  parse_scene(scene_text(kMaterials, kCamera,
                         R"({"TYPE": "mesh", "FILE": "materials.obj", "MATERIAL": "light",
                             "MISSING_MATERIAL": "white"})"),
              std::string(kData) + "meshes/scene.json", warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_CONTAINS(warnings[0],
                  "Objects[0].MISSING_MATERIAL: MATERIAL gives every face its material; ignored");
}

// The Pbr type and the texture keys: every key read into its field or slot, channels, the alpha
// defaults, and the keys a type ignores warned about.
TEST(SceneLoader, PbrKeysAndTextureSlots) {
  const std::string checker = "scenes/textures/checker.png";
  const std::string pbr = R"("p": {"TYPE": "Pbr", "RGB": [0.9, 0.8, 0.7], "METALLIC": 0.25,
      "ROUGHNESS": 0.4, "IOR": 1.45, "SPECULAR": 0.5, "SPECULAR_COLOR": [1, 0.5, 0.25],
      "EMISSION": [2, 2, 2], "OPACITY": 0.9, "ALPHA_MODE": "MASK", "ALPHA_CUTOFF": 0.3,
      "TEXTURE": "CHECKER", "METALLIC_TEXTURE": {"FILE": "CHECKER", "CHANNEL": "B"},
      "ROUGHNESS_TEXTURE": {"FILE": "CHECKER", "CHANNEL": "G"}, "EMISSION_TEXTURE": "CHECKER",
      "NORMAL_TEXTURE": "CHECKER", "NORMAL_SCALE": 0.5, "OPACITY_TEXTURE": {"FILE": "CHECKER",
      "CHANNEL": "A"}, "SPECULAR_TEXTURE": "CHECKER", "SPECULAR_COLOR_TEXTURE": "CHECKER",
      "TRANSMISSION": 0.6, "TRANSMISSION_TEXTURE": "CHECKER", "CLEARCOAT": 0.7,
      "CLEARCOAT_ROUGHNESS": 0.2, "CLEARCOAT_ROUGHNESS_TEXTURE": {"FILE": "CHECKER",
      "CHANNEL": "G"}})";
  const auto with_checker = [&](std::string text) {
    for (std::size_t at; (at = text.find("CHECKER")) != std::string::npos;)
      text.replace(at, 7, checker);
    return text;
  };
  std::vector<std::string> warnings;
  const Scene s =
      parse(scene_text(kMaterials + ", " + with_checker(pbr), kCamera, kObjects), &warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_EQ(s.textures.size(), 1u);  // one file, read once
  const Material& m = s.materials.at(2);
  EXPECT_EQ(m.type, MaterialType::pbr);
  EXPECT_EQ(m.color, glm::vec3(0.9f, 0.8f, 0.7f));
  EXPECT_FLOAT_EQ(m.metallic, 0.25f);
  EXPECT_FLOAT_EQ(m.roughness, 0.4f);
  EXPECT_FLOAT_EQ(m.ior, 1.45f);
  EXPECT_FLOAT_EQ(m.specular, 0.5f);
  EXPECT_EQ(m.specular_color, glm::vec3(1.0f, 0.5f, 0.25f));
  EXPECT_EQ(m.emission, glm::vec3(2.0f));
  EXPECT_FLOAT_EQ(m.opacity, 0.9f);
  EXPECT_EQ(m.alpha_mode, AlphaMode::mask);
  EXPECT_FLOAT_EQ(m.alpha_cutoff, 0.3f);
  EXPECT_FLOAT_EQ(m.transmission, 0.6f);
  EXPECT_TRUE(m.transmission_texture.present());
  EXPECT_FLOAT_EQ(m.clearcoat, 0.7f);
  EXPECT_FALSE(m.clearcoat_texture.present());
  EXPECT_FLOAT_EQ(m.clearcoat_roughness, 0.2f);
  EXPECT_EQ(m.clearcoat_roughness_texture.channel, 1);
  EXPECT_FLOAT_EQ(m.normal_scale, 0.5f);
  for (const TextureSlot* slot :
       {&m.texture, &m.metallic_texture, &m.roughness_texture, &m.emission_texture,
        &m.normal_texture, &m.opacity_texture, &m.specular_texture, &m.specular_color_texture})
    EXPECT_EQ(slot->texture, 0);
  EXPECT_EQ(m.metallic_texture.channel, 2);
  EXPECT_EQ(m.roughness_texture.channel, 1);
  EXPECT_EQ(m.opacity_texture.channel, 3);
  EXPECT_EQ(m.specular_texture.channel, 0);  // a file name alone: R
  EXPECT_EQ(m.texture.channel, 0);

  // Defaults: Pbr is half rough and not metallic; an opacity below 1 blends, an opacity texture
  // cuts.
  Scene d =
      parse(scene_text(kMaterials + R"(, "p": {"TYPE": "Pbr", "RGB": [1, 1, 1], "OPACITY": 0.5},
      "q": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "OPACITY_TEXTURE": ")" +
                           checker + R"("})",
                       kCamera, kObjects));
  EXPECT_EQ(d.materials[2].roughness, 0.5f);
  EXPECT_EQ(d.materials[2].metallic, 0.0f);
  EXPECT_EQ(d.materials[2].alpha_mode, AlphaMode::blend);
  EXPECT_EQ(d.materials[3].alpha_mode, AlphaMode::mask);
  EXPECT_EQ(d.materials[3].opacity_texture.texture, 0);

  // Keys a type ignores: a warning each, naming the types that read them.
  struct Ignored {
    std::string material, key, message;
  };
  const std::vector<Ignored> ignored = {
      {R"("x": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "METALLIC": 0.5})", "Materials.x.METALLIC",
       "only Pbr materials have METALLIC; ignored"},
      {R"("x": {"TYPE": "Plastic", "RGB": [1, 1, 1], "ROUGHNESS_TEXTURE": "CHECKER"})",
       "Materials.x.ROUGHNESS_TEXTURE", "only Pbr materials read ROUGHNESS_TEXTURE; ignored"},
      {R"("x": {"TYPE": "Specular", "RGB": [1, 1, 1], "TEXTURE": "CHECKER"})",
       "Materials.x.TEXTURE", "only Diffuse, Plastic and Pbr materials read TEXTURE; ignored"},
      {R"("x": {"TYPE": "Emitting", "RGB": [1, 1, 1], "EMITTANCE": 1, "NORMAL_TEXTURE": "CHECKER"})",
       "Materials.x.NORMAL_TEXTURE",
       "only reflecting (all but Emitting) materials read NORMAL_TEXTURE; ignored"},
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "TEXTURE": {"FILE": "CHECKER", "CHANNEL": "G"}})",
       "Materials.x.TEXTURE.CHANNEL", "a colour texture reads RGB; ignored"},
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "NORMAL_SCALE": 2})", "Materials.x.NORMAL_SCALE",
       "scales NORMAL_TEXTURE, which the material does not have; ignored"},
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "EMISSION_TEXTURE": "CHECKER"})",
       "Materials.x.EMISSION_TEXTURE",
       "EMISSION is black: the texture scales it; nothing is emitted"},
  };
  for (const Ignored& c : ignored) {
    warnings.clear();
    parse(scene_text(kMaterials + ", " + with_checker(c.material), kCamera, kObjects), &warnings);
    ASSERT_EQ(warnings.size(), 1u) << c.material;
    EXPECT_EQ(warnings[0], "scene.json: " + c.key + ": " + c.message);
  }

  // Bad values: errors naming the key.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "METALLIC": 1.5})",
       "Materials.x.METALLIC: expected a value in [0, 1]"},
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "OPACITY": -0.1})",
       "Materials.x.OPACITY: expected a value in [0, 1]"},
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "SPECULAR_COLOR": [1, -1, 1]})",
       "Materials.x.SPECULAR_COLOR: expected non-negative components"},
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "ALPHA_MODE": "CUT"})",
       "Materials.x.ALPHA_MODE: expected \"OPAQUE\", \"MASK\" or \"BLEND\", got \"CUT\""},
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "METALLIC_TEXTURE": {"FILE": "CHECKER", "CHANNEL": "X"}})",
       "Materials.x.METALLIC_TEXTURE.CHANNEL: expected \"R\", \"G\", \"B\" or \"A\", got \"X\""},
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "METALLIC_TEXTURE": {"CHANNEL": "R"}})",
       "Materials.x.METALLIC_TEXTURE.FILE: missing required key"},
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "NORMAL_TEXTURE": "no_such.png"})",
       "Materials.x.NORMAL_TEXTURE: no_such.png: cannot open the image file"},
      {R"("x": {"TYPE": "Pbr", "RGB": [1, 1, 1], "NORMAL_SCALE": "big"})",
       "Materials.x.NORMAL_SCALE: expected a number, got a string"},
  };
  for (const auto& [material, message] : bad)
    EXPECT_CONTAINS(
        error_of(scene_text(kMaterials + ", " + with_checker(material), kCamera, kObjects)),
        "scene.json: " + message);
}

}  // namespace
}  // namespace raystream
