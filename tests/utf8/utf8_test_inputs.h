// Inputs shared by the CPU and GPU tests of the UTF-8 example: hand-written malformed cases with
// their expected output, sample text in several scripts, and random bytes biased toward the
// bytes where UTF-8 validation has edges.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "utf8_cpu.h"

namespace utf8::test {

inline std::vector<std::uint8_t> bytes(std::initializer_list<int> values) {
  std::vector<std::uint8_t> out;
  for (int v : values) out.push_back(static_cast<std::uint8_t>(v));
  return out;
}

inline std::vector<std::uint8_t> bytes(const std::string& s) {
  return std::vector<std::uint8_t>(s.begin(), s.end());
}

struct MalformedCase {
  const char* name;
  std::vector<std::uint8_t> input;
  std::vector<std::uint32_t> expected;
  std::size_t first_invalid;
};

constexpr std::uint32_t R = 0xFFFD;

// Expected outputs written by hand from the Unicode standard, ch. 3, Tables 3-7 and 3-8 and the
// examples after them.
inline std::vector<MalformedCase> malformed_cases() {
  const std::size_t none = cpu::kNone;
  return {
      {"table_3_8",
       bytes({0x61, 0xF1, 0x80, 0x80, 0xE1, 0x80, 0xC2, 0x62, 0x80, 0x63, 0x80, 0xBF, 0x64}),
       {0x61, R, R, R, 0x62, R, 0x63, R, R, 0x64},
       1},
      {"empty", {}, {}, none},
      {"overlong_2_byte_C0_AF", bytes({0xC0, 0xAF}), {R, R}, 0},
      {"overlong_C1_BF", bytes({0x41, 0xC1, 0xBF}), {0x41, R, R}, 1},
      {"overlong_3_byte_E0_80_AF", bytes({0xE0, 0x80, 0xAF}), {R, R, R}, 0},
      {"overlong_E0_9F_BF", bytes({0xE0, 0x9F, 0xBF}), {R, R, R}, 0},
      {"overlong_4_byte_F0_80_80_AF", bytes({0xF0, 0x80, 0x80, 0xAF}), {R, R, R, R}, 0},
      {"overlong_F0_8F_BF_BF", bytes({0xF0, 0x8F, 0xBF, 0xBF}), {R, R, R, R}, 0},
      {"surrogate_high_ED_A0_80", bytes({0xED, 0xA0, 0x80}), {R, R, R}, 0},
      {"surrogate_low_ED_BF_BF", bytes({0x7A, 0xED, 0xBF, 0xBF}), {0x7A, R, R, R}, 1},
      {"above_10FFFF_F4_90_80_80", bytes({0xF4, 0x90, 0x80, 0x80}), {R, R, R, R}, 0},
      {"lead_F5", bytes({0xF5, 0x80, 0x80, 0x80}), {R, R, R, R}, 0},
      {"five_byte_form_F8", bytes({0xF8, 0x88, 0x80, 0x80, 0x80}), {R, R, R, R, R}, 0},
      {"bytes_FE_FF", bytes({0xFE, 0xFF, 0x41}), {R, R, 0x41}, 0},
      {"stray_continuation_first", bytes({0x80, 0x41}), {R, 0x41}, 0},
      {"stray_continuations",
       bytes({0x41, 0x80, 0xBF, 0x8F, 0x90, 0xA0, 0x42}),
       {0x41, R, R, R, R, R, 0x42},
       1},
      {"continuation_after_complete_2_byte", bytes({0xC3, 0xA9, 0xA9}), {0xE9, R}, 2},
      {"continuation_after_complete_4_byte",
       bytes({0xF0, 0x9F, 0x98, 0x80, 0x80}),
       {0x1F600, R},
       4},
      {"truncated_2_byte_at_end", bytes({0x41, 0xC3}), {0x41, R}, 1},
      {"truncated_3_byte_at_end", bytes({0x41, 0xE2, 0x82}), {0x41, R}, 1},
      {"truncated_4_byte_at_end", bytes({0xF0, 0x9F, 0x98}), {R}, 0},
      {"truncated_lead_only_at_end", bytes({0x41, 0x42, 0xF0}), {0x41, 0x42, R}, 2},
      {"truncated_before_ascii", bytes({0xE2, 0x82, 0x41}), {R, 0x41}, 0},
      {"truncated_before_lead", bytes({0xC2, 0xE2, 0x82, 0xAC}), {R, 0x20AC}, 0},
      {"truncated_twice", bytes({0xE1, 0x80, 0xE1, 0x80, 0x80}), {R, 0x1000}, 0},
      {"unicode_example_non_shortest_forms",
       bytes({0xC0, 0xAF, 0xE0, 0x80, 0xBF, 0xF0, 0x81, 0x82, 0x41}),
       {R, R, R, R, R, R, R, R, 0x41},
       0},
      {"unicode_example_surrogates",
       bytes({0xED, 0xA0, 0x80, 0xED, 0xBF, 0xBF, 0xED, 0xAF, 0x41}),
       {R, R, R, R, R, R, R, R, 0x41},
       0},
      {"unicode_example_above_10FFFF",
       bytes({0xF4, 0x91, 0x92, 0x93, 0xFF, 0x41, 0x80, 0xBF, 0x42}),
       {R, R, R, R, R, 0x41, R, R, 0x42},
       0},
      {"unicode_example_truncated_sequences",
       bytes({0xE1, 0x80, 0xE2, 0xF0, 0x91, 0x92, 0xF1, 0xBF, 0x41}),
       {R, R, R, R, 0x41},
       0},
      {"edges_valid",
       bytes({0x00, 0x7F, 0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80, 0xED, 0x9F, 0xBF, 0xEE,
              0x80, 0x80, 0xEF, 0xBF, 0xBF, 0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF}),
       {0x00, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF},
       none},
  };
}

// Bytes where UTF-8 has edges: ASCII, the ends of the continuation sub-ranges, every kind of lead.
inline const std::vector<std::uint8_t>& edge_bytes() {
  static const std::vector<std::uint8_t> b = {0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                              0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
                                              0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF};
  return b;
}

// Random bytes: a third edge bytes, a third continuation bytes, a third pieces of well-formed
// sequences (whole or cut), so every maximal-subpart case occurs often.
inline std::vector<std::uint8_t> biased_random_bytes(std::size_t n, std::uint64_t seed) {
  std::uint64_t s = seed * 6364136223846793005ull + 1442695040888963407ull;
  auto next = [&s]() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(s >> 33);
  };
  static const std::uint32_t kPieces[] = {0xE9,  0x20AC, 0x1F600, 0x10FFFF, 0xD7FF, 0xE000,
                                          0x800, 0x7FF,  0x10000, 0xFFFD,   0x4E2D, 0x3B1};
  std::vector<std::uint8_t> out;
  out.reserve(n + 4);
  while (out.size() < n) {
    const std::uint32_t r = next() % 3;
    if (r == 0) {
      out.push_back(edge_bytes()[next() % edge_bytes().size()]);
    } else if (r == 1) {
      out.push_back(static_cast<std::uint8_t>(0x80 + next() % 64));
    } else {
      const std::uint32_t c = kPieces[next() % (sizeof(kPieces) / 4)];
      std::uint8_t enc[4];
      int len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
      if (len == 1) enc[0] = c;
      if (len == 2) enc[0] = 0xC0 | (c >> 6), enc[1] = 0x80 | (c & 0x3F);
      if (len == 3)
        enc[0] = 0xE0 | (c >> 12), enc[1] = 0x80 | ((c >> 6) & 0x3F), enc[2] = 0x80 | (c & 0x3F);
      if (len == 4) {
        enc[0] = 0xF0 | (c >> 18), enc[1] = 0x80 | ((c >> 12) & 0x3F);
        enc[2] = 0x80 | ((c >> 6) & 0x3F), enc[3] = 0x80 | (c & 0x3F);
      }
      const int keep = next() % 4 == 0 ? static_cast<int>(next() % len) + 1 : len;  // cut some
      for (int i = 0; i < keep; ++i) out.push_back(enc[i]);
    }
  }
  out.resize(n);
  return out;
}

inline std::vector<std::uint8_t> read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(f), {});
}

// The sample text: one line per script.
inline std::vector<std::string> sample_lines() {
  const auto all = read_file(std::string(UTF8_TEST_DATA) + "/scripts.txt");
  std::vector<std::string> lines(1);
  for (std::uint8_t b : all) {
    if (b == '\n') {
      lines.emplace_back();
    } else {
      lines.back().push_back(static_cast<char>(b));
    }
  }
  if (lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace utf8::test
