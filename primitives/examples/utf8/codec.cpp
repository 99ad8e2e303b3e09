#include <algorithm>
#include <cstddef>
#include <string>

#include "primitives/error.h"
#include "utf8_gpu.h"
#include "utf8_kernels.h"

namespace utf8 {

using detail::DeviceResult;
static_assert(offsetof(DeviceResult, count) == 0, "compact_if writes the count at offset 0");

const char* name(Method method) {
  return method == Method::tiled ? "tiled" : "compact";
}

Method parse_method(const char* text) {
  const std::string t = text ? text : "";
  if (t == "tiled") return Method::tiled;
  if (t == "compact") return Method::compact;
  throw prim::Error("unknown method '" + t + "' (valid: tiled, compact)");
}

Codec::Codec(const Capacity& capacity, const Options& options)
    : capacity_(capacity), options_(options) {
  prim::require(capacity.utf8_bytes <= kMaxUtf8Bytes, "utf8::Codec", [&] {
    return "capacity.utf8_bytes = " + std::to_string(capacity.utf8_bytes) + " exceeds 2^32 - 1";
  });
  prim::require(capacity.code_points <= kMaxCodePoints, "utf8::Codec", [&] {
    return "capacity.code_points = " + std::to_string(capacity.code_points) + " exceeds 2^30 - 1";
  });
  // One size array serves both directions; the scan runs over tiles + 1 entries.
  const std::size_t sizes = std::max(detail::decode_tiles(capacity.utf8_bytes),
                                     detail::encode_tiles(capacity.code_points)) +
                            1;
  std::size_t library_bytes = detail::scan_sizes_workspace_bytes(sizes, options.scan);
  std::size_t staging_bytes = 0;
  if (options.decode_method == Method::compact && capacity.utf8_bytes > 0) {
    library_bytes = std::max(library_bytes, detail::compact_code_points_workspace_bytes(
                                                capacity.utf8_bytes, options.compact));
    staging_bytes = std::max(staging_bytes, 4 * capacity.utf8_bytes);
  }
  if (options.encode_method == Method::compact && capacity.code_points > 0) {
    library_bytes = std::max(library_bytes, detail::compact_bytes_workspace_bytes(
                                                4 * capacity.code_points, options.compact));
    staging_bytes = std::max(staging_bytes, 4 * capacity.code_points);
  }
  workspace_ = prim::Workspace(library_bytes);

  prim::WorkspaceCarver sizer;
  sizer.take<std::uint32_t>(sizes);
  sizer.take<std::uint8_t>(staging_bytes);
  sizer.take<DeviceResult>(1);
  buffers_ = prim::Workspace(sizer.used());
  prim::WorkspaceCarver carver(buffers_.data());
  tile_sizes_ = carver.take<std::uint32_t>(sizes);
  staging_ = carver.take<std::uint8_t>(staging_bytes);
  result_ = carver.take<DeviceResult>(1);
}

Codec::~Codec() = default;

void Codec::reset_result(cudaStream_t stream) {
  PRIM_CUDA_CHECK(cudaMemsetAsync(result_, 0, sizeof(std::size_t), stream));
  PRIM_CUDA_CHECK(
      cudaMemsetAsync(&result_->first_invalid, 0xFF, sizeof(unsigned long long), stream));
}

namespace {
void require_input(const char* function, const void* d_in, std::size_t n, std::size_t capacity) {
  prim::require(n <= capacity, function, [&] {
    return "n = " + std::to_string(n) + " exceeds the codec's capacity of " +
           std::to_string(capacity);
  });
  if (n > 0) prim::require(d_in != nullptr, function, "d_in is null with n > 0");
}
}  // namespace

void Codec::decode(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_out,
                   cudaStream_t stream) {
  const char* function = "utf8::Codec::decode";
  require_input(function, d_in, n, capacity_.utf8_bytes);
  if (n > 0) {
    prim::require(d_out != nullptr, function, "d_out is null with n > 0");
    prim::require(reinterpret_cast<std::uintptr_t>(d_out) % 4 == 0, function,
                  "d_out is not 4-byte aligned");
  }
  reset_result(stream);
  if (n == 0) return;
  if (options_.decode_method == Method::tiled) {
    detail::launch_decode_count(d_in, n, tile_sizes_, result_, stream);
    detail::scan_sizes(tile_sizes_, detail::decode_tiles(n) + 1, workspace_, stream, options_.scan);
    detail::launch_decode_write(d_in, n, tile_sizes_, d_out, result_, stream);
  } else {
    auto* marked = static_cast<std::uint32_t*>(staging_);
    detail::launch_decode_mark(d_in, n, marked, result_, stream);
    detail::compact_code_points(marked, n, d_out, &result_->count, workspace_, stream,
                                options_.compact);
  }
}

void Codec::encode(const std::uint32_t* d_in, std::size_t n, std::uint8_t* d_out,
                   cudaStream_t stream) {
  const char* function = "utf8::Codec::encode";
  require_input(function, d_in, n, capacity_.code_points);
  if (n > 0) {
    prim::require(d_out != nullptr, function, "d_out is null with n > 0");
    prim::require(reinterpret_cast<std::uintptr_t>(d_in) % 4 == 0, function,
                  "d_in is not 4-byte aligned");
  }
  reset_result(stream);
  if (n == 0) return;
  if (options_.encode_method == Method::tiled) {
    detail::launch_encode_count(d_in, n, tile_sizes_, result_, stream);
    detail::scan_sizes(tile_sizes_, detail::encode_tiles(n) + 1, workspace_, stream, options_.scan);
    detail::launch_encode_write(d_in, n, tile_sizes_, d_out, result_, stream);
  } else {
    auto* padded = static_cast<std::uint32_t*>(staging_);
    detail::launch_encode_pad(d_in, n, padded, result_, stream);
    detail::compact_bytes(reinterpret_cast<const std::uint8_t*>(padded), 4 * n, d_out,
                          &result_->count, workspace_, stream, options_.compact);
  }
}

void Codec::validate(const std::uint8_t* d_in, std::size_t n, cudaStream_t stream) {
  require_input("utf8::Codec::validate", d_in, n, capacity_.utf8_bytes);
  reset_result(stream);
  if (n > 0) detail::launch_decode_count(d_in, n, tile_sizes_, result_, stream);
}

Result Codec::result(cudaStream_t stream) {
  DeviceResult host{};
  PRIM_CUDA_CHECK(
      cudaMemcpyAsync(&host, result_, sizeof(DeviceResult), cudaMemcpyDeviceToHost, stream));
  PRIM_CUDA_CHECK(cudaStreamSynchronize(stream));
  Result r;
  r.count = host.count;
  r.first_invalid =
      host.first_invalid == ~0ull ? kNone : static_cast<std::size_t>(host.first_invalid);
  return r;
}

}  // namespace utf8
