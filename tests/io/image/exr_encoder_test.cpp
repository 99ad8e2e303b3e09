// raystream's EXR writer (libdeflate, parallel blocks): every compression and its edge cases
// read back exactly with OpenEXR's own reader, the same bytes on any number of threads, and the
// input it refuses.
#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfInputFile.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "exr_read_back.h"
#include "io/image/exr_image.h"
#include "io/image/film_output.h"
#include "temp_folder.h"

namespace raystream {
namespace {

class ExrEncoder : public test::TempFolderTest {
 protected:
  ExrEncoder() : TempFolderTest("raystream_exr_encoder_test_") {}
};

using test::read_back;
using test::ReadBack;
using test::wrong_values;

const ExrCompression kCompressions[] = {ExrCompression::none, ExrCompression::zips,
                                        ExrCompression::zip};

// Blocks that deflate cannot shrink (random bits) stored as they are, a last ZIP block of fewer
// than 16 scanlines, a channel name over 31 characters (the file's long-names flag), a half
// layer; and the input it refuses.
TEST_F(ExrEncoder, EdgeCasesReadBackExactly) {
  const int w = 37, h = 21;  // 21 = 16 + 5 scanlines
  std::mt19937 rng(11);
  std::vector<float> noise, smooth(std::size_t(w) * h, 0.25f), halves;
  for (int i = 0; i < w * h * 3; ++i) {
    std::uint32_t bits = rng() & 0x7F7FFFFFu;  // finite, any mantissa
    float f;
    std::memcpy(&f, &bits, 4);
    noise.push_back(f);
  }
  for (int i = 0; i < w * h * 2; ++i) halves.push_back(float(i % 1000) * 0.37f);
  const std::vector<ExrLayerView> layers = {{"", {"R", "G", "B"}, noise.data(), false},
                                            {std::string(40, 'l'), {"Y"}, smooth.data(), false},
                                            {"h", {"X", "Y"}, halves.data(), true}};
  for (const ExrCompression c : kCompressions) {
    SCOPED_TRACE(exr_compression_name(c));
    write(path("edge.exr"), encode_exr(w, h, layers, c));
    const ReadBack r = read_back(path("edge.exr"));
    ASSERT_EQ(r.width, w);
    ASSERT_EQ(r.height, h);
    ASSERT_EQ(r.channels.size(), 6u);
    EXPECT_EQ(wrong_values(r, layers, std::size_t(w) * h), 0u);
  }
  const ExrCompression zips = ExrCompression::zips;
  EXPECT_THROW(encode_exr(0, 1, layers, zips), std::invalid_argument);
  EXPECT_THROW(encode_exr(w, h, std::vector<ExrLayerView>{}, zips), std::invalid_argument);
  EXPECT_THROW(encode_exr(w, h, {layers[0], layers[0]}, zips), std::invalid_argument);
  const ExrLayerView too_long{std::string(300, 'n'), {"Y"}, smooth.data(), false};
  EXPECT_THROW(encode_exr(w, h, {too_long}, zips), std::invalid_argument);
  const ExrLayerView no_values{"s", {"Y"}, nullptr, false};
  EXPECT_THROW(encode_exr(w, h, {no_values}, zips), std::invalid_argument);
}

// A film of every layer, noisy, over several of each compression's blocks: each compression
// reads back as film_planes made it; the same bytes on any number of threads.
TEST_F(ExrEncoder, FilmReadsBackExactlyOnAnyNumberOfThreads) {
  const int w = 67, h = 45;
  FilmState film = empty_film(w, h, FilmLayers{true, true});
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (std::size_t p = 0; p < film.pixels(); ++p) {
    film.counts[p] = 1 + std::uint32_t(rng() % 9);
    const float n = float(film.counts[p]);
    for (int c = 0; c < 3; ++c) {
      film.sums[3 * p + c] = n * (p % 17 == 0 ? 7e4f : unit(rng));
      film.squares[3 * p + c] = film.sums[3 * p + c] * film.sums[3 * p + c] / n * (1 + unit(rng));
    }
    float* first = &film.first_hits[kFirstHitValues * p];
    for (int c = 0; c < 3; ++c) first[c] = n * unit(rng), first[3 + c] = n * (2 * unit(rng) - 1);
    first[6] = n * 1e3f * unit(rng);
    first[7] = n;
  }
  const FilmPlanes planes = film_planes(film, parse_aovs("albedo,normal,depth,variance"));
  for (const ExrCompression c : kCompressions) {
    SCOPED_TRACE(exr_compression_name(c));
    const std::string file = path(std::string(exr_compression_name(c)) + ".exr");
    write(file, encode_exr(w, h, planes.views, c));
    const ReadBack r = read_back(file);
    ASSERT_EQ(r.channels.size(), 13u);
    EXPECT_EQ(wrong_values(r, planes.views, film.pixels()), 0u);
  }
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::vector<unsigned char> one = encode_exr(w, h, planes.views, ExrCompression::zips);
  omp_set_num_threads(threads);
  EXPECT_TRUE(one == encode_exr(w, h, planes.views, ExrCompression::zips));
}

}  // namespace
}  // namespace raystream
