#include <chrono>
#include <vector>

#include "core/stop_request.h"
#include "core/stopwatch.h"
#include "execution/parallel_for.cuh"
#include "geometry/lbvh_build.h"
#include "integrator/scene_upload.h"
#include "lights/environment_map.h"

namespace raystream {

namespace {

template <class T>
void upload(const Executor& ex, Buffer<T>& buffer, const std::vector<T>& host) {
  copy_from_host(ex, buffer.data(), host.data(), host.size() * sizeof(T));
}

// Triangle lights name their triangle by its scene index until the LBVH puts the triangles in
// leaf order; this makes it the triangle's slot.
struct LightsToSlots {
  const std::int32_t* slot_of;
  Light* lights;
  RAYSTREAM_HD void operator()(std::size_t k) const {
    if (lights[k].kind == static_cast<std::int32_t>(LightKind::triangle))
      lights[k].primitive = slot_of[lights[k].primitive];
  }
};

template <class T>
std::uint64_t bytes_of(const std::vector<T>& v) {
  return static_cast<std::uint64_t>(v.size() * sizeof(T));
}

}  // namespace

std::vector<MaterialData> scene_materials(const Scene& scene) {
  std::vector<MaterialData> materials;
  std::vector<TextureBinding> bindings;
  materials.reserve(scene.materials.size());
  for (const Material& m : scene.materials) materials.push_back(make_material_data(m, bindings));
  return materials;
}

std::vector<TextureBinding> scene_bindings(const Scene& scene) {
  std::vector<TextureBinding> bindings;
  for (const Material& m : scene.materials) make_material_data(m, bindings);
  return bindings;
}

std::vector<TextureStorage> texture_storages(const Scene& scene,
                                             const std::vector<TextureBinding>& bindings) {
  // An image read by a data binding (a normal map, metalness) averages its stored values in its
  // mips; one read only as a colour, its linear values.
  std::vector<char> data(scene.textures.size(), 0);
  for (const TextureBinding& b : bindings)
    if (!b.srgb && b.texture >= 0 && std::size_t(b.texture) < data.size()) data[b.texture] = 1;
  std::vector<TextureStorage> storages;
  for (std::size_t k = 0; k < scene.textures.size(); ++k)
    storages.push_back(make_texture_storage(scene.textures[k], !data[k]));
  return storages;
}

SceneUpload::SceneUpload(const Executor& ex, const Scene& scene,
                         const std::vector<MaterialData>& materials, SceneBvh bvh,
                         const PathPrimitives& primitives, int width, int height,
                         MemoryTally* tally) {
  prepare_on_host(scene, materials, bvh);

  // Everything but the LBVH's triangles into executor memory.
  const auto start = std::chrono::steady_clock::now();
  upload_scene_data(ex, scene, materials, tally);
  bvh_stats_.primitives = scene.triangles.size() + scene.objects.size();
  bvh_stats_.triangles = scene.triangles.size();
  view_.geometry = acceleration_.geometry();
  if (bvh == SceneBvh::lbvh) {
    startup_.upload_ms = milliseconds_since(start);
    upload_with_lbvh(ex, primitives, tally);
  } else {
    upload_sah_tree(ex, tally);
    startup_.upload_ms = milliseconds_since(start);
    record_sah_stats();
  }
  set_executor_view(scene, width, height);
}

// The host's part: triangles in the intersection's form (and the SAH build), the light table.
void SceneUpload::prepare_on_host(const Scene& scene, const std::vector<MaterialData>& materials,
                                  SceneBvh bvh) {
  const auto start = std::chrono::steady_clock::now();
  // A stop asked for before the first sample ends the render here (StopRequested): the SAH
  // build polls within, the other phases between.
  acceleration_ = build_scene_acceleration(scene, bvh == SceneBvh::sah);
  poll_stop();
  bindings_ = scene_bindings(scene);
  storages_ = texture_storages(scene, bindings_);
  std::vector<TextureView> views;
  for (const TextureStorage& t : storages_) views.push_back(t.view(t.data()));
  lights_ = build_light_table(scene, acceleration_, materials,
                              environment_power_estimate(scene.environment) / (4.0f * kPi),
                              MaterialTextures{views.data(), bindings_.data()});
  poll_stop();
  if (bvh == SceneBvh::lbvh) {
    object_boxes_.resize(scene.objects.size());
    for (std::size_t k = 0; k < scene.objects.size(); ++k)
      object_world_bounds(scene.objects[k], object_boxes_[k].lo, object_boxes_[k].hi);
  }
  startup_.bvh_ms = acceleration_.build_ms;
  startup_.prepare_ms = milliseconds_since(start) - acceleration_.build_ms;
}

// The objects, materials, environment map, textures and lights.
void SceneUpload::upload_scene_data(const Executor& ex, const Scene& scene,
                                    const std::vector<MaterialData>& materials,
                                    MemoryTally* tally) {
  // The environment light builds its sampling tables from the scene's map (lights/).
  const EnvironmentTables environment = build_environment_tables(scene.environment);
  objects_ = Buffer<SceneObject>(ex, "scene objects", acceleration_.objects.size(), tally);
  materials_ = Buffer<MaterialData>(ex, "materials", materials.size(), tally);
  environment_texels_ =
      Buffer<glm::vec3>(ex, "environment map", scene.environment.texels.size(), tally);
  environment_marginal_ =
      Buffer<float>(ex, "environment CDF (rows)", environment.marginal_cdf.size(), tally);
  environment_conditional_ =
      Buffer<float>(ex, "environment CDFs (columns)", environment.conditional_cdf.size(), tally);
  textures_ = Buffer<TextureView>(ex, "texture views", scene.textures.size(), tally);
  binding_buffer_ = Buffer<TextureBinding>(ex, "texture bindings", bindings_.size(), tally);
  details_ =
      Buffer<TriangleDetail>(ex, "triangle tangents and uvs", acceleration_.details.size(), tally);
  light_buffer_ = Buffer<Light>(ex, "lights", lights_.lights.size(), tally);
  light_cdf_ = Buffer<float>(ex, "light CDF", lights_.cdf.size(), tally);
#define RAYSTREAM_LIGHT_BUFFER(type, kind, array) \
  kind##_lights_ = Buffer<type>(ex, #kind " lights", lights_.array.size(), tally);
  RAYSTREAM_LIGHTS(RAYSTREAM_LIGHT_BUFFER)
#undef RAYSTREAM_LIGHT_BUFFER
  upload(ex, objects_, acceleration_.objects);
  upload(ex, materials_, materials);
  upload(ex, environment_texels_, scene.environment.texels);
  upload(ex, environment_marginal_, environment.marginal_cdf);
  upload(ex, environment_conditional_, environment.conditional_cdf);
  upload(ex, light_buffer_, lights_.lights);
  upload_textures(ex, tally);
  upload(ex, binding_buffer_, bindings_);
  upload(ex, details_, acceleration_.details);
#define RAYSTREAM_LIGHT_UPLOAD(type, kind, array) upload(ex, kind##_lights_, lights_.array);
  RAYSTREAM_LIGHTS(RAYSTREAM_LIGHT_UPLOAD)
#undef RAYSTREAM_LIGHT_UPLOAD
  upload(ex, light_cdf_, lights_.cdf);
}

// The textures: on the GPU in texture hardware (the bindings get their objects), on the CPU
// executor its heap; the views say each texture's size and levels.
void SceneUpload::upload_textures(const Executor& ex, MemoryTally* tally) {
  std::vector<TextureView> views;
  texture_stats_ = TextureStats{};
  if (ex.gpu()) texture_arrays_ = TextureArrays(storages_, bindings_, tally);
  for (const TextureStorage& t : storages_) {
    if (ex.gpu()) {
      views.push_back(t.view(nullptr));
    } else {
      texels_.emplace_back(ex, "texture texels", t.bytes(), tally);
      copy_from_host(ex, texels_.back().data(), t.data(), t.bytes());
      views.push_back(t.view(texels_.back().data()));
    }
    ++texture_stats_.images;
    texture_stats_.texels += std::uint64_t(t.width) * std::uint64_t(t.height);
    texture_stats_.bytes += t.bytes();
  }
  storages_ = std::vector<TextureStorage>();  // the executor's copies are read from now on
  upload(ex, textures_, views);
}

// The SAH build's triangles (in its leaf order) and tree.
void SceneUpload::upload_sah_tree(const Executor& ex, MemoryTally* tally) {
  triangles_ = Buffer<TriangleGeometry>(ex, "triangles", acceleration_.triangles.size(), tally);
  shading_ = Buffer<TriangleShading>(ex, "triangle normals and materials",
                                     acceleration_.shading.size(), tally);
  nodes_ = Buffer<BvhNode>(ex, "BVH nodes", acceleration_.nodes.size(), tally);
  primitives_ =
      Buffer<std::int32_t>(ex, "BVH primitive references", acceleration_.primitives.size(), tally);
  upload(ex, triangles_, acceleration_.triangles);
  upload(ex, shading_, acceleration_.shading);
  upload(ex, nodes_, acceleration_.nodes);
  upload(ex, primitives_, acceleration_.primitives);
}

void SceneUpload::record_sah_stats() {
  bvh_stats_.built = !acceleration_.nodes.empty();
  if (bvh_stats_.built) {
    bvh_stats_.builder = BvhBuilder::sah;
    bvh_stats_.nodes = acceleration_.nodes.size();
    bvh_stats_.leaves = acceleration_.leaves;
    bvh_stats_.depth = acceleration_.depth;
    bvh_stats_.sah_cost = acceleration_.sah_cost;
    bvh_stats_.build_ms = acceleration_.build_ms;
    bvh_stats_.tree_bytes = bytes_of(acceleration_.nodes) + bytes_of(acceleration_.primitives);
    bvh_stats_.primitive_bytes = bytes_of(acceleration_.triangles) +
                                 bytes_of(acceleration_.shading) + bytes_of(acceleration_.objects);
  }
}

// The host geometry view's counts, with executor pointers.
void SceneUpload::set_executor_view(const Scene& scene, int width, int height) {
  view_.geometry.objects = objects_.data();
  view_.geometry.triangles = triangles_.data();
  view_.geometry.triangle_shading = shading_.data();
  view_.geometry.triangle_details = details_.data();
  view_.geometry.nodes = nodes_.data();
  view_.geometry.primitives = primitives_.data();
  view_.materials = materials_.data();
  view_.material_count = static_cast<int>(scene.materials.size());
  view_.camera = make_camera_frame(scene.camera, width, height);
  view_.textures.views = textures_.data();
  view_.textures.bindings = binding_buffer_.data();
  view_.lights = host_lights_view(lights_);  // the counts; the executor's pointers below
  view_.lights.lights = light_buffer_.data();
  view_.lights.cdf = light_cdf_.data();
#define RAYSTREAM_LIGHT_VIEW(type, kind, array) view_.lights.array = kind##_lights_.data();
  RAYSTREAM_LIGHTS(RAYSTREAM_LIGHT_VIEW)
#undef RAYSTREAM_LIGHT_VIEW
  view_.lights.env =
      environment_view(scene.environment, environment_texels_.data(), environment_marginal_.data(),
                       environment_conditional_.data());
}

// The triangles go to the executor in the scene's order, the tree is built there, and the
// triangles follow its leaf order. The shading data is copied once the tree is done, so that the
// build's temporaries and both copies of it are never held at once.
void SceneUpload::upload_with_lbvh(const Executor& ex, const PathPrimitives& primitives,
                                   MemoryTally* tally) {
  const std::size_t triangle_count = acceleration_.triangles.size();
  const std::size_t slots = triangle_count + acceleration_.objects.size();
  BuildMemory memory;
  auto start = std::chrono::steady_clock::now();
  BuildPoolHold hold(ex);  // the build's memory reused across its synchronizations
  BuildBuffer<TriangleGeometry> triangles_in(ex, "triangles (scene order)", triangle_count, memory);
  BuildBuffer<LbvhBox> boxes(ex, "object boxes", object_boxes_.size(), memory);
  copy_from_host(ex, triangles_in.data(), acceleration_.triangles.data(), triangles_in.bytes());
  copy_from_host(ex, boxes.data(), object_boxes_.data(), boxes.bytes());
  startup_.upload_ms += milliseconds_since(start);

  start = std::chrono::steady_clock::now();
  LbvhPrimitives input;
  input.triangles = triangles_in.data();
  input.triangle_count = triangle_count;
  input.object_boxes = boxes.data();
  input.object_count = object_boxes_.size();
  LbvhTree tree = build_lbvh(ex, primitives, input, memory, tally);
  poll_stop();
  triangles_ = Buffer<TriangleGeometry>(ex, "triangles", slots, tally);
  memory.add(triangles_.bytes());
  gather_in_leaf_order(ex, tree, triangle_count, triangles_in.data(), triangles_.data());
  triangles_in.release();
  boxes.release();
  synchronize(ex);
  double build_ms = milliseconds_since(start);

  start = std::chrono::steady_clock::now();
  BuildBuffer<TriangleShading> shading_in(ex, "triangle normals and materials (scene order)",
                                          triangle_count, memory);
  copy_from_host(ex, shading_in.data(), acceleration_.shading.data(), shading_in.bytes());
  startup_.upload_ms += milliseconds_since(start);

  start = std::chrono::steady_clock::now();
  shading_ = Buffer<TriangleShading>(ex, "triangle normals and materials", slots, tally);
  memory.add(shading_.bytes());
  gather_in_leaf_order(ex, tree, triangle_count, shading_in.data(), shading_.data());
  shading_in.release();
  primitives_ = Buffer<std::int32_t>(ex, "BVH primitive references", slots, tally);
  memory.add(primitives_.bytes());
  write_primitive_references(ex, tree, triangle_count, primitives_.data());
  parallel_for(ex, "lights to leaf slots", light_buffer_.size(),
               LightsToSlots{tree.slot_of.data(), light_buffer_.data()});
  tree.order.release();
  tree.slot_of.release();
  synchronize(ex);
  hold.release();
  build_ms += milliseconds_since(start);
  nodes_ = std::move(tree.nodes);

  view_.geometry.triangle_count = static_cast<int>(slots);
  view_.geometry.node_count = static_cast<int>(nodes_.size());
  bvh_stats_.built = true;
  bvh_stats_.builder = BvhBuilder::lbvh;
  bvh_stats_.sort = primitives.backend();
  bvh_stats_.nodes = nodes_.size();
  bvh_stats_.leaves = tree.leaves;
  bvh_stats_.depth = tree.depth;
  bvh_stats_.sah_cost = tree.sah_cost;
  bvh_stats_.build_ms = build_ms;
  bvh_stats_.tree_bytes = nodes_.bytes() + primitives_.bytes();
  bvh_stats_.primitive_bytes = triangles_.bytes() + shading_.bytes() + objects_.bytes();
  bvh_stats_.build_peak_bytes = memory.peak();
  startup_.bvh_ms = build_ms;

  // The host copies in the scene's order are not needed again.
  acceleration_.triangles = std::vector<TriangleGeometry>();
  acceleration_.shading = std::vector<TriangleShading>();
}

}  // namespace raystream
