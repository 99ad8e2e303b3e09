// The scene on the executor: the BVH is built on the host (geometry/scene_acceleration.h), then
// objects, triangles, BVH and materials are copied once into executor memory, and view() is what
// the stages read. The light table is built after the BVH (it records each emissive primitive's
// light in the primitive).
#pragma once

#include <cstdint>

#include "geometry/scene_acceleration.h"
#include "integrator/backend/buffer.h"
#include "integrator/path/path_state.h"
#include "integrator/render.h"
#include "lights/light_table.h"
#include "scene/scene.h"

namespace raystream {

class SceneUpload {
 public:
  SceneUpload(const Executor& ex, const Scene& scene, bool use_bvh, int width, int height,
              MemoryTally* tally);

  const SceneView& view() const { return view_; }
  BvhStats bvh_stats() const;

 private:
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
  std::vector<Buffer<glm::vec4>> texels_;  // one per texture
  Buffer<TextureView> textures_;
  LightTable lights_;
  Buffer<Light> light_buffer_;
  Buffer<float> light_cdf_;
  SceneView view_;
};

}  // namespace raystream
