// render() and primitives_backend() for the backend this library is compiled for (one copy
// per backend library; a binary links exactly one).
#include "execution/path_primitives.h"
#include "integrator/api/render.h"
#include "integrator/wavefront.h"

namespace raystream {

namespace {

const PathPrimitives& backend_primitives() {
#if defined(RAYSTREAM_PRIMITIVES_THRUST)  // set by src/CMakeLists.txt with PRIM_BACKEND
  return thrust_primitives::path_primitives();
#else
  return own_primitives::path_primitives();
#endif
}

}  // namespace

PrimitivesBackend primitives_backend() {
  return backend_primitives().backend();
}

RenderResult render(const Scene& scene, const RenderSettings& settings) {
  return render_wavefront(scene, settings, backend_primitives());
}

}  // namespace raystream
