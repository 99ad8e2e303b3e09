// main() for GPU test binaries: exits with ctest's skip code (77) when no CUDA device is present,
// so the test shows as skipped rather than passed or failed.
#include <gtest/gtest.h>

#include <cstdio>

#include "primitives/device_info.h"

int main(int argc, char** argv) {
  if (!prim::cuda_device_available()) {
    std::printf("no CUDA device: skipping %s\n", argc > 0 ? argv[0] : "GPU tests");
    return 77;
  }
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
