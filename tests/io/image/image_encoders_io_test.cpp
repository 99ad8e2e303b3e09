// The image encoders: the tone map's table against the sRGB curve it tabulates; PNG's parallel
// bands checked as a strict reader checks them (chunk CRCs, one zlib stream and its Adler-32)
// and decoded, the same bytes on any number of threads; PFM rows in order; a large PNG written
// atomically.
#include <gtest/gtest.h>
#include <omp.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "io/image/image_output.h"
#include "io/image/png_encoder.h"
#include "temp_folder.h"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

namespace raystream {
namespace {

using Bytes = std::vector<unsigned char>;

float from_bits(std::uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof v);
  return v;
}

Image row_of(const std::vector<float>& values) {
  Image image;
  image.width = int(values.size());
  image.height = 1;
  image.rgb = values;
  image.rgb.resize(3 * values.size(), 0.0f);  // the values in the first third, black after
  return image;
}

// The whole-image tone map goes through a table; it must give tone_map_srgb8(float) exactly:
// around every step of the curve (found here by bisection on the function itself), on a
// sample of all the floats below 1, and on the special values.
TEST(ToneMapTable, EqualsTheCurveEverywhere) {
  std::vector<float> values;
  std::uint32_t lo = 0;
  for (int code = 1; code < 256; ++code) {
    std::uint32_t hi = 0x3f800000u;
    while (lo < hi) {
      const std::uint32_t mid = lo + (hi - lo) / 2;
      if (tone_map_srgb8(from_bits(mid)) >= code)
        hi = mid;
      else
        lo = mid + 1;
    }
    for (std::uint32_t b : {lo - 1, lo, lo + 1}) values.push_back(from_bits(b));
  }
  for (std::uint32_t b = 0; b <= 0x3f800000u; b += 997) values.push_back(from_bits(b));
  const float inf = std::numeric_limits<float>::infinity();
  for (float v : {0.0f, -0.0f, -1.0f, -inf, inf, std::numeric_limits<float>::quiet_NaN(),
                  -std::numeric_limits<float>::quiet_NaN(),
                  std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
                  std::nextafter(1.0f, 0.0f), 1.0f, std::nextafter(1.0f, 2.0f), 1e30f, 0.0031308f})
    values.push_back(v);
  const Image image = row_of(values);
  const std::vector<std::uint8_t> mapped = tone_map_srgb8(image);
  ASSERT_EQ(mapped.size(), image.rgb.size());
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < image.rgb.size(); ++i) {
    if (mapped[i] != tone_map_srgb8(image.rgb[i])) {
      if (++wrong < 10) ADD_FAILURE() << "value " << image.rgb[i] << " at " << i;
    }
  }
  EXPECT_EQ(wrong, 0u);
}

// An image of flat areas, gradients and noise, so that filters and runs all occur.
std::vector<std::uint8_t> test_pixels(int width, int height, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> rgb(std::size_t(width) * std::size_t(height) * 3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      for (int c = 0; c < 3; ++c) {
        const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3 + c;
        const int region = (x * 4 / width + y * 3 / height) % 3;
        rgb[i] = region == 0   ? std::uint8_t(40 * c + 7)
                 : region == 1 ? std::uint8_t(x + 2 * y + 50 * c)
                               : std::uint8_t(rng());
      }
  return rgb;
}

std::uint32_t u32(const unsigned char* p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

// Checks a PNG the way a strict reader does: the signature, every chunk's CRC, IHDR, the IDAT
// chunks' bytes as one zlib stream that inflates (checking its Adler-32) to exactly the filtered
// rows, IEND last. Returns the inflated rows.
Bytes check_png_structure(const Bytes& png, int width, int height) {
  static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  Bytes stream;
  EXPECT_GE(png.size(), 8u + 25u + 12u);
  if (png.size() < 45 || std::memcmp(png.data(), signature, 8) != 0) {
    ADD_FAILURE() << "no PNG signature";
    return {};
  }
  std::size_t at = 8;
  std::vector<std::string> types;
  while (at + 12 <= png.size()) {
    const std::uint32_t length = u32(&png[at]);
    if (at + 12 + length > png.size()) {
      ADD_FAILURE() << "chunk at " << at << " runs past the end";
      return {};
    }
    const std::string type(reinterpret_cast<const char*>(&png[at + 4]), 4);
    const unsigned char* data = &png[at + 8];
    EXPECT_EQ(u32(data + length), std::uint32_t(crc32(0, &png[at + 4], length + 4)))
        << type << " chunk at " << at << ": CRC";
    if (type == "IHDR") {
      EXPECT_EQ(length, 13u);
      EXPECT_EQ(u32(data), std::uint32_t(width));
      EXPECT_EQ(u32(data + 4), std::uint32_t(height));
      EXPECT_EQ(data[8], 8);  // bits per channel
      EXPECT_EQ(data[9], 2);  // RGB
    }
    if (type == "IDAT") stream.insert(stream.end(), data, data + length);
    types.push_back(type);
    at += 12 + length;
  }
  EXPECT_EQ(at, png.size());
  EXPECT_GE(types.size(), 3u);
  EXPECT_EQ(types.front(), "IHDR");
  EXPECT_EQ(types.back(), "IEND");
  const std::size_t rows = (std::size_t(width) * 3 + 1) * std::size_t(height);
  Bytes inflated(rows + 1);
  uLongf size = uLongf(inflated.size());
  EXPECT_EQ(uncompress(inflated.data(), &size, stream.data(), uLong(stream.size())), Z_OK)
      << "the IDAT data is not one complete zlib stream with a right checksum";
  EXPECT_EQ(size, rows);
  inflated.resize(size);
  for (int y = 0; y < height && size == rows; ++y)
    EXPECT_LE(inflated[std::size_t(y) * (std::size_t(width) * 3 + 1)], 4) << "filter of row " << y;
  return inflated;
}

void expect_decodes_to(const Bytes& png, int width, int height,
                       const std::vector<std::uint8_t>& rgb) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load_from_memory(png.data(), int(png.size()), &w, &h, &channels, 3);
  ASSERT_NE(data, nullptr) << stbi_failure_reason();
  EXPECT_EQ(w, width);
  EXPECT_EQ(h, height);
  if (w == width && h == height) {
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < rgb.size(); ++i) wrong += data[i] != rgb[i];
    EXPECT_EQ(wrong, 0u) << "bytes that decode differently";
  }
  stbi_image_free(data);
}

TEST(PngEncoder, BandsJoinIntoOneValidStreamThatDecodesExactly) {
  const PngSettings settings[] = {PngSettings{},
                                  {1, false, PngFilter::none},
                                  {1, false, PngFilter::sub},
                                  {1, false, PngFilter::up},
                                  {1, false, PngFilter::average},
                                  {1, false, PngFilter::paeth},
                                  {1, false, PngFilter::adaptive},
                                  {0, false, PngFilter::up},  // stored blocks
                                  {9, false, PngFilter::paeth},
                                  {1, true, PngFilter::average}};
  // Sizes of one band and of several (png_band_rows), one-pixel rows and columns among them.
  const std::pair<int, int> sizes[] = {{1, 1}, {1, 300}, {7, 5}, {300, 1}, {37, 4000}, {300, 900}};
  for (const auto& [w, h] : sizes) {
    const std::vector<std::uint8_t> rgb = test_pixels(w, h, std::uint32_t(w * 7919 + h));
    for (const PngSettings& s : settings) {
      SCOPED_TRACE(std::to_string(w) + " x " + std::to_string(h) + ", level " +
                   std::to_string(s.level) + (s.rle ? " RLE" : "") + ", filter " +
                   std::to_string(int(s.filter)));
      const Bytes png = encode_png_rgb8(w, h, rgb.data(), rgb.size(), s);
      check_png_structure(png, w, h);
      expect_decodes_to(png, w, h, rgb);
    }
  }
  EXPECT_GT((4000 + png_band_rows(37) - 1) / png_band_rows(37), 1);
  EXPECT_GT((900 + png_band_rows(300) - 1) / png_band_rows(300), 1);
}

TEST(PngEncoder, SameBytesOnAnyNumberOfThreads) {
  const int threads = omp_get_max_threads();
  const std::vector<std::uint8_t> rgb = test_pixels(300, 900, 5);
  omp_set_num_threads(1);
  const Bytes one = encode_png_rgb8(300, 900, rgb.data(), rgb.size());
  omp_set_num_threads(5);
  const Bytes five = encode_png_rgb8(300, 900, rgb.data(), rgb.size());
  omp_set_num_threads(threads);
  EXPECT_TRUE(one == five);
}

TEST(PngEncoder, BadInputIsRefused) {
  const std::vector<std::uint8_t> rgb(12, 0);
  EXPECT_THROW(encode_png_rgb8(0, 1, rgb.data(), rgb.size()), std::invalid_argument);
  EXPECT_THROW(encode_png_rgb8(2, -1, rgb.data(), rgb.size()), std::invalid_argument);
  EXPECT_THROW(encode_png_rgb8(2, 3, rgb.data(), rgb.size()), std::invalid_argument);  // short
  EXPECT_THROW(encode_png_rgb8(2, 2, nullptr, 12), std::invalid_argument);
  EXPECT_THROW(encode_png_rgb8(2, 2, rgb.data(), rgb.size(), PngSettings{10}),
               std::invalid_argument);
  EXPECT_NO_THROW(encode_png_rgb8(2, 2, rgb.data(), rgb.size()));
}

TEST(PfmEncoder, RowsBottomToTopBitForBit) {
  Image image;
  image.width = 301;
  image.height = 67;
  std::mt19937 rng(9);
  for (int i = 0; i < 301 * 67 * 3; ++i) image.rgb.push_back(float(rng()) * 1e-3f);
  const Bytes pfm = encode_pfm(image);
  const std::string header = "PF\n301 67\n-1.0\n";
  ASSERT_EQ(pfm.size(), header.size() + image.rgb.size() * 4);
  for (int y = 0; y < 67; ++y)
    ASSERT_EQ(std::memcmp(pfm.data() + header.size() + std::size_t(66 - y) * 301 * 12,
                          image.rgb.data() + std::size_t(y) * 301 * 3, 301 * 12),
              0)
        << "row " << y;
}

class LargeImage : public test::TempFolderTest {
 protected:
  LargeImage() : TempFolderTest("raystream_encoders_test_") {}
};

// write_image: a PNG of many bands lands whole, atomically (no temporary file left), and reads
// back as the tone-mapped image.
TEST_F(LargeImage, PngOfManyBandsIsWrittenWholeAndReadsBack) {
  Image image;
  image.width = 640;
  image.height = 480;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> value(-0.1f, 1.3f);
  for (int i = 0; i < 640 * 480 * 3; ++i) image.rgb.push_back(i % 5 ? value(rng) : 0.5f);
  const std::string file = path("large.png");
  write_image(image, file);
  std::ifstream in(file, std::ios::binary);
  const Bytes png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  check_png_structure(png, 640, 480);
  expect_decodes_to(png, 640, 480, tone_map_srgb8(image));
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir_))
    names.push_back(e.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"large.png"});
}

}  // namespace
}  // namespace raystream
