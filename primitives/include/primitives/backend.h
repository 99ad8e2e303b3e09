// Compile-time backend selection, in the manner of Thrust's device_system.h.
//
//   -DPRIM_BACKEND=PRIM_BACKEND_OWN     prim::selected is prim::own (the default)
//   -DPRIM_BACKEND=PRIM_BACKEND_THRUST  prim::selected is prim::thrust_backend
//
// Both backends are always available under their own namespaces; this header only decides which
// one code that says prim::selected uses. CMake: primitives_select_backend(target own|thrust).
#pragma once

#define PRIM_BACKEND_OWN 1
#define PRIM_BACKEND_THRUST 2

#ifndef PRIM_BACKEND
#define PRIM_BACKEND PRIM_BACKEND_OWN
#endif

#if PRIM_BACKEND == PRIM_BACKEND_OWN
#include "primitives/compact.cuh"
#include "primitives/multisplit.cuh"
#include "primitives/radix_sort.cuh"
#include "primitives/scan.cuh"
#include "primitives/scatter.cuh"
namespace prim {
namespace selected = own;
inline constexpr const char* kBackendName = "own";
}  // namespace prim
#elif PRIM_BACKEND == PRIM_BACKEND_THRUST
#include "primitives/thrust/thrust_backend.cuh"
namespace prim {
namespace selected = thrust_backend;
inline constexpr const char* kBackendName = "thrust";
}  // namespace prim
#else
#error "PRIM_BACKEND must be PRIM_BACKEND_OWN or PRIM_BACKEND_THRUST"
#endif
