// An item count that stays on the device: the primitives that take DeviceItems{d_n, max_n} work on
// the first min(*d_n, max_n) items, reading *d_n inside their kernels (the count a previous call
// wrote, for one), with grids and workspaces sized for max_n.
#pragma once

#include <cstddef>

namespace prim {

struct DeviceItems {
  const std::size_t* d_n = nullptr;
  std::size_t max_n = 0;
};

}  // namespace prim
