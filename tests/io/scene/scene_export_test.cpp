// The scene as loaded, exported (--export-scene): scene.json says what the loader made of the
// file (camera, materials, object transforms, environment), each material's PLY holds its
// world-space triangles as the renderer has them, textures and the environment map are PFMs of
// their texels, and a bad folder is one error naming it, with nothing written.
#include "io/scene/scene_export.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/scene/scene_loader.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const std::string kData = "tests/data/";

// A fresh folder of this test's own, removed at the end.
class ExportFolder {
 public:
  ExportFolder() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = fs::temp_directory_path() /
            ("scene_export_" + std::to_string(::getpid()) + "_" + info->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~ExportFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Scene load(const std::string& path) {
  std::vector<std::string> warnings;
  return load_scene(path, warnings);
}

// A PLY as the export writes it: its header lines, and its vertices (8 floats each) and faces.
struct Ply {
  std::vector<std::string> header;
  std::vector<float> vertices;
  std::vector<std::int32_t> faces;  // 3 per face
};

Ply read_ply(const fs::path& path) {
  const std::string bytes = read_text(path);
  Ply ply;
  std::size_t pos = 0, vertex_count = 0, face_count = 0;
  while (true) {
    const std::size_t end = bytes.find('\n', pos);
    if (end == std::string::npos) {
      ADD_FAILURE() << path << ": no end_header";
      return ply;
    }
    const std::string line = bytes.substr(pos, end - pos);
    pos = end + 1;
    ply.header.push_back(line);
    if (line.rfind("element vertex ", 0) == 0) vertex_count = std::stoul(line.substr(15));
    if (line.rfind("element face ", 0) == 0) face_count = std::stoul(line.substr(13));
    if (line == "end_header") break;
  }
  EXPECT_EQ(bytes.size() - pos, vertex_count * 32 + face_count * 13) << path;
  if (bytes.size() - pos != vertex_count * 32 + face_count * 13) return ply;
  ply.vertices.resize(vertex_count * 8);
  std::memcpy(ply.vertices.data(), bytes.data() + pos, vertex_count * 32);
  pos += vertex_count * 32;
  for (std::size_t f = 0; f < face_count; ++f, pos += 13) {
    EXPECT_EQ(static_cast<unsigned char>(bytes[pos]), 3u);
    std::int32_t index[3];
    std::memcpy(index, bytes.data() + pos + 1, sizeof index);
    ply.faces.insert(ply.faces.end(), index, index + 3);
  }
  return ply;
}

// A PFM as the export writes it: its size, and its RGB texels with row 0 at the top.
struct Pfm {
  int width = 0, height = 0;
  std::vector<float> rgb;
};

Pfm read_pfm(const fs::path& path) {
  const std::string bytes = read_text(path);
  Pfm pfm;
  char magic[3] = {};
  float scale = 0;
  int consumed = 0;
  EXPECT_EQ(std::sscanf(bytes.c_str(), "%2s %d %d %f%n", magic, &pfm.width, &pfm.height, &scale,
                        &consumed),
            4)
      << path;
  EXPECT_STREQ(magic, "PF");
  EXPECT_EQ(scale, -1.0f);
  const std::size_t row = std::size_t(pfm.width) * 3, start = std::size_t(consumed) + 1;
  EXPECT_EQ(bytes.size(), start + row * pfm.height * sizeof(float)) << path;
  pfm.rgb.resize(row * pfm.height);
  for (int y = 0; y < pfm.height; ++y)  // the file's rows go from the bottom up
    std::memcpy(pfm.rgb.data() + row * (pfm.height - 1 - y),
                bytes.data() + start + row * y * sizeof(float), row * sizeof(float));
  return pfm;
}

std::vector<float> floats(const Json& j) {
  return j.get<std::vector<float>>();
}

TEST(SceneExport, TinySceneJson) {
  const Scene scene = load(kData + "tiny.json");
  ExportFolder folder;
  const std::string line = write_scene_export(scene, folder.path().string());
  EXPECT_EQ(line, kData + "tiny.json: exported to " + folder.path().string() +
                      ": scene.json, 0 meshes (0 triangles), 0 textures");
  const Json j = Json::parse(read_text(folder.path() / "scene.json"));
  EXPECT_EQ(j["format"], "raystream-scene-export");
  EXPECT_EQ(j["version"], 1);
  const Json& c = j["camera"];
  EXPECT_EQ(c["width"], 24);
  EXPECT_EQ(c["height"], 16);
  EXPECT_EQ(floats(c["eye"]), (std::vector<float>{0, 5, 10.5f}));
  EXPECT_EQ(floats(c["lookat"]), (std::vector<float>{0, 5, 0}));
  EXPECT_EQ(floats(c["up"]), (std::vector<float>{0, 1, 0}));
  EXPECT_EQ(c["fovy_degrees"], 45.0);
  EXPECT_EQ(c["lens_radius"], 0.0);
  EXPECT_EQ(c["focal_distance"], 0.0);
  EXPECT_EQ(c["near_distance"], 0.0);
  EXPECT_EQ(j["spp"], 4);
  EXPECT_EQ(j["depth"], 4);
  // The materials in the scene's order, each as the loader filled it; floats as their shortest
  // decimals (0.8, not 0.800000011920929).
  ASSERT_EQ(j["materials"].size(), scene.materials.size());
  const char* types[] = {"emitting", "diffuse", "specular", "refractive"};
  for (std::size_t m = 0; m < scene.materials.size(); ++m) {
    const Json& jm = j["materials"][m];
    EXPECT_EQ(jm["name"], scene.materials[m].name);
    EXPECT_EQ(jm["type"], types[m]) << m;
    EXPECT_EQ(jm["ior"].get<float>(), scene.materials[m].ior);
    EXPECT_TRUE(jm["texture"].is_null());
    EXPECT_TRUE(jm["slots"].empty());
    EXPECT_EQ(jm["two_sided"], true);
    EXPECT_EQ(jm["alpha_mode"], "opaque");
  }
  EXPECT_EQ(j["materials"][0]["emittance"], 5.0);
  EXPECT_EQ(j["materials"][1]["color"].dump(), "[0.8,0.8,0.8]");
  EXPECT_EQ(j["materials"][3]["ior"], 1.5);
  // Objects: their shape, material and transform, row by row.
  ASSERT_EQ(j["objects"].size(), 5u);
  EXPECT_EQ(j["objects"][0]["shape"], "cube");
  EXPECT_EQ(j["objects"][0]["material"], 0);
  EXPECT_EQ(floats(j["objects"][0]["to_world"]),
            (std::vector<float>{3, 0, 0, 0, 0, 0.3f, 0, 10, 0, 0, 3, 0, 0, 0, 0, 1}));
  EXPECT_EQ(j["objects"][3]["shape"], "sphere");
  EXPECT_EQ(floats(j["objects"][3]["to_world"]),
            (std::vector<float>{3, 0, 0, -2, 0, 3, 0, 2, 0, 0, 3, 0, 0, 0, 0, 1}));
  // ROTAT [0, 90, 0]: x goes to -z.
  const std::vector<float> rotated = floats(j["objects"][2]["to_world"]);
  EXPECT_NEAR(rotated[8], -0.01f, 1e-6f);
  EXPECT_NEAR(rotated[0], 0.0f, 1e-6f);
  EXPECT_TRUE(j["meshes"].empty());
  EXPECT_EQ(j["environment"]["kind"], "none");
  EXPECT_TRUE(j["environment"]["file"].is_null());
  // Nothing else: no mesh or texture folder for a scene without them.
  EXPECT_FALSE(fs::exists(folder.path() / "meshes"));
  EXPECT_FALSE(fs::exists(folder.path() / "textures"));
}

TEST(SceneExport, MeshesAndTexture) {
  std::vector<std::string> warnings;
  const Scene scene = parse_scene(
      R"({"Materials": {"lamp": {"TYPE": "Emitting", "RGB": [1, 1, 1], "EMITTANCE": 3}},
          "Camera": {"RES": [8, 8], "FOVY": 20, "ITERATIONS": 1, "DEPTH": 2,
                     "EYE": [0, 1, 4], "LOOKAT": [0, 1, 0], "UP": [0, 1, 0]},
          "Objects": [{"TYPE": "sphere", "MATERIAL": "lamp"},
                      {"TYPE": "mesh", "FILE": "textured_quad.obj", "TRANS": [0, 0, 2]}]})",
      kData + "meshes/scene.json", warnings);
  ASSERT_EQ(scene.triangles.size(), 3u);
  ASSERT_EQ(scene.textures.size(), 1u);
  ExportFolder folder;
  const std::string line = write_scene_export(scene, folder.path().string());
  EXPECT_NE(line.find("scene.json, 3 meshes (3 triangles), 1 texture"), std::string::npos) << line;
  const Json j = Json::parse(read_text(folder.path() / "scene.json"));
  ASSERT_EQ(j["meshes"].size(), 3u);
  for (const Json& mesh : j["meshes"]) {
    const int m = mesh["material"];
    EXPECT_EQ(mesh["file"], "meshes/material_" + std::to_string(m) + ".ply");
    // The file holds exactly this material's triangles, as the scene has them.
    const Ply ply = read_ply(folder.path() / mesh["file"].get<std::string>());
    const std::vector<std::string> properties(ply.header.begin() + 4, ply.header.begin() + 12);
    EXPECT_EQ(ply.header[0], "ply");
    EXPECT_EQ(ply.header[1], "format binary_little_endian 1.0");
    EXPECT_EQ(properties, (std::vector<std::string>{"property float x", "property float y",
                                                    "property float z", "property float nx",
                                                    "property float ny", "property float nz",
                                                    "property float u", "property float v"}));
    EXPECT_EQ(ply.header[13], "property list uchar int vertex_indices");
    std::vector<float> expected;
    for (const Triangle& t : scene.triangles) {
      if (t.material != m) continue;
      for (int k = 0; k < 3; ++k)
        expected.insert(expected.end(), {t.v[k].x, t.v[k].y, t.v[k].z, t.n[k].x, t.n[k].y, t.n[k].z,
                                         t.uv[k].x, t.uv[k].y});
    }
    EXPECT_EQ(ply.vertices, expected) << m;
    EXPECT_EQ(ply.faces, (std::vector<std::int32_t>{0, 1, 2})) << m;
    // The materials' texture names the exported texture file.
    const Json& material = j["materials"][m];
    if (scene.materials[m].texture.present()) {
      EXPECT_EQ(material["texture"], "textures/0.pfm");
    }
  }
  // Translated by TRANS: z = 2 in world space.
  EXPECT_EQ(scene.triangles[0].v[0].z, 2.0f);
  // The texture's texels, RGB, row 0 at the top as the texture has it.
  const Pfm pfm = read_pfm(folder.path() / "textures" / "0.pfm");
  const TextureImage& texture = scene.textures[0];
  ASSERT_EQ(pfm.width, texture.width);
  ASSERT_EQ(pfm.height, texture.height);
  for (std::size_t i = 0; i < texture.texels.size(); ++i)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(pfm.rgb[3 * i + c], texture.texels[i][c]) << i;
}

TEST(SceneExport, EnvironmentMap) {
  const Scene scene = load(kData + "environment_sky.json");
  ExportFolder folder;
  write_scene_export(scene, folder.path().string());
  const Json j = Json::parse(read_text(folder.path() / "scene.json"));
  EXPECT_EQ(j["environment"]["kind"], "map");
  EXPECT_EQ(j["environment"]["file"], "textures/environment.pfm");
  EXPECT_EQ(j["environment"]["rotate_degrees"], 0.0);
  const Pfm pfm = read_pfm(folder.path() / "textures" / "environment.pfm");
  const Environment& e = scene.environment;
  ASSERT_EQ(pfm.width, e.width);
  ASSERT_EQ(pfm.height, e.height);
  ASSERT_EQ(pfm.rgb.size(), e.texels.size() * 3);
  for (std::size_t i = 0; i < e.texels.size(); i += 997)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(pfm.rgb[3 * i + c], e.texels[i][c]) << i;
}

TEST(SceneExport, ShippedMeshScene) {
  const Scene scene = load("scenes/cornell_box_original.json");
  ExportFolder folder;
  write_scene_export(scene, folder.path().string());
  const Json j = Json::parse(read_text(folder.path() / "scene.json"));
  std::size_t vertices = 0;
  for (const Json& mesh : j["meshes"])
    vertices += read_ply(folder.path() / mesh["file"].get<std::string>()).vertices.size() / 8;
  EXPECT_EQ(vertices, 3 * scene.triangles.size());
  // The light's Ke became an emission of its material.
  bool emits = false;
  for (const Json& m : j["materials"]) emits |= floats(m["emission"])[0] > 0.0f;
  EXPECT_TRUE(emits);
}

// The message of write_scene_export into `folder`; fails the test when it succeeds.
std::string export_error(const Scene& scene, const std::string& folder) {
  try {
    write_scene_export(scene, folder);
  } catch (const OutputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no OutputError for " << folder;
  return "";
}

TEST(SceneExport, BadFoldersWriteNothing) {
  const Scene scene = load("scenes/cornell_box_original.json");
  ExportFolder folder;
  // A file where the folder should be, and a file above it.
  const fs::path file = folder.path() / "plain";
  std::ofstream(file) << "a plain file\n";
  std::string message = export_error(scene, file.string());
  EXPECT_NE(message.find(file.string()), std::string::npos) << message;
  EXPECT_NE(message.find("not a folder"), std::string::npos) << message;
  message = export_error(scene, (file / "sub").string());
  EXPECT_NE(message.find((file / "sub").string()), std::string::npos) << message;
  EXPECT_EQ(read_text(file), "a plain file\n");
  // meshes/ taken by a file: nothing written.
  const fs::path out = folder.path() / "export";
  fs::create_directories(out);
  std::ofstream(out / "meshes") << "a plain file\n";
  message = export_error(scene, out.string());
  EXPECT_NE(message.find((out / "meshes").string()), std::string::npos) << message;
  EXPECT_FALSE(fs::exists(out / "scene.json"));
  EXPECT_FALSE(fs::exists(out / "textures"));
  // No file the scene was read from is replaced.
  const fs::path scene_file = folder.path() / "scene.json";
  std::ofstream(scene_file) << read_text(kData + "tiny.json");
  const Scene own = load(scene_file.string());
  message = export_error(own, folder.path().string());
  EXPECT_NE(message.find("would replace the scene file"), std::string::npos) << message;
  EXPECT_EQ(read_text(scene_file), read_text(kData + "tiny.json"));
}

// The Pbr type's fields and every texture slot: file, channel (and the alpha's file for A),
// coordinate set, transform, wrap and filter.
TEST(SceneExport, PbrFieldsAndTextureSlots) {
  std::vector<std::string> warnings;
  Scene scene = parse_scene(
      R"({"Materials": {"p": {"TYPE": "Pbr", "RGB": [1, 1, 1], "METALLIC": 0.25, "SPECULAR": 0.5,
            "ALPHA_MODE": "MASK", "ALPHA_CUTOFF": 0.25,
            "ROUGHNESS_TEXTURE": {"FILE": "checker.png", "CHANNEL": "G"},
            "OPACITY_TEXTURE": {"FILE": "checker.png", "CHANNEL": "A"}}},
          "Camera": {"RES": [8, 8], "FOVY": 20, "ITERATIONS": 1, "DEPTH": 2,
                     "EYE": [0, 1, 4], "LOOKAT": [0, 1, 0], "UP": [0, 1, 0]},
          "Environment": {"RGB": [1, 1, 1]},
          "Objects": [{"TYPE": "sphere", "MATERIAL": "p"}]})",
      "scenes/textures/scene.json", warnings);
  scene.materials[0].roughness_texture.offset = glm::vec2(0.5f, 0.25f);
  scene.materials[0].roughness_texture.wrap_v = TextureWrap::mirror;
  scene.materials[0].roughness_texture.nearest = 1;
  ExportFolder folder;
  write_scene_export(scene, folder.path().string());
  const Json j = Json::parse(read_text(folder.path() / "scene.json"));
  const Json& m = j["materials"][0];
  EXPECT_EQ(m["type"], "pbr");
  EXPECT_EQ(m["metallic"], 0.25);
  EXPECT_EQ(m["specular"], 0.5);
  EXPECT_EQ(m["alpha_mode"], "mask");
  EXPECT_EQ(m["alpha_cutoff"], 0.25);
  ASSERT_EQ(m["slots"].size(), 2u);
  const Json& rough = m["slots"]["roughness_texture"];
  EXPECT_EQ(rough["file"], "textures/0.pfm");
  EXPECT_EQ(rough["channel"], "G");
  EXPECT_TRUE(rough["alpha_file"].is_null());
  EXPECT_EQ(rough["texcoord"], 0);
  EXPECT_EQ(rough["offset"].dump(), "[0.5,0.25]");
  EXPECT_EQ(rough["rotation"], 0.0);
  EXPECT_EQ(rough["scale"].dump(), "[1.0,1.0]");
  EXPECT_EQ(rough["wrap_u"], "repeat");
  EXPECT_EQ(rough["wrap_v"], "mirror");
  EXPECT_EQ(rough["filter"], "nearest");
  const Json& opacity = m["slots"]["opacity_texture"];
  EXPECT_EQ(opacity["channel"], "A");
  EXPECT_EQ(opacity["alpha_file"], "textures/0_alpha.pfm");
  const Pfm alpha = read_pfm(folder.path() / "textures" / "0_alpha.pfm");
  ASSERT_EQ(alpha.width, scene.textures[0].width);
  EXPECT_EQ(alpha.rgb[0], scene.textures[0].texels[0].w);
}

}  // namespace
}  // namespace raystream
