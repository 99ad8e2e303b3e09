// Counter-based random numbers: the stream of a path is a hash of (pixel, frame, bounce, seed),
// so the GPU and the CPU draw the same numbers whatever order the paths are processed in, and
// compaction or sorting does not change the image.
#pragma once

#include <cstdint>

#include "core/host_device.h"

namespace raystream {

// PCG hash (Jarzynski and Olano, "Hash Functions for GPU Rendering", 2020).
RAYSTREAM_HD inline std::uint32_t pcg_hash(std::uint32_t v) {
  const std::uint32_t state = v * 747796405u + 2891336453u;
  const std::uint32_t word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
  return (word >> 22u) ^ word;
}

class Rng {
 public:
  // `stream` separates uses within a frame: 0 for the camera ray, bounce + 1 for shading.
  RAYSTREAM_HD Rng(std::uint32_t pixel, std::uint32_t frame, std::uint32_t stream,
                   std::uint64_t seed) {
    std::uint32_t h = pcg_hash(static_cast<std::uint32_t>(seed) ^
                               pcg_hash(static_cast<std::uint32_t>(seed >> 32)));
    h = pcg_hash(h ^ frame);
    h = pcg_hash(h ^ stream);
    state_ = pcg_hash(h ^ pixel);
  }

  RAYSTREAM_HD std::uint32_t next_u32() {
    state_ = state_ * 747796405u + 2891336453u;  // PCG LCG step, RXS-M-XS output
    const std::uint32_t word = ((state_ >> ((state_ >> 28u) + 4u)) ^ state_) * 277803737u;
    return (word >> 22u) ^ word;
  }

  // Uniform in [0, 1): the top 24 bits scaled exactly into a float.
  RAYSTREAM_HD float next_float() { return static_cast<float>(next_u32() >> 8) * 0x1.0p-24f; }

 private:
  std::uint32_t state_;
};

}  // namespace raystream
