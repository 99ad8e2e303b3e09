// GPU encode == the CPU reference (random code points with and without invalid values, tile
// edges, beyond 2^24, unaligned pointers) and the round trip decode(encode(x)) == x.
#include <gtest/gtest.h>

#include "gpu_test_support.h"
#include "text_generator.h"
#include "utf8_test_inputs.h"

namespace utf8::test {
namespace {

void expect_encode_matches_reference(Codec& codec, const std::vector<std::uint32_t>& in,
                                     const std::string& what, std::size_t in_offset = 0,
                                     std::size_t out_offset = 0) {
  const cpu::Encoded expected = cpu::encode(in.data(), in.size());
  const cpu::Encoded actual = gpu_encode(codec, in, in_offset, out_offset);
  expect_same_sequence(expected.bytes, actual.bytes, what);
  EXPECT_EQ(expected.first_invalid, actual.first_invalid) << what;
}

TEST_P(GpuCodecTest, EncodeRandomCodePointsAtTileEdges) {
  const std::size_t sizes[] = {0,    1,    2,    7,    8,    9,    255,  256,  257,
                               2047, 2048, 2049, 4095, 4096, 4097, 6143, 6145, (1u << 20) + 3};
  Codec codec({0, (1u << 20) + 3}, options());
  std::uint64_t seed = 11;
  for (std::size_t n : sizes) {
    for (bool invalid : {false, true}) {
      const auto cps = random_code_points(n, invalid, seed++);
      expect_encode_matches_reference(codec, cps, "n = " + std::to_string(n));
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(GpuCodecTest, EncodeBeyond2To24) {
  const std::size_t n = (1u << 24) + 2048 + 5;
  Codec codec({0, n}, options());
  expect_encode_matches_reference(codec, random_code_points(n, true, 5), "beyond 2^24");
}

TEST_P(GpuCodecTest, EncodeInvalidCodePointsAsReplacement) {
  Codec codec({0, 4096}, options());
  const std::vector<std::uint32_t> cps = {0x41, 0xD800, 0xDFFF, 0x110000, 0xFFFFFFFF, 0x10FFFF};
  const cpu::Encoded e = gpu_encode(codec, cps);
  EXPECT_EQ(e.first_invalid, 1u);
  EXPECT_EQ(e.bytes, bytes({0x41, 0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD, 0xEF, 0xBF, 0xBD, 0xEF, 0xBF,
                            0xBD, 0xF4, 0x8F, 0xBF, 0xBF}));
  // The first invalid one is found wherever it is.
  std::vector<std::uint32_t> valid(4000, 0x4E2D);
  for (std::size_t at : {std::size_t(0), std::size_t(7), std::size_t(8), std::size_t(2047),
                         std::size_t(2048), std::size_t(3999)}) {
    auto bad = valid;
    bad[at] = 0xDC00;
    if (at + 1 < bad.size()) bad[at + 1] = 0x7FFFFFFF;
    EXPECT_EQ(gpu_encode(codec, bad).first_invalid, at);
  }
}

TEST_P(GpuCodecTest, EncodeUnalignedInputAndOutput) {
  Codec codec({0, 50000}, options());
  const auto cps = random_code_points(49999, true, 8);
  for (std::size_t in_offset : {0u, 1u, 2u, 3u}) {
    for (std::size_t out_offset : {0u, 1u, 5u, 15u}) {
      expect_encode_matches_reference(codec, cps, "unaligned", in_offset, out_offset);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(GpuCodecTest, RoundTripIsTheIdentityOnValidInput) {
  const std::size_t n = (1u << 22) + 9;
  Codec codec({4 * n, n}, options());
  const auto cps = random_code_points(n, false, 21);
  const cpu::Encoded e = gpu_encode(codec, cps);
  EXPECT_EQ(e.first_invalid, cpu::kNone);
  const cpu::Decoded d = gpu_decode(codec, e.bytes);
  EXPECT_EQ(d.first_invalid, cpu::kNone);
  expect_same_sequence(cps, d.code_points, "code points -> UTF-8 -> code points");

  for (TextKind kind : {TextKind::ascii_heavy, TextKind::cjk_heavy}) {
    const auto text = generate_text(3u << 20, kind, 4);
    const cpu::Decoded td = gpu_decode(codec, text);
    const cpu::Encoded te = gpu_encode(codec, td.code_points);
    expect_same_sequence(text, te.bytes, std::string("text round trip ") + name(kind));
  }
  const auto sample = read_file(std::string(UTF8_TEST_DATA) + "/scripts.txt");
  expect_same_sequence(sample, gpu_encode(codec, gpu_decode(codec, sample).code_points).bytes,
                       "scripts.txt round trip");
}

}  // namespace
}  // namespace utf8::test
