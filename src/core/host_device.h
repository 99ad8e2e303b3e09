// RAYSTREAM_HD marks per-path math that runs in CUDA kernels and in the CPU executor alike.
// Under a plain C++ compiler (host-only tests) it expands to nothing.
#pragma once

#if defined(__CUDACC__)
#define RAYSTREAM_HD __host__ __device__
#else
#define RAYSTREAM_HD
#endif
