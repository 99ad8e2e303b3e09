// The scene on the executor: objects, triangles, the BVH and materials in executor memory, and
// view() is what the stages read. The SAH BVH is built on the host and copied with the triangles
// in its leaf order; the LBVH is built on the executor from the triangles copied in the scene's
// order, which it then puts in leaf order there (geometry/lbvh_build.h). The light table is
// built on the host in the scene's order (it records each emissive primitive's light in the
// primitive).
#pragma once

#include <cstdint>
#include <vector>

#include "execution/buffer.h"
#include "execution/path_primitives.h"
#include "geometry/lbvh.h"
#include "geometry/scene_acceleration.h"
#include "integrator/api/render.h"
#include "integrator/path/path_state.h"
#include "integrator/texture_arrays.h"
#include "lights/light_table.h"
#include "materials/texture_storage.h"
#include "scene/scene.h"

namespace raystream {

// The scene's materials as the stages read them (make_material_data of each).
std::vector<MaterialData> scene_materials(const Scene& scene);
// The texture bindings the materials' parameters index (make_material_data's, in order).
std::vector<TextureBinding> scene_bindings(const Scene& scene);
// The scene's textures as the lookups store them, with their mips (`bindings`: the scene's, which
// say which images are read as data).
std::vector<TextureStorage> texture_storages(const Scene& scene,
                                             const std::vector<TextureBinding>& bindings);

// The acceleration structure a render uses.
enum class SceneBvh { none, sah, lbvh };

class SceneUpload {
 public:
  // `materials`: the scene's, as the stages read them (make_material_data of each). `primitives`
  // sorts the LBVH's codes (the executor's: a GPU backend's or the CPU's).
  SceneUpload(const Executor& ex, const Scene& scene, const std::vector<MaterialData>& materials,
              SceneBvh bvh, const PathPrimitives& primitives, int width, int height,
              MemoryTally* tally);

  const SceneView& view() const { return view_; }
  const BvhStats& bvh_stats() const { return bvh_stats_; }
  // prepare_ms, bvh_ms and upload_ms.
  const StartupStats& startup() const { return startup_; }
  const TextureStats& texture_stats() const { return texture_stats_; }

 private:
  // The constructor's steps.
  void prepare_on_host(const Scene& scene, const std::vector<MaterialData>& materials,
                       SceneBvh bvh);
  void upload_scene_data(const Executor& ex, const Scene& scene,
                         const std::vector<MaterialData>& materials, MemoryTally* tally);
  void upload_textures(const Executor& ex, MemoryTally* tally);
  void upload_sah_tree(const Executor& ex, MemoryTally* tally);
  void record_sah_stats();
  void upload_with_lbvh(const Executor& ex, const PathPrimitives& primitives, MemoryTally* tally);
  void set_executor_view(const Scene& scene, int width, int height);

  SceneAcceleration acceleration_;
  Buffer<SceneObject> objects_;
  Buffer<MaterialData> materials_;
  Buffer<TriangleGeometry> triangles_;
  Buffer<TriangleShading> shading_;
  Buffer<BvhNode> nodes_;
  Buffer<std::int32_t> primitives_;
  Buffer<glm::vec3> environment_texels_;
  Buffer<float> environment_marginal_;
  Buffer<float> environment_conditional_;
  std::vector<TextureStorage> storages_;       // on the host until uploaded
  std::vector<Buffer<unsigned char>> texels_;  // CPU executor: one per texture, every level
  TextureArrays texture_arrays_;               // GPU
  TextureStats texture_stats_;
  Buffer<TextureView> textures_;
  std::vector<TextureBinding> bindings_;
  Buffer<TextureBinding> binding_buffer_;
  Buffer<TriangleDetail> details_;
  LightTable lights_;
  Buffer<Light> light_buffer_;
#define RAYSTREAM_LIGHT_BUFFER(type, kind, array) Buffer<type> kind##_lights_;
  RAYSTREAM_LIGHTS(RAYSTREAM_LIGHT_BUFFER)  // each kind's shapes
#undef RAYSTREAM_LIGHT_BUFFER
  Buffer<float> light_cdf_;
  std::vector<LbvhBox> object_boxes_;  // lbvh: the objects' world boxes
  SceneView view_;
  BvhStats bvh_stats_;
  StartupStats startup_;
};

}  // namespace raystream
