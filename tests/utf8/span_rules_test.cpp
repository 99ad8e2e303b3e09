// The GPU threads' rules (utf8_rules.h) run on the CPU: decoding span by span, as the kernels do,
// must equal the CPU reference, whatever the data and wherever sequences cross span boundaries.
#include <gtest/gtest.h>

#include <algorithm>

#include "text_generator.h"
#include "utf8_cpu.h"
#include "utf8_rules.h"
#include "utf8_test_inputs.h"

namespace utf8 {
namespace {

// What load_window gives the thread owning [p, p + 16).
ByteWindow window_at(const std::vector<std::uint8_t>& in, std::size_t p) {
  ByteWindow w;
  for (int i = 0; i < 6; ++i) {
    std::uint32_t word = 0;
    for (int b = 0; b < 4; ++b) {
      const long long q = static_cast<long long>(p) - 4 + 4 * i + b;
      if (q >= 0 && q < static_cast<long long>(in.size())) word |= std::uint32_t(in[q]) << (8 * b);
    }
    w.word[i] = word;
  }
  return w;
}

// The kernels' decode, one span after the other.
cpu::Decoded decode_by_spans(const std::vector<std::uint8_t>& in) {
  cpu::Decoded d;
  for (std::size_t p = 0; p < in.size(); p += kSpanBytes) {
    const ByteWindow w = window_at(in, p);
    const int own = static_cast<int>(std::min<std::size_t>(kSpanBytes, in.size() - p));
    const SpanMasks m = classify_span(w, own);
    EXPECT_EQ(m.invalid & ~m.starts, 0u) << "an invalid bit without a start at " << p;
    EXPECT_EQ(m.starts >> own, 0u) << "a start past the input at " << p;
    int expected_j = 0;
    emit_span(w, m.starts, [&](int j, std::uint32_t value) {
      EXPECT_EQ(j, expected_j++);
      d.code_points.push_back(value);
    });
    EXPECT_EQ(expected_j, __builtin_popcount(m.starts));
    if (m.invalid && d.first_invalid == cpu::kNone) d.first_invalid = p + __builtin_ctz(m.invalid);
  }
  return d;
}

void expect_matches_reference(const std::vector<std::uint8_t>& in, const char* what) {
  const cpu::Decoded expected = cpu::decode(in.data(), in.size());
  const cpu::Decoded actual = decode_by_spans(in);
  ASSERT_EQ(expected.code_points.size(), actual.code_points.size()) << what;
  for (std::size_t i = 0; i < expected.code_points.size(); ++i) {
    ASSERT_EQ(expected.code_points[i], actual.code_points[i]) << what << " at code point " << i;
  }
  ASSERT_EQ(expected.first_invalid, actual.first_invalid) << what;
}

TEST(Utf8SpanRules, MalformedCasesAtEveryPhaseOfASpan) {
  // Shift each case by 0..19 ASCII bytes so its sequences cross span boundaries at every offset.
  for (const auto& c : test::malformed_cases()) {
    for (int shift = 0; shift < 20; ++shift) {
      std::vector<std::uint8_t> in(shift, 'x');
      in.insert(in.end(), c.input.begin(), c.input.end());
      expect_matches_reference(in, c.name);
      if (HasFatalFailure()) return;
    }
    const cpu::Decoded d = decode_by_spans(c.input);
    EXPECT_EQ(d.code_points, c.expected) << c.name;
    EXPECT_EQ(d.first_invalid, c.first_invalid) << c.name;
  }
}

TEST(Utf8SpanRules, EdgeByteStringsAcrossASpanBoundary) {
  // Every string of 1..4 edge bytes, placed to straddle the boundary at byte 16 in every way,
  // with a continuation-byte run before it (the look-back case) or ASCII.
  const auto& alphabet = test::edge_bytes();
  const std::size_t k = alphabet.size();
  for (int length = 1; length <= 4; ++length) {
    std::size_t total = 1;
    for (int i = 0; i < length; ++i) total *= k;
    for (std::size_t index = 0; index < total; ++index) {
      std::vector<std::uint8_t> s(length);
      std::size_t rest = index;
      for (int i = 0; i < length; ++i, rest /= k) s[i] = alphabet[rest % k];
      for (int start = 16 - length; start <= 16; ++start) {
        for (std::uint8_t filler : {std::uint8_t('a'), std::uint8_t(0x80)}) {
          std::vector<std::uint8_t> in(start, filler);
          in.insert(in.end(), s.begin(), s.end());
          in.push_back(0xBF);  // a continuation after the string
          in.insert(in.end(), 5, 'z');
          expect_matches_reference(in, "edge string");
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(Utf8SpanRules, RandomBytesOfManySizes) {
  for (std::size_t n = 0; n < 80; ++n) {
    expect_matches_reference(test::biased_random_bytes(n, n + 1), "small random");
    if (HasFatalFailure()) return;
  }
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    expect_matches_reference(test::biased_random_bytes(100000 + seed * 13, seed), "random");
    if (HasFatalFailure()) return;
  }
}

TEST(Utf8SpanRules, RealTextAndGeneratedText) {
  expect_matches_reference(test::read_file(std::string(UTF8_TEST_DATA) + "/scripts.txt"),
                           "scripts.txt");
  expect_matches_reference(generate_text(300001, TextKind::cjk_heavy, 5), "cjk");
  expect_matches_reference(generate_text(300001, TextKind::ascii_heavy, 5), "ascii");
}

TEST(Utf8SpanRules, TopBitsMaskFindsContinuationsAndLeadsInEveryByte) {
  // Every byte value in every position of a word, next to every kind of neighbour.
  for (std::uint32_t v = 0; v < 256; ++v) {
    for (std::uint32_t other : {0x00u, 0x41u, 0x80u, 0xBFu, 0xC0u, 0xFFu}) {
      for (int at = 0; at < 4; ++at) {
        std::uint32_t x = 0;
        for (int b = 0; b < 4; ++b) x |= (b == at ? v : other) << (8 * b);
        std::uint32_t want_cont = 0, want_lead = 0;
        for (int b = 0; b < 4; ++b) {
          const std::uint32_t byte = (x >> (8 * b)) & 0xFF;
          if ((byte & 0xC0) == 0x80) want_cont |= 1u << b;
          if ((byte & 0xC0) == 0xC0) want_lead |= 1u << b;
        }
        ASSERT_EQ(top_bits_mask(x, 0x80808080u), want_cont) << std::hex << x;
        ASSERT_EQ(top_bits_mask(x, 0xC0C0C0C0u), want_lead) << std::hex << x;
      }
    }
  }
}

TEST(Utf8SpanRules, FourBytesAtReadsEveryOffsetOfTheWindow) {
  ByteWindow w;
  for (int i = 0; i < 6; ++i) {
    w.word[i] = 0;
    for (int b = 0; b < 4; ++b) w.word[i] |= std::uint32_t(4 * i + b + 1) << (8 * b);
  }
  for (int k = -4; k <= 15; ++k) {
    std::uint32_t want = 0;
    for (int b = 0; b < 4; ++b) want |= w.byte(k + b) << (8 * b);
    EXPECT_EQ(w.four_bytes_at(k), want) << k;
    EXPECT_EQ(w.byte(k), std::uint32_t(k + 5)) << k;
  }
}

TEST(Utf8SpanRules, OwnMaskCoversOnlyTheInput) {
  EXPECT_EQ(own_mask(0), 0u);
  EXPECT_EQ(own_mask(1), 1u);
  EXPECT_EQ(own_mask(15), 0x7FFFu);
  EXPECT_EQ(own_mask(16), 0xFFFFu);
}

TEST(Utf8SpanRules, EncodingRulesMatchTheReferenceForEveryCodePoint) {
  auto check = [](std::uint32_t c) {
    const auto e = cpu::encode(&c, 1);
    const std::uint32_t length = encoded_length(c);
    ASSERT_EQ(length, e.bytes.size()) << std::hex << c;
    const std::uint32_t packed = encoded_bytes(c);
    const std::uint32_t padded = padded_bytes(c);
    for (std::uint32_t b = 0; b < 4; ++b) {
      const std::uint32_t byte = (packed >> (8 * b)) & 0xFF;
      const std::uint32_t pad = (padded >> (8 * b)) & 0xFF;
      if (b < length) {
        ASSERT_EQ(byte, e.bytes[b]) << std::hex << c;
        ASSERT_EQ(pad, e.bytes[b]) << std::hex << c;
      } else {
        ASSERT_EQ(byte, 0u) << std::hex << c;
        ASSERT_EQ(pad, 0xFFu) << std::hex << c;
      }
    }
    ASSERT_EQ(is_scalar_value(c), e.first_invalid == cpu::kNone) << std::hex << c;
  };
  for (std::uint32_t c = 0; c <= 0x110000; ++c) {
    check(c);
    if (HasFatalFailure()) return;
  }
  for (std::uint32_t c : {0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu}) check(c);
}

}  // namespace
}  // namespace utf8
