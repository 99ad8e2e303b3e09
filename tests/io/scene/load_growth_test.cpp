// Loading costs a small multiple of the input's size (docs/robustness.md): the time to load n
// and 16n of something (objects in a scene file, corners of one OBJ face, nodes of a glTF asset)
// grows about 16 times, never 256 times as a quadratic load would. The bound (64) sits a factor
// of four from each: this catches quadratic growth, it does not measure speed. The clock is the
// thread's CPU time, which other work on the machine does not stretch as it does wall time; the
// two sizes are loaded in turn, five times each, and the best of each counts.
#include <gtest/gtest.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "io/scene/gltf_loader.h"
#include "io/scene/obj_loader.h"
#include "io/scene/scene_loader.h"

namespace raystream {
namespace {

constexpr int kScale = 16;
constexpr double kMostGrowth = 64.0;  // linear: 16, n log n: a little more, quadratic: 256

double thread_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double seconds_of(const std::function<void()>& load) {
  const double start = thread_seconds();
  load();
  return thread_seconds() - start;
}

// The time to load what make(kScale n) makes over the time for make(n).
double growth(const std::function<std::string(int)>& make,
              const std::function<void(const std::string&)>& load, int n) {
  const std::string small = make(n), large = make(kScale * n);
  double t_small = 1e30, t_large = 1e30;
  for (int run = 0; run < 5; ++run) {
    t_small = std::min(t_small, seconds_of([&] { load(small); }));
    t_large = std::min(t_large, seconds_of([&] { load(large); }));
  }
  std::printf("n %d: %.4f s, %dn: %.4f s, ratio %.2f\n", n, t_small, kScale, t_large,
              t_large / t_small);
  return t_large / t_small;
}

// A scene of n spheres (nlohmann's callback parser made this quadratic: 100000 objects took
// 5.3 s, 400000 87 s).
std::string scene_of_objects(int n) {
  std::string text =
      R"({"Materials": {"lamp": {"TYPE": "Emitting", "RGB": [1, 1, 1], "EMITTANCE": 1}},
          "Camera": {"RES": [16, 16], "FOVY": 30, "ITERATIONS": 1, "DEPTH": 2,
                     "EYE": [0, 0, 50], "LOOKAT": [0, 0, 0], "UP": [0, 1, 0]},
          "Objects": [)";
  for (int i = 0; i < n; ++i) {
    text += std::string(i > 0 ? ",\n" : "") +
            R"({"TYPE": "sphere", "MATERIAL": "lamp", "TRANS": [)" + std::to_string(i % 1000) +
            ", " + std::to_string(i / 1000) + R"(, 0], "SCALE": [0.1, 0.1, 0.1]})";
  }
  return text + "]}";
}

TEST(LoadGrowth, SceneObjects) {
  const double ratio = growth(
      scene_of_objects,
      [](const std::string& text) {
        std::vector<std::string> warnings;
        const Scene s = parse_scene(text, "objects.json", warnings);
        ASSERT_FALSE(s.objects.empty());
      },
      5000);
  EXPECT_LT(ratio, kMostGrowth);
}

// Ten convex faces of n corners each (a circle; tinyobjloader's own split of a face took time
// cubic in its corners: 20000 corners, 2.5 s).
std::string obj_of_faces(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) {
    const double t = 2.0 * 3.14159265358979323846 * i / n;
    text += "v " + std::to_string(std::cos(t)) + " " + std::to_string(std::sin(t)) + " 0\n";
  }
  std::string face = "f";
  for (int i = 1; i <= n; ++i) face += " " + std::to_string(i);
  for (int k = 0; k < 10; ++k) text += face + "\n";
  return text;
}

TEST(LoadGrowth, ObjFaceCorners) {
  const double ratio = growth(
      obj_of_faces,
      [](const std::string& text) {
        std::vector<std::string> warnings;
        const ObjMesh mesh = parse_obj(text, "faces.obj", {}, warnings);
        ASSERT_FALSE(mesh.triangles.empty());
      },
      1000);
  EXPECT_LT(ratio, kMostGrowth);
}

// An asset of one triangle placed by n nodes (200000 took 20 s).
std::string gltf_of_nodes(int n) {
  // Three vertices (0,0,0), (1,0,0), (0,1,0) as little-endian floats, base64.
  const std::string uri =
      "data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA";
  std::string children, nodes;
  for (int i = 1; i <= n; ++i) {
    children += (i > 1 ? "," : "") + std::to_string(i);
    nodes += R"(,{"mesh": 0, "translation": [)" + std::to_string(i % 1000) + ", " +
             std::to_string(i / 1000) + ", 0]}";
  }
  return R"({"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
             "nodes": [{"children": [)" +
         children + "]}" + nodes + R"(],
             "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
             "buffers": [{"uri": ")" +
         uri + R"(", "byteLength": 36}],
             "bufferViews": [{"buffer": 0, "byteLength": 36}],
             "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                            "min": [0, 0, 0], "max": [1, 1, 0]}]})";
}

TEST(LoadGrowth, GltfNodes) {
  const double ratio = growth(
      gltf_of_nodes,
      [](const std::string& text) {
        std::vector<std::string> warnings;
        const GltfModel model = parse_gltf(text, "nodes.gltf", warnings);
        ASSERT_FALSE(model.triangles.empty());
      },
      2500);
  EXPECT_LT(ratio, kMostGrowth);
}

}  // namespace
}  // namespace raystream
