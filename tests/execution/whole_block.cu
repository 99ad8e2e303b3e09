// A stage body that reserves slots (reserve_slots) runs under the block launchers, which hand it
// the WholeBlock it needs. Compiled as is, this file must build; with RAYSTREAM_MISUSE_EARLY_EXIT
// it also launches the body with parallel_for (whose threads past the end return early) and must
// not, and with RAYSTREAM_MISUSE_BLOCK_SIZE it asks for a BlockReserve of 100 threads a block and
// must not either (tests/execution/CMakeLists.txt checks the compiler's message).
#include <cstddef>

#include "execution/executor.h"
#include "execution/parallel_for.cuh"
#include "execution/reserve_slots.cuh"
#include "primitives/block/block_reserve.cuh"

namespace raystream {

struct ReservingBody {
  using TempStorage = ReserveStorage;
  std::size_t* count;

  RAYSTREAM_HD void operator()(std::size_t, bool valid, WholeBlock<ReserveStorage> block) const {
    std::size_t slot = 0, unused = 0;
    reserve_slots(block, PrimitivesBackend::own, valid, count, slot, false, nullptr, unused);
  }
#if defined(RAYSTREAM_MISUSE_EARLY_EXIT)
  RAYSTREAM_HD void operator()(std::size_t i) const {
    ReserveStorage storage;
    (*this)(i, true, WholeBlock<ReserveStorage>(&storage));
  }
#endif
};

void launch_reserving_body(const Executor& ex, std::size_t n, std::size_t* count) {
  parallel_for_blocks(ex, "reserving body", n, ReservingBody{count});
#if defined(RAYSTREAM_MISUSE_EARLY_EXIT)
  parallel_for(ex, "reserving body", n, ReservingBody{count});
#endif
}

#if defined(RAYSTREAM_MISUSE_BLOCK_SIZE)
__global__ void odd_block(unsigned long long* counter) {
  using Reserve = prim::block::BlockReserve<100>;
  __shared__ Reserve::TempStorage storage;
  const bool keep[1] = {true};
  unsigned long long* const counters[1] = {counter};
  unsigned long long index[1];
  Reserve(storage).reserve(keep, counters, index);
}
#endif

}  // namespace raystream
