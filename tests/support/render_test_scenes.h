// Scenes and image checks shared by the render tests, built in code (no scene files).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "integrator/api/render.h"
#include "io/scene/scene_loader.h"
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

// A texture of w x h texels from the values an 8-bit image file would hold, in [0, 1]: colours
// sRGB-encoded, data (normal maps, metalness, roughness, opacity) as they are.
inline TextureImage make_texture(const std::string& name, int w, int h,
                                 const std::function<glm::vec4(int x, int y)>& encoded) {
  TextureImage image;
  image.path = name;
  image.width = w;
  image.height = h;
  const auto decode = [](float c) {
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
  };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      // Whole steps of 1/255, as an 8-bit file holds them.
      const glm::vec4 e = glm::round(glm::clamp(encoded(x, y), 0.0f, 1.0f) * 255.0f) / 255.0f;
      image.texels.push_back(glm::vec4(decode(e.x), decode(e.y), decode(e.z), e.w));
    }
  return image;
}

// A quad p0 p1 p2 p3 (a parallelogram, in order around it) of two triangles facing `facing`:
// uv (0, 0) at p0, (1, 0) at p1, (1, 1) at p2, tangents along p0 -> p1.
inline void add_quad(std::vector<Triangle>& out, glm::vec3 p0, glm::vec3 p1, glm::vec3 p2,
                     glm::vec3 p3, glm::vec3 facing, int material) {
  const glm::vec3 n = glm::normalize(facing);
  const glm::vec3 t = glm::normalize(p1 - p0);
  const float w = glm::dot(glm::cross(n, t), p3 - p0) < 0.0f ? -1.0f : 1.0f;
  const glm::vec3 p[4] = {p0, p1, p2, p3};
  const glm::vec2 uv[4] = {{0.0f, 0.0f}, {1.0f, 0.0f}, {1.0f, 1.0f}, {0.0f, 1.0f}};
  static constexpr int kCorners[2][3] = {{0, 1, 2}, {0, 2, 3}};
  for (const auto& corners : kCorners) {
    Triangle tri;
    for (int j = 0; j < 3; ++j) {
      tri.v[j] = p[corners[j]];
      tri.n[j] = n;
      tri.uv[j] = uv[corners[j]];
      tri.uv1[j] = uv[corners[j]];
      tri.t[j] = glm::vec4(t, w);
    }
    tri.material = material;
    if (glm::dot(glm::cross(tri.v[1] - tri.v[0], tri.v[2] - tri.v[0]), n) < 0.0f)
      reverse_winding(tri);
    out.push_back(tri);
  }
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

// glTF's materials in the box: textures 1 to 4 and four materials, on quads of their own.
inline void add_real_materials(Scene& s) {
  const int texture = static_cast<int>(s.textures.size());
  // Roughness (G) 0.25 / 0.8 and metalness (B) 0 / 1 in 2 x 2 blocks of a 4 x 4 image.
  s.textures.push_back(make_texture("metal-rough (test)", 4, 4, [](int x, int y) {
    return glm::vec4(1.0f, (x / 2) % 2 ? 0.8f : 0.25f, (y / 2) % 2 ? 1.0f : 0.0f, 1.0f);
  }));
  // A normal map tilting every other texel by 0.5 along x, and y, by turns.
  s.textures.push_back(make_texture("normals (test)", 4, 4, [](int x, int y) {
    const glm::vec3 n = glm::normalize(
        glm::vec3((x + y) % 2 ? 0.5f : -0.3f, (x % 2) ? 0.4f : -0.2f, 1.0f));
    return glm::vec4(0.5f + 0.5f * n, 1.0f);
  }));
  // A leaf: green, opaque in a disc, cut away around it (A 0).
  s.textures.push_back(make_texture("leaf (test)", 8, 8, [](int x, int y) {
    const float dx = x - 3.5f, dy = y - 3.5f;
    return glm::vec4(0.3f, 0.7f, 0.2f, dx * dx + dy * dy < 10.0f ? 1.0f : 0.0f);
  }));
  // A sign: its emission orange and blue stripes.
  s.textures.push_back(make_texture("sign (test)", 4, 2, [](int x, int) {
    return x % 2 ? glm::vec4(1.0f, 0.6f, 0.2f, 1.0f) : glm::vec4(0.2f, 0.4f, 1.0f, 1.0f);
  }));
  const auto slot = [&](int k, int channel) {
    TextureSlot t;
    t.texture = texture + k;
    t.channel = channel;
    return t;
  };
  const int first = static_cast<int>(s.materials.size());
  Material pbr = make_material("pbr floor", MaterialType::pbr, glm::vec3(0.9f, 0.7f, 0.5f));
  pbr.metallic = 1.0f;
  pbr.metallic_texture = slot(0, 2);
  pbr.roughness = 1.0f;
  pbr.roughness_texture = slot(0, 1);
  pbr.normal_texture = slot(1, 0);
  pbr.normal_scale = 0.8f;
  Material leaf = make_material("leaf", MaterialType::pbr, glm::vec3(1.0f));
  leaf.roughness = 0.6f;
  leaf.texture = slot(2, 0);
  leaf.opacity_texture = slot(2, 3);
  leaf.alpha_mode = AlphaMode::mask;
  Material veil = make_material("veil", MaterialType::diffuse, glm::vec3(0.9f, 0.3f, 0.3f));
  veil.opacity = 0.4f;
  veil.alpha_mode = AlphaMode::blend;
  Material sign = make_material("sign", MaterialType::pbr, glm::vec3(0.2f));
  sign.roughness = 0.5f;
  sign.emission = glm::vec3(4.0f);
  sign.emission_texture = slot(3, 0);
  sign.two_sided = false;
  s.materials.insert(s.materials.end(), {pbr, leaf, veil, sign});
  const float y = 0.02f;
  add_quad(s.triangles, glm::vec3(-4.0f, y, -4.0f), glm::vec3(4.0f, y, -4.0f),
           glm::vec3(4.0f, y, 4.0f), glm::vec3(-4.0f, y, 4.0f), glm::vec3(0.0f, 1.0f, 0.0f),
           first);
  add_quad(s.triangles, glm::vec3(-1.5f, 3.0f, 4.0f), glm::vec3(1.5f, 3.0f, 4.0f),
           glm::vec3(1.5f, 6.0f, 4.0f), glm::vec3(-1.5f, 6.0f, 4.0f), glm::vec3(0.0f, 0.0f, 1.0f),
           first + 1);
  add_quad(s.triangles, glm::vec3(1.0f, 1.0f, 6.0f), glm::vec3(4.0f, 1.0f, 6.0f),
           glm::vec3(4.0f, 4.0f, 6.0f), glm::vec3(1.0f, 4.0f, 6.0f), glm::vec3(0.0f, 0.0f, 1.0f),
           first + 2);
  add_quad(s.triangles, glm::vec3(-4.98f, 5.0f, -3.0f), glm::vec3(-4.98f, 5.0f, 0.0f),
           glm::vec3(-4.98f, 8.0f, 0.0f), glm::vec3(-4.98f, 8.0f, -3.0f),
           glm::vec3(1.0f, 0.0f, 0.0f), first + 3);
}

// Every kind of light and material of the renderer in one small scene: the box without its back
// wall (behind the camera), open to a uniform environment; lit also by a one-sided emissive
// quad of two triangles under the ceiling (facing down), an emissive sphere that reflects and a
// quad on the left wall whose emission is a texture; with rough glass, a rough and a smooth
// conductor, smooth glass, a plastic wall, a textured diffuse cube, a metallic-roughness floor
// textured per texel (metalness, roughness, a normal map), an alpha-masked leaf and a veil of
// opacity 0.4 (stochastic transparency).
inline Scene feature_scene() {
  Scene s = box_scene();
  s.path = "features (test)";
  s.objects.erase(s.objects.begin() + 4);  // the back wall at z = 11
  s.objects.erase(s.objects.begin());      // the emitting cube
  s.environment.present = true;
  s.environment.constant = glm::vec3(0.3f, 0.4f, 0.5f);
  Material lamp = make_material("lamp", MaterialType::diffuse, glm::vec3(0.5f));
  lamp.emission = glm::vec3(8.0f, 7.0f, 6.0f);
  lamp.two_sided = false;
  Material glow = make_material("glow", MaterialType::diffuse, glm::vec3(0.6f, 0.6f, 0.9f));
  glow.emission = glm::vec3(1.5f, 0.5f, 0.2f);
  Material frosted =
      make_material("frosted", MaterialType::refractive, glm::vec3(1.0f), 0.0f, 1.5f);
  frosted.roughness = 0.4f;
  Material checker = make_material("checker", MaterialType::diffuse, glm::vec3(1.0f));
  checker.texture.texture = 0;
  const int first = static_cast<int>(s.materials.size());
  s.materials.push_back(lamp);
  s.materials.push_back(glow);
  s.materials.push_back(frosted);
  s.materials.push_back(checker);
  // The red wall becomes a plastic: a glossy coat over the red base.
  s.materials[2].type = MaterialType::plastic;
  s.materials[2].roughness = 0.3f;
  TextureImage image;
  image.path = "checker (test)";
  image.width = 4;
  image.height = 4;
  for (int k = 0; k < 16; ++k)
    image.texels.push_back(((k + k / 4) % 2) ? glm::vec4(0.9f, 0.2f, 0.1f, 1.0f)
                                             : glm::vec4(0.1f, 0.3f, 0.9f, 1.0f));
  s.textures.push_back(image);
  // The lamp: a 3 x 3 quad at y = 9.9, wound so that its normal points down.
  Triangle a, b;
  const glm::vec3 p0(-1.5f, 9.9f, -1.5f), p1(1.5f, 9.9f, -1.5f), p2(1.5f, 9.9f, 1.5f),
      p3(-1.5f, 9.9f, 1.5f);
  a.v[0] = p0, a.v[1] = p1, a.v[2] = p2;
  b.v[0] = p0, b.v[1] = p2, b.v[2] = p3;
  for (Triangle* t : {&a, &b}) {
    for (glm::vec3& n : t->n) n = glm::vec3(0.0f, -1.0f, 0.0f);
    t->material = first;
  }
  s.triangles = {a, b};
  s.objects.push_back(make_object(ShapeType::sphere, first + 1, glm::vec3(-3.5f, 7.0f, -3.0f),
                                  glm::vec3(0.0f), glm::vec3(1.2f)));
  s.objects.push_back(make_object(ShapeType::sphere, first + 2, glm::vec3(3.0f, 5.5f, -1.0f),
                                  glm::vec3(0.0f), glm::vec3(2.0f)));
  s.objects.push_back(make_object(ShapeType::cube, first + 3, glm::vec3(-2.5f, 6.0f, 1.0f),
                                  glm::vec3(20.0f, 30.0f, 0.0f), glm::vec3(1.5f)));
  add_real_materials(s);
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

// Samples a render traces: width x height x spp.
inline std::uint64_t total_samples(const RenderSettings& s) {
  return std::uint64_t(s.width) * std::uint64_t(s.height) * std::uint64_t(s.spp);
}

// The stream schedule's waves: every sample started once, the pool kept full while samples
// remain, each wave's survivors the next wave's live paths, and the pool empty at the end.
inline void expect_consistent_waves(const RenderResult& r, const RenderSettings& s) {
  const RenderStats& st = r.stats;
  const std::uint64_t total = total_samples(s);
  ASSERT_FALSE(st.waves.empty());
  ASSERT_GT(st.pool, 0u);
  EXPECT_LE(st.pool, total);
  if (s.pool != 0) {
    EXPECT_EQ(st.pool, std::min<std::uint64_t>(s.pool, total));
  }
  EXPECT_EQ(st.waves.front().live_in, 0u);
  std::uint64_t issued = 0, active_sum = 0;
  int stages_timed = 0;
  for (std::size_t k = 0; k < st.waves.size(); ++k) {
    const WaveStats& w = st.waves[k];
    SCOPED_TRACE("wave " + std::to_string(k));
    const std::uint64_t active = w.live_in + w.regenerated;
    ASSERT_GT(active, 0u);
    ASSERT_LE(active, st.pool);
    ASSERT_LE(w.paths_out, active);
    issued += w.regenerated;
    active_sum += active;
    // While samples remain after this wave's regeneration, every slot holds a path.
    if (issued < total) {
      ASSERT_EQ(active, st.pool);
    }
    if (k + 1 < st.waves.size()) {
      ASSERT_EQ(w.paths_out, st.waves[k + 1].live_in);
    }
    if (s.timing == StageTiming::off) {
      ASSERT_EQ(w.ms, -1.0);
      ASSERT_FALSE(w.stages_timed);
    } else {
      ASSERT_GE(w.ms, 0.0);
    }
    if (w.stages_timed) ++stages_timed;
  }
  EXPECT_EQ(st.waves.back().paths_out, 0u);
  EXPECT_EQ(issued, total);
  // Every active path of a wave traces one ray.
  EXPECT_EQ(active_sum, st.path_segments);
  EXPECT_EQ(stages_timed, st.timed_units);
  switch (s.timing) {
    case StageTiming::sampled:
      EXPECT_GT(st.timed_units, 0);
      EXPECT_LE(st.timed_units, int(st.waves.size()));
      break;
    case StageTiming::all:
      EXPECT_EQ(st.timed_units, int(st.waves.size()));
      break;
    case StageTiming::off:
      EXPECT_EQ(st.timed_units, 0);
      break;
  }
}

// The statistics every render must satisfy, whatever the executor, schedule and switches.
inline void expect_consistent_stats(const RenderResult& r, const RenderSettings& s) {
  const RenderStats& st = r.stats;
  const std::uint64_t pixels = std::uint64_t(s.width) * std::uint64_t(s.height);
  const bool stream = s.schedule == Schedule::stream;
  const bool frame = s.schedule == Schedule::frame;
  const bool megakernel = s.schedule == Schedule::megakernel;
  EXPECT_EQ(st.schedule, s.schedule);
  // What ran: the megakernel times no stage, sorts nothing and compacts nothing; the stream
  // schedule always compacts.
  EXPECT_EQ(st.timing, megakernel ? StageTiming::off : s.timing);
  EXPECT_EQ(st.sort_by_material, s.sort_by_material && !megakernel);
  EXPECT_EQ(st.compact, stream || (frame && s.compact));
  EXPECT_EQ(st.spp, s.spp);
  EXPECT_EQ(st.width, s.width);
  EXPECT_EQ(st.height, s.height);
  EXPECT_EQ(st.depth, s.depth);
  EXPECT_EQ(r.image.width, s.width);
  EXPECT_EQ(r.image.height, s.height);
  ASSERT_EQ(st.bounces.size(), std::size_t(s.depth));
  // Frame times: one per frame in the frame and megakernel schedules, none in the stream one.
  EXPECT_EQ(st.frame_ms.size(), stream ? 0u : std::size_t(s.spp));
  for (double ms : st.frame_ms) EXPECT_GE(ms, 0.0);
  // Per depth: every sample traces its camera ray; a path that goes on from depth d traces a
  // ray at depth d + 1; no path goes on from the last depth.
  EXPECT_EQ(st.bounces[0].paths_in, pixels * s.spp);
  EXPECT_EQ(st.bounces[s.depth - 1].paths_out, 0u);
  // The sort stage: a sort by material id, or the material queues' split.
  const bool sorts =
      s.schedule != Schedule::megakernel && (s.sort_by_material || st.shade == ShadeMode::queues);
  std::uint64_t segments = 0;
  for (int b = 0; b < s.depth; ++b) {
    SCOPED_TRACE("depth " + std::to_string(b));
    EXPECT_EQ(st.bounces[b].bounce, b);
    EXPECT_LE(st.bounces[b].paths_out, st.bounces[b].paths_in);
    if (b + 1 < s.depth) {
      EXPECT_EQ(st.bounces[b + 1].paths_in, st.bounces[b].paths_out);
    }
    EXPECT_GE(st.bounces[b].ms(Stage::intersect), 0.0);
    EXPECT_GE(st.bounces[b].ms(Stage::shade), 0.0);
    EXPECT_GE(st.bounces[b].ms(Stage::compact), 0.0);
    if (!sorts) {
      EXPECT_EQ(st.bounces[b].ms(Stage::sort), 0.0);
    }
    if (!frame || s.timing == StageTiming::off) {  // per-bounce times: frame schedule only
      EXPECT_EQ(st.bounces[b].ms(Stage::intersect), 0.0);
      EXPECT_EQ(st.bounces[b].ms(Stage::sort), 0.0);
      EXPECT_EQ(st.bounces[b].ms(Stage::shade), 0.0);
      EXPECT_EQ(st.bounces[b].ms(Stage::compact), 0.0);
    }
    segments += st.bounces[b].paths_in;
  }
  EXPECT_EQ(st.path_segments, segments);
  // Stage totals: regenerate in the stream schedule only, sort only when sorting, nothing when
  // timing is off or in the megakernel.
  for (int k = 0; k < kStageCount; ++k) EXPECT_GE(st.stage_ms[k], 0.0) << "stage " << k;
  if (!stream) {
    EXPECT_EQ(st.stage_ms[int(Stage::regenerate)], 0.0);
  }
  if (!sorts) {
    EXPECT_EQ(st.stage_ms[int(Stage::sort)], 0.0);
  }
  if (s.timing == StageTiming::off || megakernel) {
    for (int k = 0; k < kStageCount; ++k) EXPECT_EQ(st.stage_ms[k], 0.0) << "stage " << k;
  }
  if (stream) {
    expect_consistent_waves(r, s);
  } else {
    EXPECT_TRUE(st.waves.empty());
  }
  if (frame) {
    EXPECT_EQ(st.pool, pixels);
    const int timed = s.timing == StageTiming::all ? s.spp
                      : s.timing == StageTiming::sampled
                          ? (s.spp + kTimingSamplePeriod - 1) / kTimingSamplePeriod
                          : 0;
    EXPECT_EQ(st.timed_units, timed);
  }
  if (megakernel) {
    EXPECT_EQ(st.pool, 0u);
    EXPECT_EQ(st.timed_units, 0);
  }
  EXPECT_GT(st.total_ms, 0.0);
  EXPECT_FALSE(st.device.empty());
}

// Settings for `schedule`, with its name for traces.
inline RenderSettings with_schedule(RenderSettings s, Schedule schedule) {
  s.schedule = schedule;
  return s;
}

inline constexpr Schedule kSchedules[] = {Schedule::stream, Schedule::frame, Schedule::megakernel};

// Per-depth counts of two renders: identical.
inline void expect_same_counts(const RenderResult& a, const RenderResult& b) {
  ASSERT_EQ(a.stats.bounces.size(), b.stats.bounces.size());
  for (std::size_t d = 0; d < a.stats.bounces.size(); ++d) {
    EXPECT_EQ(a.stats.bounces[d].paths_in, b.stats.bounces[d].paths_in) << "depth " << d;
    EXPECT_EQ(a.stats.bounces[d].paths_out, b.stats.bounces[d].paths_out) << "depth " << d;
  }
}

// Two images equal up to the order of the film's float additions: every value within `relative`
// of the other, or within `absolute`.
inline void expect_images_close(const Image& a, const Image& b, double relative = 1e-5,
                                double absolute = 1e-6) {
  ASSERT_EQ(a.width, b.width);
  ASSERT_EQ(a.height, b.height);
  ASSERT_EQ(a.rgb.size(), b.rgb.size());
  for (std::size_t k = 0; k < a.rgb.size(); ++k) {
    const double x = a.rgb[k], y = b.rgb[k];
    ASSERT_LE(std::fabs(x - y), std::max(absolute, relative * std::max(std::fabs(x), std::fabs(y))))
        << "value " << k << " (pixel " << k / 3 << ", channel " << k % 3 << "): " << x << " vs "
        << y;
  }
}

}  // namespace raystream::test
