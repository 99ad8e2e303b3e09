// The CPU reference decoder and encoder against glibc iconv on valid text, against hand-written
// outputs for every malformed form, and against the standard's definition of a maximal subpart
// (built from the encodings of all scalar values) on exhaustive short inputs and random bytes.
#include <gtest/gtest.h>
#include <iconv.h>

#include <cerrno>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

#include "text_generator.h"
#include "utf8_cpu.h"
#include "utf8_test_inputs.h"

namespace utf8 {
namespace {

std::vector<std::uint8_t> iconv_convert(const char* to, const char* from,
                                        const std::vector<std::uint8_t>& in) {
  iconv_t cd = iconv_open(to, from);
  if (cd == reinterpret_cast<iconv_t>(-1)) throw std::runtime_error("iconv_open failed");
  std::vector<std::uint8_t> out(4 * in.size() + 16);
  char* src = const_cast<char*>(reinterpret_cast<const char*>(in.data()));
  char* dst = reinterpret_cast<char*>(out.data());
  std::size_t src_left = in.size(), dst_left = out.size();
  const std::size_t r = iconv(cd, &src, &src_left, &dst, &dst_left);
  const int err = errno;
  iconv_close(cd);
  if (r == static_cast<std::size_t>(-1)) {
    throw std::runtime_error(std::string("iconv failed: ") + std::strerror(err));
  }
  out.resize(out.size() - dst_left);
  return out;
}

std::vector<std::uint32_t> iconv_decode(const std::vector<std::uint8_t>& text) {
  const auto raw = iconv_convert("UTF-32LE", "UTF-8", text);
  std::vector<std::uint32_t> out(raw.size() / 4);
  std::memcpy(out.data(), raw.data(), raw.size());
  return out;
}

std::vector<std::uint8_t> iconv_encode(const std::vector<std::uint32_t>& cps) {
  std::vector<std::uint8_t> raw(cps.size() * 4);
  std::memcpy(raw.data(), cps.data(), raw.size());
  return iconv_convert("UTF-8", "UTF-32LE", raw);
}

// The standard's definition, independent of Table 3-7's ranges: a maximal subpart is the longest
// prefix of a well-formed sequence; the well-formed sequences are the encodings of the scalar
// values, so collect all their prefixes.
class MaximalSubpartOracle {
 public:
  MaximalSubpartOracle() {
    for (std::uint32_t c = 0; c <= 0x10FFFF; ++c) {
      if (c >= 0xD800 && c <= 0xDFFF) continue;
      const auto enc = cpu::encode(&c, 1).bytes;
      std::uint64_t key = 0;
      for (std::size_t i = 0; i < enc.size(); ++i) {
        key |= std::uint64_t(enc[i]) << (8 * i);
        prefixes_.insert(key | (std::uint64_t(i + 1) << 32));
      }
      complete_[key | (std::uint64_t(enc.size()) << 32)] = c;
    }
  }
  cpu::Decoded decode(const std::vector<std::uint8_t>& in) const {
    cpu::Decoded d;
    std::size_t i = 0;
    while (i < in.size()) {
      std::size_t longest = 0;
      std::uint64_t key = 0, longest_key = 0;
      for (std::size_t len = 1; len <= 4 && i + len <= in.size(); ++len) {
        key |= std::uint64_t(in[i + len - 1]) << (8 * (len - 1));
        if (!prefixes_.count(key | (std::uint64_t(len) << 32))) break;
        longest = len;
        longest_key = key | (std::uint64_t(len) << 32);
      }
      const auto complete = longest > 0 ? complete_.find(longest_key) : complete_.end();
      if (complete != complete_.end()) {
        d.code_points.push_back(complete->second);  // the scalar value with this encoding
      } else {
        d.code_points.push_back(0xFFFD);
        if (d.first_invalid == cpu::kNone) d.first_invalid = i;
      }
      i += longest > 0 ? longest : 1;
    }
    return d;
  }

 private:
  std::unordered_set<std::uint64_t> prefixes_;
  std::unordered_map<std::uint64_t, std::uint32_t> complete_;
};

const MaximalSubpartOracle& oracle() {
  static const MaximalSubpartOracle o;
  return o;
}

void expect_same(const cpu::Decoded& expected, const cpu::Decoded& actual, const char* what) {
  ASSERT_EQ(expected.code_points.size(), actual.code_points.size()) << what;
  for (std::size_t i = 0; i < expected.code_points.size(); ++i) {
    ASSERT_EQ(expected.code_points[i], actual.code_points[i]) << what << " at code point " << i;
  }
  EXPECT_EQ(expected.first_invalid, actual.first_invalid) << what;
}

TEST(Utf8CpuReference, MalformedCasesGiveOneReplacementPerMaximalSubpart) {
  for (const auto& c : test::malformed_cases()) {
    SCOPED_TRACE(c.name);
    const auto d = cpu::decode(c.input.data(), c.input.size());
    EXPECT_EQ(d.code_points, c.expected);
    EXPECT_EQ(d.first_invalid, c.first_invalid);
    EXPECT_EQ(cpu::first_invalid(c.input.data(), c.input.size()), c.first_invalid);
    const auto p = cpu::decode_parallel(c.input.data(), c.input.size());
    EXPECT_EQ(p.code_points, c.expected);
    EXPECT_EQ(p.first_invalid, c.first_invalid);
    const auto o = oracle().decode(c.input);
    EXPECT_EQ(o.code_points, c.expected) << "the hand-written case disagrees with the definition";
  }
}

TEST(Utf8CpuReference, SampleScriptsMatchIconv) {
  const auto lines = test::sample_lines();
  ASSERT_GE(lines.size(), 6u);
  for (const auto& line : lines) {
    SCOPED_TRACE(line);
    const auto text = test::bytes(line);
    const auto d = cpu::decode(text.data(), text.size());
    EXPECT_EQ(d.first_invalid, cpu::kNone);
    EXPECT_EQ(d.code_points, iconv_decode(text));
    const auto e = cpu::encode(d.code_points.data(), d.code_points.size());
    EXPECT_EQ(e.bytes, text);
    EXPECT_EQ(e.bytes, iconv_encode(d.code_points));
    EXPECT_EQ(e.first_invalid, cpu::kNone);
  }
  const auto whole = test::read_file(std::string(UTF8_TEST_DATA) + "/scripts.txt");
  const auto d = cpu::decode(whole.data(), whole.size());
  EXPECT_EQ(d.code_points, iconv_decode(whole));
  // Several scripts really are present: 2-, 3- and 4-byte sequences.
  std::size_t by_length[5] = {};
  for (std::uint32_t c : d.code_points)
    by_length[c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4]++;
  EXPECT_GT(by_length[2], 100u);
  EXPECT_GT(by_length[3], 50u);
  EXPECT_GT(by_length[4], 10u);
}

TEST(Utf8CpuReference, GeneratedTextMatchesIconv) {
  for (TextKind kind : {TextKind::ascii_heavy, TextKind::cjk_heavy}) {
    SCOPED_TRACE(name(kind));
    const auto text = generate_text((1 << 20) + 7, kind, 42);
    ASSERT_EQ(text.size(), (1u << 20) + 7);
    const auto d = cpu::decode(text.data(), text.size());
    EXPECT_EQ(d.first_invalid, cpu::kNone);
    EXPECT_EQ(d.code_points, iconv_decode(text));
    const auto p = cpu::decode_parallel(text.data(), text.size());
    EXPECT_EQ(p.code_points, d.code_points);
    const auto e = cpu::encode_parallel(d.code_points.data(), d.code_points.size());
    EXPECT_EQ(e.bytes, text);
  }
}

TEST(Utf8CpuReference, EveryScalarValueRoundTripsAndMatchesIconv) {
  std::vector<std::uint32_t> all;
  for (std::uint32_t c = 0; c <= 0x10FFFF; ++c) {
    if (c < 0xD800 || c > 0xDFFF) all.push_back(c);
  }
  const auto e = cpu::encode(all.data(), all.size());
  EXPECT_EQ(e.first_invalid, cpu::kNone);
  EXPECT_EQ(e.bytes, iconv_encode(all));
  const auto d = cpu::decode(e.bytes.data(), e.bytes.size());
  EXPECT_EQ(d.first_invalid, cpu::kNone);
  EXPECT_EQ(d.code_points, all);
}

TEST(Utf8CpuReference, RandomCodePointsRoundTrip) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto cps = random_code_points(100000, false, seed);
    const auto e = cpu::encode(cps.data(), cps.size());
    ASSERT_EQ(e.first_invalid, cpu::kNone);
    EXPECT_EQ(e.bytes, iconv_encode(cps));
    const auto d = cpu::decode(e.bytes.data(), e.bytes.size());
    EXPECT_EQ(d.first_invalid, cpu::kNone);
    EXPECT_EQ(d.code_points, cps);
  }
}

TEST(Utf8CpuReference, InvalidCodePointsEncodeAsReplacement) {
  const std::vector<std::uint32_t> cps = {0x41, 0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF, 0x10FFFF};
  const auto e = cpu::encode(cps.data(), cps.size());
  EXPECT_EQ(e.first_invalid, 1u);
  EXPECT_EQ(e.bytes, test::bytes({0x41, 0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD, 0xEF,
                                  0xBF, 0xBD, 0xF4, 0x8F, 0xBF, 0xBF}));
  EXPECT_EQ(cpu::encode_parallel(cps.data(), cps.size()).bytes, e.bytes);
  EXPECT_EQ(cpu::encode(cps.data(), 0).bytes.size(), 0u);
}

TEST(Utf8CpuReference, AllOneAndTwoByteInputsMatchTheDefinition) {
  for (int a = 0; a < 256; ++a) {
    const auto one = test::bytes({a});
    expect_same(oracle().decode(one), cpu::decode(one.data(), 1), "one byte");
    for (int b = 0; b < 256; ++b) {
      const auto two = test::bytes({a, b});
      expect_same(oracle().decode(two), cpu::decode(two.data(), 2), "two bytes");
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Utf8CpuReference, EdgeByteStringsUpToFiveMatchTheDefinition) {
  const auto& alphabet = test::edge_bytes();
  const std::size_t k = alphabet.size();
  for (int length = 1; length <= 5; ++length) {
    std::size_t total = 1;
    for (int i = 0; i < length; ++i) total *= k;
    // Length 5 is sampled (every 7th string), the shorter ones are exhaustive.
    const std::size_t step = length == 5 ? 7 : 1;
    for (std::size_t index = 0; index < total; index += step) {
      std::vector<std::uint8_t> in(length);
      std::size_t rest = index;
      for (int i = 0; i < length; ++i, rest /= k) in[i] = alphabet[rest % k];
      expect_same(oracle().decode(in), cpu::decode(in.data(), in.size()), "edge string");
      if (HasFatalFailure()) return;
    }
  }
}

TEST(Utf8CpuReference, RandomBytesMatchTheDefinitionAndTheParallelDecoder) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto in = test::biased_random_bytes(seed * 997, seed);
    expect_same(oracle().decode(in), cpu::decode(in.data(), in.size()), "random bytes");
  }
  const auto big = test::biased_random_bytes((1 << 22) + 3, 99);
  const auto d = cpu::decode(big.data(), big.size());
  expect_same(d, cpu::decode_parallel(big.data(), big.size()), "parallel");
  EXPECT_EQ(cpu::first_invalid(big.data(), big.size()), d.first_invalid);
}

TEST(Utf8CpuReference, ParallelDecoderSplitsInsideSequences) {
  // Long runs of continuation bytes and 4-byte sequences: every chunk boundary falls inside one.
  std::vector<std::uint8_t> in;
  for (int i = 0; i < 300000; ++i) {
    if (i % 3 == 0) {
      for (int b : {0xF0, 0x9F, 0x98, 0x80}) in.push_back(b);
    } else {
      for (int b = 0; b < 5 + i % 4; ++b) in.push_back(0x80 + b);
    }
  }
  expect_same(cpu::decode(in.data(), in.size()), cpu::decode_parallel(in.data(), in.size()),
              "parallel");
}

}  // namespace
}  // namespace utf8
