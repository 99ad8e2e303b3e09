// UTF-8 <-> UTF-32 on the GPU with the primitives library.
//
//   utf8::Codec codec({max_bytes, max_code_points});      // all device memory, once
//   codec.decode(d_text, n, d_code_points, stream);       // queued, nothing synchronizes
//   utf8::Result r = codec.result(stream);                // waits; r.count, r.first_invalid
//
// Decode ("tiled", the default): tiles of 4096 bytes, 16 per thread.
//   1. count:  each thread finds the units (code points or maximal invalid subparts) starting in
//              its 16 bytes (utf8_rules.h); the block sums them into tile_counts[tile].
//   2. scan:   prim::classic::exclusive_scan of tile_counts gives each tile its output offset (an
//              extra 0 at the end yields the total).
//   3. write:  each block decodes its tile again, a block scan of the per-thread counts gives each
//              code point its index, and the block stages its code points in shared memory and
//              writes them out with 16-byte stores.
// Decode ("compact"): one pass writes, for every byte, its code point or a "no unit" mark;
//   prim::classic::compact_if keeps the code points.
// Encode ("tiled", the default): per code point its byte length; the block sums give tile sizes;
//   an exclusive scan gives tile offsets; a second pass writes the bytes at their offsets.
// Encode ("compact"): every code point becomes 4 bytes padded with FF; compact_if drops the FF.
//
// Bytes moved, for n UTF-8 bytes and c code points (1 GB of ASCII: n = c = 1e9):
//   decode tiled:   count reads n; write reads n, writes 4c               = 2n + 4c   (6 GB)
//   decode compact: mark reads n, writes 4n; compact_if reads 4n, writes 4c
//                   (plus whatever its own scan moves)                    >= 9n + 4c  (13 GB)
//   encode tiled:   count reads 4c; write reads 4c, writes n              = 8c + n    (9 GB)
//   encode compact: pad reads 4c, writes 4c; compact_if reads 4c, writes n
//                   (plus its own scan over 4c items)                     >= 12c + n  (13 GB)
// The scan of tile sizes moves 8 bytes per 4096 input bytes (or 2048 code points): nothing.
// So "tiled" is the default both ways; utf8_bench measures both.
//
// Invalid input never stops the work: ill-formed UTF-8 decodes to U+FFFD per maximal subpart and
// code points that are not scalar values encode as U+FFFD; the result reports the first offset
// so a caller that wants strict behaviour can refuse the output.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <limits>

#include "primitives/classic/variants.h"
#include "primitives/workspace.h"

namespace utf8 {
namespace detail {
struct DeviceResult;
}

enum class Method {
  tiled,    // count, scan of per-tile counts, write (default: fewest bytes moved)
  compact,  // per-item output with a "none" mark, then prim::classic::compact_if
};

struct Options {
  Method decode_method = Method::tiled;
  Method encode_method = Method::tiled;
  prim::classic::ScanConfig scan = {};        // the library's default: lookback
  prim::classic::CompactConfig compact = {};  // the library's default: fused
};

struct Capacity {
  std::size_t utf8_bytes = 0;   // largest decode / validate input, < 2^32
  std::size_t code_points = 0;  // largest encode input, < 2^30 (so 4 bytes each fit in 32 bits)
};

inline constexpr std::size_t kMaxUtf8Bytes = (std::size_t(1) << 32) - 1;
inline constexpr std::size_t kMaxCodePoints = (std::size_t(1) << 30) - 1;
inline constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

struct Result {
  std::size_t count = 0;              // code points (decode) or bytes (encode) written
  std::size_t first_invalid = kNone;  // byte offset (decode, validate) or code point index (encode)
};

const char* name(Method method);
Method parse_method(const char* text);  // throws prim::Error listing the valid names

class Codec {
 public:
  explicit Codec(const Capacity& capacity, const Options& options = {});
  ~Codec();
  Codec(const Codec&) = delete;
  Codec& operator=(const Codec&) = delete;

  // d_out has room for n code points (4-byte aligned). n == 0 is allowed.
  void decode(const std::uint8_t* d_in, std::size_t n, std::uint32_t* d_out,
              cudaStream_t stream = 0);
  // d_in is 4-byte aligned; d_out has room for 4 * n bytes.
  void encode(const std::uint32_t* d_in, std::size_t n, std::uint8_t* d_out,
              cudaStream_t stream = 0);
  // Finds the first ill-formed unit only (the count pass of decode).
  void validate(const std::uint8_t* d_in, std::size_t n, cudaStream_t stream = 0);

  // Waits for `stream` and returns what the last call found.
  Result result(cudaStream_t stream = 0);

  const Options& options() const { return options_; }
  // Device memory the codec holds (library workspace and its own buffers).
  std::size_t device_bytes() const { return workspace_.size() + buffers_.size(); }

 private:
  void reset_result(cudaStream_t stream);

  Capacity capacity_;
  Options options_;
  prim::Workspace workspace_;  // for the library's calls, sized once
  prim::Workspace buffers_;    // the codec's own: tile sizes, per-item staging, the result
  std::uint32_t* tile_sizes_ = nullptr;
  void* staging_ = nullptr;  // per-byte code points or padded bytes of the compact methods
  detail::DeviceResult* result_ = nullptr;
};

}  // namespace utf8
