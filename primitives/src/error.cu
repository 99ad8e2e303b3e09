#include "primitives/error.h"

namespace prim {

void check_cuda(cudaError_t status, const char* expr, const char* file, int line) {
  if (status == cudaSuccess) return;
  // Clear a sticky-free error so that the next call does not report it again.
  (void)cudaGetLastError();
  throw Error(std::string(expr) + " failed at " + file + ":" + std::to_string(line) + ": " +
              cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

}  // namespace prim
