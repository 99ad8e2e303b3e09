// Generated, valid UTF-8 text for tests and the benchmark: reproducible from a seed, made in
// parallel in 1 MiB pieces.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace utf8 {

enum class TextKind {
  ascii_heavy,  // English-like words; about 3% of the words hold a 2-, 3- or 4-byte character
  cjk_heavy,    // CJK ideographs and kana (3 bytes), some ASCII, punctuation and emoji
};

const char* name(TextKind kind);

// Exactly `bytes` bytes of well-formed UTF-8.
std::vector<std::uint8_t> generate_text(std::size_t bytes, TextKind kind, std::uint64_t seed);

// `count` random code points: scalar values from every encoded length, and, when
// `include_invalid`, about 1 in 16 surrogates or values above U+10FFFF.
std::vector<std::uint32_t> random_code_points(std::size_t count, bool include_invalid,
                                              std::uint64_t seed);

}  // namespace utf8
