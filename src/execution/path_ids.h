// Path-id arrays: a slot holds the index of a path's state. A stage that ends a path sets the top
// bit of its slot's id (the state index stays readable, for tests and debugging); compaction
// keeps the ids without it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/host_device.h"

namespace raystream {

inline constexpr std::uint32_t kDeadBit = 0x80000000u;
// The largest pool (and, in the frame schedule, image) the id array can address.
inline constexpr std::size_t kMaxPathSlots = kDeadBit;

RAYSTREAM_HD inline bool is_live_id(std::uint32_t id) {
  return (id & kDeadBit) == 0u;
}

// Whether a path id is live: the predicate of compaction.
struct IsLivePath {
  RAYSTREAM_HD bool operator()(std::uint32_t id) const { return is_live_id(id); }
};

}  // namespace raystream
