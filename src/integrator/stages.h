// The stages of the wavefront loop. Each launcher runs its stage body over the slots of the
// path-id array with the executor's parallel_for (one file per stage).
//
// Slots past the live bound, and slots holding kDeadPath, are skipped. `ids` maps slots to path
// ids; the per-path state is indexed by path id.
#pragma once

#include <cstddef>
#include <cstdint>

#include "integrator/executor.h"
#include "integrator/path_state.h"

namespace raystream {

// Camera rays for every pixel: ids[i] = i, throughput 1, radiance 0, and *live_count = n.
void generate_camera_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                           std::uint32_t* ids, std::size_t n, std::size_t* live_count,
                           std::uint32_t frame, std::uint64_t seed);

// Closest hit of every live path. A path that escapes the scene ends (its slot becomes
// kDeadPath). When material_keys is not null it receives the hit's material for each slot, and
// dead_key for dead slots and slots past the bound (so a sort moves them to the end).
void intersect_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                     std::uint32_t* ids, LiveBound bound, std::uint16_t* material_keys,
                     std::uint16_t dead_key);

// Emission, BSDF sampling, throughput, Russian roulette. A path that hits an emitter, is absorbed
// or loses the roulette ends (its slot becomes kDeadPath).
void shade_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                 std::uint32_t* ids, LiveBound bound, std::uint32_t frame, int bounce,
                 std::uint64_t seed);

// *count += the number of slots in ids[0, n) that are not kDeadPath (used when compaction is off;
// *count must be zero beforehand).
void count_live_paths(const Executor& ex, const std::uint32_t* ids, std::size_t n,
                      std::size_t* count);

// film[p] += radiance[p] for every pixel (non-finite samples are dropped).
void accumulate_film(const Executor& ex, const PathState& paths, glm::vec3* film, std::size_t n);

}  // namespace raystream
