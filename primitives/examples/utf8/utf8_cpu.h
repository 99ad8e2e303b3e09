// CPU reference UTF-8 decoder and encoder: a plain sequential state machine written from the
// Unicode standard's Table 3-7, with U+FFFD for each maximal subpart of an ill-formed sequence
// (Table 3-8), and OpenMP versions that split the input where a unit surely starts.
//
//   decode("61 F1 80 80 E1 80 C2 62 80 63 80 BF 64")
//     -> 61 FFFD FFFD FFFD 62 FFFD 63 FFFD FFFD 64, first_invalid = 1
//
// UTF-32 is in host order; files are little-endian (the only hosts this runs on).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace utf8::cpu {

inline constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

struct Decoded {
  std::vector<std::uint32_t> code_points;
  std::size_t first_invalid = kNone;  // byte offset of the first ill-formed unit
};

struct Encoded {
  std::vector<std::uint8_t> bytes;
  std::size_t first_invalid = kNone;  // index of the first code point that is not a scalar value
};

// Decodes [begin, end) of `in` as if the input ended at `end`, into out (room for end - begin
// code points). Returns the number written; *first_invalid gets the offset (relative to `in`) of
// the first ill-formed unit, or kNone.
std::size_t decode_range(const std::uint8_t* in, std::size_t begin, std::size_t end,
                         std::uint32_t* out, std::size_t* first_invalid);

Decoded decode(const std::uint8_t* in, std::size_t n);
Decoded decode_parallel(const std::uint8_t* in, std::size_t n);  // OpenMP, same result
// OpenMP decode into out (room for n code points); returns the count.
std::size_t decode_parallel_into(const std::uint8_t* in, std::size_t n, std::uint32_t* out,
                                 std::size_t* first_invalid);

// Offset of the first ill-formed unit, or kNone.
std::size_t first_invalid(const std::uint8_t* in, std::size_t n);

Encoded encode(const std::uint32_t* in, std::size_t n);
Encoded encode_parallel(const std::uint32_t* in, std::size_t n);  // OpenMP, same result
// Encodes [begin, end) of `in` into out (room for 4 bytes each); returns the bytes written.
// *first_invalid gets the index (relative to `in`) of the first value that is not a scalar value.
std::size_t encode_range(const std::uint32_t* in, std::size_t begin, std::size_t end,
                         std::uint8_t* out, std::size_t* first_invalid);
// OpenMP encode into out (room for 4 * n bytes); returns the bytes written.
std::size_t encode_parallel_into(const std::uint32_t* in, std::size_t n, std::uint8_t* out,
                                 std::size_t* first_invalid);

// A boundary at or after `b` (at most 3 bytes later, or n) where a unit surely starts: a
// non-continuation byte, or one after three continuation bytes.
std::size_t unit_boundary(const std::uint8_t* in, std::size_t n, std::size_t b);

}  // namespace utf8::cpu
