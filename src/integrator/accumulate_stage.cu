// Stage: add each pixel's radiance of this frame to the film.
#include "integrator/parallel_for.cuh"
#include "integrator/stages.h"

namespace raystream {

namespace {

// False for infinities and NaN (x - x is NaN for both); the build does not use fast math.
RAYSTREAM_HD inline bool is_finite(float x) {
  return x - x == 0.0f;
}

struct AccumulateBody {
  const glm::vec3* radiance;
  glm::vec3* film;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    const glm::vec3 l = radiance[i];
    // A non-finite sample would poison the pixel for good; drop it (none are expected).
    if (is_finite(l.x) && is_finite(l.y) && is_finite(l.z)) film[i] += l;
  }
};

}  // namespace

void accumulate_film(const Executor& ex, const PathState& paths, glm::vec3* film, std::size_t n) {
  parallel_for(ex, "accumulate stage", n, AccumulateBody{paths.radiance, film});
}

}  // namespace raystream
