// The storage of the path state: one Buffer per field of RAYSTREAM_PATH_FIELDS, allocated once
// per render in executor memory (device memory on the GPU, the heap on the CPU).
#pragma once

#include <cstddef>

#include "execution/buffer.h"
#include "integrator/path/path_state.h"

namespace raystream {

struct PathBuffers {
  PathBuffers(const Executor& ex, std::size_t n, MemoryTally* tally)
#define RAYSTREAM_PATH_ALLOCATE(type, name, member, what) name(ex, what, n, tally),
      : RAYSTREAM_PATH_FIELDS(RAYSTREAM_PATH_ALLOCATE) slots(n) {
  }
#undef RAYSTREAM_PATH_ALLOCATE

  PathState view() const {
    PathState p;
#define RAYSTREAM_PATH_VIEW(type, name, member, what) p.name = name.data();
    RAYSTREAM_PATH_FIELDS(RAYSTREAM_PATH_VIEW)
#undef RAYSTREAM_PATH_VIEW
    return p;
  }

#define RAYSTREAM_PATH_BUFFER(type, name, member, what) Buffer<type> name;
  RAYSTREAM_PATH_FIELDS(RAYSTREAM_PATH_BUFFER)
#undef RAYSTREAM_PATH_BUFFER
  std::size_t slots;
};

}  // namespace raystream
