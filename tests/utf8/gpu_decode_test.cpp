// GPU decode and validate == the CPU reference: malformed cases, random bytes at tile edges and
// beyond 2^24, real text, unaligned pointers, codec reuse, argument errors.
#include <gtest/gtest.h>

#include <algorithm>

#include "gpu_test_support.h"
#include "text_generator.h"
#include "utf8_test_inputs.h"

namespace utf8::test {
namespace {

void expect_decode_matches_reference(Codec& codec, const std::vector<std::uint8_t>& in,
                                     const std::string& what, std::size_t in_offset = 0,
                                     std::size_t out_offset = 0) {
  const cpu::Decoded expected = cpu::decode(in.data(), in.size());
  const cpu::Decoded actual = gpu_decode(codec, in, in_offset, out_offset);
  expect_same_sequence(expected.code_points, actual.code_points, what);
  EXPECT_EQ(expected.first_invalid, actual.first_invalid) << what;
}

TEST_P(GpuCodecTest, DecodeMalformedCases) {
  Codec codec({1 << 16, 0}, options());
  for (const auto& c : malformed_cases()) {
    SCOPED_TRACE(c.name);
    const cpu::Decoded d = gpu_decode(codec, c.input);
    EXPECT_EQ(d.code_points, c.expected);
    EXPECT_EQ(d.first_invalid, c.first_invalid);
    EXPECT_EQ(gpu_validate(codec, c.input), c.first_invalid);
    // The same case at every phase of a 16-byte span, and across the tile boundary at 4096.
    for (std::size_t shift : {1u, 2u, 3u, 7u, 13u, 15u, 4093u, 4094u, 4095u}) {
      std::vector<std::uint8_t> in(shift, 'x');
      in.insert(in.end(), c.input.begin(), c.input.end());
      expect_decode_matches_reference(codec, in, std::string(c.name) + " shifted");
    }
  }
}

TEST_P(GpuCodecTest, DecodeRandomBytesAtTileEdges) {
  const std::size_t sizes[] = {0,
                               1,
                               2,
                               3,
                               4,
                               15,
                               16,
                               17,
                               31,
                               32,
                               33,
                               255,
                               256,
                               257,
                               4095,
                               4096,
                               4097,
                               8191,
                               8192,
                               8193,
                               12287,
                               12289,
                               4096 * 256 + 5,
                               (1u << 20) + 3};
  Codec codec({*std::max_element(std::begin(sizes), std::end(sizes)), 0}, options());
  std::uint64_t seed = 1;
  for (std::size_t n : sizes) {
    const auto in = biased_random_bytes(n, seed++);
    expect_decode_matches_reference(codec, in, "random bytes, n = " + std::to_string(n));
    EXPECT_EQ(gpu_validate(codec, in), cpu::first_invalid(in.data(), in.size())) << n;
    if (HasFatalFailure()) return;
  }
}

TEST_P(GpuCodecTest, DecodeRandomBytesBeyond2To24) {
  const std::size_t n = (1u << 24) + 4096 * 3 + 7;
  Codec codec({n, 0}, options());
  const auto in = biased_random_bytes(n, 77);
  expect_decode_matches_reference(codec, in, "random bytes beyond 2^24");
}

TEST_P(GpuCodecTest, DecodeAllShortEdgeByteStrings) {
  // Every string of 1 to 4 edge bytes, one after the other, once as they are and once with an
  // ASCII byte after each: sequences of every shape at every offset of spans and tiles.
  const auto& alphabet = edge_bytes();
  const std::size_t k = alphabet.size();
  std::vector<std::uint8_t> joined, separated;
  for (int length = 1; length <= 4; ++length) {
    std::size_t total = 1;
    for (int i = 0; i < length; ++i) total *= k;
    for (std::size_t index = 0; index < total; ++index) {
      std::size_t rest = index;
      for (int i = 0; i < length; ++i, rest /= k) {
        joined.push_back(alphabet[rest % k]);
        separated.push_back(alphabet[rest % k]);
      }
      separated.push_back('.');
    }
  }
  Codec codec({separated.size(), 0}, options());
  expect_decode_matches_reference(codec, joined, "edge strings joined");
  expect_decode_matches_reference(codec, separated, "edge strings separated");
  EXPECT_EQ(gpu_validate(codec, separated), cpu::first_invalid(separated.data(), separated.size()));
}

TEST_P(GpuCodecTest, DecodeUnalignedInputAndOutput) {
  Codec codec({100000, 0}, options());
  const auto in = biased_random_bytes(99991, 5);
  for (std::size_t in_offset : {0u, 1u, 3u, 4u, 8u, 15u}) {
    for (std::size_t out_offset : {0u, 1u, 2u, 3u}) {
      expect_decode_matches_reference(codec, in, "unaligned", in_offset, out_offset);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(GpuCodecTest, DecodeRealText) {
  const auto sample = read_file(std::string(UTF8_TEST_DATA) + "/scripts.txt");
  std::vector<std::uint8_t> text;
  while (text.size() < (3u << 20)) text.insert(text.end(), sample.begin(), sample.end());
  const auto cjk = generate_text((5u << 20) + 1, TextKind::cjk_heavy, 3);
  const auto ascii = generate_text((5u << 20) + 2, TextKind::ascii_heavy, 3);
  Codec codec({(5u << 20) + 2, 0}, options());
  const std::vector<const std::vector<std::uint8_t>*> texts = {&sample, &text, &cjk, &ascii};
  for (const auto* t : texts) {
    const cpu::Decoded d = gpu_decode(codec, *t);
    EXPECT_EQ(d.first_invalid, cpu::kNone);
    expect_same_sequence(cpu::decode(t->data(), t->size()).code_points, d.code_points, "text");
    EXPECT_EQ(gpu_validate(codec, *t), cpu::kNone);
  }
}

TEST_P(GpuCodecTest, ValidateFindsTheFirstInvalidByteAnywhere) {
  const std::size_t n = (1u << 22) + 5;
  Codec codec({n, 0}, options());
  // ASCII only, so that a byte overwritten below cannot cut an earlier sequence.
  std::vector<std::uint8_t> text(n);
  for (std::size_t i = 0; i < n; ++i) text[i] = static_cast<std::uint8_t>('a' + i % 26);
  for (std::size_t at : {std::size_t(0), std::size_t(15), std::size_t(16), std::size_t(4095),
                         std::size_t(4096), std::size_t(1) << 21, n - 1}) {
    auto bad = text;
    bad[at] = 0xFF;
    if (at + 100 < n) bad[at + 100] = 0xC0;  // a later invalid byte must not win
    EXPECT_EQ(gpu_validate(codec, bad), at);
    const cpu::Decoded d = gpu_decode(codec, bad);
    EXPECT_EQ(d.first_invalid, at);
  }
  // A sequence cut by the end of the input.
  auto cut = text;
  cut[n - 2] = 0xE2;
  cut[n - 1] = 0x82;
  EXPECT_EQ(gpu_validate(codec, cut), n - 2);
}

TEST_P(GpuCodecTest, CodecIsReusableAcrossSizes) {
  Codec codec({1 << 20, 0}, options());
  for (std::size_t n : {std::size_t(1) << 20, std::size_t(10), std::size_t(0), std::size_t(70000),
                        std::size_t(1)}) {
    expect_decode_matches_reference(codec, biased_random_bytes(n, n + 3), "reuse");
  }
  // An invalid result does not linger into the next call.
  gpu_decode(codec, bytes({0xFF}));
  EXPECT_EQ(gpu_decode(codec, bytes("ok")).first_invalid, cpu::kNone);
}

INSTANTIATE_TEST_SUITE_P(Configs, GpuCodecTest, ::testing::ValuesIn(codec_configs()), config_name);

TEST(Utf8GpuCodecArguments, BadArgumentsThrowNamingTheFunction) {
  EXPECT_THROW(Codec({kMaxUtf8Bytes + 1, 0}), prim::Error);
  EXPECT_THROW(Codec({0, kMaxCodePoints + 1}), prim::Error);
  Codec codec({100, 100});
  DeviceBuffer buffer(4096);
  auto* bytes_ptr = buffer.as<std::uint8_t>();
  auto* words_ptr = buffer.as<std::uint32_t>();
  try {
    codec.decode(bytes_ptr, 101, words_ptr);
    ADD_FAILURE() << "n above the capacity was accepted";
  } catch (const prim::Error& e) {
    EXPECT_NE(std::string(e.what()).find("utf8::Codec::decode"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("capacity"), std::string::npos) << e.what();
  }
  EXPECT_THROW(codec.decode(nullptr, 10, words_ptr), prim::Error);
  EXPECT_THROW(codec.decode(bytes_ptr, 10, nullptr), prim::Error);
  EXPECT_THROW(codec.decode(bytes_ptr, 10, reinterpret_cast<std::uint32_t*>(bytes_ptr + 1)),
               prim::Error);
  EXPECT_THROW(codec.encode(words_ptr, 101, bytes_ptr), prim::Error);
  EXPECT_THROW(codec.encode(reinterpret_cast<std::uint32_t*>(bytes_ptr + 2), 10, bytes_ptr),
               prim::Error);
  EXPECT_THROW(codec.validate(nullptr, 10), prim::Error);
  // n == 0 needs no pointers.
  EXPECT_NO_THROW(codec.decode(nullptr, 0, nullptr));
  EXPECT_EQ(codec.result().count, 0u);
}

}  // namespace
}  // namespace utf8::test
