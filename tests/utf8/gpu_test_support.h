// Helpers of the GPU tests of the UTF-8 example: running the codec on host data (in the example's
// utf8::DeviceBuffer), and the codec configurations every test runs under.
#pragma once

#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "device_buffer.h"
#include "primitives/error.h"
#include "utf8_cpu.h"
#include "utf8_gpu.h"

namespace utf8::test {

// A named codec configuration: the method and the primitives' variants under it.
struct CodecConfig {
  std::string name;
  Options options;
};

inline std::vector<CodecConfig> codec_configs() {
  std::vector<CodecConfig> configs;
  Options tiled;  // the library's default scan (lookback)
  configs.push_back({"tiled_default_scan", tiled});
  Options tiled_blocked;
  tiled_blocked.scan.algorithm = prim::classic::ScanAlgorithm::blocked_blelloch;
  configs.push_back({"tiled_blocked_blelloch", tiled_blocked});
  Options compact;  // the library's default compaction (fused)
  compact.decode_method = compact.encode_method = Method::compact;
  configs.push_back({"compact_default", compact});
  Options compact_scan_scatter = compact;
  compact_scan_scatter.compact.algorithm = prim::classic::CompactAlgorithm::scan_scatter;
  compact_scan_scatter.compact.scan.algorithm = prim::classic::ScanAlgorithm::blocked_blelloch;
  compact_scan_scatter.scan.algorithm = prim::classic::ScanAlgorithm::blocked_blelloch;
  configs.push_back({"compact_scan_scatter_blocked_blelloch", compact_scan_scatter});
  return configs;
}

// Runs the codec on host data. in_offset / out_offset shift the device pointers (in bytes for
// UTF-8, in elements for UTF-32) to exercise unaligned inputs and outputs.
inline cpu::Decoded gpu_decode(Codec& codec, const std::vector<std::uint8_t>& in,
                               std::size_t in_offset = 0, std::size_t out_offset = 0) {
  const std::size_t n = in.size();
  const std::size_t out_elements = n + out_offset + 4;
  DeviceBuffer d_in(n + in_offset), d_out(4 * out_elements);
  auto* src = d_in.as<std::uint8_t>() + in_offset;
  auto* dst = d_out.as<std::uint32_t>() + out_offset;
  if (n) PRIM_CUDA_CHECK(cudaMemcpy(src, in.data(), n, cudaMemcpyHostToDevice));
  // Poison the output so that a missing or stray write shows.
  PRIM_CUDA_CHECK(cudaMemset(d_out.as<char>(), 0xAB, 4 * out_elements));
  codec.decode(src, n, dst);
  const Result r = codec.result();
  EXPECT_LE(r.count, n);
  std::vector<std::uint32_t> all(out_elements);
  PRIM_CUDA_CHECK(
      cudaMemcpy(all.data(), d_out.as<char>(), 4 * out_elements, cudaMemcpyDeviceToHost));
  cpu::Decoded d;
  const std::size_t count = std::min(r.count, n);
  d.code_points.assign(all.begin() + out_offset, all.begin() + out_offset + count);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i >= out_offset && i < out_offset + count) continue;
    if (all[i] != 0xABABABABu) {
      ADD_FAILURE() << "decode wrote outside its output, at element "
                    << static_cast<long long>(i) - static_cast<long long>(out_offset);
      break;
    }
  }
  d.first_invalid = r.first_invalid;
  return d;
}

inline std::size_t gpu_validate(Codec& codec, const std::vector<std::uint8_t>& in) {
  DeviceBuffer d_in(in.size());
  if (!in.empty())
    PRIM_CUDA_CHECK(cudaMemcpy(d_in.as<char>(), in.data(), in.size(), cudaMemcpyHostToDevice));
  codec.validate(d_in.as<std::uint8_t>(), in.size());
  return codec.result().first_invalid;
}

inline cpu::Encoded gpu_encode(Codec& codec, const std::vector<std::uint32_t>& in,
                               std::size_t in_offset = 0, std::size_t out_offset = 0) {
  const std::size_t n = in.size();
  const std::size_t out_bytes = 4 * n + out_offset + 16;
  DeviceBuffer d_in(4 * (n + in_offset)), d_out(out_bytes);
  auto* src = d_in.as<std::uint32_t>() + in_offset;
  auto* dst = d_out.as<std::uint8_t>() + out_offset;
  if (n) PRIM_CUDA_CHECK(cudaMemcpy(src, in.data(), 4 * n, cudaMemcpyHostToDevice));
  PRIM_CUDA_CHECK(cudaMemset(d_out.as<char>(), 0xAB, out_bytes));
  codec.encode(src, n, dst);
  const Result r = codec.result();
  EXPECT_LE(r.count, 4 * n);
  std::vector<std::uint8_t> all(out_bytes);
  PRIM_CUDA_CHECK(cudaMemcpy(all.data(), d_out.as<char>(), out_bytes, cudaMemcpyDeviceToHost));
  cpu::Encoded e;
  const std::size_t count = std::min(r.count, 4 * n);
  e.bytes.assign(all.begin() + out_offset, all.begin() + out_offset + count);
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (i >= out_offset && i < out_offset + count) continue;
    if (all[i] != 0xAB) {
      ADD_FAILURE() << "encode wrote outside its output, at byte "
                    << static_cast<long long>(i) - static_cast<long long>(out_offset);
      break;
    }
  }
  e.first_invalid = r.first_invalid;
  return e;
}

template <class T>
void expect_same_sequence(const std::vector<T>& expected, const std::vector<T>& actual,
                          const std::string& what) {
  ASSERT_EQ(expected.size(), actual.size()) << what;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(expected[i], actual[i]) << what << ": first difference at index " << i;
  }
}

// The fixture of the tests run under every configuration.
class GpuCodecTest : public ::testing::TestWithParam<CodecConfig> {
 protected:
  const Options& options() const { return GetParam().options; }
};

inline std::string config_name(const ::testing::TestParamInfo<CodecConfig>& info) {
  return info.param.name;
}

}  // namespace utf8::test
