// Errors of the primitives library: every failure is a prim::Error naming the call and the cause.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace prim {

// Thrown for bad arguments (naming the function and the argument) and for failed CUDA calls
// (naming the call, the file and the line).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// Throws prim::Error when `status` is not cudaSuccess; `expr` is the failing call's text.
void check_cuda(cudaError_t status, const char* expr, const char* file, int line);

// Throws prim::Error "<function>: <message>" when `condition` is false. The message is a literal,
// or a callable that builds it and runs only when the check fails: checks run on every call, and
// a passing one costs no string construction.
//
//   require(n <= capacity, function, [&] { return "n = " + std::to_string(n) + " is too big"; });
inline void require(bool condition, const char* function, const char* message) {
  if (!condition) throw Error(std::string(function) + ": " + message);
}
template <class MessageOf, class = std::enable_if_t<std::is_invocable_v<MessageOf>>>
void require(bool condition, const char* function, MessageOf message_of) {
  if (!condition) throw Error(std::string(function) + ": " + message_of());
}

}  // namespace prim

// Checks a CUDA runtime call: PRIM_CUDA_CHECK(cudaMemcpyAsync(...));
#define PRIM_CUDA_CHECK(call) ::prim::check_cuda((call), #call, __FILE__, __LINE__)
// Checks the launch just made (configuration errors); asynchronous faults surface at the next
// synchronizing call, which is itself checked.
#define PRIM_LAUNCH_CHECK(kernel_name) \
  ::prim::check_cuda(cudaGetLastError(), "launch of " kernel_name, __FILE__, __LINE__)
