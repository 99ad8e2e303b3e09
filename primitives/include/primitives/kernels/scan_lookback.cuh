// The look-back scan's kernel (host side: device/dispatch_scan.cuh): block b scans tile b with
// agent::AgentScan (agent/agent_scan.cuh, which describes the algorithm).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "primitives/agent/agent_scan.cuh"
#include "primitives/agent/tile_lookback.cuh"
#include "primitives/tuning.h"

namespace prim::detail::lookback {

// Held to tuning::lookback_max_registers<T>() registers (agent/agent_scan.cuh says why).
template <bool Inclusive, int ITEMS, int VEC, class T, class Op, class Status>
__global__ void __maxnreg__(tuning::lookback_max_registers<T>())
    scan_kernel(const T* in, T* out, std::size_t n, T identity, Op op, Status status, bool aligned,
                agent::LookbackSchedule schedule) {
  using Agent = agent::AgentScan<Inclusive, ITEMS, VEC, T, Op, Status>;
  __shared__ typename Agent::TempStorage storage;
  __shared__ typename Agent::ParkStorage parked;
  Agent(storage, parked, in, out, n, identity, op, status, schedule).consume_tile(aligned);
}

}  // namespace prim::detail::lookback
