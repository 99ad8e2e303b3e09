// The kinds of shape and material, shared by the scene loader (which reads them from JSON) and the
// per-path code (which branches on them), so device headers need not include the loader's types.
#pragma once

namespace raystream {

enum class MaterialType { diffuse, emitting, specular, refractive, plastic };

enum class ShapeType { sphere, cube };

}  // namespace raystream
