// Scenes and image checks shared by the render tests, built in code (no scene files).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "integrator/render.h"
#include "scene/scene.h"

namespace raystream::test {

inline Material make_material(const std::string& name, MaterialType type, glm::vec3 color,
                              float emittance = 0.0f, float ior = 1.5f) {
  Material m;
  m.name = name;
  m.type = type;
  m.color = color;
  m.emittance = emittance;
  m.ior = ior;
  return m;
}

inline Object make_object(ShapeType shape, int material, glm::vec3 t, glm::vec3 r, glm::vec3 s) {
  Object o;
  o.shape = shape;
  o.material = material;
  o.translation = t;
  o.rotation_degrees = r;
  o.scale = s;
  return o;
}

// The emitter's radiance in the furnace scene.
inline const glm::vec3 kFurnaceRadiance(2.0f, 1.0f, 0.5f);

// White furnace: energy-conserving objects (albedo-1 diffuse plates, sphere and cube, a white
// mirror, a clear glass sphere) inside a huge emitting sphere. Every path that ends does so on the
// emitter with weight 1 in expectation, so every pixel's expected value is the emitter's
// radiance. The camera looks into the gap between two large plates, where paths bounce many
// times before they escape: Russian roulette must keep that unbiased.
inline Scene furnace_scene() {
  Scene s;
  s.path = "furnace (test)";
  s.materials = {make_material("sky", MaterialType::emitting, glm::vec3(1.0f, 0.5f, 0.25f), 2.0f),
                 make_material("white", MaterialType::diffuse, glm::vec3(1.0f)),
                 make_material("mirror", MaterialType::specular, glm::vec3(1.0f)),
                 make_material("glass", MaterialType::refractive, glm::vec3(1.0f), 0.0f, 1.5f)};
  s.objects = {
      make_object(ShapeType::sphere, 0, glm::vec3(0.0f), glm::vec3(0.0f), glm::vec3(200.0f)),
      // The plates: y in [0.5, 0.6] and [-0.6, -0.5], 6 x 6 wide.
      make_object(ShapeType::cube, 1, glm::vec3(0.0f, 0.55f, 0.0f), glm::vec3(0.0f),
                  glm::vec3(6.0f, 0.1f, 6.0f)),
      make_object(ShapeType::cube, 1, glm::vec3(0.0f, -0.55f, 0.0f), glm::vec3(0.0f),
                  glm::vec3(6.0f, 0.1f, 6.0f)),
      // Between the plates: a glass sphere and a turned diffuse cube.
      make_object(ShapeType::sphere, 3, glm::vec3(-0.6f, 0.0f, 1.0f), glm::vec3(0.0f),
                  glm::vec3(0.8f)),
      make_object(ShapeType::cube, 1, glm::vec3(0.7f, 0.0f, 0.5f), glm::vec3(10.0f, 35.0f, 5.0f),
                  glm::vec3(0.5f)),
      // Above and below: a diffuse sphere and a mirror.
      make_object(ShapeType::sphere, 1, glm::vec3(-1.0f, 1.4f, 1.0f), glm::vec3(0.0f),
                  glm::vec3(1.2f)),
      make_object(ShapeType::cube, 2, glm::vec3(0.8f, -1.2f, 1.5f), glm::vec3(0.0f, 0.0f, 20.0f),
                  glm::vec3(1.5f, 0.2f, 1.5f))};
  s.camera.width = 48;
  s.camera.height = 40;
  s.camera.fovy_degrees = 15.0f;
  s.camera.eye = glm::vec3(0.0f, 0.0f, 8.0f);
  s.camera.lookat = glm::vec3(0.0f, 0.0f, 0.0f);
  s.camera.up = glm::vec3(0.0f, 1.0f, 0.0f);
  s.depth = 64;
  return s;
}

// A small closed box with a light, diffuse walls, a glass and a mirror sphere, a rough (brushed
// gold) mirror cube.
inline Scene box_scene() {
  Scene s;
  s.path = "box (test)";
  s.materials = {make_material("light", MaterialType::emitting, glm::vec3(1.0f, 0.9f, 0.8f), 6.0f),
                 make_material("white", MaterialType::diffuse, glm::vec3(0.8f)),
                 make_material("red", MaterialType::diffuse, glm::vec3(0.8f, 0.2f, 0.2f)),
                 make_material("green", MaterialType::diffuse, glm::vec3(0.2f, 0.8f, 0.2f)),
                 make_material("mirror", MaterialType::specular, glm::vec3(0.95f)),
                 make_material("glass", MaterialType::refractive, glm::vec3(1.0f), 0.0f, 1.5f),
                 make_material("brushed", MaterialType::specular, glm::vec3(0.9f, 0.75f, 0.5f))};
  s.materials.back().roughness = 0.4f;
  auto wall = [](int m, glm::vec3 t, glm::vec3 sc) {
    return make_object(ShapeType::cube, m, t, glm::vec3(0.0f), sc);
  };
  // Closed: x in [-5, 5], y in [0, 10], z in [-5, 11] (the camera is inside).
  s.objects = {wall(0, glm::vec3(0.0f, 9.95f, 0.0f), glm::vec3(3.0f, 0.1f, 3.0f)),
               wall(1, glm::vec3(0.0f, 0.0f, 3.0f), glm::vec3(10.0f, 0.01f, 16.0f)),
               wall(1, glm::vec3(0.0f, 10.0f, 3.0f), glm::vec3(10.0f, 0.01f, 16.0f)),
               wall(1, glm::vec3(0.0f, 5.0f, -5.0f), glm::vec3(10.0f, 10.0f, 0.01f)),
               wall(1, glm::vec3(0.0f, 5.0f, 11.0f), glm::vec3(10.0f, 10.0f, 0.01f)),
               wall(2, glm::vec3(-5.0f, 5.0f, 3.0f), glm::vec3(0.01f, 10.0f, 16.0f)),
               wall(3, glm::vec3(5.0f, 5.0f, 3.0f), glm::vec3(0.01f, 10.0f, 16.0f)),
               make_object(ShapeType::sphere, 4, glm::vec3(-2.0f, 2.0f, -1.5f), glm::vec3(0.0f),
                           glm::vec3(3.5f)),
               make_object(ShapeType::sphere, 5, glm::vec3(2.0f, 1.8f, 1.0f), glm::vec3(0.0f),
                           glm::vec3(3.0f)),
               make_object(ShapeType::cube, 6, glm::vec3(1.5f, 1.0f, -2.5f),
                           glm::vec3(0.0f, 30.0f, 0.0f), glm::vec3(2.0f))};
  s.camera.width = 40;
  s.camera.height = 32;
  s.camera.fovy_degrees = 45.0f;
  s.camera.eye = glm::vec3(0.0f, 5.0f, 10.5f);
  s.camera.lookat = glm::vec3(0.0f, 5.0f, 0.0f);
  s.depth = 8;
  return s;
}

// The box with `extra` more diffuse materials (grey levels), spread over small spheres on the
// floor, so a material sort needs more than 8 key bits once extra >= 250.
inline Scene many_materials_scene(int extra) {
  Scene s = box_scene();
  const int first = static_cast<int>(s.materials.size());
  for (int k = 0; k < extra; ++k) {
    const float grey = 0.2f + 0.6f * float(k) / float(extra);
    s.materials.push_back(make_material("grey" + std::to_string(k), MaterialType::diffuse,
                                        glm::vec3(grey, 0.5f * grey, 1.0f - grey)));
  }
  for (int k = 0; k < 48; ++k) {
    const float x = -4.0f + 8.0f * float(k % 8) / 7.0f;
    const float z = -4.0f + 7.0f * float(k / 8) / 5.0f;
    s.objects.push_back(make_object(ShapeType::sphere, first + (k * 37) % extra,
                                    glm::vec3(x, 0.3f, z), glm::vec3(0.0f), glm::vec3(0.6f)));
  }
  return s;
}

inline RenderSettings settings_for(const Scene& scene, ExecutorKind executor, int spp) {
  RenderSettings s;
  s.spp = spp;
  s.depth = scene.depth;
  s.width = scene.camera.width;
  s.height = scene.camera.height;
  s.executor = executor;
  s.seed = 1234;
  return s;
}

inline void expect_all_finite(const Image& image) {
  ASSERT_EQ(image.rgb.size(), std::size_t(3) * image.width * image.height);
  for (std::size_t k = 0; k < image.rgb.size(); ++k)
    ASSERT_TRUE(std::isfinite(image.rgb[k]) && image.rgb[k] >= 0.0f) << "value " << k;
}

inline double mean_channel(const Image& image, int channel) {
  double sum = 0.0;
  for (std::size_t p = 0; p < image.rgb.size() / 3; ++p) sum += image.rgb[3 * p + channel];
  return sum / double(image.rgb.size() / 3);
}

// Root mean square difference over all channels.
inline double rms_difference(const Image& a, const Image& b) {
  double sum = 0.0;
  for (std::size_t k = 0; k < a.rgb.size(); ++k) {
    const double d = double(a.rgb[k]) - double(b.rgb[k]);
    sum += d * d;
  }
  return std::sqrt(sum / double(a.rgb.size()));
}

// The statistics every render must satisfy, whatever the executor and switches.
inline void expect_consistent_stats(const RenderResult& r, const RenderSettings& s) {
  const RenderStats& st = r.stats;
  const std::uint64_t pixels = std::uint64_t(s.width) * std::uint64_t(s.height);
  EXPECT_EQ(st.frames, s.spp);
  EXPECT_EQ(st.width, s.width);
  EXPECT_EQ(st.height, s.height);
  EXPECT_EQ(st.depth, s.depth);
  ASSERT_EQ(st.bounces.size(), std::size_t(s.depth));
  EXPECT_EQ(st.frame_ms.size(), std::size_t(s.spp));
  EXPECT_EQ(st.bounces[0].paths_in, pixels * s.spp);
  std::uint64_t segments = 0;
  for (int b = 0; b < s.depth; ++b) {
    EXPECT_EQ(st.bounces[b].bounce, b);
    EXPECT_LE(st.bounces[b].paths_out, st.bounces[b].paths_in);
    if (b + 1 < s.depth) {
      EXPECT_EQ(st.bounces[b + 1].paths_in, st.bounces[b].paths_out);
    }
    EXPECT_GE(st.bounces[b].intersect_ms, 0.0);
    EXPECT_GE(st.bounces[b].shade_ms, 0.0);
    if (!s.sort_by_material) {
      EXPECT_EQ(st.bounces[b].sort_ms, 0.0);
    }
    segments += st.bounces[b].paths_in;
  }
  EXPECT_EQ(st.path_segments, segments);
  EXPECT_GT(st.total_ms, 0.0);
  EXPECT_FALSE(st.device.empty());
}

}  // namespace raystream::test
