// An item count that stays on the device, for the compaction calls of both backends.
//
//   prim::own::compact_if(d_in, d_out, prim::DeviceItems{d_live, max_n}, pred, d_count, ws, s);
//   prim::thrust_backend::compact_if(d_in, d_out, prim::DeviceItems{d_live, max_n}, pred, ...);
//
// The call works on the first min(*d_n, max_n) items, reading *d_n on the device (the count a
// previous call wrote, for one), so the host never waits for it. Buffers are sized for max_n;
// d_n must not alias the call's d_count.
#pragma once

#include <cstddef>

namespace prim {

// An item count that is read on the device: *d_n, at most max_n.
struct DeviceItems {
  const std::size_t* d_n = nullptr;
  std::size_t max_n = 0;
};

}  // namespace prim
