#include "text_generator.h"

#include <algorithm>

#include "utf8_rules.h"

namespace utf8 {
namespace {

// splitmix64: small, fast and good enough for test data.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint32_t below(std::uint32_t bound) {
    return static_cast<std::uint32_t>((next() >> 32) * bound >> 32);
  }
};

// Non-ASCII characters sprinkled into ASCII-heavy text: Latin, Greek, Cyrillic (2 bytes),
// punctuation and currency (3 bytes), emoji (4 bytes).
constexpr std::uint32_t kSprinkles[] = {0xE9,   0xFC,    0xF1,    0xDF,   0x3B1,  0x3C9,
                                        0x431,  0x44F,   0x2014,  0x201C, 0x201D, 0x20AC,
                                        0x2026, 0x1F600, 0x1F680, 0x1F44D};

std::uint32_t next_char(Rng& rng, TextKind kind, int& word_left) {
  if (kind == TextKind::ascii_heavy) {
    if (word_left == 0) {
      word_left = 1 + static_cast<int>(rng.below(10));
      return rng.below(12) == 0 ? '\n' : ' ';
    }
    --word_left;
    if (rng.below(200) == 0) return kSprinkles[rng.below(sizeof(kSprinkles) / 4)];
    return 'a' + rng.below(26);
  }
  const std::uint32_t r = rng.below(100);
  if (r < 78) return 0x4E00 + rng.below(0x9FFF - 0x4E00 + 1);  // CJK ideographs
  if (r < 88) return 0x3041 + rng.below(0x3096 - 0x3041 + 1);  // hiragana
  if (r < 93) return r & 1 ? 0x3001 : 0x3002;                  // 、 。
  if (r < 99) return '0' + rng.below(10);
  return 0x1F300 + rng.below(0x200);  // emoji
}

}  // namespace

const char* name(TextKind kind) {
  return kind == TextKind::ascii_heavy ? "ascii" : "cjk";
}

std::vector<std::uint8_t> generate_text(std::size_t bytes, TextKind kind, std::uint64_t seed) {
  constexpr std::size_t kPiece = 1 << 20;
  std::vector<std::uint8_t> text(bytes);
  const std::size_t pieces = (bytes + kPiece - 1) / kPiece;
#pragma omp parallel for schedule(dynamic)
  for (std::size_t p = 0; p < pieces; ++p) {
    Rng rng{seed * 0x100000001B3ull + p};
    int word_left = 0;
    const std::size_t end = std::min(bytes, (p + 1) * kPiece);
    std::size_t i = p * kPiece;
    while (i < end) {
      const std::uint32_t c = next_char(rng, kind, word_left);
      const std::uint32_t length = encoded_length(c);
      if (i + length > end) {  // pad the piece's end with spaces
        while (i < end) text[i++] = ' ';
        break;
      }
      const std::uint32_t packed = encoded_bytes(c);
      for (std::uint32_t b = 0; b < length; ++b) text[i++] = (packed >> (8 * b)) & 0xFF;
    }
  }
  return text;
}

std::vector<std::uint32_t> random_code_points(std::size_t count, bool include_invalid,
                                              std::uint64_t seed) {
  Rng rng{seed};
  std::vector<std::uint32_t> out(count);
  for (auto& c : out) {
    const std::uint32_t kind = rng.below(16);
    if (include_invalid && kind == 0) {
      c = rng.below(2) ? 0xD800 + rng.below(0x800)
                       : 0x110000u + rng.below(0xFFFFFFFFu - 0x110000u + 1u);
      continue;
    }
    do {
      switch (kind & 3) {
        case 0:
          c = rng.below(0x80);
          break;
        case 1:
          c = 0x80 + rng.below(0x800 - 0x80);
          break;
        case 2:
          c = 0x800 + rng.below(0x10000 - 0x800);
          break;
        default:
          c = 0x10000 + rng.below(0x110000 - 0x10000);
          break;
      }
    } while (!is_scalar_value(c));
  }
  return out;
}

}  // namespace utf8
