// RAYSTREAM_HD marks per-path math that runs in CUDA kernels and in the CPU executor alike.
// Under a plain C++ compiler (host-only tests) it expands to nothing.
#pragma once

#if defined(__CUDACC__)
#define RAYSTREAM_HD __host__ __device__
#else
#define RAYSTREAM_HD
#endif

// RAYSTREAM_INLINE marks the large per-hit functions a kernel calls with references to its
// parameters (the scene, the film): left to the inliner, a function past its size limit becomes a
// call, and the kernel then copies every parameter it passes by reference into local memory, per
// thread, before the call (a 950-byte stack frame in each shade kernel).
#if defined(__CUDACC__)
#define RAYSTREAM_INLINE __forceinline__
#else
#define RAYSTREAM_INLINE inline
#endif
