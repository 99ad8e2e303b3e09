#include <vector>

#include "integrator/scene_upload.h"
#include "lights/environment_map.h"

namespace raystream {

namespace {

template <class T>
void upload(const Executor& ex, Buffer<T>& buffer, const std::vector<T>& host) {
  copy_from_host(ex, buffer.data(), host.data(), host.size() * sizeof(T));
}

std::vector<MaterialData> material_data(const Scene& scene) {
  std::vector<MaterialData> materials;
  materials.reserve(scene.materials.size());
  for (const Material& m : scene.materials) materials.push_back(make_material_data(m));
  return materials;
}

}  // namespace

SceneUpload::SceneUpload(const Executor& ex, const Scene& scene, bool use_bvh, int width,
                         int height, MemoryTally* tally)
    : acceleration_(build_scene_acceleration(scene, use_bvh)),
      environment_texels_(ex, "environment map", scene.environment.texels.size(), tally),
      environment_marginal_(ex, "environment CDF (rows)", scene.environment.marginal_cdf.size(),
                            tally),
      environment_conditional_(ex, "environment CDFs (columns)",
                               scene.environment.conditional_cdf.size(), tally),
      textures_(ex, "texture views", scene.textures.size(), tally),
      lights_(build_light_table(scene, acceleration_, material_data(scene),
                                environment_power_estimate(scene.environment) / (4.0f * kPi))),
      objects_(ex, "scene objects", acceleration_.objects.size(), tally),
      materials_(ex, "materials", scene.materials.size(), tally),
      triangles_(ex, "triangles", acceleration_.triangles.size(), tally),
      shading_(ex, "triangle normals and materials", acceleration_.shading.size(), tally),
      nodes_(ex, "BVH nodes", acceleration_.nodes.size(), tally),
      primitives_(ex, "BVH primitive references", acceleration_.primitives.size(), tally),
      light_buffer_(ex, "lights", lights_.lights.size(), tally),
      light_cdf_(ex, "light CDF", lights_.cdf.size(), tally) {
  upload(ex, objects_, acceleration_.objects);
  upload(ex, materials_, material_data(scene));
  upload(ex, triangles_, acceleration_.triangles);
  upload(ex, shading_, acceleration_.shading);
  upload(ex, nodes_, acceleration_.nodes);
  upload(ex, primitives_, acceleration_.primitives);
  upload(ex, environment_texels_, scene.environment.texels);
  upload(ex, environment_marginal_, scene.environment.marginal_cdf);
  upload(ex, environment_conditional_, scene.environment.conditional_cdf);
  upload(ex, light_buffer_, lights_.lights);
  std::vector<TextureView> views;
  for (const TextureImage& image : scene.textures) {
    texels_.emplace_back(ex, "texture texels", image.texels.size(), tally);
    upload(ex, texels_.back(), image.texels);
    views.push_back(TextureView{texels_.back().data(), image.width, image.height});
  }
  upload(ex, textures_, views);
  upload(ex, light_cdf_, lights_.cdf);

  // The host geometry view's counts, with executor pointers.
  view_.geometry = acceleration_.geometry();
  view_.geometry.objects = objects_.data();
  view_.geometry.triangles = triangles_.data();
  view_.geometry.triangle_shading = shading_.data();
  view_.geometry.nodes = nodes_.data();
  view_.geometry.primitives = primitives_.data();
  view_.materials = materials_.data();
  view_.material_count = static_cast<int>(scene.materials.size());
  view_.camera = make_camera_frame(scene.camera, width, height);
  view_.textures = textures_.data();
  view_.lights.lights = light_buffer_.data();
  view_.lights.cdf = light_cdf_.data();
  view_.lights.count = static_cast<int>(lights_.lights.size());
  view_.lights.environment = lights_.environment;
  view_.lights.env =
      environment_view(scene.environment, environment_texels_.data(), environment_marginal_.data(),
                       environment_conditional_.data());
}

BvhStats SceneUpload::bvh_stats() const {
  BvhStats b;
  b.built = !acceleration_.nodes.empty();
  b.primitives = acceleration_.triangles.size() + acceleration_.objects.size();
  b.triangles = acceleration_.triangles.size();
  b.nodes = acceleration_.nodes.size();
  b.leaves = acceleration_.leaves;
  b.depth = acceleration_.depth;
  b.sah_cost = acceleration_.sah_cost;
  b.build_ms = acceleration_.build_ms;
  return b;
}

}  // namespace raystream
