// OpenEXR output and input: images and films written with their layers and read back with
// OpenEXR's own reader; --aov names; EXR environment maps (float, half, grey, tiled) and the
// broken ones.
#include <Imath/half.h>
#include <OpenEXR/ImfChannelList.h>
#include <OpenEXR/ImfFrameBuffer.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfInputFile.h>
#include <OpenEXR/ImfOutputFile.h>
#include <OpenEXR/ImfRgbaFile.h>
#include <OpenEXR/ImfTiledOutputFile.h>
#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "exr_read_back.h"
#include "io/files/input_file.h"
#include "io/image/environment_reader.h"
#include "io/image/exr_image.h"
#include "io/image/film_output.h"
#include "io/image/image_output.h"
#include "scene/scene_error.h"
#include "temp_folder.h"

namespace raystream {
namespace {

namespace fs = std::filesystem;

class ExrFiles : public test::TempFolderTest {
 protected:
  ExrFiles() : TempFolderTest("raystream_exr_test_") {}
};

using test::read_back;
using test::ReadBack;
using test::wrong_values;

TEST_F(ExrFiles, ImageIsWrittenAsFloatRgbAndReadBackExactly) {
  Image image;
  image.width = 3;
  image.height = 2;
  image.rgb = {0.0f, 1.0f, 2.0f, 1e-8f, 7e4f, 3.4e38f, 0.5f, 0.25f, 0.125f,
               1.0f, 2.0f, 3.0f, 4.0f,  5.0f, 6.0f,    7.0f, 8.0f,  9.0f};
  EXPECT_EQ(image_format_of_path("x/y.EXR"), ImageFormat::exr);
  EXPECT_EQ(image_format_named("exr"), ImageFormat::exr);
  write(path("out.exr"), encode_image(image, ImageFormat::exr));
  const ReadBack r = read_back(path("out.exr"));
  ASSERT_EQ(r.width, 3);
  ASSERT_EQ(r.height, 2);
  ASSERT_EQ(r.channels.size(), 3u);
  for (const char* c : {"R", "G", "B"}) EXPECT_EQ(r.types.at(c), Imf::FLOAT) << c;
  // Float channels keep values beyond half's 65504 and below its precision.
  for (int p = 0; p < 6; ++p) {
    EXPECT_EQ(r.channels.at("R")[p], image.rgb[3 * p + 0]);
    EXPECT_EQ(r.channels.at("G")[p], image.rgb[3 * p + 1]);
    EXPECT_EQ(r.channels.at("B")[p], image.rgb[3 * p + 2]);
  }
}

// The writer's edge cases, read back by OpenEXR: blocks that deflate cannot shrink (random
// bits), a last ZIP block of fewer than 16 scanlines, a channel name over 31 characters (the
// file's long-names flag), a half layer written from floats; and the input it refuses.
TEST_F(ExrFiles, EncoderEdgeCasesReadBackExactly) {
  const int w = 37, h = 21;  // 21 = 16 + 5 scanlines
  std::mt19937 rng(11);
  ExrLayer noise{"", {"R", "G", "B"}, {}, false};
  for (int i = 0; i < w * h * 3; ++i) {
    std::uint32_t bits = rng() & 0x7F7FFFFFu;  // finite, any mantissa
    float f;
    std::memcpy(&f, &bits, 4);
    noise.values.push_back(f);
  }
  const std::string long_name(40, 'l');
  ExrLayer smooth{long_name, {"Y"}, std::vector<float>(std::size_t(w) * h, 0.25f), false};
  ExrLayer halves{"h", {"X", "Y"}, {}, true};
  for (int i = 0; i < w * h * 2; ++i) halves.values.push_back(float(i % 1000) * 0.37f);
  const std::vector<ExrLayer> layers = {noise, smooth, halves};
  for (const ExrCompression c : {ExrCompression::none, ExrCompression::zips, ExrCompression::zip}) {
    SCOPED_TRACE(exr_compression_name(c));
    const std::vector<unsigned char> bytes = encode_exr(w, h, layers, c);
    write(path("edge.exr"), bytes);
    const ReadBack r = read_back(path("edge.exr"));
    ASSERT_EQ(r.width, w);
    ASSERT_EQ(r.height, h);
    ASSERT_EQ(r.channels.size(), 6u);
    EXPECT_EQ(wrong_values(r, layers, std::size_t(w) * h), 0u);
  }
  EXPECT_THROW(encode_exr(0, 1, layers), std::invalid_argument);
  EXPECT_THROW(encode_exr(w, h, std::vector<ExrLayer>{}), std::invalid_argument);
  EXPECT_THROW(encode_exr(w, h, std::vector<ExrLayer>{noise, noise}), std::invalid_argument);
  ExrLayer too_long{std::string(300, 'n'), {"Y"}, smooth.values, false};
  EXPECT_THROW(encode_exr(w, h, std::vector<ExrLayer>{too_long}), std::invalid_argument);
  ExrLayer short_values{"s", {"Y"}, {1.0f}, false};
  EXPECT_THROW(encode_exr(w, h, std::vector<ExrLayer>{short_values}), std::invalid_argument);
}

// A film of two pixels: pixel 0 has 4 samples (two hit a surface), pixel 1 none.
FilmState two_pixel_film() {
  FilmState f = empty_film(2, 1, FilmLayers{true, true});
  f.counts = {4, 0};
  // Samples 1, 1, 3, 3 in R; 2 x 4 in G; 0, 0, 0, 8 in B.
  f.sums = {8.0f, 8.0f, 8.0f, 0.0f, 0.0f, 0.0f};
  f.squares = {20.0f, 16.0f, 64.0f, 0.0f, 0.0f, 0.0f};
  // Two hits: albedo sums (1.2, 0.8, 0.4), normal sums (0, 2, 0), depth sum 6, hits 2.
  f.first_hits = {1.2f, 0.8f, 0.4f, 0.0f, 2.0f, 0.0f, 6.0f, 2.0f,
                  0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  return f;
}

TEST_F(ExrFiles, FilmLayersAreNamedAsDocumentedAndHoldTheMeans) {
  const FilmState film = two_pixel_film();
  const AovSet all = parse_aovs("albedo,normal,depth,variance");
  write(path("film.exr"), encode_film_exr(film, all));
  const ReadBack r = read_back(path("film.exr"));
  std::vector<std::string> names;
  for (const auto& [name, values] : r.channels) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"B", "G", "R", "albedo.B", "albedo.G", "albedo.R",
                                             "depth.Z", "normal.X", "normal.Y", "normal.Z",
                                             "variance.B", "variance.G", "variance.R"}));
  // Albedo and normal as half floats, the rest as 32-bit floats.
  for (const auto& [name, type] : r.types)
    EXPECT_EQ(type, name.rfind("albedo.", 0) == 0 || name.rfind("normal.", 0) == 0 ? Imf::HALF
                                                                                   : Imf::FLOAT)
        << name;
  const auto at = [&](const char* name, int p) { return r.channels.at(name)[p]; };
  // The beauty: the mean; a pixel without samples is black.
  EXPECT_FLOAT_EQ(at("R", 0), 2.0f);
  EXPECT_FLOAT_EQ(at("G", 0), 2.0f);
  EXPECT_FLOAT_EQ(at("B", 0), 2.0f);
  EXPECT_EQ(at("R", 1), 0.0f);
  // Albedo and normal per sample (the misses count as 0), rounded to half; depth over the hits.
  EXPECT_EQ(at("albedo.R", 0), float(Imath::half(1.2f / 4.0f)));
  EXPECT_EQ(at("albedo.G", 0), float(Imath::half(0.8f / 4.0f)));
  EXPECT_EQ(at("albedo.B", 0), float(Imath::half(0.4f / 4.0f)));
  EXPECT_NEAR(at("albedo.R", 0), 0.3f, 0.3f / 2048);
  EXPECT_FLOAT_EQ(at("normal.Y", 0), 0.5f);
  EXPECT_EQ(at("normal.X", 0), 0.0f);
  EXPECT_FLOAT_EQ(at("depth.Z", 0), 3.0f);
  EXPECT_EQ(at("depth.Z", 1), std::numeric_limits<float>::infinity());
  // Variance of the mean: R samples 1, 1, 3, 3 have variance 4/3, over 4 samples 1/3; G none;
  // B samples 0, 0, 0, 8: (64 - 16) / 3 / 4 = 4.
  EXPECT_FLOAT_EQ(at("variance.R", 0), 1.0f / 3.0f);
  EXPECT_EQ(at("variance.G", 0), 0.0f);
  EXPECT_FLOAT_EQ(at("variance.B", 0), 4.0f);
  EXPECT_EQ(at("variance.R", 1), 0.0f);

  // Only what is asked for; a film without the layers an AOV needs is refused.
  write(path("depth.exr"), encode_film_exr(film, parse_aovs("depth")));
  EXPECT_EQ(read_back(path("depth.exr")).channels.size(), 4u);
  const FilmState plain = empty_film(2, 1, FilmLayers{});
  EXPECT_THROW(film_exr_layers(plain, parse_aovs("variance")), std::invalid_argument);
  EXPECT_THROW(film_exr_layers(plain, parse_aovs("albedo")), std::invalid_argument);
  EXPECT_EQ(film_exr_layers(plain, AovSet{}).size(), 1u);
}

// A film of every layer, noisy, over several of each compression's blocks: each compression
// reads back with OpenEXR's own reader as film_exr_layers made it, the floats bit for bit, the
// half layers as their values rounded to half; the same bytes on any number of threads (the
// library's pool resized to each).
TEST_F(ExrFiles, EveryCompressionReadsBackExactly) {
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
    if (p % 5 != 0) {
      for (int c = 0; c < 3; ++c) first[c] = n * unit(rng), first[3 + c] = n * (2 * unit(rng) - 1);
      first[6] = n * 1e3f * unit(rng);
      first[7] = n;
    }
  }
  const AovSet all = parse_aovs("albedo,normal,depth,variance");
  const std::vector<ExrLayer> layers = film_exr_layers(film, all);
  for (const ExrCompression c : {ExrCompression::none, ExrCompression::zips, ExrCompression::zip}) {
    SCOPED_TRACE(exr_compression_name(c));
    const std::string file = path(std::string(exr_compression_name(c)) + ".exr");
    write(file, encode_film_exr(film, all, c));
    const ReadBack r = read_back(file);
    ASSERT_EQ(r.width, w);
    ASSERT_EQ(r.height, h);
    ASSERT_EQ(r.channels.size(), 13u);
    EXPECT_EQ(wrong_values(r, layers, film.pixels()), 0u);
  }
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  const std::vector<unsigned char> one = encode_film_exr(film, all);
  omp_set_num_threads(4);
  const std::vector<unsigned char> four = encode_film_exr(film, all);
  omp_set_num_threads(threads);
  EXPECT_TRUE(one == four);
  EXPECT_TRUE(one == encode_film_exr(film, all));
  EXPECT_EQ(exr_compression_name(kDefaultExrCompression), std::string("zips"));
}

TEST(AovNames, ParseAndName) {
  const AovSet a = parse_aovs("variance,albedo");
  EXPECT_TRUE(a.albedo && a.variance && !a.normal && !a.depth);
  EXPECT_EQ(aov_names(a), "albedo,variance");
  EXPECT_TRUE(film_layers_for(a).first_hits);
  EXPECT_TRUE(film_layers_for(a).squares);
  EXPECT_FALSE(film_layers_for(parse_aovs("variance")).first_hits);
  EXPECT_FALSE(film_layers_for(parse_aovs("depth")).squares);
  for (const char* bad : {"", "albedo,", "albedo,albedo", "colour", "Albedo", "albedo normal"}) {
    EXPECT_THROW(parse_aovs(bad), std::invalid_argument) << bad;
  }
  try {
    parse_aovs("depth,depht");
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "'depht' is not an AOV (expected albedo, normal, depth or variance, comma "
                 "separated)");
  }
}

TEST_F(ExrFiles, EnvironmentMapsReadFromFloatHalfGreyAndTiledFiles) {
  // Float RGB as raystream writes it: the texels exactly, times SCALE.
  Image image;
  image.width = 4;
  image.height = 2;
  for (int k = 0; k < 24; ++k) image.rgb.push_back(0.5f * float(k) + 1e5f * float(k == 5));
  write(path("sky.exr"), encode_image(image, ImageFormat::exr));
  const Environment env = load_environment_map(path("sky.exr"), 2.0f, 0.0f);
  ASSERT_EQ(env.width, 4);
  ASSERT_EQ(env.height, 2);
  for (int t = 0; t < 8; ++t)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(env.texels[t][c], 2.0f * image.rgb[3 * t + c]);

  // Half RGBA with a data window that does not start at 0 (OpenEXR's RGBA interface).
  {
    Imf::RgbaOutputFile out(path("half.exr").c_str(), Imath::Box2i({0, 0}, {2, 1}),
                            Imath::Box2i({10, 20}, {12, 21}), Imf::WRITE_RGBA);
    std::vector<Imf::Rgba> pixels(6, Imf::Rgba(0.25f, 0.5f, 1.0f, 1.0f));
    pixels[4] = Imf::Rgba(3.0f, 2.0f, 1.0f, 0.5f);
    out.setFrameBuffer(pixels.data() - 10 - 20 * 3, 1, 3);
    out.writePixels(2);
  }
  const Environment half = load_environment_map(path("half.exr"), 1.0f, 0.0f);
  ASSERT_EQ(half.width, 3);
  ASSERT_EQ(half.height, 2);
  EXPECT_EQ(half.texels[0], glm::vec3(0.25f, 0.5f, 1.0f));
  EXPECT_EQ(half.texels[4], glm::vec3(3.0f, 2.0f, 1.0f));

  // Luminance only (Y): grey.
  {
    Imf::Header header(2, 1);
    header.channels().insert("Y", Imf::Channel(Imf::FLOAT));
    float y[2] = {0.5f, 4.0f};
    Imf::FrameBuffer frame;
    frame.insert(
        "Y", Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(y), sizeof(float), 2 * sizeof(float)));
    Imf::OutputFile out(path("grey.exr").c_str(), header);
    out.setFrameBuffer(frame);
    out.writePixels(1);
  }
  const Environment grey = load_environment_map(path("grey.exr"), 1.0f, 0.0f);
  EXPECT_EQ(grey.texels[1], glm::vec3(4.0f));

  // Tiled.
  {
    Imf::Header header(5, 3);
    header.setTileDescription(Imf::TileDescription(2, 2));
    for (const char* c : {"R", "G", "B"}) header.channels().insert(c, Imf::Channel(Imf::FLOAT));
    std::vector<float> rgb(45);
    for (std::size_t k = 0; k < rgb.size(); ++k) rgb[k] = float(k);
    Imf::FrameBuffer frame;
    for (int c = 0; c < 3; ++c)
      frame.insert(std::string(1, "RGB"[c]),
                   Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(rgb.data() + c),
                              3 * sizeof(float), 15 * sizeof(float)));
    Imf::TiledOutputFile out(path("tiled.exr").c_str(), header);
    out.setFrameBuffer(frame);
    out.writeTiles(0, out.numXTiles() - 1, 0, out.numYTiles() - 1);
  }
  const Environment tiled = load_environment_map(path("tiled.exr"), 1.0f, 0.0f);
  ASSERT_EQ(tiled.width, 5);
  EXPECT_EQ(tiled.texels[14], glm::vec3(42.0f, 43.0f, 44.0f));
}

std::string error_of(const std::string& file) {
  try {
    load_environment_map(file, 1.0f, 0.0f);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST_F(ExrFiles, BrokenEnvironmentMapsAreErrorsNamingTheFile) {
  Image image;
  image.width = 64;
  image.height = 32;
  image.rgb.assign(3 * 64 * 32, 1.0f);
  const std::vector<unsigned char> good = encode_image(image, ImageFormat::exr);
  // Truncated at several points: the header, the offset table, the pixel data.
  for (const std::size_t keep :
       {std::size_t(8), std::size_t(100), good.size() / 2, good.size() - 1}) {
    SCOPED_TRACE(keep);
    write(path("cut.exr"), std::vector<unsigned char>(good.begin(), good.begin() + long(keep)));
    const std::string e = error_of(path("cut.exr"));
    EXPECT_EQ(e.rfind(path("cut.exr") + ": corrupt EXR", 0), 0u) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  // No colour channels.
  {
    Imf::Header header(2, 2);
    header.channels().insert("depth.Z", Imf::Channel(Imf::FLOAT));
    std::vector<float> z(4, 1.0f);
    Imf::FrameBuffer frame;
    frame.insert("depth.Z", Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(z.data()), sizeof(float),
                                       2 * sizeof(float)));
    Imf::OutputFile out(path("depth.exr").c_str(), header);
    out.setFrameBuffer(frame);
    out.writePixels(2);
  }
  EXPECT_EQ(error_of(path("depth.exr")),
            path("depth.exr") +
                ": no R, G and B (or Y) channels: the EXR's colour is not in its unnamed layer");
  // Too large: refused from the header, before any pixel is decoded.
  {
    Imf::Header header(Imath::Box2i({0, 0}, {20000, 0}), Imath::Box2i({0, 0}, {20000, 0}));
    header.channels().insert("Y", Imf::Channel(Imf::HALF));
    Imf::OutputFile out(path("wide.exr").c_str(), header);
    std::vector<unsigned short> y(20001, 0);
    Imf::FrameBuffer frame;
    frame.insert("Y", Imf::Slice(Imf::HALF, reinterpret_cast<char*>(y.data()), 2, 2 * 20001));
    out.setFrameBuffer(frame);
    out.writePixels(1);
  }
  EXPECT_EQ(error_of(path("wide.exr")),
            path("wide.exr") + ": 20001 x 1 pixels is too large (at most 16384 x 8192)");
  // Negative and non-finite texels, as for HDR maps.
  image.rgb[7] = -1.0f;
  write(path("negative.exr"), encode_image(image, ImageFormat::exr));
  EXPECT_EQ(error_of(path("negative.exr")), path("negative.exr") + ": texel (2, 0) is negative");
  image.rgb[7] = std::numeric_limits<float>::infinity();
  write(path("inf.exr"), encode_image(image, ImageFormat::exr));
  EXPECT_EQ(error_of(path("inf.exr")), path("inf.exr") + ": texel (2, 0) is not a finite number");
  // The magic number decides, not the name: an EXR named .hdr is read, a PNG named .exr is not.
  image.rgb[7] = 1.0f;
  write(path("named.hdr"), encode_image(image, ImageFormat::exr));
  EXPECT_EQ(load_environment_map(path("named.hdr"), 1.0f, 0.0f).width, 64);
  write(path("png.exr"), std::vector<unsigned char>{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
  EXPECT_EQ(error_of(path("png.exr")),
            path("png.exr") + ": not a Radiance HDR (.hdr) or OpenEXR (.exr) image");
}

#ifdef RAYSTREAM_BINARY
TEST_F(ExrFiles, RaystreamWritesTheBeautyAndEveryAovAsDocumented) {
  const std::string out = path("cli.exr");
  const std::string command = std::string(RAYSTREAM_BINARY) +
                              " tests/data/tiny.json --device cpu --spp 8 --quiet --aov "
                              "variance,depth,normal,albedo -o " +
                              out + " > " + path("report.txt");
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const ReadBack r = read_back(out);
  EXPECT_EQ(r.width, 24);
  EXPECT_EQ(r.height, 16);
  std::vector<std::string> names;
  for (const auto& [name, values] : r.channels) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"B", "G", "R", "albedo.B", "albedo.G", "albedo.R",
                                             "depth.Z", "normal.X", "normal.Y", "normal.Z",
                                             "variance.B", "variance.G", "variance.R"}));
  EXPECT_EQ(r.types.at("R"), Imf::FLOAT);
  EXPECT_EQ(r.types.at("albedo.G"), Imf::HALF);
  EXPECT_EQ(r.types.at("normal.Z"), Imf::HALF);
  EXPECT_EQ(r.types.at("depth.Z"), Imf::FLOAT);
  EXPECT_EQ(r.types.at("variance.B"), Imf::FLOAT);
  std::size_t hits = 0, noisy = 0;
  for (int p = 0; p < r.width * r.height; ++p) {
    const auto at = [&](const char* name) { return r.channels.at(name)[p]; };
    for (const char* c : {"R", "G", "B", "albedo.R", "albedo.G", "albedo.B", "variance.R"}) {
      ASSERT_TRUE(std::isfinite(at(c)) && at(c) >= 0.0f) << c << " at " << p;
    }
    for (const char* c : {"albedo.R", "albedo.G", "albedo.B"}) ASSERT_LE(at(c), 1.0f) << c;
    const float n = std::sqrt(at("normal.X") * at("normal.X") + at("normal.Y") * at("normal.Y") +
                              at("normal.Z") * at("normal.Z"));
    ASSERT_LE(n, 1.0f + 1e-3f);  // half keeps each component to 2^-11 of its size
    ASSERT_GT(at("depth.Z"), 0.0f);
    hits += std::isfinite(at("depth.Z"));
    noisy += at("variance.R") > 0.0f;
  }
  EXPECT_GT(hits, 0u);
  EXPECT_GT(noisy, 0u);
}
#endif

}  // namespace
}  // namespace raystream
