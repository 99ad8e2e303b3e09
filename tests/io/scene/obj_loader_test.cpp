// Meshes from OBJ files: the MTL mapping, the Cornell Box family, mesh objects in scenes, and
// malformed or unusual files (a clear error naming the file, or the documented fallback).
#include "io/scene/obj_loader.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "io/image/image_reader.h"
#include "io/scene/bump_map.h"
#include "io/scene/model_scene.h"
#include "io/scene/scene_loader.h"
#include "temp_folder.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;

const std::string kData = "tests/data/meshes/";
const std::string kCornell = "scenes/meshes/cornell-box/";

// Loads `path` expecting a SceneError whose message contains every one of `parts`.
void expect_obj_error(const std::string& path, const std::vector<std::string>& parts) {
  std::vector<std::string> warnings;
  try {
    load_obj(path, warnings);
    ADD_FAILURE() << path << ": loaded, expected an error";
  } catch (const SceneError& e) {
    const std::string what = e.what();
    for (const std::string& part : parts)
      EXPECT_NE(what.find(part), std::string::npos) << "message: " << what << "\nmissing: " << part;
  }
}

bool emits(const Material& m) {
  return m.emission.x > 0.0f || m.emission.y > 0.0f || m.emission.z > 0.0f;
}

int count_emissive(const Scene& s) {
  int n = 0;
  for (const Triangle& t : s.triangles) n += emits(s.materials[t.material]) ? 1 : 0;
  return n;
}

int count_type(const Scene& s, MaterialType type) {
  int n = 0;
  for (const Triangle& t : s.triangles)
    if (s.materials[t.material].type == type) ++n;
  return n;
}

// A scene around one mesh object (the camera is irrelevant to loading).
std::string mesh_scene(const std::string& object_json) {
  return R"({"Materials": {"white": {"TYPE": "Diffuse", "RGB": [0.8, 0.8, 0.8]},
                          "lamp": {"TYPE": "Emitting", "RGB": [1, 1, 1], "EMITTANCE": 3}},
             "Camera": {"RES": [8, 8], "FOVY": 20, "ITERATIONS": 1, "DEPTH": 2,
                        "EYE": [0, 1, 4], "LOOKAT": [0, 1, 0], "UP": [0, 1, 0]},
             "Objects": [)" +
         object_json + "]}";
}

TEST(MtlMapping, EachRule) {
  MtlMaterial m;
  m.name = "a";
  m.kd = glm::vec3(0.5f, 0.25f, 0.125f);
  Material d = material_from_mtl(m);
  EXPECT_EQ(d.type, MaterialType::diffuse);
  EXPECT_EQ(d.color, m.kd);
  EXPECT_EQ(d.name, "a");

  // Ke: an emitter that also reflects by the other rules (here Kd: diffuse), two-sided.
  MtlMaterial e = m;
  e.ke = glm::vec3(17.0f, 12.0f, 4.0f);
  d = material_from_mtl(e);
  EXPECT_EQ(d.type, MaterialType::diffuse);
  EXPECT_EQ(d.color, m.kd);
  EXPECT_EQ(d.emission, e.ke);
  EXPECT_TRUE(d.two_sided);
  EXPECT_EQ(material_from_mtl(m).emission, glm::vec3(0.0f));

  for (int illum : {3, 5}) {
    MtlMaterial s = m;
    s.ks = glm::vec3(0.9f, 0.8f, 0.7f);
    s.illum = illum;
    d = material_from_mtl(s);
    EXPECT_EQ(d.type, MaterialType::specular) << illum;
    EXPECT_EQ(d.color, s.ks);
  }
  for (int illum : {4, 6, 7}) {
    MtlMaterial g = m;
    g.ni = 1.33f;
    g.illum = illum;
    d = material_from_mtl(g);
    EXPECT_EQ(d.type, MaterialType::refractive) << illum;
    EXPECT_FLOAT_EQ(d.ior, 1.33f);
    EXPECT_EQ(d.color, glm::vec3(1.0f));  // no Tf: clear
  }
  MtlMaterial faded = m;
  faded.d = 0.5f;
  faded.ni = 1.7f;
  faded.tf = glm::vec3(0.9f, 1.0f, 0.8f);
  d = material_from_mtl(faded);
  EXPECT_EQ(d.type, MaterialType::refractive);
  EXPECT_FLOAT_EQ(d.ior, 1.7f);
  EXPECT_EQ(d.color, faded.tf);
  // Ks with a black Kd: a rough conductor, ROUGHNESS from Ns (alpha = sqrt(2 / (Ns + 2))).
  MtlMaterial metal = m;
  metal.kd = glm::vec3(0.0f);
  metal.ks = glm::vec3(0.9f, 0.6f, 0.3f);
  metal.ns = 40.0f;
  d = material_from_mtl(metal);
  EXPECT_EQ(d.type, MaterialType::specular);
  EXPECT_EQ(d.color, metal.ks);
  EXPECT_NEAR(d.roughness * d.roughness, std::sqrt(2.0f / 42.0f), 1e-6f);
  // Ks over a Kd: a plastic (base Kd, coat of index Ni); Ni alone does not make glass.
  MtlMaterial coated = m;
  coated.ks = glm::vec3(1.0f);
  coated.ni = 1.6f;
  coated.ns = 40.0f;
  d = material_from_mtl(coated);
  EXPECT_EQ(d.type, MaterialType::plastic);
  EXPECT_EQ(d.color, m.kd);
  EXPECT_FLOAT_EQ(d.ior, 1.6f);
  EXPECT_NEAR(d.roughness * d.roughness, std::sqrt(2.0f / 42.0f), 1e-6f);
  MtlMaterial plain = m;
  plain.ni = 1.5f;
  EXPECT_EQ(material_from_mtl(plain).type, MaterialType::diffuse);
}

TEST(ObjLoader, MaterialsFromMtlFoundBesideTheObj) {
  std::vector<std::string> warnings;
  const ObjMesh mesh = load_obj(kData + "materials.obj", warnings);
  ASSERT_EQ(mesh.materials.size(), 5u);
  ASSERT_EQ(mesh.triangles.size(), 6u);
  const MaterialType expected[5] = {MaterialType::diffuse, MaterialType::diffuse,
                                    MaterialType::specular, MaterialType::refractive,
                                    MaterialType::refractive};
  for (int k = 0; k < 5; ++k) {
    ASSERT_EQ(mesh.triangles[k].material, k);
    EXPECT_EQ(mesh.materials[k].type, expected[k]) << mesh.materials[k].name;
  }
  EXPECT_EQ(mesh.materials[0].name, "matte");
  EXPECT_TRUE(emits(mesh.materials[1]));  // lamp: Kd and Ke
  EXPECT_FALSE(emits(mesh.materials[0]));
  EXPECT_FLOAT_EQ(mesh.materials[3].ior, 1.33f);
  EXPECT_EQ(mesh.triangles[5].material, -1);  // usemtl of an unknown name: no material
}

TEST(ObjLoader, MissingMaterialLibraryWarnsAndLoads) {
  std::vector<std::string> warnings;
  const ObjMesh mesh = load_obj(kData + "missing_mtl.obj", warnings);
  ASSERT_EQ(mesh.triangles.size(), 1u);
  EXPECT_EQ(mesh.triangles[0].material, -1);
  bool named = false;
  for (const std::string& w : mesh.material_warnings)
    named = named || (w.find("missing_mtl.obj") != std::string::npos &&
                      w.find("no_such_library.mtl") != std::string::npos);
  EXPECT_TRUE(named) << "no warning names the file and the missing library";
}

// Issue 34, item 13: tinyobjloader's own "Failed to load material file(s)" came next to our
// warning about the missing library: one warning, ours.
TEST(ObjLoader, MissingMaterialLibraryIsOneWarning) {
  std::vector<std::string> warnings;
  const ObjMesh mesh = load_obj(kData + "missing_mtl.obj", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  int about_library = 0;
  for (const std::string& w : mesh.material_warnings) {
    EXPECT_EQ(w.find("Failed to load material"), std::string::npos) << w;
    if (w.find("no_such_library.mtl") != std::string::npos) ++about_library;
  }
  EXPECT_EQ(about_library, 1);
}

// Issue 34, item 6: a map_Kd that names no file says so instead of being dropped silently.
TEST(ObjLoader, MapKdWithoutAFileIsWarnedAbout) {
  const MtlLookup mtl = [](const std::string&, std::string& text, std::string& path) {
    text = "newmtl a\nKd 1 1 1\nmap_Kd \nnewmtl b\nKd 1 1 1\nmap_Kd\n";
    path = "m.mtl";
    return true;
  };
  std::vector<std::string> warnings;
  const ObjMesh mesh = parse_obj("mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nusemtl a\nf 1 2 3\n",
                                 "m.obj", mtl, warnings);
  ASSERT_EQ(mesh.materials.size(), 2u);
  std::vector<std::string> about_map_kd;
  for (const std::string& w : mesh.material_warnings)
    if (w.find("map_Kd") != std::string::npos) about_map_kd.push_back(w);
  ASSERT_EQ(about_map_kd.size(), 2u)
      << (mesh.material_warnings.empty() ? "" : mesh.material_warnings[0]);
  EXPECT_EQ(about_map_kd[0], "m.obj: m.mtl:3: map_Kd names no image file; ignored");
  EXPECT_EQ(about_map_kd[1], "m.obj: m.mtl:6: map_Kd names no image file; ignored");
}

TEST(ObjLoader, MissingFileAndDirectory) {
  expect_obj_error(kData + "no_such_file.obj", {"no_such_file.obj", "cannot open"});
  expect_obj_error(kData, {"is a directory"});
}

TEST(ObjLoader, EmptyFile) {
  expect_obj_error(kData + "empty.obj", {"empty.obj", "no faces"});
}

TEST(ObjLoader, OnlyPointsAndLines) {
  expect_obj_error(kData + "only_points_lines.obj", {"only_points_lines.obj", "points or lines"});
}

TEST(ObjLoader, FacesIndexingMissingVertices) {
  expect_obj_error(kData + "bad_indices.obj", {"bad_indices.obj", "no usable face"});
  std::vector<std::string> warnings;
  const ObjMesh mesh = load_obj(kData + "some_bad_indices.obj", warnings);
  EXPECT_EQ(mesh.triangles.size(), 1u);
  EXPECT_EQ(mesh.skipped_faces, 2u);
  ASSERT_FALSE(warnings.empty());
  EXPECT_NE(warnings.back().find("some_bad_indices.obj"), std::string::npos);
  EXPECT_NE(warnings.back().find("2 faces skipped"), std::string::npos) << warnings.back();
}

TEST(ObjLoader, ZeroIndexIsRejected) {
  // OBJ counts from 1: index 0 is an error naming the file, the line and the corner; never a
  // crash and never a triangle made of garbage.
  expect_obj_error(kData + "zero_index.obj",
                   {kData + "zero_index.obj:5: face corner \"0\" has the index 0 (OBJ indices "
                            "count from 1)"});
  std::vector<std::string> warnings;
  const std::string v = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\n";
  for (const char* face : {"f 1/0 2/1 3/1\n", "f 1//0 2//1 3//1\n"}) {
    try {
      parse_obj(v + face, "x.obj", {}, warnings);
      ADD_FAILURE() << face << ": loaded";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find("x.obj:6: face corner \"1/"), std::string::npos)
          << e.what();
    }
  }
}

TEST(ObjLoader, NonFiniteVerticesAreSkipped) {
  std::vector<std::string> warnings;
  const ObjMesh mesh = load_obj(kData + "nan_vertices.obj", warnings);
  ASSERT_EQ(mesh.triangles.size(), 1u);
  EXPECT_EQ(mesh.skipped_faces, 2u);
  expect_obj_error(kData + "all_nan.obj", {"all_nan.obj", "no usable face"});
}

TEST(ObjLoader, DegenerateFacesAreSkipped) {
  expect_obj_error(kData + "degenerate.obj", {"degenerate.obj", "no usable face"});
}

TEST(ObjLoader, PolygonsAreTriangulated) {
  std::vector<std::string> warnings;
  const ObjMesh mesh = load_obj(kData + "polygons.obj", warnings);
  ASSERT_EQ(mesh.triangles.size(), 2u + 3u);
  double area = 0.0;
  for (const Triangle& t : mesh.triangles) {
    const glm::vec3 c = glm::cross(t.v[1] - t.v[0], t.v[2] - t.v[0]);
    EXPECT_GT(c.z, 0.0f) << "the winding of the polygon is kept";
    area += 0.5 * glm::length(c);
    EXPECT_EQ(t.n[0], glm::vec3(0, 0, 1));  // no normals in the file: the face normal
  }
  // The unit quad plus the pentagon (area 2.5 by the shoelace formula).
  EXPECT_NEAR(area, 1.0 + 2.5, 1e-5);
}

TEST(ObjLoader, MissingNormalAndTexcoordIndices) {
  std::vector<std::string> warnings;
  const ObjMesh mesh = load_obj(kData + "mixed_indices.obj", warnings);
  ASSERT_EQ(mesh.triangles.size(), 4u);
  // Texture coordinates only: the face normal from the winding.
  EXPECT_EQ(mesh.triangles[0].n[0], glm::vec3(0, 0, 1));
  // Normals pointing -z: the winding turns so the geometric normal agrees with them.
  const Triangle& t = mesh.triangles[1];
  EXPECT_EQ(t.n[0], glm::vec3(0, 0, -1));
  EXPECT_LT(glm::cross(t.v[1] - t.v[0], t.v[2] - t.v[0]).z, 0.0f);
  // One corner without a normal: flat.
  EXPECT_EQ(mesh.triangles[2].n[2], glm::vec3(0, 0, 1));
  EXPECT_EQ(mesh.triangles[2].n[0], glm::vec3(0, 0, 1));
  // Relative indices -3 -2 -1: the last three vertices.
  EXPECT_EQ(mesh.triangles[3].v[0], glm::vec3(0, 0, 0));
  EXPECT_EQ(mesh.triangles[3].v[2], glm::vec3(0, 1, 0));
}

// The Cornell Box family: each file loads with its MTL materials (names as in the MTL) and its
// light (Ke 17 12 4, or 10 10 10 in the Water box) as an emitting material.
TEST(CornellBox, FamilyLoadsWithMaterialsAndLight) {
  if (!fs::is_directory(kCornell)) GTEST_SKIP() << kCornell << " missing";
  int files = 0;
  for (const auto& entry : fs::directory_iterator(kCornell)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".obj" || name.rfind("CornellBox", 0) != 0) continue;
    ++files;
    std::vector<std::string> warnings;
    const ObjMesh mesh = load_obj(entry.path().string(), warnings);
    EXPECT_GE(mesh.triangles.size(), 12u) << name;
    EXPECT_EQ(mesh.skipped_faces, 0u) << name;
    int lights = 0, unassigned = 0;
    for (const Triangle& t : mesh.triangles) {
      if (t.material < 0) {
        ++unassigned;
        continue;
      }
      const Material& m = mesh.materials[t.material];
      if (emits(m)) {
        ++lights;
        EXPECT_EQ(m.name, "light") << name;
      }
    }
    if (name == "CornellBox-Glossy.obj" || name == "CornellBox-Glossy-Floor.obj") {
      // Both name CornellBox-Glossy.mtl, which defines no "light": those faces fall back to the
      // default material (the files' own quirk, kept as shipped).
      EXPECT_EQ(unassigned, 2) << name;
      EXPECT_EQ(lights, 0) << name;
      continue;
    }
    EXPECT_EQ(unassigned, 0) << name;
    EXPECT_EQ(lights, 2) << name << ": the light quad is two triangles";
  }
  EXPECT_EQ(files, 12);
}

TEST(CornellBox, OriginalMaterials) {
  if (!fs::is_directory(kCornell)) GTEST_SKIP() << kCornell << " missing";
  std::vector<std::string> warnings;
  const ObjMesh mesh = load_obj(kCornell + "CornellBox-Original.obj", warnings);
  EXPECT_EQ(mesh.triangles.size(), 36u);  // 18 quads
  std::vector<std::string> names;
  for (const Material& m : mesh.materials) {
    names.push_back(m.name);
    if (m.name == "leftWall") {
      EXPECT_EQ(m.type, MaterialType::diffuse);
      EXPECT_NEAR(m.color.x, 0.63f, 1e-6f);
      EXPECT_NEAR(m.color.y, 0.065f, 1e-6f);
    } else if (m.name == "light") {
      // Emits Ke and reflects Kd, as in pbrt and Mitsuba.
      EXPECT_EQ(m.type, MaterialType::diffuse);
      EXPECT_EQ(m.emission, glm::vec3(17.0f, 12.0f, 4.0f));
      EXPECT_NEAR(m.color.x, 0.78f, 1e-6f);
    } else {
      EXPECT_EQ(m.type, MaterialType::diffuse) << m.name;
    }
  }
  EXPECT_EQ(names.size(), 8u);
}

TEST(CornellBox, MirrorGlassAndSphereBoxes) {
  if (!fs::is_directory(kCornell)) GTEST_SKIP() << kCornell << " missing";
  auto types_of = [](const std::string& file) {
    std::vector<std::string> warnings;
    const ObjMesh mesh = load_obj(file, warnings);
    std::vector<std::pair<std::string, MaterialType>> out;
    for (const Material& m : mesh.materials) out.emplace_back(m.name, m.type);
    return out;
  };
  auto type_named = [](const std::vector<std::pair<std::string, MaterialType>>& all,
                       const std::string& name) {
    for (const auto& [n, t] : all)
      if (n == name) return static_cast<int>(t);
    return -1;
  };
  const auto mirror = types_of(kCornell + "CornellBox-Mirror.obj");
  EXPECT_EQ(type_named(mirror, "tallBox"), static_cast<int>(MaterialType::specular));
  const auto glass = types_of(kCornell + "CornellBox-Glass.obj");  // d 0, Tf 1: clear glass
  EXPECT_EQ(type_named(glass, "shortBox"), static_cast<int>(MaterialType::refractive));
  const auto spheres = types_of(kCornell + "CornellBox-Sphere.obj");
  EXPECT_EQ(type_named(spheres, "leftSphere"), static_cast<int>(MaterialType::specular));
  EXPECT_EQ(type_named(spheres, "rightSphere"), static_cast<int>(MaterialType::refractive));
}

TEST(CornellBox, MissingMaterialLightsTheGlossyBox) {
  // CornellBox-Glossy.mtl does not define the "light" its OBJ uses: MISSING_MATERIAL names the
  // scene material those faces take.
  if (!fs::is_directory(kCornell)) GTEST_SKIP() << kCornell << " missing";
  std::vector<std::string> warnings;
  const std::string obj = fs::absolute(kCornell + "CornellBox-Glossy.obj").string();
  const Scene lit = parse_scene(
      mesh_scene(R"({"TYPE": "mesh", "FILE": ")" + obj + R"(", "MISSING_MATERIAL": "lamp"})"),
      kData + "scene.json", warnings);
  EXPECT_EQ(count_type(lit, MaterialType::emitting), 2);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  const Scene unlit = parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": ")" + obj + R"("})"),
                                  kData + "scene.json", warnings);
  EXPECT_EQ(count_type(unlit, MaterialType::emitting), 0);
  EXPECT_EQ(count_emissive(unlit), 0);
}

TEST(CornellBox, SceneReferencingOnlyTheObjIsLit) {
  if (!fs::is_directory(kCornell)) GTEST_SKIP() << kCornell << " missing";
  std::vector<std::string> warnings;
  const Scene s = load_scene("scenes/cornell_box_original.json", warnings);
  EXPECT_TRUE(s.objects.empty());
  EXPECT_EQ(s.triangles.size(), 36u);
  EXPECT_EQ(count_emissive(s), 2);
  for (const std::string& w : warnings) EXPECT_EQ(w.find("no emitter"), std::string::npos) << w;
  bool light = false;
  for (const Material& m : s.materials) light = light || m.name == "CornellBox-Original.obj:light";
  EXPECT_TRUE(light) << "MTL materials are named <file name>:<name>";
}

TEST(MeshObject, TransformAndNamedMaterial) {
  std::vector<std::string> warnings;
  const std::string scene_path = kData + "scene.json";  // FILE is relative to the scene's folder
  const Scene s =
      parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": "polygons.obj", "MATERIAL": "lamp",
                     "TRANS": [10, 0, 0], "ROTAT": [0, 0, 90], "SCALE": [2, 2, 2]})"),
                  scene_path, warnings);
  ASSERT_EQ(s.triangles.size(), 5u);
  EXPECT_EQ(s.materials.size(), 2u) << "a named MATERIAL adds no MTL or default material";
  // Vertex (1, 0, 0) scaled by 2, turned 90 degrees about z, moved by 10 in x: (10, 2, 0).
  const Triangle& t = s.triangles[0];
  EXPECT_NEAR(t.v[1].x, 10.0f, 1e-5f);
  EXPECT_NEAR(t.v[1].y, 2.0f, 1e-5f);
  EXPECT_NEAR(t.n[0].z, 1.0f, 1e-6f);
  for (const Triangle& tri : s.triangles) EXPECT_EQ(tri.material, 1);
  for (const std::string& w : warnings) EXPECT_EQ(w.find("no emitter"), std::string::npos) << w;
}

TEST(MeshObject, MirroringScaleKeepsTheNormalsOutward) {
  std::vector<std::string> warnings;
  const Scene s =
      parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": "polygons.obj", "SCALE": [1, 1, -1]})"),
                  kData + "scene.json", warnings);
  ASSERT_FALSE(s.triangles.empty());
  for (const Triangle& t : s.triangles) {
    EXPECT_NEAR(t.n[0].z, -1.0f, 1e-6f);
    EXPECT_LT(glm::cross(t.v[1] - t.v[0], t.v[2] - t.v[0]).z, 0.0f) << "winding follows";
  }
  // No MTL: the file's default grey material.
  EXPECT_EQ(s.materials.back().name, "polygons.obj:default");
  EXPECT_EQ(s.triangles[0].material, static_cast<int>(s.materials.size()) - 1);
}

TEST(MeshObject, SharedFileAddsItsMaterialsOnce) {
  std::vector<std::string> warnings;
  const Scene s = parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": "materials.obj"},
                                           {"TYPE": "mesh", "FILE": "materials.obj",
                                            "TRANS": [0, 0, -1]})"),
                              kData + "scene.json", warnings);
  EXPECT_EQ(s.triangles.size(), 12u);
  EXPECT_EQ(s.materials.size(), 2u + 5u + 1u);  // scene, MTL, default for the unnamed face
  EXPECT_EQ(s.triangles[1].material, s.triangles[7].material);
  EXPECT_TRUE(emits(s.materials[s.triangles[1].material]));
}

TEST(MeshObject, MaterialWarningsOnlyWhereTheMtlIsUsed) {
  std::vector<std::string> warnings;
  parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": "missing_mtl.obj", "MATERIAL": "lamp"})"),
              kData + "scene.json", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": "missing_mtl.obj"},
                            {"TYPE": "mesh", "FILE": "missing_mtl.obj"})"),
              kData + "scene.json", warnings);
  int about_library = 0;
  for (const std::string& w : warnings)
    if (w.find("no_such_library.mtl") != std::string::npos) ++about_library;
  EXPECT_EQ(about_library, 1) << "once per file";
}

// Hardening, fifth round, item 15: a usemtl name that the MTL library does not define was warned
// about at every usemtl line that named it; the docs promise one warning, naming the file.
TEST(MeshObject, UndefinedMaterialIsOneWarning) {
  std::vector<std::string> warnings;
  const Scene s = parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": "usemtl_twice.obj"})"),
                              kData + "scene.json", warnings);
  std::vector<std::string> about_light;
  for (const std::string& w : warnings)
    if (w.find("light") != std::string::npos) about_light.push_back(w);
  ASSERT_EQ(about_light.size(), 1u) << about_light.front();
  EXPECT_EQ(about_light[0], kData +
                                "usemtl_twice.obj: usemtl \"light\" names no material of the MTL "
                                "library; its faces take the default material");
  ASSERT_EQ(s.triangles.size(), 3u);
  EXPECT_EQ(s.materials[s.triangles[0].material].name, "usemtl_twice.obj:default");
  EXPECT_EQ(s.triangles[2].material, s.triangles[0].material);
  EXPECT_EQ(s.materials[s.triangles[1].material].name, "usemtl_twice.obj:matte");
  // With MISSING_MATERIAL those faces have a material: no warning.
  warnings.clear();
  parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": "usemtl_twice.obj",
                             "MISSING_MATERIAL": "lamp"})"),
              kData + "scene.json", warnings);
  for (const std::string& w : warnings) EXPECT_EQ(w.find("usemtl"), std::string::npos) << w;
  // Several names: one warning names them all, the first few of them.
  std::string text = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  for (const char* name : {"a", "b", "a", "c", "d", "e", "f", "b"})
    text += std::string("usemtl ") + name + "\nf 1 2 3\n";
  const ObjMesh mesh = parse_obj(text, "x.obj", {}, warnings);
  EXPECT_EQ(mesh.undefined_materials_warning,
            "x.obj: usemtl \"a\", \"b\", \"c\", \"d\" and 2 more name no material of the MTL "
            "library; their faces take the default material");
}

TEST(MeshObject, ErrorsNameTheSceneKeyAndTheObj) {
  std::vector<std::string> warnings;
  try {
    parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": "no_such.obj"})"), kData + "scene.json",
                warnings);
    ADD_FAILURE() << "expected an error";
  } catch (const SceneError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Objects[0].FILE"), std::string::npos) << what;
    EXPECT_NE(what.find("no_such.obj"), std::string::npos) << what;
  }
  EXPECT_THROW(parse_scene(mesh_scene(R"({"TYPE": "mesh"})"), kData + "scene.json", warnings),
               SceneError);
  EXPECT_THROW(parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": "polygons.obj",
                                          "MATERIAL": "nope"})"),
                           kData + "scene.json", warnings),
               SceneError);
  EXPECT_THROW(parse_scene(mesh_scene(R"({"TYPE": "mesh", "FILE": "empty.obj"})"),
                           kData + "scene.json", warnings),
               SceneError);
}

// Finding 4: an MTL Ke of 1e39 made an emitter of RGB (NaN, 0, 0); every MTL value gets the JSON
// loader's checks, and the message names the OBJ, the MTL, the line and the field.
TEST(ObjLoader, MtlValuesAreCheckedLikeTheJsonLoader) {
  expect_obj_error(kData + "ke_overflow.obj",
                   {kData + "ke_overflow.obj: material library " + kData +
                    "ke_overflow.mtl:3: Ke: value 1e39 is too large (it overflows a float)"});
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"Kd nan 0 0", "Kd: expected a finite number, got nan"},
      {"Kd 0.5 inf 0", "Kd: expected a finite number, got inf"},
      {"Ks 0.5 1e400 0", "Ks: expected a finite number, got 1e400"},
      {"Tf 1 1 -0.5", "Tf: expected non-negative components"},
      {"Ke -2 0 0", "Ke: expected non-negative components"},
      {"Kd x 0 0", "Kd: expected a number, got \"x\""},
      {"Kd", "Kd: expected 1 or 3 numbers"},
      {"Ni 1e39", "Ni: value 1e39 is too large"},
      {"Ni -1.5", "Ni: expected a non-negative number"},
      {"d 1.5", "d: expected a value in [0, 1], got 1.5"},
      {"Tr -0.1", "Tr: expected a value in [0, 1]"},
      {"Ns nan", "Ns: expected a finite number"},
      {"Ka 1e39 0 0", "Ka: value 1e39 is too large"},
      {"illum 11", "illum: expected an integer from 0 to 10, got 11"},
      {"illum 2.5", "illum: expected an integer from 0 to 10"},
  };
  for (const auto& [line, message] : bad) {
    try {
      check_mtl_values("newmtl m\n" + line + "\n", "m.mtl");
      ADD_FAILURE() << line << ": accepted";
    } catch (const SceneError& e) {
      EXPECT_NE(std::string(e.what()).find("m.mtl:2: " + message), std::string::npos)
          << line << ": " << e.what();
    }
  }
  EXPECT_NO_THROW(
      check_mtl_values("newmtl m\nKd 0.5\nKe 0 0 0\nTf xyz 1 1 1\nKa spectral a.rfl\n"
                       "d -halo 0.5\nNi 0\nillum 10\n# Kd nan\n",
                       "m.mtl"));
  // Every shipped MTL passes.
  int checked = 0;
  for (const std::string& folder : {kCornell, kData}) {
    if (!fs::is_directory(folder)) continue;
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().extension() != ".mtl" || entry.path().filename() == "ke_overflow.mtl")
        continue;
      std::ifstream in(entry.path());
      const std::string text((std::istreambuf_iterator<char>(in)), {});
      EXPECT_NO_THROW(check_mtl_values(text, entry.path().string())) << entry.path();
      ++checked;
    }
  }
  EXPECT_GT(checked, 1);
}

// An MTL library is read in one pass, its values as the file writes them.
TEST(MtlReader, ValuesAsTheLibraryWritesThem) {
  const std::vector<MtlMaterial> m = parse_mtl(
      "Kd 1 1 1\n"  // before the first newmtl: no material's
      "newmtl grey\nKd 0.5\nKe 2\n"
      "newmtl glass\nTr 0.25\n"
      "newmtl faded\nd 0.5\nTr 0.9\n"
      "newmtl halo\nd -halo 0.4\n"
      "newmtl textured\nmap_Kd -s 2 2 1 -clamp on wood grain.png  \n"
      "newmtl kd_given\nmap_Kd a.png\nKd 0.2 0.2 0.2\n"
      "newmtl two words\nmap_Kd\n",
      "m.mtl");
  ASSERT_EQ(m.size(), 7u);
  EXPECT_EQ(m[0].name, "grey");
  EXPECT_EQ(m[0].kd, glm::vec3(0.5f));  // one number: grey
  EXPECT_EQ(m[0].ke, glm::vec3(2.0f));
  EXPECT_EQ(m[0].ns, 1.0f);
  EXPECT_EQ(m[0].illum, 0);
  EXPECT_FLOAT_EQ(m[1].d, 0.75f);  // 1 - Tr
  EXPECT_FLOAT_EQ(m[2].d, 0.5f);   // d wins over Tr
  EXPECT_FLOAT_EQ(m[3].d, 0.4f);
  EXPECT_EQ(m[4].kd_map, "wood grain.png");  // options read past, the rest of the line the name
  EXPECT_EQ(m[4].kd_map_line, 13u);
  EXPECT_EQ(m[4].kd, glm::vec3(0.6f));  // a map_Kd without Kd
  EXPECT_EQ(m[5].kd, glm::vec3(0.2f));
  EXPECT_EQ(m[6].name, "two words");
  EXPECT_TRUE(m[6].kd_map.empty());
  EXPECT_EQ(m[6].kd_map_line, 18u);
  // A library without newmtl: one material, unnamed.
  const std::vector<MtlMaterial> unnamed = parse_mtl("Kd 0.25 0.5 1\n", "m.mtl");
  ASSERT_EQ(unnamed.size(), 1u);
  EXPECT_EQ(unnamed[0].kd, glm::vec3(0.25f, 0.5f, 1.0f));
}

// A normal index out of range shades its face flat, counted in one warning.
TEST(ObjLoader, NormalIndicesOutOfRangeShadeFlat) {
  std::vector<std::string> warnings;
  const ObjMesh mesh =
      parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nvn 0 0 -1\nf 1//1 2//1 3//4\nf 1//-3 2//1 3//1\n",
                "x.obj", {}, warnings);
  ASSERT_EQ(mesh.triangles.size(), 2u);
  for (const Triangle& t : mesh.triangles) EXPECT_EQ(t.n[0], glm::vec3(0, 0, 1));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "x.obj: 2 face corners have a normal (vn) index out of range; their faces are shaded "
            "flat");
}

// Issue 40, item 3: faces are split in time linear in their corners where they are convex, and
// by ear clipping where they are not; a face that is not convex may have at most
// kMaxNonConvexFaceCorners corners, beyond which it is an error naming the line.
// The area of the triangles in the plane z = 0, signed by their winding (counter-clockwise seen
// from +z: positive); `unsigned_area`, their areas' sum, equals its size where none overlap.
double area_of(const ObjMesh& mesh, double* unsigned_area = nullptr) {
  double area = 0.0, sum = 0.0;
  for (const Triangle& t : mesh.triangles) {
    const double z = 0.5 * glm::cross(t.v[1] - t.v[0], t.v[2] - t.v[0]).z;
    area += z;
    sum += std::fabs(z);
  }
  if (unsigned_area) *unsigned_area = sum;
  return area;
}

// The OBJ text of one face through `corners` (x, y) points in the plane z = 0.
std::string face_obj(const std::vector<glm::dvec2>& corners) {
  std::string text, face = "f";
  for (std::size_t i = 0; i < corners.size(); ++i) {
    text += "v " + std::to_string(corners[i].x) + " " + std::to_string(corners[i].y) + " 0\n";
    face += " " + std::to_string(i + 1);
  }
  return text + face + "\n";
}

TEST(ObjLoader, LargeConvexFacesAreFans) {
  // 20000 corners took tinyobjloader's split 2.5 s, 100000 more than a minute.
  std::vector<glm::dvec2> circle;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double t = 2.0 * 3.14159265358979323846 * i / n;
    circle.emplace_back(10.0 * std::cos(t), 10.0 * std::sin(t));
  }
  std::vector<std::string> warnings;
  const ObjMesh mesh = parse_obj(face_obj(circle), "circle.obj", {}, warnings);
  double unsigned_area = 0.0;
  EXPECT_NEAR(area_of(mesh, &unsigned_area), 100.0 * 3.14159265358979323846, 1e-3)
      << "the winding of the face is kept";
  EXPECT_NEAR(unsigned_area, 100.0 * 3.14159265358979323846, 1e-3) << "no triangle overlaps";
  EXPECT_GT(mesh.triangles.size(), std::size_t(n - 100));
}

TEST(ObjLoader, FacesThatAreNotConvexAreEarClipped) {
  // A star of 1000 corners (alternately 1 and 0.5 from the centre) and a comb of 20 teeth.
  std::vector<glm::dvec2> star, comb;
  const int n = 1000;
  double star_area = 0.0;
  for (int i = 0; i < n; ++i) {
    const double t = 2.0 * 3.14159265358979323846 * i / n, r = i % 2 ? 0.5 : 1.0;
    star.emplace_back(r * std::cos(t), r * std::sin(t));
  }
  for (int i = 0; i < n; ++i)
    star_area += 0.5 * (star[i].x * star[(i + 1) % n].y - star[(i + 1) % n].x * star[i].y);
  for (int i = 0; i < 20; ++i) comb.insert(comb.end(), {{i, 0.0}, {i + 0.5, 5.0}});
  comb.insert(comb.end(), {{20.0, 0.0}, {20.0, -1.0}, {0.0, -1.0}});
  std::vector<std::string> warnings;
  double unsigned_area = 0.0;
  const ObjMesh star_mesh = parse_obj(face_obj(star), "star.obj", {}, warnings);
  EXPECT_EQ(star_mesh.triangles.size(), std::size_t(n - 2));
  EXPECT_NEAR(area_of(star_mesh, &unsigned_area), star_area, 1e-4);
  EXPECT_NEAR(unsigned_area, star_area, 1e-4);
  // The comb goes round clockwise: its triangles too.
  const ObjMesh comb_mesh = parse_obj(face_obj(comb), "comb.obj", {}, warnings);
  EXPECT_NEAR(area_of(comb_mesh, &unsigned_area), -(20 * 2.5 + 20.0), 1e-4);
  EXPECT_NEAR(unsigned_area, 20 * 2.5 + 20.0, 1e-4);
  // A concave quad is split at its reflex corner (the shorter diagonal lies outside it).
  const ObjMesh dart =
      parse_obj(face_obj({{0, 0}, {2, 1}, {0, 2}, {1.9, 1}}), "dart.obj", {}, warnings);
  EXPECT_NEAR(area_of(dart, &unsigned_area), 0.1, 1e-6);
  EXPECT_NEAR(unsigned_area, 0.1, 1e-6);
}

TEST(ObjLoader, LongFacesThatAreNotConvexAreRefused) {
  std::vector<glm::dvec2> star;
  const int n = 2000;
  for (int i = 0; i < n; ++i) {
    const double t = 2.0 * 3.14159265358979323846 * i / n, r = i % 2 ? 0.5 : 1.0;
    star.emplace_back(r * std::cos(t), r * std::sin(t));
  }
  std::vector<std::string> warnings;
  try {
    parse_obj("# a star\n" + face_obj(star), "star.obj", {}, warnings);
    ADD_FAILURE() << "a face of 2000 corners that is not convex was split";
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()),
              "star.obj:2002: a face of 2000 corners that is not convex (such a face may have at "
              "most 1024 corners: split it into smaller faces)");
  }
  // Long faces among others keep their corners apart (tinyobjloader, which read the files
  // before, counted a face's corners in a byte): a face of 256 and one of 300 between triangles.
  std::string text = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  std::vector<glm::dvec2> a, b;
  for (int i = 0; i < 256; ++i) a.emplace_back(std::cos(i * 0.0245), std::sin(i * 0.0245));
  for (int i = 0; i < 300; ++i) b.emplace_back(std::cos(i * 0.0209), std::sin(i * 0.0209));
  for (const auto& p : a) text += "v " + std::to_string(p.x) + " " + std::to_string(p.y) + " 1\n";
  for (const auto& p : b) text += "v " + std::to_string(p.x) + " " + std::to_string(p.y) + " 2\n";
  std::string fa = "f", fb = "f";
  for (int i = 0; i < 256; ++i) fa += " " + std::to_string(4 + i);
  for (int i = 0; i < 300; ++i) fb += " " + std::to_string(260 + i);
  text += "f 1 2 3\n" + fa + "\nf 1 2 3\n" + fb + "\nf 1 2 3\n";
  const ObjMesh mesh = parse_obj(text, "long.obj", {}, warnings);
  ASSERT_EQ(mesh.triangles.size(), 3u + 254u + 298u);
  for (const Triangle& t : mesh.triangles) {
    // Each triangle lies in one plane: one face's corners only.
    EXPECT_EQ(t.v[0].z, t.v[1].z);
    EXPECT_EQ(t.v[0].z, t.v[2].z);
  }
}

// Finding 6: "f 1 2" was reported as "no faces (an empty OBJ file, or not an OBJ file)".
TEST(ObjLoader, FacesOfFewerThanThreeVerticesNameTheLine) {
  expect_obj_error(kData + "two_vertex_face.obj",
                   {kData + "two_vertex_face.obj: no usable face: 1 face has fewer than 3 "
                            "vertices (line 5: a face with 2 vertices (a face needs at least 3))"});
  std::vector<std::string> warnings;
  const ObjMesh mesh = load_obj(kData + "short_and_out_of_range.obj", warnings);
  EXPECT_EQ(mesh.triangles.size(), 1u);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0], kData +
                             "short_and_out_of_range.obj: 1 face with fewer than 3 vertices "
                             "skipped (line 6: a face with 2 vertices (a face needs at least 3))");
  EXPECT_EQ(warnings[1], kData +
                             "short_and_out_of_range.obj: 1 faces skipped (out-of-range "
                             "indices, non-finite or coincident vertices); the first "
                             "out-of-range index: line 7: index 7 but the file has 3 vertices");
}

// Finding 6: "f 1 2 99999999999999999999" became a triangle of vertices 1, 2 and 3 (atoi wraps).
TEST(ObjLoader, FaceIndicesThatNoIntHoldsAreErrors) {
  expect_obj_error(kData + "huge_index.obj",
                   {kData + "huge_index.obj:5: face index 99999999999999999999 is out of range"});
  std::vector<std::string> warnings;
  const MtlLookup none;
  const auto error_of = [&](const std::string& text) -> std::string {
    try {
      parse_obj(text, "x.obj", none, warnings);
    } catch (const SceneError& e) {
      return e.what();
    }
    return "";
  };
  const std::string v = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  EXPECT_NE(error_of(v + "f 1 2 -2147483648\n").find("x.obj:4: face index -2147483648"),
            std::string::npos);
  EXPECT_NE(error_of(v + "f 1 2 3a\n").find("x.obj:4: face corner \"3a\" does not start"),
            std::string::npos);
  EXPECT_NE(
      error_of(v + "f 1/1/99999999999 2 3\n").find("x.obj:4: face corner \"1/1/99999999999\""),
      std::string::npos);
  // Relative indices before the first vertex are out of range (skipped, the line named).
  EXPECT_NE(error_of("f -1 -2 -3\n" + v).find("line 1: index -1 but the file has 3 vertices"),
            std::string::npos)
      << error_of("f -1 -2 -3\n" + v);
  // Valid: forward and relative references, texture and normal indices.
  EXPECT_EQ(parse_obj("f 1 2 3\n" + v, "x.obj", none, warnings).triangles.size(), 1u);
  EXPECT_EQ(
      parse_obj(v + "vn 0 0 1\nf -3//1 -2//1 -1//1\n", "x.obj", none, warnings).triangles.size(),
      1u);
}

// Skin weights ("vw") are not read: a joint id no int holds is no error (tinyobjloader, which read
// the files before, converted it without a range check: a fuzz finding).
TEST(ObjLoader, SkinWeightLinesAreIgnored) {
  std::vector<std::string> warnings;
  const MtlLookup none;
  const std::string v = "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
  EXPECT_EQ(parse_obj(v + "vw 0 1e31 0.5\n  vw\t2 -7 1\nf 1 2 3\n", "x.obj", none, warnings)
                .triangles.size(),
            1u);
  // Lines end at a lone "\r" too (a fuzz finding: a "vw" line after a "\r" slipped past a check
  // that split lines at "\n" only).
  EXPECT_EQ(parse_obj(v + "f 1 2 3\rvw 0 1e31 0.5\r\n\r  vw 1 -2e31 1\r", "x.obj", none, warnings)
                .triangles.size(),
            1u);
}

// Lines are numbered as they end: "\r\n" ends one line, a lone "\r" one too.
TEST(ObjLoader, CarriageReturnsEndLines) {
  std::vector<std::string> warnings;
  const MtlLookup none;
  const std::string v = "v 0 0 0\r\nv 1 0 0\rv 0 1 0\n";
  try {
    parse_obj(v + "# note\rf 1 2 3a\r\n", "x.obj", none, warnings);
    ADD_FAILURE() << "no error for a bad face corner";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("x.obj:5: face corner \"3a\""), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(parse_obj(v + "f 1 2 3\r", "x.obj", none, warnings).triangles.size(), 1u);
}

// Hardening, fifth round, item 13: a UTF-16 OBJ (assimp's box_UTF16BE.obj) was "no faces (an
// empty OBJ file, or not an OBJ file)"; it is named as what it is, as is a UTF-16 MTL library.
TEST(ObjLoader, Utf16FilesAreNamedAsSuch) {
  std::vector<std::string> warnings;
  const auto error_of = [&](const std::string& obj, const MtlLookup& mtl) -> std::string {
    try {
      parse_obj(obj, "x.obj", mtl, warnings);
    } catch (const SceneError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of(std::string("\xfe\xff\0v\0 \0"
                                 "0",
                                 7),
                     {}),
            "x.obj: the file is UTF-16 (byte-order mark); save it as UTF-8");
  const MtlLookup utf16_mtl = [](const std::string&, std::string& text, std::string& path) {
    text = std::string("\xff\xfen\0e\0w\0", 8);
    path = "m.mtl";
    return true;
  };
  EXPECT_EQ(error_of("mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", utf16_mtl),
            "x.obj: material library m.mtl: the file is UTF-16 (byte-order mark); save it as "
            "UTF-8");
  const std::string box = std::string(RAYSTREAM_TEST_MODELS) + "/OBJ/box_UTF16BE.obj";
  if (fs::exists(box))
    expect_obj_error(box, {box + ": the file is UTF-16 (byte-order mark); save it as UTF-8"});
}

// Hardening, fifth round, item 13: `raystream model.obj` read the OBJ as JSON ("malformed JSON
// ... last read: '#'"). An OBJ file given as the scene is rendered whole, as a glTF asset is.
TEST(ObjScene, AnObjFileAloneIsRenderedWhole) {
  EXPECT_TRUE(is_obj_path("a/b.obj"));
  EXPECT_TRUE(is_obj_path("B.OBJ"));
  EXPECT_FALSE(is_obj_path("b.obj.json"));
  std::vector<std::string> warnings;
  LoadReport report;
  const std::string path = kData + "materials.obj";
  const Scene s = load_scene(path, warnings, report);
  // Its MTL materials, named after the file, and the grey default for the face without one.
  ASSERT_EQ(s.triangles.size(), 6u);
  ASSERT_EQ(s.materials.size(), 5u + 1u);
  EXPECT_EQ(s.materials[0].name, "materials.obj:matte");
  EXPECT_EQ(s.materials[5].name, "materials.obj:default");
  for (int k = 0; k < 5; ++k) EXPECT_EQ(s.triangles[k].material, k);
  EXPECT_EQ(s.triangles[5].material, 5);
  EXPECT_TRUE(emits(s.materials[1]));
  // The glTF whole scene's defaults: a camera framing the model, a white sky, 256 spp, depth 8.
  EXPECT_EQ(s.camera.lookat, glm::vec3(0.5f, 0.5f, 0.0f));
  EXPECT_EQ(s.camera.width, 800);
  EXPECT_EQ(s.camera.height, 600);
  EXPECT_TRUE(s.environment.present);
  EXPECT_EQ(s.environment.constant, glm::vec3(1.0f));
  EXPECT_EQ(s.iterations, 256);
  EXPECT_EQ(s.depth, 8);
  EXPECT_EQ(s.output_name, "materials");
  // The warnings of its materials, and the notice that says how it is rendered.
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], path +
                             ": usemtl \"nothing_by_this_name\" names no material of the MTL "
                             "library; its faces take the default material");
  ASSERT_EQ(report.notices.size(), 1u);
  EXPECT_EQ(report.notices[0], obj_scene_notice(path));
  EXPECT_NE(report.notices[0].find(path + ": an OBJ model alone, rendered whole"),
            std::string::npos);
  // The files it read: the OBJ and its MTL.
  ASSERT_EQ(s.inputs.size(), 2u);
  EXPECT_EQ(s.inputs[0].kind, "OBJ file");
  EXPECT_EQ(s.inputs[1].kind, "MTL file");
  // A scene file gives no notice.
  load_scene("scenes/cornell_box_original.json", warnings, report);
  EXPECT_TRUE(report.notices.empty());
}

TEST(ObjScene, ErrorsNameTheFile) {
  std::vector<std::string> warnings;
  const auto error_of = [&](const std::string& path) -> std::string {
    try {
      load_scene(path, warnings);
    } catch (const SceneError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of(kData + "missing_texture.obj"),
            kData + "missing_texture.obj: " + kData + "missing_texture.mtl:3: map_Kd: " + kData +
                "textures/no_such_texture.png: cannot open the image file: No such file or "
                "directory");
  EXPECT_EQ(error_of(kData + "empty.obj"),
            kData + "empty.obj: no faces (an empty OBJ file, or not an OBJ file)");
  EXPECT_EQ(error_of(kData + "no_such.obj"),
            kData + "no_such.obj: cannot open the OBJ file: No such file or directory");
}

// Unusual files from the Debian package assimp-testmodels, where installed: each loads or fails
// with a SceneError naming the file; none crashes.
TEST(AssimpModels, LoadOrFailCleanly) {
  const std::string models = RAYSTREAM_TEST_MODELS;
  const std::vector<std::string> folders = {models + "/OBJ", models + "-nonbsd/OBJ",
                                            models + "/invalid"};
  int tried = 0;
  for (const std::string& folder : folders) {
    if (!fs::is_directory(folder)) continue;
    for (const auto& entry : fs::directory_iterator(folder)) {
      if (entry.path().extension() != ".obj") continue;
      ++tried;
      std::vector<std::string> warnings;
      try {
        const ObjMesh mesh = load_obj(entry.path().string(), warnings);
        EXPECT_FALSE(mesh.triangles.empty()) << entry.path();
        for (const Triangle& t : mesh.triangles) {
          for (int c = 0; c < 3; ++c) {
            ASSERT_TRUE(std::isfinite(t.v[c].x + t.v[c].y + t.v[c].z)) << entry.path();
            ASSERT_NEAR(glm::length(t.n[c]), 1.0f, 1e-4f) << entry.path();
          }
          ASSERT_TRUE(t.material >= -1 && t.material < static_cast<int>(mesh.materials.size()));
        }
      } catch (const SceneError& e) {
        EXPECT_NE(std::string(e.what()).find(entry.path().filename().string()), std::string::npos)
            << e.what();
      }
    }
  }
  if (tried == 0) GTEST_SKIP() << "assimp-testmodels not installed";
  // The package's point cloud and line files are recognised as such.
  const std::string points = models + "/OBJ/testpoints.obj";
  if (fs::exists(points)) expect_obj_error(points, {"testpoints.obj", "points or lines"});
}

// ---- The PBR extension of MTL, alpha maps and bump maps ---------------------------------------

TEST(MtlReader, PbrExtensionAndMaps) {
  const std::vector<MtlMaterial> m = parse_mtl(
      "newmtl p\nKd 0.5 0.5 0.5\nPr 0.3\nPm 1\nmap_Pr -imfchan g rough.png\nmap_Pm metal.png\n"
      "map_Ke glow.png\nnorm n.png\nmap_d -imfchan m leaf.png\nbump -bm 2.5 h.png\n"
      "newmtl q\nmap_Bump -bm 0.5 -clamp on height map.png\nKe 1 2 3\nmap_Ke e.png\n",
      "m.mtl");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_TRUE(m[0].pbr());
  EXPECT_FLOAT_EQ(m[0].pr, 0.3f);
  EXPECT_FLOAT_EQ(m[0].pm, 1.0f);
  EXPECT_EQ(m[0].pr_map.file, "rough.png");
  EXPECT_EQ(m[0].pr_map.channel, 1);
  EXPECT_EQ(m[0].pr_map.line, 5u);
  EXPECT_EQ(m[0].pm_map.file, "metal.png");
  EXPECT_EQ(m[0].pm_map.channel, -1);
  EXPECT_EQ(m[0].ke_map.file, "glow.png");
  EXPECT_EQ(m[0].ke, glm::vec3(1.0f));  // map_Ke without Ke: the map says what is emitted
  EXPECT_EQ(m[0].norm_map.file, "n.png");
  EXPECT_EQ(m[0].d_map.file, "leaf.png");
  EXPECT_EQ(m[0].d_map.channel, 3);
  EXPECT_EQ(m[0].bump_map.file, "h.png");
  EXPECT_FLOAT_EQ(m[0].bump_map.bm, 2.5f);
  EXPECT_TRUE(m[0].normal_mapped());
  EXPECT_FALSE(m[1].pbr());
  EXPECT_EQ(m[1].bump_map.file, "height map.png");
  EXPECT_FLOAT_EQ(m[1].bump_map.bm, 0.5f);
  EXPECT_EQ(m[1].ke, glm::vec3(1, 2, 3));
  // Pr and Pm are fractions.
  try {
    parse_mtl("newmtl p\nPr 1.5\n", "m.mtl");
    ADD_FAILURE() << "Pr 1.5 was read";
  } catch (const SceneError& e) {
    EXPECT_EQ(std::string(e.what()), "m.mtl:2: Pr: expected a value in [0, 1], got 1.5");
  }
}

TEST(MtlMapping, PbrAndAlpha) {
  MtlMaterial m;
  m.kd = glm::vec3(0.5f, 0.25f, 0.125f);
  m.has_pr = true;
  m.pr = 0.2f;
  m.ni = 1.4f;
  Material d = material_from_mtl(m);
  EXPECT_EQ(d.type, MaterialType::pbr);
  EXPECT_EQ(d.color, m.kd);
  EXPECT_FLOAT_EQ(d.roughness, 0.2f);
  EXPECT_FLOAT_EQ(d.metallic, 0.0f);
  EXPECT_FLOAT_EQ(d.ior, 1.4f);
  EXPECT_EQ(d.alpha_mode, AlphaMode::opaque);
  // A Pbr material with d below 1 blends (it is not glass); with a map_d it cuts.
  m.d = 0.5f;
  d = material_from_mtl(m);
  EXPECT_EQ(d.alpha_mode, AlphaMode::blend);
  EXPECT_FLOAT_EQ(d.opacity, 0.5f);
  m.d_map.file = "leaf.png";
  EXPECT_EQ(material_from_mtl(m).alpha_mode, AlphaMode::mask);
  // Only map_Pm makes Pbr too (Pr then 1: the map's value as it is).
  MtlMaterial metal;
  metal.pm_map.file = "metal.png";
  d = material_from_mtl(metal);
  EXPECT_EQ(d.type, MaterialType::pbr);
  EXPECT_EQ(d.roughness, 1.0f);
  // The older types: a map_d cuts a diffuse surface, and d < 1 with it is no longer glass.
  MtlMaterial leaf;
  leaf.kd = glm::vec3(0.2f, 0.6f, 0.1f);
  leaf.d_map.file = "leaf.png";
  d = material_from_mtl(leaf);
  EXPECT_EQ(d.type, MaterialType::diffuse);
  EXPECT_EQ(d.alpha_mode, AlphaMode::mask);
  EXPECT_EQ(d.alpha_cutoff, 0.5f);
  leaf.d = 0.9f;
  EXPECT_EQ(material_from_mtl(leaf).type, MaterialType::diffuse);
  leaf.d_map.file.clear();
  EXPECT_EQ(material_from_mtl(leaf).type, MaterialType::refractive);  // as before
}

// Heights in a grey image as the file stores them (the reader decodes sRGB; the map encodes
// again).
TextureImage heights(int width, int height, float (*level)(int x, int y)) {
  TextureImage t;
  t.path = "h.png";
  t.width = width;
  t.height = height;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const auto byte = static_cast<std::uint8_t>(std::lround(255.0f * level(x, y)));
      const float v = srgb8_to_linear(byte);
      t.texels.emplace_back(v, v, v, 1.0f);
    }
  return t;
}

TEST(BumpMap, HeightsBecomeNormals) {
  // Flat: (0, 0, 1) everywhere, stored as (0.5, 0.5, 1).
  TextureImage n = normal_map_from_heights(heights(4, 4, [](int, int) { return 0.5f; }), 1.0f);
  EXPECT_EQ(n.path, "h.png#normals");
  for (const glm::vec4& t : n.texels) {
    EXPECT_NEAR(t.x, 0.5f, 1e-6f);
    EXPECT_NEAR(t.y, 0.5f, 1e-6f);
    EXPECT_NEAR(t.z, 1.0f, 1e-6f);
  }
  // Rising to the right (+u) by 0.2 a texel: the normal leans to -x, by atan(scale x 0.2).
  n = normal_map_from_heights(heights(8, 2, [](int x, int) { return 0.2f * float(x % 4); }), 2.0f);
  const glm::vec3 inner = 2.0f * glm::vec3(n.texels[1]) - 1.0f;  // x = 1: neighbours 0 and 0.4
  EXPECT_NEAR(inner.x / inner.z, -2.0f * 0.2f, 2e-3f);
  EXPECT_NEAR(inner.y, 0.0f, 1e-3f);
  // Rising towards the top of the image (row 0, the renderer's +v): the normal leans to -y.
  n = normal_map_from_heights(heights(2, 8, [](int, int y) { return 0.1f * float(7 - y); }), 1.0f);
  const glm::vec3 up = 2.0f * glm::vec3(n.texels[2 * 3]) - 1.0f;  // row 3
  EXPECT_NEAR(up.y / up.z, -0.1f, 2e-3f);
  EXPECT_NEAR(up.x, 0.0f, 1e-3f);
}

class PbrObj : public test::TempFolderTest {
 protected:
  PbrObj() : TempFolderTest("raystream_pbr_obj_test_") {}
};

TEST_F(PbrObj, MapsBecomeSlotsAndNormalMapsGetTangents) {
  for (const char* name : {"c.png", "rough.png", "n.png", "h.png"})
    fs::copy_file("scenes/textures/checker.png", dir_ / name);
  std::ofstream(dir_ / "m.mtl") << "newmtl p\nKd 1 1 1\nPr 0.5\nmap_Kd c.png\n"
                                   "map_Pr -imfchan g rough.png\nnorm n.png\nmap_d c.png\n"
                                   "newmtl b\nKd 1 1 1\nbump -bm 3 h.png\nmap_Ke c.png\n"
                                   "newmtl plain\nKd 1 1 1\n";
  std::ofstream(dir_ / "q.obj") << "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
                                   "vt 0 0\nvt 1 0\nvt 1 1\nvt 0 1\nvn 0 0 1\n"
                                   "usemtl p\nf 1/1/1 2/2/1 3/3/1\nusemtl b\nf 1/1/1 3/3/1 4/4/1\n"
                                   "usemtl plain\nf 1/1/1 2/2/1 4/4/1\n";
  std::vector<std::string> warnings;
  LoadTimes times;
  const Scene s = obj_scene((dir_ / "q.obj").string(), warnings, times);
  ASSERT_EQ(s.materials.size(), 3u);
  const Material& p = s.materials[0];
  EXPECT_EQ(p.type, MaterialType::pbr);
  EXPECT_TRUE(p.texture.present());
  EXPECT_TRUE(p.roughness_texture.present());
  EXPECT_EQ(p.roughness_texture.channel, 1);
  EXPECT_TRUE(p.normal_texture.present());
  EXPECT_EQ(p.opacity_texture.texture, p.texture.texture);  // one image, read once
  EXPECT_EQ(p.opacity_texture.channel, 0);                  // the checker is opaque: its grey level
  EXPECT_EQ(p.alpha_mode, AlphaMode::mask);
  const Material& b = s.materials[1];
  EXPECT_EQ(b.type, MaterialType::diffuse);
  EXPECT_EQ(b.emission, glm::vec3(1.0f));
  EXPECT_TRUE(b.emission_texture.present());
  ASSERT_TRUE(b.normal_texture.present());
  // The bump map's normal map joins the textures, after the height map itself.
  const TextureImage& normals = s.textures.at(std::size_t(b.normal_texture.texture));
  EXPECT_EQ(normals.path, (dir_ / "h.png").string() + "#normals");
  EXPECT_EQ(s.textures.size(), 5u);  // c, rough, n, h, h's normals
  // Tangents where a normal map needs them (u along +x), none elsewhere.
  ASSERT_EQ(s.triangles.size(), 3u);
  for (int t = 0; t < 2; ++t)
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(s.triangles[t].t[c].x, 1.0f, 1e-6f) << t;
      EXPECT_EQ(s.triangles[t].t[c].w, 1.0f);
    }
  EXPECT_EQ(s.triangles[2].t[0], glm::vec4(0.0f));
  EXPECT_EQ(s.triangles[2].uv1[1], s.triangles[2].uv[1]);

  // As a mesh object, mirrored: the tangents turn with it, their handedness too.
  std::ofstream(dir_ / "scene.json") << R"({"Camera": {"RES": [8, 8], "FOVY": 30, "ITERATIONS": 1,
      "DEPTH": 2, "EYE": [0, 0, 5], "LOOKAT": [0, 0, 0], "UP": [0, 1, 0]},
      "Environment": {"RGB": [1, 1, 1]},
      "Objects": [{"TYPE": "mesh", "FILE": "q.obj", "SCALE": [-1, 1, 1]}]})";
  const Scene mirrored = load_scene((dir_ / "scene.json").string(), warnings);
  ASSERT_EQ(mirrored.triangles.size(), 3u);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(mirrored.triangles[0].t[c].x, -1.0f, 1e-6f);
    EXPECT_EQ(mirrored.triangles[0].t[c].w, -1.0f);
  }
  // A map that cannot be read names the MTL line.
  fs::remove(dir_ / "n.png");
  try {
    obj_scene((dir_ / "q.obj").string(), warnings, times);
    ADD_FAILURE() << "a missing norm image loaded";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("m.mtl:6: norm: " + (dir_ / "n.png").string() +
                                         ": cannot open the image file"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace raystream
