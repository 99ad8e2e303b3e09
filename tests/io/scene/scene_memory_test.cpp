// The scene loader's memory: a scene file costs a small multiple of its size, however it nests.
// Every allocation of this test binary is counted (operator new is replaced), so the peak of
// memory in use during one parse_scene call is measured exactly.
#include <gtest/gtest.h>
#include <malloc.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "io/scene/scene_loader.h"

namespace {

std::atomic<long long> g_in_use{0};
std::atomic<long long> g_peak{0};

void* counted_alloc(std::size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (!p) throw std::bad_alloc();
  const long long now = g_in_use.fetch_add(static_cast<long long>(malloc_usable_size(p))) +
                        static_cast<long long>(malloc_usable_size(p));
  long long peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
  return p;
}

void counted_free(void* p) {
  if (!p) return;
  g_in_use.fetch_sub(static_cast<long long>(malloc_usable_size(p)));
  std::free(p);
}

}  // namespace

void* operator new(std::size_t size) {
  return counted_alloc(size);
}
void* operator new[](std::size_t size) {
  return counted_alloc(size);
}
void operator delete(void* p) noexcept {
  counted_free(p);
}
void operator delete[](void* p) noexcept {
  counted_free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  counted_free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  counted_free(p);
}

namespace raystream {
namespace {

// Bytes allocated at the peak of parsing `text`, above what was in use before.
long long parse_peak(const std::string& text, std::string* error = nullptr) {
  std::vector<std::string> warnings;
  const long long before = g_in_use.load();
  g_peak.store(before);
  try {
    parse_scene(text, "scene.json", warnings);
  } catch (const SceneError& e) {
    if (error) *error = e.what();
  }
  return g_peak.load() - before;
}

const std::string kScene = R"({
  "Materials": {"light": {"TYPE": "Emitting", "RGB": [1, 1, 1], "EMITTANCE": 5}},
  "Camera": {"RES": [8, 8], "FOVY": 45, "ITERATIONS": 1, "DEPTH": 2,
             "EYE": [0, 5, 10], "LOOKAT": [0, 5, 0], "UP": [0, 1, 0]},
  "Objects": [{"TYPE": "sphere", "MATERIAL": "light"}])";

TEST(SceneMemory, CountingWorks) {
  const long long peak = parse_peak(std::string(kScene) + "}");
  EXPECT_GT(peak, 1000);
}

// 40000 '[' took 4 GB and 1.9 s before the error.
TEST(SceneMemory, DeepNestingFailsSmall) {
  std::string error;
  const std::string text(40000, '[');
  const long long peak = parse_peak(text, &error);
  EXPECT_NE(error.find("nested more than"), std::string::npos) << error;
  EXPECT_LT(peak, 1 << 20) << "bytes at the peak for a " << text.size() << "-byte file";
}

// Nested objects with long keys within the nesting limit: the duplicate-key check used to keep
// the whole key path at every level (quadratic: 30 times the file here).
TEST(SceneMemory, LongKeysNestedAreLinear) {
  std::string inner;
  const int depth = 60;
  const std::string key(20000, 'k');
  for (int i = 0; i < depth; ++i) inner += "{\"" + key + std::to_string(i) + "\": ";
  inner += "1" + std::string(depth, '}');
  const std::string text = std::string(kScene) + ", \"Extra\": " + inner + "}";
  std::string error;
  const long long peak = parse_peak(text, &error);
  EXPECT_EQ(error, "");
  EXPECT_LT(peak, 8LL * static_cast<long long>(text.size()))
      << "bytes at the peak for a " << text.size() << "-byte file";
}

// Many keys in one object: each is kept once.
TEST(SceneMemory, ManyKeysAreLinear) {
  std::string extra = "{";
  for (int i = 0; i < 20000; ++i) {
    extra += (i ? ", \"" : "\"") + std::string(40, 'k') + std::to_string(i) + "\": [1, 2]";
  }
  extra += "}";
  const std::string text = std::string(kScene) + ", \"Extra\": " + extra + "}";
  const long long peak = parse_peak(text);
  EXPECT_LT(peak, 8LL * static_cast<long long>(text.size()))
      << "bytes at the peak for a " << text.size() << "-byte file";
}

// Many keys in one object: nlohmann::ordered_json inserted each in linear time, so 100000 keys
// took 22 s (200000: about 90 s). Now they take well under a second.
TEST(SceneMemory, ManyKeysParseInLinearTime) {
  std::string extra = "{";
  for (int i = 0; i < 200000; ++i) extra += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": 0";
  extra += "}";
  const std::string text = std::string(kScene) + ", \"Extra\": " + extra + "}";
  const auto start = std::chrono::steady_clock::now();
  std::string error;
  parse_peak(text, &error);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(error, "");
  EXPECT_LT(seconds, 15.0) << text.size() << " bytes";
}

// The materials keep the file's order (their ids follow it), whatever their names.
TEST(SceneMemory, MaterialsKeepTheFileOrder) {
  std::string materials;
  for (int i = 0; i < 300; ++i) {
    materials += (i ? ", \"" : "\"") + std::to_string((i * 7919) % 1000) +
                 "\": {\"TYPE\": \"Emitting\", \"RGB\": [1, 1, 1], \"EMITTANCE\": 1}";
  }
  const std::string text = "{\"Materials\": {" + materials + R"(},
    "Camera": {"RES": [8, 8], "FOVY": 45, "ITERATIONS": 1, "DEPTH": 2,
               "EYE": [0, 5, 10], "LOOKAT": [0, 5, 0], "UP": [0, 1, 0]},
    "Objects": [{"TYPE": "sphere", "MATERIAL": "919"}, {"TYPE": "cube", "MATERIAL": "838"}]})";
  std::vector<std::string> warnings;
  const Scene s = parse_scene(text, "scene.json", warnings);
  ASSERT_EQ(s.materials.size(), 300u);
  for (int i = 0; i < 300; ++i) EXPECT_EQ(s.materials[i].name, std::to_string((i * 7919) % 1000));
  EXPECT_EQ(s.objects[0].material, 1);  // "919" is the second material of the file
  EXPECT_EQ(s.objects[1].material, 2);
}

}  // namespace
}  // namespace raystream
