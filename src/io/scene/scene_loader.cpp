#include "io/scene/scene_loader.h"

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "core/stop_request.h"
#include "core/stopwatch.h"
#include "execution/host_pages.h"
#include "io/files/input_file.h"
#include "io/image/environment_reader.h"
#include "io/image/image_reader.h"
#include "io/scene/gltf_loader.h"
#include "io/scene/json_reader.h"
#include "io/scene/obj_loader.h"

namespace raystream {
namespace {

// Finite and within +-kMaxCoordinate.
bool in_bounds(const glm::vec3& p) {
  for (int i = 0; i < 3; ++i) {
    if (!(std::fabs(p[i]) <= kMaxCoordinate)) return false;  // also NaN
  }
  return true;
}

std::string limit_text() {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(kMaxCoordinate));
  return text;
}

// Image textures, each file read once: Scene::textures indices by resolved path.
using TextureIds = std::unordered_map<std::string, int>;

// The index in scene.textures of the image at `resolved`, read on first use. Throws the
// SceneError of load_texture_image (naming the image file).
int texture_id(Scene& scene, TextureIds& ids, const std::string& resolved) {
  const auto found = ids.find(resolved);
  if (found != ids.end()) return found->second;
  poll_stop();
  scene.textures.push_back(load_texture_image(resolved));
  const int id = static_cast<int>(scene.textures.size()) - 1;
  ids.emplace(resolved, id);
  return id;
}

bool emits(const Material& m) {
  if (m.type != MaterialType::emitting)
    return m.emission.x > 0 || m.emission.y > 0 || m.emission.z > 0;
  return m.emittance > 0 && (m.color.x > 0 || m.color.y > 0 || m.color.z > 0);
}

// The TYPE, in any case ("Dielectric" is Refractive's other name).
MaterialType read_material_type(JsonReader& r, const Json& j, const std::string& key) {
  const std::string type_key = key + ".TYPE";
  std::string type = lower(r.string(r.require(j, key, "TYPE"), type_key));
  if (type == "dielectric") type = "refractive";  // the other name of a Refractive material
  std::string names;
#define RAYSTREAM_READ_TYPE(name, scene_name, traits)       \
  if (type == lower(scene_name)) return MaterialType::name; \
  names += std::string(names.empty() ? "" : ", ") + scene_name;
  RAYSTREAM_MATERIAL_TYPES(RAYSTREAM_READ_TYPE)
#undef RAYSTREAM_READ_TYPE
  r.fail(type_key, "unknown material TYPE \"" + excerpt(j["TYPE"].get<std::string>()) +
                       "\" (expected one of " + names + ", or Dielectric for Refractive)");
}

// The types a trait belongs to, for messages: "Specular, Refractive and Plastic".
std::string types_with(unsigned trait) {
  std::vector<std::string> with;
#define RAYSTREAM_TYPE_WITH(name, scene_name, traits) \
  if ((traits)&trait) with.push_back(scene_name);
  RAYSTREAM_MATERIAL_TYPES(RAYSTREAM_TYPE_WITH)
#undef RAYSTREAM_TYPE_WITH
  std::string text;
  for (std::size_t i = 0; i < with.size(); ++i)
    text += (i == 0 ? "" : i + 1 == with.size() ? " and " : ", ") + with[i];
  return text;
}

// RGB and EMITTANCE: the colour (refractive materials default to clear glass; the others need
// theirs), and the emittance an Emitting material needs and the others ignore.
void read_color_and_emittance(JsonReader& r, const Json& j, const std::string& key, Material& m) {
  if (m.type == MaterialType::refractive && !j.contains("RGB")) {
    m.color = glm::vec3(1.0f);
  } else {
    m.color = r.vec3(r.require(j, key, "RGB"), key + ".RGB");
  }
  if (m.color.x < 0 || m.color.y < 0 || m.color.z < 0) {
    r.fail(key + ".RGB", "expected non-negative components");
  }
  if (m.type == MaterialType::emitting) {
    m.emittance = r.real(r.require(j, key, "EMITTANCE"), key + ".EMITTANCE");
  } else if (j.contains("EMITTANCE")) {
    m.emittance = r.real(j["EMITTANCE"], key + ".EMITTANCE");
  }
  if (m.emittance < 0) r.fail(key + ".EMITTANCE", "expected a non-negative number");
  if (m.emittance > 0 && m.type != MaterialType::emitting)
    r.warn(key + ".EMITTANCE",
           "only Emitting materials use EMITTANCE (the others emit EMISSION); ignored");
  // The radiance the renderer uses, as the environment's RGB x SCALE: it must be a float.
  const glm::vec3 radiance = m.color * m.emittance;
  if (m.type == MaterialType::emitting &&
      !(std::isfinite(radiance.x) && std::isfinite(radiance.y) && std::isfinite(radiance.z)))
    r.fail(key + ".EMITTANCE", "RGB x EMITTANCE overflows a float");
}

// IOR, ROUGHNESS, EMISSION and TWO_SIDED where given: checked, and ignored with a warning by the
// types without them (`traits`).
void read_surface_properties(JsonReader& r, const Json& j, const std::string& key, unsigned traits,
                             Material& m) {
  if (j.contains("IOR")) {
    m.ior = r.real(j["IOR"], key + ".IOR");
    if (m.ior <= 0) r.fail(key + ".IOR", "expected a positive index of refraction");
    if (!(traits & kTypeIor))
      r.warn(key + ".IOR", "only " + types_with(kTypeIor) + " materials have an IOR; ignored");
  }
  if (j.contains("ROUGHNESS")) {
    m.roughness = r.real(j["ROUGHNESS"], key + ".ROUGHNESS");
    if (m.roughness < 0 || m.roughness > 1)
      r.fail(key + ".ROUGHNESS", "expected a value in [0, 1]");
    if (m.roughness > 0 && !(traits & kTypeRough))
      r.warn(key + ".ROUGHNESS",
             "only " + types_with(kTypeRough) + " materials are rough; ignored");
    if (m.type == MaterialType::plastic && m.roughness < kMinPlasticRoughness)
      r.warn(key + ".ROUGHNESS", "a Plastic's coat is at least 0.1 rough; rendered as 0.1");
  }
  if (j.contains("EMISSION")) {
    if (m.type == MaterialType::emitting)
      r.fail(key + ".EMISSION",
             "an Emitting material emits RGB x EMITTANCE; EMISSION is for "
             "surfaces that also reflect (Diffuse, Specular, Refractive, Plastic)");
    m.emission = r.vec3(j["EMISSION"], key + ".EMISSION");
    if (m.emission.x < 0 || m.emission.y < 0 || m.emission.z < 0)
      r.fail(key + ".EMISSION", "expected non-negative components");
  }
  if (j.contains("TWO_SIDED")) {
    if (!j["TWO_SIDED"].is_boolean())
      r.fail(key + ".TWO_SIDED", "expected true or false, got " + json_type_name(j["TWO_SIDED"]));
    m.two_sided = j["TWO_SIDED"].get<bool>();
    if (!emits(m))
      r.warn(key + ".TWO_SIDED",
             "only emitters (Emitting, or EMISSION above 0) have sides to emit from; ignored");
  }
}

// TEXTURE, relative to the scene file's folder (`path`), read into scene.textures on first use.
void read_material_texture(JsonReader& r, const Json& j, const std::string& key,
                           const std::string& path, unsigned traits, Scene& scene,
                           TextureIds& textures, Material& m) {
  if (!j.contains("TEXTURE")) return;
  const std::string texture_key = key + ".TEXTURE";
  const std::string file = r.path(j["TEXTURE"], texture_key, "image file path");
  if (!(traits & kTypeTextured)) {
    r.warn(texture_key, "only " + types_with(kTypeTextured) + " materials are textured; ignored");
    return;
  }
  const std::string resolved =
      (std::filesystem::path(path).parent_path() / std::filesystem::path(file))
          .lexically_normal()
          .string();
  try {
    m.texture = texture_id(scene, textures, resolved);
  } catch (const SceneError& e) {
    r.fail(texture_key, e.what());
  }
}

// `path`: the scene file (TEXTURE is relative to its folder); textures read go to scene.textures.
Material read_material(JsonReader& r, const std::string& name, const Json& j,
                       const std::string& key, const std::string& path, Scene& scene,
                       TextureIds& textures) {
  r.object(j, key);
  r.check_keys(j, key,
               {"TYPE", "RGB", "EMITTANCE", "IOR", "ROUGHNESS", "EMISSION", "TWO_SIDED", "TEXTURE"},
               {"SPECRGB", "SPECEX"});
  Material m;
  m.name = name;
  m.type = read_material_type(r, j, key);
  if (m.type == MaterialType::plastic) m.roughness = 0.3f;  // a plastic's default coat
  const unsigned traits = material_type_traits(m.type);
  read_color_and_emittance(r, j, key, m);
  read_surface_properties(r, j, key, traits, m);
  read_material_texture(r, j, key, path, traits, scene, textures, m);
  return m;
}

void read_camera(JsonReader& r, const Json& j, Scene& scene, const std::string& path) {
  const std::string key = "Camera";
  r.object(j, key);
  r.check_keys(j, key,
               {"RES", "FOVY", "ITERATIONS", "DEPTH", "FILE", "EYE", "LOOKAT", "UP", "LENS_RADIUS",
                "FOCAL_DISTANCE", "NEAR"});
  Camera& c = scene.camera;

  const Json& res = r.require(j, key, "RES");
  if (!res.is_array() || res.size() != 2) r.fail("Camera.RES", "expected [width, height]");
  c.width = r.positive_int(res[0], "Camera.RES[0]", kMaxImageSide);
  c.height = r.positive_int(res[1], "Camera.RES[1]", kMaxImageSide);
  if (static_cast<long long>(c.width) * c.height > kMaxImagePixels) {
    r.fail("Camera.RES", std::to_string(c.width) + " x " + std::to_string(c.height) +
                             " is too large (at most " + std::to_string(kMaxImagePixels) +
                             " pixels)");
  }

  c.fovy_degrees = r.real(r.require(j, key, "FOVY"), "Camera.FOVY");
  // The course's convention: tan(FOVY) is the half height of the image plane at distance 1, so
  // FOVY is half the vertical field of view.
  if (!(c.fovy_degrees > 0 && c.fovy_degrees < 90)) {
    r.fail("Camera.FOVY", "expected half the vertical field of view in degrees, in (0, 90)");
  }
  scene.iterations =
      r.positive_int(r.require(j, key, "ITERATIONS"), "Camera.ITERATIONS", kMaxIterations);
  scene.depth = r.positive_int(r.require(j, key, "DEPTH"), "Camera.DEPTH", kMaxDepth);

  if (j.contains("FILE")) {
    scene.output_name = r.path(j["FILE"], "Camera.FILE", "name");
  } else {
    // The scene file's name without folder and extension.
    std::string stem = path.substr(path.find_last_of('/') + 1);
    const std::size_t dot = stem.find_last_of('.');
    if (dot != std::string::npos && dot > 0) stem.resize(dot);
    scene.output_name = stem.empty() ? "render" : stem;
  }

  c.eye = r.vec3(r.require(j, key, "EYE"), "Camera.EYE");
  c.lookat = r.vec3(r.require(j, key, "LOOKAT"), "Camera.LOOKAT");
  c.up = r.vec3(r.require(j, key, "UP"), "Camera.UP");
  if (!in_bounds(c.eye)) r.fail("Camera.EYE", "coordinates beyond +-" + limit_text());
  if (!in_bounds(c.lookat)) r.fail("Camera.LOOKAT", "coordinates beyond +-" + limit_text());
  const glm::vec3 view = c.lookat - c.eye;
  if (glm::length(view) <= 0.0f) r.fail("Camera.LOOKAT", "must differ from Camera.EYE");
  if (glm::length(c.up) <= 0.0f) r.fail("Camera.UP", "must not be the zero vector");
  if (glm::length(glm::cross(glm::normalize(view), glm::normalize(c.up))) < 1e-6f) {
    r.fail("Camera.UP", "must not be parallel to the viewing direction (LOOKAT - EYE)");
  }

  if (j.contains("LENS_RADIUS")) {
    c.lens_radius = r.real(j["LENS_RADIUS"], "Camera.LENS_RADIUS");
    if (c.lens_radius < 0) r.fail("Camera.LENS_RADIUS", "expected a non-negative number");
  }
  if (j.contains("NEAR")) {
    c.near_distance = r.real(j["NEAR"], "Camera.NEAR");
    if (c.near_distance < 0) r.fail("Camera.NEAR", "expected a non-negative number");
  }
  if (j.contains("FOCAL_DISTANCE")) {
    c.focal_distance = r.real(j["FOCAL_DISTANCE"], "Camera.FOCAL_DISTANCE");
    if (c.focal_distance < 0) r.fail("Camera.FOCAL_DISTANCE", "expected a non-negative number");
  }
}

// TRANS, ROTAT and SCALE of an object (defaults: identity).
void read_transform(JsonReader& r, const Json& j, const std::string& key, Object& o) {
  if (j.contains("TRANS")) o.translation = r.vec3(j["TRANS"], key + ".TRANS");
  if (j.contains("ROTAT")) o.rotation_degrees = r.vec3(j["ROTAT"], key + ".ROTAT");
  if (j.contains("SCALE")) {
    o.scale = r.vec3(j["SCALE"], key + ".SCALE");
    if (o.scale.x == 0 || o.scale.y == 0 || o.scale.z == 0) {
      r.fail(key + ".SCALE", "expected non-zero components");
    }
  }
}

// The course's object-to-world transform: translate * rotateX * rotateY * rotateZ * scale.
bool finite_matrix(const glm::mat3& m) {
  for (int c = 0; c < 3; ++c) {
    for (int r = 0; r < 3; ++r) {
      if (!std::isfinite(m[c][r])) return false;
    }
  }
  return true;
}

bool finite_matrix(const glm::mat4& m) {
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) {
      if (!std::isfinite(m[c][r])) return false;
    }
  }
  return true;
}

float largest_component(const glm::vec3& v) {
  return std::max(std::fabs(v.x), std::max(std::fabs(v.y), std::fabs(v.z)));
}

// Fails naming the object's TRANS or SCALE (whichever moves it further) when its transform takes
// it beyond +-kMaxCoordinate or makes it non-finite.
[[noreturn]] void fail_out_of_bounds(const JsonReader& r, const std::string& key, const Object& o,
                                     const std::string& what) {
  const bool translation = largest_component(o.translation) >= largest_component(o.scale) / 2;
  r.fail(key + (translation ? ".TRANS" : ".SCALE"),
         "the transformed " + what + " is not finite or reaches beyond +-" + limit_text() +
             " (TRANS, ROTAT and SCALE must keep it within)");
}

// The object-to-world matrix must be invertible in single precision: the renderer intersects in
// object space and transforms normals with the inverse.
void check_invertible(const JsonReader& r, const std::string& key, const glm::mat4& m) {
  if (!finite_matrix(glm::inverse(m)) || !finite_matrix(glm::inverse(glm::mat3(m)))) {
    r.fail(key + ".SCALE",
           "the transform cannot be inverted in single precision (a SCALE component is too close "
           "to 0)");
  }
}

// A sphere or cube (within the unit cube around its centre) after its transform: finite, within
// +-kMaxCoordinate and invertible, so that the renderer's bounds and intersections stay finite.
void check_object_transform(const JsonReader& r, const std::string& key, const Object& o) {
  const glm::mat4 m = object_to_world(o);
  for (int corner = 0; corner < 8; ++corner) {
    const glm::vec4 p((corner & 1) ? 0.5f : -0.5f, (corner & 2) ? 0.5f : -0.5f,
                      (corner & 4) ? 0.5f : -0.5f, 1.0f);
    if (!in_bounds(glm::vec3(m * p))) fail_out_of_bounds(r, key, o, "object");
  }
  check_invertible(r, key, m);
}

int material_id(JsonReader& r, const Json& j, const std::string& key,
                const std::unordered_map<std::string, int>& material_ids,
                const std::vector<Material>& materials) {
  const std::string name = r.string(j, key);
  const auto it = material_ids.find(name);
  if (it == material_ids.end()) {
    // The scene's own materials (not those of OBJ files), the first few of them.
    std::string known;
    std::size_t listed = 0, more = 0;
    for (const Material& m : materials) {
      if (m.name.find(':') != std::string::npos) continue;
      if (listed == 8) {
        ++more;
        continue;
      }
      known += (known.empty() ? "" : ", ") + excerpt(m.name, 32);
      ++listed;
    }
    if (more > 0) known += " and " + std::to_string(more) + " more";
    r.fail(key, "unknown material \"" + excerpt(name) + "\" (defined: " + known + ")");
  }
  return it->second;
}

Object read_object(JsonReader& r, const Json& j, const std::string& key,
                   const std::unordered_map<std::string, int>& material_ids,
                   const std::vector<Material>& materials) {
  r.object(j, key);
  r.check_keys(j, key, {"TYPE", "MATERIAL", "TRANS", "ROTAT", "SCALE"});
  Object o;
  const std::string type = lower(r.string(r.require(j, key, "TYPE"), key + ".TYPE"));
  if (type == "sphere") {
    o.shape = ShapeType::sphere;
  } else if (type == "cube") {
    o.shape = ShapeType::cube;
  } else {
    r.fail(key + ".TYPE", "unknown object TYPE \"" + excerpt(j["TYPE"].get<std::string>()) +
                              "\" (expected sphere, cube, mesh or gltf)");
  }
  o.material =
      material_id(r, r.require(j, key, "MATERIAL"), key + ".MATERIAL", material_ids, materials);
  read_transform(r, j, key, o);
  check_object_transform(r, key, o);
  return o;
}

// A mesh object's triangles as add_triangles queues them for place_meshes, which carries every
// mesh object's triangles to world space in one parallel pass (one pass per object cost a
// zero-fill and a start of the threads per object: 49 bunnies, 49 of each).
struct MeshPlacement {
  std::string key;  // the object's, for messages
  std::string file;
  Object transform;
  const std::vector<Triangle>* triangles = nullptr;  // in the mesh's own coordinates
  glm::mat4 m{1.0f};
  glm::mat3 normal_matrix{1.0f};
  bool mirrored = false;
  // A face's scene material: `named` where it is >= 0, else ids[the face's material], else
  // `fallback` (a face without one).
  int named = -1;
  const std::vector<int>* ids = nullptr;
  int fallback = -1;
  std::size_t warning_at = 0;  // its warning's place among the load's warnings
};

struct MeshPlacements {
  std::vector<MeshPlacement> queued;  // in the scene file's order
  std::size_t triangles = 0;
  LoadTimes* times = nullptr;
};

// Queues a mesh's triangles, in the mesh's own coordinates, for place_meshes, with the object's
// transform (checked here, so that its error comes in the file's order) and its materials. The
// mesh (the loader's cache holds it) must outlive the placement.
void add_triangles(JsonReader& r, const std::string& key, const Object& transform,
                   const std::vector<Triangle>& triangles, const std::string& file, int named,
                   const std::vector<int>* ids, int fallback, MeshPlacements& placements,
                   const std::vector<std::string>& warnings) {
  const glm::mat4 m = object_to_world(transform);
  check_invertible(r, key, m);
  if (placements.triangles + triangles.size() > static_cast<std::size_t>(kMaxTriangles)) {
    r.fail(key + ".FILE",
           "too many triangles in the scene (at most " + std::to_string(kMaxTriangles) + ")");
  }
  MeshPlacement p;
  p.key = key;
  p.file = file;
  p.transform = transform;
  p.triangles = &triangles;
  p.m = m;
  p.normal_matrix = glm::transpose(glm::inverse(glm::mat3(m)));
  p.mirrored = glm::determinant(glm::mat3(m)) < 0.0f;
  p.named = named;
  p.ids = ids;
  p.fallback = fallback;
  p.warning_at = warnings.size();
  placements.queued.push_back(std::move(p));
  placements.triangles += triangles.size();
}

// A run of at most 4096 triangles of one queued mesh, place_meshes' unit of work: the mesh's
// [begin, end) go to scene.triangles[out...], with what their transform found.
struct PlacementBlock {
  std::size_t placement, begin, end, out;
  std::size_t dropped = 0;
  bool outside = false, lit = false;
};

std::vector<PlacementBlock> placement_blocks(const MeshPlacements& placements) {
  constexpr std::size_t kBlock = 4096;
  std::vector<PlacementBlock> blocks;
  std::size_t out = 0;
  for (std::size_t i = 0; i < placements.queued.size(); ++i) {
    const std::size_t n = placements.queued[i].triangles->size();
    for (std::size_t b = 0; b < n; b += kBlock) {
      const std::size_t end = std::min(n, b + kBlock);
      blocks.push_back(PlacementBlock{i, b, end, out});
      out += end - b;
    }
  }
  return blocks;
}

// One block's triangles carried to world space (normals by the inverse transpose, the winding
// kept counter-clockwise under a mirroring transform), each with its scene material; keep[k] is
// 0 where triangle k's area vanished (or cannot be computed) after the transform.
void place_block(const MeshPlacement& p, const std::vector<unsigned char>& emitting,
                 PlacementBlock& block, std::vector<Triangle>& out,
                 std::vector<unsigned char>& keep) {
  for (std::size_t i = block.begin; i < block.end; ++i) {
    const Triangle& t = (*p.triangles)[i];
    const std::size_t at = block.out + (i - block.begin);
    Triangle& w = out[at];
    for (int c = 0; c < 3; ++c) {
      w.v[c] = glm::vec3(p.m * glm::vec4(t.v[c], 1.0f));
      if (!in_bounds(w.v[c])) block.outside = true;
      const glm::vec3 n = p.normal_matrix * t.n[c];
      const float length = glm::length(n);
      w.n[c] = length > 0.0f ? n / length : n;
      w.uv[c] = t.uv[c];
    }
    if (p.mirrored) reverse_winding(w);
    w.material = p.named >= 0 ? p.named : (t.material >= 0 ? (*p.ids)[t.material] : p.fallback);
    const glm::vec3 face = glm::cross(w.v[1] - w.v[0], w.v[2] - w.v[0]);
    const float area2 = glm::length(face);
    // Collapsed by the transform, or too large for its area to be computed: dropped.
    keep[at] = area2 > 0.0f && std::isfinite(area2);
    if (!keep[at]) {
      ++block.dropped;
    } else if (emitting[static_cast<std::size_t>(w.material)]) {
      block.lit = true;
    }
  }
}

// The warnings from index `before` on (one per entry of `places`, non-decreasing), each moved to
// its place among the earlier ones: the warning of places[k] goes before warnings[places[k]].
void move_warnings_into_place(std::vector<std::string>& warnings, std::size_t before,
                              const std::vector<std::size_t>& places) {
  if (places.empty()) return;
  std::vector<std::string> merged;
  merged.reserve(warnings.size());
  std::size_t next = 0;
  for (std::size_t i = 0; i <= before; ++i) {
    for (; next < places.size() && places[next] == i; ++next)
      merged.push_back(std::move(warnings[before + next]));
    if (i < before) merged.push_back(std::move(warnings[i]));
  }
  warnings = std::move(merged);
}

// Carries the queued meshes' triangles to world space (place_block) into scene.triangles, in the
// objects' order. Triangles a transform collapses are dropped with one warning per object, placed
// among the warnings where the object's turn was; a vertex carried out of the coordinate range
// fails the scene, naming the first such object. Returns whether a triangle kept has an emitting
// material. The time goes to placements.times->meshes_ms.
bool place_meshes(JsonReader& r, const MeshPlacements& placements, Scene& scene,
                  std::vector<std::string>& warnings) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t total = placements.triangles;
  if (total == 0) return false;
  // Allocated once, its pages mapped on every core (resize's zero-fill then takes no faults).
  reserve_populated(scene.triangles, total);
  scene.triangles.resize(total);
  std::vector<unsigned char> emitting(scene.materials.size());
  for (std::size_t i = 0; i < emitting.size(); ++i) emitting[i] = emits(scene.materials[i]);
  std::vector<PlacementBlock> blocks = placement_blocks(placements);
  std::vector<unsigned char> keep(total);
  // In pieces of about 2^18 triangles (or 4096 blocks, where the meshes are small), polling for a
  // stop between them (no exception may leave an OpenMP loop).
  constexpr std::size_t kPiece = std::size_t(1) << 18;
  constexpr std::size_t kPieceBlocks = 4096;
  for (std::size_t first = 0; first < blocks.size();) {
    poll_stop();
    std::size_t last = first, count = 0;
    while (last < blocks.size() && count < kPiece && last - first < kPieceBlocks) {
      count += blocks[last].end - blocks[last].begin;
      ++last;
    }
    const long long piece_begin = static_cast<long long>(first);
    const long long piece_end = static_cast<long long>(last);
#pragma omp parallel for schedule(dynamic) if (count > 16384)
    for (long long k = piece_begin; k < piece_end; ++k) {
      PlacementBlock& block = blocks[static_cast<std::size_t>(k)];
      place_block(placements.queued[block.placement], emitting, block, scene.triangles, keep);
    }
    first = last;
  }

  std::vector<std::size_t> dropped(placements.queued.size());
  std::size_t dropped_total = 0;
  bool lit = false;
  for (const PlacementBlock& block : blocks) {
    if (block.outside) {
      const MeshPlacement& p = placements.queued[block.placement];
      fail_out_of_bounds(r, p.key, p.transform, "mesh");
    }
    dropped[block.placement] += block.dropped;
    dropped_total += block.dropped;
    lit = lit || block.lit;
  }
  if (dropped_total > 0) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < total; ++i) {
      if (!keep[i]) continue;
      if (kept != i) scene.triangles[kept] = scene.triangles[i];
      ++kept;
    }
    scene.triangles.resize(kept);
  }
  if (placements.times) placements.times->meshes_ms += milliseconds_since(start);

  const std::size_t before = warnings.size();
  std::vector<std::size_t> places;
  for (std::size_t i = 0; i < placements.queued.size(); ++i) {
    if (dropped[i] == 0) continue;
    const MeshPlacement& p = placements.queued[i];
    r.warn(p.key, std::to_string(dropped[i]) + " triangles of " + excerpt(p.file) +
                      " dropped: zero area or an area too large for single precision after the "
                      "transform");
    places.push_back(p.warning_at);
  }
  move_warnings_into_place(warnings, before, places);
  return lit;
}

// Mesh objects: OBJ files read once each, their MTL materials added to the scene once per file.

// An OBJ file as read once: its mesh, or why it could not be read. Its error and warnings wait
// for the first object that names the file, so they come in the scene file's order.
struct LoadedMesh {
  ObjMesh mesh;
  std::string error;
  std::vector<std::string> warnings;
  bool warned = false;
};

struct MeshCache {
  std::unordered_map<std::string, LoadedMesh> meshes;           // by resolved path
  std::unordered_map<std::string, std::vector<int>> materials;  // scene ids of a file's MTL
  std::unordered_map<std::string, int> fallback;                // a file's default material
  LoadTimes* times = nullptr;

  LoadedMesh& load(const std::string& resolved) {
    const auto found = meshes.find(resolved);
    if (found != meshes.end()) return found->second;
    const auto start = std::chrono::steady_clock::now();
    LoadedMesh loaded;
    try {
      loaded.mesh = load_obj(resolved, loaded.warnings);
    } catch (const SceneError& e) {
      loaded.error = e.what();
    }
    if (times) times->obj_ms += milliseconds_since(start);
    return meshes.emplace(resolved, std::move(loaded)).first->second;
  }
};

// A mesh object's FILE, relative to the scene file's folder.
std::string mesh_path(const std::string& scene_path, const std::string& file) {
  return (std::filesystem::path(scene_path).parent_path() / std::filesystem::path(file))
      .lexically_normal()
      .string();
}

// TYPE mesh: the OBJ at FILE (relative to the scene file), MATERIAL optional (else the MTL's),
// transformed to world space and appended to scene.triangles.
void read_mesh_object(JsonReader& r, const Json& j, const std::string& key, const std::string& path,
                      const std::unordered_map<std::string, int>& material_ids, Scene& scene,
                      MeshCache& cache, TextureIds& textures, MeshPlacements& placements,
                      std::vector<std::string>& warnings) {
  r.check_keys(j, key, {"TYPE", "FILE", "MATERIAL", "MISSING_MATERIAL", "TRANS", "ROTAT", "SCALE"});
  const std::string file = r.path(r.require(j, key, "FILE"), key + ".FILE", "OBJ file path");
  int named = -1;
  if (j.contains("MATERIAL")) {
    named = material_id(r, j["MATERIAL"], key + ".MATERIAL", material_ids, scene.materials);
  }
  // MISSING_MATERIAL: the scene material of faces whose usemtl the MTL does not define (instead
  // of the grey default), e.g. the Cornell Box files that use an undefined "light".
  int missing = -1;
  if (j.contains("MISSING_MATERIAL")) {
    missing = material_id(r, j["MISSING_MATERIAL"], key + ".MISSING_MATERIAL", material_ids,
                          scene.materials);
    if (named >= 0)
      r.warn(key + ".MISSING_MATERIAL", "MATERIAL gives every face its material; ignored");
  }
  Object transform;
  read_transform(r, j, key, transform);

  const std::string resolved = mesh_path(path, file);
  LoadedMesh& loaded = cache.load(resolved);
  if (!loaded.error.empty()) r.fail(key + ".FILE", loaded.error);
  if (!loaded.warned) {
    warnings.insert(warnings.end(), loaded.warnings.begin(), loaded.warnings.end());
    loaded.warned = true;
  }
  const ObjMesh& mesh = loaded.mesh;

  // Scene material ids of this file's faces: MTL materials (added once per file, named
  // "<file name>:<name>"), or a grey diffuse default for faces without one.
  std::vector<int>* ids = nullptr;
  int fallback = named;
  if (named < 0) {
    auto added = cache.materials.find(resolved);
    if (added == cache.materials.end()) {
      added = cache.materials.emplace(resolved, std::vector<int>()).first;
      // With MISSING_MATERIAL, faces of undefined usemtl names are taken care of: no warning.
      for (const std::string& w : mesh.material_warnings)
        if (missing < 0 || w.find("not found in .mtl") == std::string::npos) warnings.push_back(w);
      const std::string stem = std::filesystem::path(file).filename().string();
      for (std::size_t i = 0; i < mesh.materials.size(); ++i) {
        added->second.push_back(static_cast<int>(scene.materials.size()));
        scene.materials.push_back(mesh.materials[i]);
        scene.materials.back().name = stem + ":" + mesh.materials[i].name;
        // map_Kd: the image is read here, so that the error names the scene key too.
        const KdMap* kd_map = i < mesh.kd_maps.size() ? &mesh.kd_maps[i] : nullptr;
        if (kd_map != nullptr && !kd_map->path.empty()) {
          try {
            scene.materials.back().texture = texture_id(scene, textures, kd_map->path);
          } catch (const SceneError& e) {
            r.fail(key + ".FILE", kd_map->origin + ": " + e.what());
          }
        }
      }
    }
    ids = &added->second;
    const bool needs_default = std::any_of(mesh.triangles.begin(), mesh.triangles.end(),
                                           [](const Triangle& t) { return t.material < 0; });
    if (needs_default && missing >= 0) {
      fallback = missing;
    } else if (needs_default) {
      auto it = cache.fallback.find(resolved);
      if (it == cache.fallback.end()) {
        Material grey;
        grey.name = std::filesystem::path(file).filename().string() + ":default";
        grey.type = MaterialType::diffuse;
        grey.color = glm::vec3(0.8f);
        it = cache.fallback.emplace(resolved, static_cast<int>(scene.materials.size())).first;
        scene.materials.push_back(grey);
      }
      fallback = it->second;
    }
    if (scene.materials.size() > static_cast<std::size_t>(kMaxMaterials)) {
      r.fail(key + ".FILE",
             "the scene's materials and the OBJ files' materials are too many "
             "(at most " +
                 std::to_string(kMaxMaterials) + ")");
    }
  }

  add_triangles(r, key, transform, mesh.triangles, file, named, ids, fallback, placements,
                warnings);
}

// TYPE gltf: the default scene of a glTF 2.0 asset at FILE (relative to the scene file), its
// materials (added once per file, named "<file name>:<name>") or MATERIAL for every triangle,
// transformed by TRANS, ROTAT and SCALE.
struct GltfCache {
  std::unordered_map<std::string, GltfModel> models;            // by resolved path
  std::unordered_map<std::string, std::vector<int>> materials;  // scene ids of a file's materials
};

void read_gltf_object(JsonReader& r, const Json& j, const std::string& key, const std::string& path,
                      const std::unordered_map<std::string, int>& material_ids, Scene& scene,
                      GltfCache& cache, MeshPlacements& placements,
                      std::vector<std::string>& warnings) {
  r.check_keys(j, key, {"TYPE", "FILE", "MATERIAL", "TRANS", "ROTAT", "SCALE"});
  const std::string file = r.path(r.require(j, key, "FILE"), key + ".FILE", "glTF file path");
  int named = -1;
  if (j.contains("MATERIAL"))
    named = material_id(r, j["MATERIAL"], key + ".MATERIAL", material_ids, scene.materials);
  Object transform;
  read_transform(r, j, key, transform);
  const std::string resolved =
      (std::filesystem::path(path).parent_path() / std::filesystem::path(file))
          .lexically_normal()
          .string();
  auto found = cache.models.find(resolved);
  if (found == cache.models.end()) {
    try {
      found = cache.models.emplace(resolved, load_gltf(resolved, warnings)).first;
    } catch (const SceneError& e) {
      r.fail(key + ".FILE", e.what());
    }
  }
  const GltfModel& model = found->second;
  std::vector<int>* ids = nullptr;
  if (named < 0) {
    auto added = cache.materials.find(resolved);
    if (added == cache.materials.end()) {
      // The file's materials and textures join the scene's, once.
      added = cache.materials.emplace(resolved, std::vector<int>()).first;
      const int first_texture = static_cast<int>(scene.textures.size());
      scene.textures.insert(scene.textures.end(), model.textures.begin(), model.textures.end());
      for (Material m : model.materials) {
        if (m.texture >= 0) m.texture += first_texture;
        added->second.push_back(static_cast<int>(scene.materials.size()));
        scene.materials.push_back(m);
      }
      if (scene.materials.size() > static_cast<std::size_t>(kMaxMaterials))
        r.fail(key + ".FILE",
               "the scene's materials and the glTF files' materials are too many "
               "(at most " +
                   std::to_string(kMaxMaterials) + ")");
    }
    ids = &added->second;
  }
  add_triangles(r, key, transform, model.triangles, file, named, ids, -1, placements, warnings);
}

// Environment: what escaped rays see. A Radiance HDR or OpenEXR map (FILE, relative to the scene
// file's folder, turned about +y by ROTATE degrees) or a uniform radiance (RGB); SCALE multiplies
// either.
void read_environment(JsonReader& r, const Json& j, const std::string& path, Environment& env) {
  const std::string key = "Environment";
  r.object(j, key);
  r.check_keys(j, key, {"FILE", "RGB", "SCALE", "ROTATE"});
  const bool has_file = j.contains("FILE");
  const bool has_rgb = j.contains("RGB");
  if (has_file && has_rgb) r.fail(key, "FILE and RGB exclude each other (give one of them)");
  if (!has_file && !has_rgb) {
    r.fail(key, "expected FILE (an HDR or EXR map) or RGB (a uniform radiance)");
  }
  float scale = 1.0f;
  if (j.contains("SCALE")) {
    scale = r.real(j["SCALE"], "Environment.SCALE");
    if (scale < 0) r.fail("Environment.SCALE", "expected a non-negative number");
  }
  float rotate = 0.0f;
  if (j.contains("ROTATE")) rotate = r.real(j["ROTATE"], "Environment.ROTATE");

  if (has_rgb) {
    const glm::vec3 rgb = r.vec3(j["RGB"], "Environment.RGB");
    if (rgb.x < 0 || rgb.y < 0 || rgb.z < 0) {
      r.fail("Environment.RGB", "expected non-negative components");
    }
    const glm::vec3 radiance = rgb * scale;
    if (!std::isfinite(radiance.x) || !std::isfinite(radiance.y) || !std::isfinite(radiance.z)) {
      r.fail("Environment.SCALE", "RGB x SCALE overflows a float");
    }
    if (j.contains("ROTATE")) {
      r.warn("Environment.ROTATE", "a uniform environment (RGB) looks the same turned; ignored");
    }
    env = Environment();
    env.present = true;
    env.constant = radiance;
    env.scale = scale;
    return;
  }

  const std::string file = r.path(j["FILE"], "Environment.FILE", "HDR or EXR file path");
  const std::filesystem::path map_path =
      std::filesystem::path(path).parent_path() / std::filesystem::path(file);
  try {
    env = load_environment_map(map_path.lexically_normal().string(), scale, rotate);
  } catch (const SceneError& e) {
    r.fail("Environment.FILE", e.what());
  }
}

}  // namespace

namespace {

Scene parse_scene_timed(const std::string& text, const std::string& path,
                        std::vector<std::string>& warnings, LoadTimes* times) {
  std::vector<std::string> material_order;  // the materials' ids follow the file's order
  const Json doc = parse_json(text, path, "Materials", material_order);

  JsonReader r(path, warnings);
  r.object(doc, "the top level");
  r.check_keys(doc, "", {"Materials", "Camera", "Objects", "Environment"});

  Scene scene;
  scene.path = path;

  const Json& materials = r.object(r.require(doc, "", "Materials"), "Materials");
  if (materials.empty()) r.fail("Materials", "expected at least one material");
  if (materials.size() > static_cast<std::size_t>(kMaxMaterials)) {
    r.fail("Materials", std::to_string(materials.size()) + " materials are too many (at most " +
                            std::to_string(kMaxMaterials) + ")");
  }
  std::unordered_map<std::string, int> material_ids;
  TextureIds textures;  // shared by TEXTURE keys and MTL map_Kd
  // In the file's order (material ids follow it).
  for (const std::string& name : material_order) {
    const auto it = materials.find(name);
    if (it == materials.end()) continue;  // cannot happen: each key is recorded once
    material_ids[name] = static_cast<int>(scene.materials.size());
    scene.materials.push_back(
        read_material(r, name, *it, "Materials." + excerpt(name), path, scene, textures));
  }

  read_camera(r, r.require(doc, "", "Camera"), scene, path);

  const Json& objects = r.require(doc, "", "Objects");
  if (!objects.is_array()) r.fail("Objects", "expected an array, got " + json_type_name(objects));
  MeshCache meshes;
  meshes.times = times;
  GltfCache gltf;
  // The mesh objects' triangles are queued in the objects' order and carried to world space
  // together once every object is read (place_meshes).
  MeshPlacements placements;
  placements.times = times;
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if ((i & 1023u) == 0) poll_stop();
    const std::string key = "Objects[" + std::to_string(i) + "]";
    const Json& j = r.object(objects[i], key);
    const std::string type =
        j.contains("TYPE") && j["TYPE"].is_string() ? lower(j["TYPE"].get<std::string>()) : "";
    if (type == "mesh") {
      read_mesh_object(r, j, key, path, material_ids, scene, meshes, textures, placements,
                       warnings);
    } else if (type == "gltf") {
      read_gltf_object(r, j, key, path, material_ids, scene, gltf, placements, warnings);
    } else {
      scene.objects.push_back(read_object(r, j, key, material_ids, scene.materials));
    }
  }
  const bool lit_triangles = place_meshes(r, placements, scene, warnings);

  if (doc.contains("Environment")) {
    poll_stop();
    read_environment(r, doc["Environment"], path, scene.environment);
    poll_stop();
  }

  const bool sky = environment_is_lit(scene.environment);
  const bool lit =
      sky ||
      std::any_of(scene.objects.begin(), scene.objects.end(),
                  [&](const Object& o) {
                    return emits(scene.materials[static_cast<std::size_t>(o.material)]);
                  }) ||
      lit_triangles;
  if (scene.objects.empty() && scene.triangles.empty()) {
    if (!sky) r.warn("Objects", "the scene has no objects; the image will be black");
  } else if (!lit) {
    r.warn("", std::string("no emitter: no object has an Emitting material with EMITTANCE > 0 and "
                           "a non-zero RGB") +
                   (scene.environment.present ? ", and the Environment is black" : "") +
                   "; the image will be black");
  }
  return scene;
}

}  // namespace

Scene parse_scene(const std::string& text, const std::string& path,
                  std::vector<std::string>& warnings) {
  return parse_scene_timed(text, path, warnings, nullptr);
}

Scene load_scene(const std::string& path, std::vector<std::string>& warnings) {
  LoadTimes times;
  return load_scene(path, warnings, times);
}

Scene load_scene(const std::string& path, std::vector<std::string>& warnings, LoadTimes& times) {
  const auto start = std::chrono::steady_clock::now();
  times = LoadTimes();
  InputFileLog inputs;  // every file the load reads, so that no output replaces one
  // A glTF asset is a scene of its own (its camera, or one that frames it, and a default sky).
  Scene scene = is_gltf_path(path)
                    ? gltf_scene(path, warnings)
                    : parse_scene_timed(read_input_file(path, kSceneFile), path, warnings, &times);
  scene.inputs = inputs.files();
  times.total_ms = milliseconds_since(start);
  return scene;
}

Scene load_scene(const std::string& path) {
  std::vector<std::string> warnings;
  Scene scene = load_scene(path, warnings);
  for (const std::string& w : warnings) std::cerr << "warning: " << w << '\n';
  return scene;
}

}  // namespace raystream
