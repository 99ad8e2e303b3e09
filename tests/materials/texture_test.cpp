// Image textures: sRGB decoding, the bilinear lookup with repeat wrapping, image files (PNG, HDR,
// broken and absurd ones), OBJ texture coordinates, MTL map_Kd and the scene's TEXTURE key.
#include "materials/texture.h"
#include "materials/texture_storage.h"

#include <gtest/gtest.h>
#include <spng.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "io/image/image_reader.h"
#include "io/scene/obj_loader.h"
#include "io/scene/scene_loader.h"
#include "temp_folder.h"

// After <cstdio>: libjpeg's header uses FILE and size_t.
#include <jpeglib.h>

namespace raystream {
namespace {

// A view of the image's texels (valid while `image` lives and is not changed).
TextureView texture_view(const TextureImage& image) {
  TextureView view;
  view.texels = image.texels.empty() ? nullptr : image.texels.data();
  view.width = image.width;
  view.height = image.height;
  view.format = 1;  // the decoded float texels
  return view;
}

namespace fs = std::filesystem;

const std::string kMeshes = "tests/data/meshes/";
const std::string kQuadPng = "tests/data/meshes/textures/quad.png";

#define EXPECT_CONTAINS(haystack, needle)                          \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) \
      << "expected \"" << (needle) << "\" in \"" << (haystack) << "\""

void expect_vec_near(const glm::vec3& a, const glm::vec3& b, float tol = 1e-6f) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

// A folder of the test's own, removed at the end.
class TempDir : public test::TempDir {
 public:
  TempDir() : test::TempDir("raystream-texture-test-") {}
};

std::string error_of_image(const std::string& path) {
  try {
    load_texture_image(path);
  } catch (const SceneError& e) {
    return e.what();
  }
  ADD_FAILURE() << path << ": loaded, expected an error";
  return "";
}

// ---- sRGB --------------------------------------------------------------------------------------

TEST(Srgb, KnownEightBitValues) {
  EXPECT_EQ(srgb8_to_linear(0), 0.0f);
  EXPECT_EQ(srgb8_to_linear(255), 1.0f);
  EXPECT_NEAR(srgb8_to_linear(128), 0.2158605f, 1e-5f);
  EXPECT_NEAR(srgb8_to_linear(64), 0.0512695f, 1e-5f);
  // The linear segment at the bottom: 10 / 255 = 0.0392 <= 0.04045.
  EXPECT_NEAR(srgb8_to_linear(10), (10.0f / 255.0f) / 12.92f, 1e-7f);
  EXPECT_NEAR(srgb_to_linear(0.5f), 0.2140411f, 1e-6f);
  for (int i = 1; i < 256; ++i) {
    ASSERT_GT(srgb8_to_linear(static_cast<std::uint8_t>(i)),
              srgb8_to_linear(static_cast<std::uint8_t>(i - 1)))
        << i;
    ASSERT_NEAR(srgb8_to_linear(static_cast<std::uint8_t>(i)), srgb_to_linear(i / 255.0f), 1e-6f);
  }
}

// ---- Bilinear lookup ---------------------------------------------------------------------------

// A width x height texture whose texel (x, y) is (x, y, 10 x + y).
struct Grid {
  int width, height;
  std::vector<glm::vec4> texels;
  Grid(int w, int h) : width(w), height(h) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        texels.emplace_back(static_cast<float>(x), static_cast<float>(y),
                            static_cast<float>(10 * x + y), 1.0f);
  }
  TextureView view() const {
    TextureView v;
    v.texels = texels.data();
    v.width = width;
    v.height = height;
    v.format = 1;
    return v;
  }
  glm::vec3 at(int x, int y) const { return glm::vec3(texels[y * width + x]); }
  // The uv of texel (x, y)'s centre.
  glm::vec2 centre(float x, float y) const {
    return glm::vec2((x + 0.5f) / width, 1.0f - (y + 0.5f) / height);
  }
};

TEST(TextureLookup, TexelCentresReturnTheTexel) {
  const Grid g(5, 3);
  for (int y = 0; y < g.height; ++y)
    for (int x = 0; x < g.width; ++x)
      expect_vec_near(texture_lookup(g.view(), g.centre(x, y)), g.at(x, y), 1e-5f);
}

TEST(TextureLookup, HalfwayBetweenTexelsIsTheMean) {
  const Grid g(5, 3);
  // Between columns 1 and 2 of row 1, between rows 0 and 1 of column 3, and amid four texels.
  expect_vec_near(texture_lookup(g.view(), g.centre(1.5f, 1.0f)), 0.5f * (g.at(1, 1) + g.at(2, 1)),
                  1e-5f);
  expect_vec_near(texture_lookup(g.view(), g.centre(3.0f, 0.5f)), 0.5f * (g.at(3, 0) + g.at(3, 1)),
                  1e-5f);
  expect_vec_near(texture_lookup(g.view(), g.centre(0.5f, 1.5f)),
                  0.25f * (g.at(0, 1) + g.at(1, 1) + g.at(0, 2) + g.at(1, 2)), 1e-5f);
  // A quarter of the way: weights 3/4 and 1/4.
  expect_vec_near(texture_lookup(g.view(), g.centre(2.25f, 2.0f)),
                  0.75f * g.at(2, 2) + 0.25f * g.at(3, 2), 1e-5f);
}

TEST(TextureLookup, RepeatsAcrossTheSeams) {
  const Grid g(4, 3);
  const float row1 = g.centre(0, 1).y;
  // u = 0 and u = 1 lie halfway between the last column and the first.
  const glm::vec3 seam = 0.5f * (g.at(3, 1) + g.at(0, 1));
  expect_vec_near(texture_lookup(g.view(), glm::vec2(0.0f, row1)), seam, 1e-5f);
  expect_vec_near(texture_lookup(g.view(), glm::vec2(1.0f, row1)), seam, 1e-5f);
  expect_vec_near(texture_lookup(g.view(), glm::vec2(-3.0f, row1)), seam, 1e-5f);
  // Just inside the left edge: mostly column 0, a little of column 3.
  expect_vec_near(texture_lookup(g.view(), glm::vec2(0.5f / 4.0f - 0.1f / 4.0f, row1)),
                  0.9f * g.at(0, 1) + 0.1f * g.at(3, 1), 1e-4f);
  // Just inside the right edge: mostly column 3, a little of column 0.
  expect_vec_near(texture_lookup(g.view(), glm::vec2(3.6f / 4.0f, row1)),
                  0.9f * g.at(3, 1) + 0.1f * g.at(0, 1), 1e-4f);
  // Near the bottom edge the top row blends in, near the top edge the bottom row.
  const float column1 = g.centre(1, 0).x;
  expect_vec_near(texture_lookup(g.view(), glm::vec2(column1, 0.1f / 3.0f)),
                  0.6f * g.at(1, 2) + 0.4f * g.at(1, 0), 1e-4f);
  expect_vec_near(texture_lookup(g.view(), glm::vec2(column1, 1.0f - 0.1f / 3.0f)),
                  0.6f * g.at(1, 0) + 0.4f * g.at(1, 2), 1e-4f);
  // v = 0 and v = 1 lie halfway between the bottom row and the top.
  const float column2 = g.centre(2, 0).x;
  const glm::vec3 top_bottom = 0.5f * (g.at(2, 0) + g.at(2, 2));
  expect_vec_near(texture_lookup(g.view(), glm::vec2(column2, 0.0f)), top_bottom, 1e-5f);
  expect_vec_near(texture_lookup(g.view(), glm::vec2(column2, 1.0f)), top_bottom, 1e-5f);
  // Whole periods do not move the lookup, in either direction.
  for (const glm::vec2 uv : {glm::vec2(0.3f, 0.7f), glm::vec2(0.9f, 0.05f)}) {
    const glm::vec3 base = texture_lookup(g.view(), uv);
    expect_vec_near(texture_lookup(g.view(), uv + glm::vec2(2.0f, -3.0f)), base, 1e-4f);
    expect_vec_near(texture_lookup(g.view(), uv - glm::vec2(5.0f, 1.0f)), base, 1e-4f);
  }
}

TEST(TextureLookup, VZeroIsTheBottomRow) {
  // Row 0 (the top of the image) red, row 1 (the bottom) blue.
  const std::vector<glm::vec4> texels = {glm::vec4(1, 0, 0, 1), glm::vec4(0, 0, 1, 1)};
  TextureView t;
  t.texels = texels.data();
  t.width = 1;
  t.height = 2;
  t.format = 1;
  expect_vec_near(texture_lookup(t, glm::vec2(0.5f, 0.25f)), glm::vec3(0, 0, 1));
  expect_vec_near(texture_lookup(t, glm::vec2(0.5f, 0.75f)), glm::vec3(1, 0, 0));
}

// ---- Storage: 8 bits where the image holds 8 bits, mips, trilinear lookups -------------------

// An image of w x h texels decoded from 8-bit sRGB values f(x, y) in 0..255 (as the readers do).
TextureImage image_8bit(int w, int h, const std::function<glm::ivec4(int, int)>& f) {
  TextureImage image;
  image.width = w;
  image.height = h;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const glm::ivec4 v = f(x, y);
      image.texels.emplace_back(srgb_to_linear(v.x / 255.0f), srgb_to_linear(v.y / 255.0f),
                                srgb_to_linear(v.z / 255.0f), v.w / 255.0f);
    }
  return image;
}

TEST(TextureStorage, EightBitImagesKeepTheirBytesWithMips) {
  const TextureImage image =
      image_8bit(5, 3, [](int x, int y) { return glm::ivec4(40 * x, 100 + 50 * y, 7, 255); });
  const TextureStorage s = make_texture_storage(image, true);
  ASSERT_EQ(s.format, 0);
  ASSERT_EQ(s.levels, 3);  // 5 x 3, 2 x 1, 1 x 1
  EXPECT_EQ(s.offset[1], 15u);
  EXPECT_EQ(s.offset[2], 17u);
  EXPECT_EQ(s.rgba8.size(), 18u);
  // Level 0 holds the file's bytes.
  EXPECT_EQ(s.rgba8[1 * 5 + 3] & 0xffu, 120u);
  EXPECT_EQ((s.rgba8[2 * 5 + 0] >> 8) & 0xffu, 200u);
  // A colour lookup decodes, a data lookup reads the byte.
  const TextureView v = s.view(s.data());
  TextureBinding colour, data;
  data.srgb = 0;
  colour.nearest = data.nearest = 1;
  const glm::vec2 uv((3 + 0.5f) / 5, 1.0f - (1 + 0.5f) / 3);
  EXPECT_NEAR(sample_texture(v, colour, uv, -100.0f).x, srgb_to_linear(120 / 255.0f), 1e-6f);
  EXPECT_NEAR(sample_texture(v, data, uv, -100.0f).x, 120 / 255.0f, 1e-6f);
  // The last level is the mean of the linear values (odd sides filtered by coverage), for a
  // footprint of the whole texture (within the 8-bit steps of the levels between).
  glm::dvec3 mean(0.0);
  for (const glm::vec4& t : image.texels) mean += glm::dvec3(t);
  mean /= double(image.texels.size());
  const glm::vec4 far = sample_texture(v, colour, glm::vec2(0.5f), 0.0f);
  EXPECT_NEAR(far.x, mean.x, 0.01);
  EXPECT_NEAR(far.y, mean.y, 0.01);
}

TEST(TextureStorage, DataMipsAverageTheStoredValues) {
  // A normal map's bytes 0 and 255: its mip holds 128 (the stored mean), not the encoding of the
  // linear mean.
  const TextureImage image =
      image_8bit(2, 1, [](int x, int) { return glm::ivec4(x ? 255 : 0, 128, 255, 255); });
  const TextureStorage data = make_texture_storage(image, false);
  ASSERT_EQ(data.levels, 2);
  EXPECT_NEAR(double(data.rgba8[2] & 0xffu), 127.5, 0.6);
  const TextureStorage colour = make_texture_storage(image, true);
  EXPECT_NEAR(double(colour.rgba8[2] & 0xffu), 255.0 * linear_to_srgb(0.5f), 0.6);
}

TEST(TextureStorage, TrilinearBetweenLevelsAndBytesPerTexel) {
  const TextureImage image = image_8bit(
      64, 64, [](int x, int y) { return glm::ivec4((x + y) % 2 ? 255 : 0, 0, 0, 255); });
  const TextureStorage s = make_texture_storage(image, false);
  EXPECT_EQ(s.levels, 7);
  // 4 bytes a texel of level 0, and the levels below it a third more: at most 5.4.
  EXPECT_LE(double(s.bytes()) / (64.0 * 64.0), 5.4);
  const TextureView v = s.view(s.data());
  TextureBinding data;
  data.srgb = 0;
  // Level 0 at a texel centre: 0 or 1; level 1 (2 x 2 means of a checker): 0.5; between the two
  // (lod half a level up): their blend.
  const glm::vec2 uv(0.5f / 64, 1.0f - 0.5f / 64);
  EXPECT_NEAR(sample_texture(v, data, uv, -100.0f).x, 0.0f, 1e-6f);
  EXPECT_NEAR(sample_texture(v, data, uv, 1.0f - 6.0f).x, 0.5f, 0.003f);
  EXPECT_NEAR(sample_texture(v, data, uv, 0.5f - 6.0f).x, 0.25f, 0.003f);
  // Wrap modes hold on every level: clamp reads the edge, repeat the other side.
  TextureBinding clamp = data;
  clamp.wrap_u = clamp.wrap_v = 1;
  EXPECT_NEAR(sample_texture(v, clamp, glm::vec2(-3.0f, 0.5f), -100.0f).x,
              sample_texture(v, clamp, glm::vec2(0.2f / 64, 0.5f), -100.0f).x, 1e-6f);
}

TEST(TextureStorage, WiderImagesStayFloat) {
  TextureImage hdr;
  hdr.width = 2;
  hdr.height = 2;
  hdr.texels = {glm::vec4(4.0f, 0.5f, 0.25f, 1.0f), glm::vec4(0.0f), glm::vec4(1.0f),
                glm::vec4(0.1f, 0.2f, 0.3f, 1.0f)};
  const TextureStorage s = make_texture_storage(hdr, true);
  ASSERT_EQ(s.format, 1);
  EXPECT_EQ(s.rgba32f[0], hdr.texels[0]);
  TextureBinding b;
  b.nearest = 1;
  EXPECT_NEAR(sample_texture(s.view(s.data()), b, glm::vec2(0.25f, 0.75f), -100.0f).x, 4.0f,
              1e-6f);
}

TEST(TextureLookup, NonFiniteUvGivesTheFirstTexelAndHugeUvStaysInside) {
  const Grid g(3, 2);
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const glm::vec2 uv : {glm::vec2(nan, 0.5f), glm::vec2(0.5f, nan), glm::vec2(inf, 0.5f),
                             glm::vec2(0.5f, -inf), glm::vec2(nan, inf)}) {
    expect_vec_near(texture_lookup(g.view(), uv), g.at(0, 0));
  }
  // Any finite uv gives a blend of texels: every component within the texels' range.
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> exponent(-40.0f, 38.0f);
  std::uniform_int_distribution<int> sign(0, 1);
  for (int k = 0; k < 20000; ++k) {
    glm::vec2 uv;
    for (int c = 0; c < 2; ++c) uv[c] = (sign(rng) ? -1.0f : 1.0f) * std::pow(10.0f, exponent(rng));
    const glm::vec3 r = texture_lookup(g.view(), uv);
    ASSERT_TRUE(r.x >= 0.0f && r.x <= 2.0f && r.y >= 0.0f && r.y <= 1.0f && r.z >= 0.0f &&
                r.z <= 21.0f)
        << uv.x << " " << uv.y;
  }
  expect_vec_near(texture_lookup(g.view(), glm::vec2(3.0e38f, -3.0e38f)),
                  texture_lookup(g.view(), glm::vec2(0.0f)));
}

TEST(TextureLookup, EmptyViewIsWhite) {
  expect_vec_near(texture_lookup(TextureView{}, glm::vec2(0.3f, 0.4f)), glm::vec3(1.0f));
}

// ---- Image files -------------------------------------------------------------------------------

TEST(TextureImage, PngIsDecodedFromSrgbWithRowZeroAtTheTop) {
  // 2 x 2: light (255, 128, 0) at the top left and bottom right, dark (0, 0, 255) elsewhere.
  const TextureImage image = load_texture_image(kQuadPng);
  EXPECT_EQ(image.path, kQuadPng);
  ASSERT_EQ(image.width, 2);
  ASSERT_EQ(image.height, 2);
  ASSERT_EQ(image.texels.size(), 4u);
  const glm::vec4 light(1.0f, 0.2158605f, 0.0f, 1.0f), dark(0.0f, 0.0f, 1.0f, 1.0f);
  for (int k = 0; k < 4; ++k) {
    const glm::vec4 expected = k == 0 || k == 3 ? light : dark;
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(image.texels[k][c], expected[c], 1e-6f) << k << c;
  }
  // Through the view: the top-left texel is at small u, large v.
  const TextureView view = texture_view(image);
  expect_vec_near(texture_lookup(view, glm::vec2(0.25f, 0.75f)), glm::vec3(light), 1e-6f);
  expect_vec_near(texture_lookup(view, glm::vec2(0.25f, 0.25f)), glm::vec3(dark), 1e-6f);
}

TEST(TextureImage, ShippedChecker) {
  const TextureImage image = load_texture_image("scenes/textures/checker.png");
  ASSERT_EQ(image.width, 64);
  ASSERT_EQ(image.height, 64);
  const float light = srgb8_to_linear(230), dark = srgb8_to_linear(40);
  EXPECT_FLOAT_EQ(image.texels[0].x, light);
  EXPECT_FLOAT_EQ(image.texels[8].x, dark);            // the next square to the right
  EXPECT_FLOAT_EQ(image.texels[8 * 64].y, dark);       // the next square down
  EXPECT_FLOAT_EQ(image.texels[9 * 64 + 9].z, light);  // diagonally
}

TEST(TextureImage, RadianceHdrIsLinear) {
  const TempDir dir;
  // Two pixels, flat (not run-length encoded): RGBE (128, 64, 32, 129) = (1, 0.5, 0.25) and
  // (128, 128, 128, 131) = (4, 4, 4).
  std::string hdr = "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 2\n";
  hdr += std::string("\x80\x40\x20\x81\x80\x80\x80\x83", 8);
  const TextureImage image = load_texture_image(dir.file("sky.hdr", hdr));
  ASSERT_EQ(image.width, 2);
  ASSERT_EQ(image.height, 1);
  EXPECT_EQ(image.texels[0], glm::vec4(1.0f, 0.5f, 0.25f, 1.0f));
  EXPECT_EQ(image.texels[1], glm::vec4(4.0f, 4.0f, 4.0f, 1.0f));
}

TEST(TextureImage, MissingFolderAndEmptyFiles) {
  const TempDir dir;
  const std::string missing = dir.path() + "/no_such.png";
  std::string what = error_of_image(missing);
  EXPECT_CONTAINS(what, missing + ": cannot open the image file");
  what = error_of_image(dir.path());
  EXPECT_CONTAINS(what, "is a directory");
  const std::string empty = dir.file("empty.png", "");
  what = error_of_image(empty);
  EXPECT_CONTAINS(what, empty + ": the image file is empty");
}

TEST(TextureImage, CorruptAndUnknownFilesNameTheFile) {
  const TempDir dir;
  const std::string corrupt = dir.file(
      "corrupt.png", std::string("\x89PNG\r\n\x1a\n", 8) + "this is not a PNG chunk at all");
  std::string what = error_of_image(corrupt);
  EXPECT_CONTAINS(what, corrupt + ": corrupt PNG: ");
  EXPECT_EQ(what.find('\n'), std::string::npos);
  // A valid header whose image data is cut off.
  std::ifstream in(kQuadPng, std::ios::binary);
  const std::string png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(png.size(), 40u);
  const std::string truncated = dir.file("truncated.png", png.substr(0, 40));
  EXPECT_CONTAINS(error_of_image(truncated), truncated + ": corrupt PNG: truncated");
  const std::string text = dir.file("notes.png", "just some text\n");
  EXPECT_CONTAINS(error_of_image(text), text + ": cannot decode the image");
}

// ---- Issue 40, item 4: every image file is checked to its end before it is used -------------

std::string le(std::uint32_t v, int bytes) {
  std::string s;
  for (int k = 0; k < bytes; ++k) s += static_cast<char>((v >> (8 * k)) & 0xFF);
  return s;
}

// An uncompressed 24-bit BMP of w x h texels, bottom-up, texel (x, y) = (x * 40, y * 40, 200).
std::string bmp_file(int w, int h) {
  const int row = (3 * w + 3) / 4 * 4;
  std::string s = "BM" + le(54 + row * h, 4) + le(0, 4) + le(54, 4) + le(40, 4) + le(w, 4) +
                  le(h, 4) + le(1, 2) + le(24, 2) + le(0, 4) + le(row * h, 4) + le(2835, 4) +
                  le(2835, 4) + le(0, 4) + le(0, 4);
  for (int y = h - 1; y >= 0; --y) {
    std::string line;
    for (int x = 0; x < w; ++x) line += {char(200), char(y * 40), char(x * 40)};  // BGR
    s += line + std::string(std::size_t(row - 3 * w), '\0');
  }
  return s;
}

// A 24-bit TGA of w x h texels, top-down, the same texels; run-length encoded (one packet of raw
// texels per row) when `rle`.
std::string tga_file(int w, int h, bool rle) {
  std::string s = std::string(1, '\0') + '\0' + char(rle ? 10 : 2) + std::string(9, '\0') +
                  le(w, 2) + le(h, 2) + char(24) + char(0x20);
  for (int y = 0; y < h; ++y) {
    if (rle) s += char(w - 1);
    for (int x = 0; x < w; ++x) s += {char(200), char(y * 40), char(x * 40)};
  }
  return s;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// TGA is read (stb_image, its extent checked first); BMP, which no shipped asset, glTF image or
// MTL file of the tests names, is not read at all (docs/scene-format.md).
TEST(ImageFile, WholeTgaIsReadAndBmpIsNot) {
  const TempDir dir;
  const std::string bmp = dir.file("a.bmp", bmp_file(5, 3));
  EXPECT_EQ(error_of_image(bmp),
            bmp + ": cannot decode the image: not a PNG, JPEG, TGA or Radiance HDR file");
  for (const std::string& path :
       {dir.file("a.tga", tga_file(5, 3, false)), dir.file("rle.tga", tga_file(5, 3, true))}) {
    const TextureImage image = load_texture_image(path);
    ASSERT_EQ(image.width, 5) << path;
    ASSERT_EQ(image.height, 3) << path;
    // Row 0 at the top: texel (4, 2) is (160, 80, 200).
    EXPECT_FLOAT_EQ(image.texels[2 * 5 + 4].x, srgb8_to_linear(160)) << path;
    EXPECT_FLOAT_EQ(image.texels[2 * 5 + 4].y, srgb8_to_linear(80)) << path;
    EXPECT_FLOAT_EQ(image.texels[2 * 5 + 4].z, srgb8_to_linear(200)) << path;
  }
}

TEST(ImageFile, TruncatedFilesAreRefusedNamingTheFile) {
  const TempDir dir;
  const std::string bmp = bmp_file(16, 16), tga = tga_file(16, 16, false),
                    rle = tga_file(16, 16, true), png = file_bytes(kQuadPng);
  // Half of each (stb_image decoded the missing half from zeros); a BMP is refused whole or not.
  const std::string half_bmp = dir.file("half.bmp", bmp.substr(0, bmp.size() / 2));
  EXPECT_CONTAINS(error_of_image(half_bmp), half_bmp + ": cannot decode the image: not a PNG");
  const std::string half_tga = dir.file("half.tga", tga.substr(0, tga.size() / 2));
  EXPECT_CONTAINS(error_of_image(half_tga),
                  half_tga + ": corrupt TGA: truncated (the file ends within its pixels)");
  const std::string half_rle = dir.file("half_rle.tga", rle.substr(0, rle.size() / 2));
  EXPECT_CONTAINS(error_of_image(half_rle),
                  half_rle + ": corrupt TGA: truncated (the file ends within its run-length");
  // A PNG without its end, and one whose IHDR's CRC is wrong (stb_image checked no CRC).
  const std::string cut_png = dir.file("cut.png", png.substr(0, png.size() - 12));
  EXPECT_CONTAINS(error_of_image(cut_png), cut_png + ": corrupt PNG: truncated");
  std::string bad_crc = png;
  bad_crc[29] = static_cast<char>(bad_crc[29] ^ 0x55);  // IHDR: 8 + 8 + 13 bytes, then its CRC
  const std::string crc = dir.file("crc.png", bad_crc);
  EXPECT_EQ(error_of_image(crc),
            crc + ": corrupt PNG: a chunk's CRC does not match (a damaged file)");
  // A flat Radiance HDR of 8 x 4 texels with one row and a half.
  const std::string hdr_text =
      "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 8\n" + std::string(4 * 8 * 3 / 2, '\x80');
  const std::string hdr = dir.file("cut.hdr", hdr_text);
  EXPECT_EQ(error_of_image(hdr),
            hdr + ": corrupt HDR: truncated (the pixel data ends in row 1 of 4)");
}

// A baseline JPEG of 16 x 16 texels of grey 128 (written by stb_image_write, whose JPEG writer
// the sanitizer build finds undefined behaviour in: hence its bytes here).
const std::string kJpeg = std::string(
    "\xFF\xD8\xFF\xE0\x00\x10\x4A\x46\x49\x46\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xFF\xDB\x00"
    "\x84\x00\x03\x02\x02\x03\x02\x02\x03\x03\x03\x03\x04\x03\x03\x04\x05\x08\x05\x05\x04\x04\x05"
    "\x0A\x07\x07\x06\x08\x0C\x0A\x0C\x0C\x0B\x0A\x0B\x0B\x0D\x0E\x12\x10\x0D\x0E\x11\x0E\x0B\x0B"
    "\x10\x16\x10\x11\x13\x14\x15\x15\x15\x0C\x0F\x17\x18\x16\x14\x18\x12\x14\x15\x14\x01\x03\x04"
    "\x04\x05\x04\x05\x09\x05\x05\x09\x14\x0D\x0B\x0D\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14"
    "\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14"
    "\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\x14\xFF\xC0\x00\x11\x08\x00\x10"
    "\x00\x10\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01\xFF\xC4\x01\xA2\x00\x00\x01\x05\x01\x01\x01"
    "\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0A\x0B\x10"
    "\x00\x02\x01\x03\x03\x02\x04\x03\x05\x05\x04\x04\x00\x00\x01\x7D\x01\x02\x03\x00\x04\x11\x05"
    "\x12\x21\x31\x41\x06\x13\x51\x61\x07\x22\x71\x14\x32\x81\x91\xA1\x08\x23\x42\xB1\xC1\x15\x52"
    "\xD1\xF0\x24\x33\x62\x72\x82\x09\x0A\x16\x17\x18\x19\x1A\x25\x26\x27\x28\x29\x2A\x34\x35\x36"
    "\x37\x38\x39\x3A\x43\x44\x45\x46\x47\x48\x49\x4A\x53\x54\x55\x56\x57\x58\x59\x5A\x63\x64\x65"
    "\x66\x67\x68\x69\x6A\x73\x74\x75\x76\x77\x78\x79\x7A\x83\x84\x85\x86\x87\x88\x89\x8A\x92\x93"
    "\x94\x95\x96\x97\x98\x99\x9A\xA2\xA3\xA4\xA5\xA6\xA7\xA8\xA9\xAA\xB2\xB3\xB4\xB5\xB6\xB7\xB8"
    "\xB9\xBA\xC2\xC3\xC4\xC5\xC6\xC7\xC8\xC9\xCA\xD2\xD3\xD4\xD5\xD6\xD7\xD8\xD9\xDA\xE1\xE2\xE3"
    "\xE4\xE5\xE6\xE7\xE8\xE9\xEA\xF1\xF2\xF3\xF4\xF5\xF6\xF7\xF8\xF9\xFA\x01\x00\x03\x01\x01\x01"
    "\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0A\x0B"
    "\x11\x00\x02\x01\x02\x04\x04\x03\x04\x07\x05\x04\x04\x00\x01\x02\x77\x00\x01\x02\x03\x11\x04"
    "\x05\x21\x31\x06\x12\x41\x51\x07\x61\x71\x13\x22\x32\x81\x08\x14\x42\x91\xA1\xB1\xC1\x09\x23"
    "\x33\x52\xF0\x15\x62\x72\xD1\x0A\x16\x24\x34\xE1\x25\xF1\x17\x18\x19\x1A\x26\x27\x28\x29\x2A"
    "\x35\x36\x37\x38\x39\x3A\x43\x44\x45\x46\x47\x48\x49\x4A\x53\x54\x55\x56\x57\x58\x59\x5A\x63"
    "\x64\x65\x66\x67\x68\x69\x6A\x73\x74\x75\x76\x77\x78\x79\x7A\x82\x83\x84\x85\x86\x87\x88\x89"
    "\x8A\x92\x93\x94\x95\x96\x97\x98\x99\x9A\xA2\xA3\xA4\xA5\xA6\xA7\xA8\xA9\xAA\xB2\xB3\xB4\xB5"
    "\xB6\xB7\xB8\xB9\xBA\xC2\xC3\xC4\xC5\xC6\xC7\xC8\xC9\xCA\xD2\xD3\xD4\xD5\xD6\xD7\xD8\xD9\xDA"
    "\xE2\xE3\xE4\xE5\xE6\xE7\xE8\xE9\xEA\xF2\xF3\xF4\xF5\xF6\xF7\xF8\xF9\xFA\xFF\xDA\x00\x0C\x03"
    "\x01\x00\x02\x11\x03\x11\x00\x3F\x00\x28\xA2\x8A\x00\xFF\xD9",
    613);

TEST(ImageFile, JpegEndsWithItsEndOfImageMarker) {
  const TempDir dir;
  // Whole (its last bytes are the EOI marker) and cut short.
  ASSERT_EQ(kJpeg.substr(kJpeg.size() - 2), "\xFF\xD9");
  const TextureImage image = load_texture_image(dir.file("whole.jpg", kJpeg));
  EXPECT_EQ(image.width, 16);
  EXPECT_NEAR(image.texels[0].x, srgb8_to_linear(128), 0.01f);
  const std::string cut = dir.file("cut.jpg", kJpeg.substr(0, kJpeg.size() / 2));
  EXPECT_EQ(error_of_image(cut),
            cut + ": corrupt JPEG: truncated (the file ends before its end-of-image marker)");
}

// Cut at every length, or with a byte of its image data changed: a PNG or JPEG is refused naming
// the file, in one line, as libspng and libjpeg-turbo find it (libspng stops at IEND's type: the
// file must hold IEND's checksum too).
TEST(ImageFile, PngAndJpegCutAnywhereOrDamagedAreRefused) {
  const TempDir dir;
  const std::string png = file_bytes(kQuadPng);
  for (std::size_t size = 8; size < png.size(); ++size) {
    const std::string what = error_of_image(dir.file("cut.png", png.substr(0, size)));
    EXPECT_CONTAINS(what, dir.path("cut.png") + ": corrupt PNG: ") << size;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
  EXPECT_CONTAINS(error_of_image(dir.file("cut.png", png.substr(0, png.size() - 4))),
                  "corrupt PNG: truncated (the file ends before its IEND chunk)");
  std::string damaged = png;
  damaged[damaged.size() - 20] ^= 0x55;  // within IDAT's zlib data
  EXPECT_CONTAINS(error_of_image(dir.file("damaged.png", damaged)), ": corrupt PNG: ");
  for (std::size_t size = 3; size < kJpeg.size(); ++size) {
    const std::string what = error_of_image(dir.file("cut.jpg", kJpeg.substr(0, size)));
    EXPECT_CONTAINS(what, dir.path("cut.jpg") + ": corrupt JPEG: ") << size;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
  EXPECT_EQ(error_of_image(dir.file("cut.jpg", kJpeg.substr(0, kJpeg.size() - 1))),
            dir.path("cut.jpg") +
                ": corrupt JPEG: truncated (the file ends before its end-of-image marker)");
}

// A JPEG of w x h pixels of one colour (`components` values: grey, or CMYK as Adobe stores it,
// inverted), at quality 100, written by libjpeg.
std::string jpeg_file(int w, int h, J_COLOR_SPACE space, const std::vector<std::uint8_t>& colour) {
  jpeg_compress_struct cinfo{};
  jpeg_error_mgr err{};
  cinfo.err = jpeg_std_error(&err);
  jpeg_create_compress(&cinfo);
  unsigned char* out = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&cinfo, &out, &size);
  cinfo.image_width = JDIMENSION(w);
  cinfo.image_height = JDIMENSION(h);
  cinfo.input_components = int(colour.size());
  cinfo.in_color_space = space;
  jpeg_set_defaults(&cinfo);
  jpeg_set_colorspace(&cinfo, space);
  jpeg_set_quality(&cinfo, 100, TRUE);
  jpeg_start_compress(&cinfo, TRUE);
  std::vector<std::uint8_t> row;
  for (int x = 0; x < w; ++x) row.insert(row.end(), colour.begin(), colour.end());
  while (cinfo.next_scanline < cinfo.image_height) {
    JSAMPROW rows[1] = {row.data()};
    jpeg_write_scanlines(&cinfo, rows, 1);
  }
  jpeg_finish_compress(&cinfo);
  jpeg_destroy_compress(&cinfo);
  std::string bytes(reinterpret_cast<const char*>(out), size);
  std::free(out);
  return bytes;
}

// Grey JPEGs are expanded; CMYK ones (Adobe's, inverted) become (C x K, M x K, Y x K) / 255, as
// stb_image read them.
TEST(ImageFile, GreyAndCmykJpegs) {
  const TempDir dir;
  const TextureImage grey =
      load_texture_image(dir.file("grey.jpg", jpeg_file(16, 8, JCS_GRAYSCALE, {90})));
  ASSERT_EQ(grey.width, 16);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(grey.texels[5][c], srgb8_to_linear(90), 0.01f);
  const TextureImage cmyk =
      load_texture_image(dir.file("cmyk.jpg", jpeg_file(16, 8, JCS_CMYK, {255, 128, 0, 200})));
  EXPECT_NEAR(cmyk.texels[5].x, srgb8_to_linear(200), 0.01f);
  EXPECT_NEAR(cmyk.texels[5].y, srgb8_to_linear(100), 0.01f);
  EXPECT_NEAR(cmyk.texels[5].z, 0.0f, 0.01f);
  EXPECT_EQ(cmyk.texels[5].w, 1.0f);
}

// A PNG written by libspng: `pixels` of the given colour type and bit depth (16-bit samples
// big-endian, as the file holds them), with a tRNS chunk when `trns` is given.
std::string spng_file(std::uint32_t w, std::uint32_t h, std::uint8_t type, std::uint8_t depth,
                      const std::vector<std::uint8_t>& pixels, const spng_trns* trns = nullptr,
                      const spng_plte* plte = nullptr) {
  spng_ctx* ctx = spng_ctx_new(SPNG_CTX_ENCODER);
  spng_ihdr ihdr{w, h, depth, type, 0, 0, 0};
  spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
  spng_set_ihdr(ctx, &ihdr);
  if (plte) spng_set_plte(ctx, const_cast<spng_plte*>(plte));
  if (trns) spng_set_trns(ctx, const_cast<spng_trns*>(trns));
  int err =
      spng_encode_image(ctx, pixels.data(), pixels.size(), SPNG_FMT_RAW, SPNG_ENCODE_FINALIZE);
  std::size_t size = 0;
  void* out = err ? nullptr : spng_get_png_buffer(ctx, &size, &err);
  spng_ctx_free(ctx);
  EXPECT_NE(out, nullptr) << spng_strerror(err);
  std::string bytes(static_cast<const char*>(out), size);
  std::free(out);
  return bytes;
}

// What the scene format documents of PNGs: 16-bit samples read at 8 bits (their high byte), grey
// expanded, a palette looked up, tRNS as alpha.
TEST(ImageFile, SixteenBitGreyAndPalettePngs) {
  const TempDir dir;
  const TextureImage rgb16 = load_texture_image(dir.file(
      "rgb16.png", spng_file(1, 1, SPNG_COLOR_TYPE_TRUECOLOR, 16, {0x80, 0x7F, 0x40, 0xFF, 0, 1})));
  EXPECT_EQ(rgb16.texels[0],
            glm::vec4(srgb8_to_linear(0x80), srgb8_to_linear(0x40), srgb8_to_linear(0), 1.0f));
  spng_trns grey_key{};
  grey_key.gray = 7;
  const TextureImage grey = load_texture_image(
      dir.file("grey.png", spng_file(2, 1, SPNG_COLOR_TYPE_GRAYSCALE, 8, {7, 200}, &grey_key)));
  EXPECT_EQ(grey.texels[0], glm::vec4(glm::vec3(srgb8_to_linear(7)), 0.0f));
  EXPECT_EQ(grey.texels[1], glm::vec4(glm::vec3(srgb8_to_linear(200)), 1.0f));
  spng_plte plte{};
  plte.n_entries = 2;
  plte.entries[1].red = 10, plte.entries[1].green = 20, plte.entries[1].blue = 30;
  spng_trns alpha{};
  alpha.n_type3_entries = 2;
  alpha.type3_alpha[0] = 255, alpha.type3_alpha[1] = 51;
  const TextureImage indexed = load_texture_image(
      dir.file("indexed.png", spng_file(2, 1, SPNG_COLOR_TYPE_INDEXED, 8, {0, 1}, &alpha, &plte)));
  EXPECT_EQ(indexed.texels[1],
            glm::vec4(srgb8_to_linear(10), srgb8_to_linear(20), srgb8_to_linear(30), 0.2f));
}

// A PNG signature and IHDR chunk (its CRC right: the decoder checks it) for an RGBA image of the
// given size, with no image data: enough for the size check.
std::string png_header(std::uint32_t width, std::uint32_t height) {
  std::string s("\x89PNG\r\n\x1a\n", 8);
  const auto be32 = [&](std::uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) s += static_cast<char>((v >> shift) & 0xFF);
  };
  be32(13);
  s += "IHDR";
  be32(width);
  be32(height);
  s += std::string("\x08\x06\x00\x00\x00", 5);
  be32(std::uint32_t(crc32(0, reinterpret_cast<const Bytef*>(s.data() + 12), 17)));
  return s;
}

TEST(TextureImage, AbsurdSizesAreRefusedBeforeDecoding) {
  const TempDir dir;
  const std::string wide = dir.file("wide.png", png_header(100000, 1));
  std::string what = error_of_image(wide);
  EXPECT_CONTAINS(what, wide + ": the image is 100000 x 1 texels, too large for a texture");
  // Each side allowed, the two together too many texels.
  const std::string big = dir.file("big.png", png_header(16384, 8192));
  EXPECT_CONTAINS(error_of_image(big), "16384 x 8192 texels, too large");
  const std::string hdr =
      dir.file("huge.hdr", "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 20000 +X 20000\n");
  EXPECT_CONTAINS(error_of_image(hdr), hdr + ": the image is 20000 x 20000 texels");
}

// ---- OBJ texture coordinates -------------------------------------------------------------------

const MtlLookup kNoMtl = [](const std::string&, std::string&, std::string&) { return false; };

// The numbers as written, rounded to a float: within a float's rounding of the written value.
void expect_uv(const glm::vec2& a, const glm::vec2& b) {
  EXPECT_NEAR(a.x, b.x, 1e-6f);
  EXPECT_NEAR(a.y, b.y, 1e-6f);
}

TEST(ObjTexcoords, PerCornerAndZeroWithoutVt) {
  std::vector<std::string> warnings;
  const std::string text =
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\n"
      "vt 0.1 0.2\nvt 0.9 0.2\nvt 0.9 0.8\nvt 0.1 0.8 0.5\n"
      "f 1/1 2/2 3/3\n"
      "f 1 3 4\n"             // no vt at all
      "f 1/4 3/3 4/1\n"       // vt in another order; a 3-component vt keeps its u and v
      "f 1/1 2/2 3/3 4/4\n";  // a quad, triangulated
  const ObjMesh mesh = parse_obj(text, "x.obj", kNoMtl, warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_EQ(mesh.triangles.size(), 5u);
  const Triangle& a = mesh.triangles[0];
  expect_uv(a.uv[0], glm::vec2(0.1f, 0.2f));
  expect_uv(a.uv[1], glm::vec2(0.9f, 0.2f));
  expect_uv(a.uv[2], glm::vec2(0.9f, 0.8f));
  for (int c = 0; c < 3; ++c) EXPECT_EQ(mesh.triangles[1].uv[c], glm::vec2(0.0f)) << c;
  expect_uv(mesh.triangles[2].uv[0], glm::vec2(0.1f, 0.8f));
  expect_uv(mesh.triangles[2].uv[1], glm::vec2(0.9f, 0.8f));
  expect_uv(mesh.triangles[2].uv[2], glm::vec2(0.1f, 0.2f));
  // Each corner of the triangulated quad keeps its vertex's vt.
  for (int t = 3; t < 5; ++t) {
    for (int c = 0; c < 3; ++c) {
      const glm::vec3 v = mesh.triangles[t].v[c];
      SCOPED_TRACE(std::to_string(t) + " " + std::to_string(c));
      expect_uv(mesh.triangles[t].uv[c],
                glm::vec2(v.x > 0.5f ? 0.9f : 0.1f, v.y > 0.5f ? 0.8f : 0.2f));
    }
  }
}

TEST(ObjTexcoords, FollowTheCornersWhenTheWindingTurns) {
  std::vector<std::string> warnings;
  // Vertex normals along -z, the winding counter-clockwise seen from +z: the winding is turned.
  const ObjMesh mesh = parse_obj(
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvn 0 0 -1\nf 1/1/1 2/2/1 3/3/1\n",
      "x.obj", kNoMtl, warnings);
  ASSERT_EQ(mesh.triangles.size(), 1u);
  const Triangle& t = mesh.triangles[0];
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(t.uv[c], glm::vec2(t.v[c].x, t.v[c].y)) << c;  // vt k is vertex k's x and y
  }
  EXPECT_EQ(t.v[1], glm::vec3(0, 1, 0));  // turned
}

TEST(ObjTexcoords, OutOfRangeAndNonFiniteAreZeroWithAWarning) {
  std::vector<std::string> warnings;
  const ObjMesh mesh = parse_obj(
      "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0.5 0.5\nvt 1e999 0.5\n"
      "f 1/1 2/9 3/-7\nf 1/2 2/1 3/1\n",
      "x.obj", kNoMtl, warnings);
  ASSERT_EQ(mesh.triangles.size(), 2u);
  EXPECT_EQ(mesh.triangles[0].uv[0], glm::vec2(0.5f));
  EXPECT_EQ(mesh.triangles[0].uv[1], glm::vec2(0.0f));
  EXPECT_EQ(mesh.triangles[0].uv[2], glm::vec2(0.0f));
  EXPECT_EQ(mesh.triangles[1].uv[0], glm::vec2(0.0f));
  EXPECT_EQ(mesh.triangles[1].uv[1], glm::vec2(0.5f));
  for (const Triangle& t : mesh.triangles)
    for (int c = 0; c < 3; ++c) ASSERT_TRUE(std::isfinite(t.uv[c].x) && std::isfinite(t.uv[c].y));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_CONTAINS(warnings[0], "x.obj: 3 face corners have a texture coordinate (vt) index out");
}

// ---- MTL map_Kd
// ----------------------------------------------------------------------------------

TEST(MtlMapKd, ResolvedAgainstTheMtlFolder) {
  std::vector<std::string> warnings;
  const ObjMesh mesh = load_obj(kMeshes + "textured_quad.obj", warnings);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  ASSERT_EQ(mesh.materials.size(), 3u);
  ASSERT_EQ(mesh.kd_maps.size(), 3u);
  EXPECT_EQ(mesh.kd_maps[0].path, kQuadPng);
  EXPECT_EQ(mesh.kd_maps[0].origin, kMeshes + "textured_quad.mtl:5: map_Kd");
  EXPECT_EQ(mesh.kd_maps[1].path, kQuadPng);  // options before the name are dropped
  EXPECT_EQ(mesh.kd_maps[1].origin, kMeshes + "textured_quad.mtl:9: map_Kd");
  // The mirror's map_Kd is ignored, with a warning naming the line.
  EXPECT_EQ(mesh.materials[2].type, MaterialType::specular);
  EXPECT_TRUE(mesh.kd_maps[2].path.empty());
  ASSERT_EQ(mesh.material_warnings.size(), 1u);
  EXPECT_CONTAINS(mesh.material_warnings[0], "textured_quad.mtl:14: map_Kd: material \"mirror\"");
  EXPECT_CONTAINS(mesh.material_warnings[0], "only Diffuse and Plastic materials are textured");
  for (const Material& m : mesh.materials) EXPECT_FALSE(m.texture.present());
  // The quad's uvs: vt = the vertex's x and y; the third triangle has none.
  ASSERT_EQ(mesh.triangles.size(), 3u);
  for (int t = 0; t < 2; ++t)
    for (int c = 0; c < 3; ++c)
      EXPECT_EQ(mesh.triangles[t].uv[c],
                glm::vec2(mesh.triangles[t].v[c].x, mesh.triangles[t].v[c].y));
  for (int c = 0; c < 3; ++c) EXPECT_EQ(mesh.triangles[2].uv[c], glm::vec2(0.0f));
}

TEST(MtlMapKd, FoundByFileNameAndWithBackslashes) {
  // Names that do not resolve as written: a folder that did not ship, Windows separators.
  const std::string mtl =
      "newmtl a\nKd 1 1 1\nmap_Kd C:\\art\\quad.png\n"
      "newmtl b\nKd 1 1 1\nmap_Kd exported/textures/quad.png\n"
      "newmtl c\nKd 1 1 1\nmap_Kd textures\\quad.png\n"
      "newmtl d\nKd 1 1 1\nmap_Kd nowhere/none.png\n";
  const MtlLookup lookup = [&](const std::string&, std::string& text, std::string& path) {
    text = mtl;
    path = kMeshes + "textures/lib.mtl";  // the folder that holds quad.png
    return true;
  };
  std::vector<std::string> warnings;
  const ObjMesh mesh =
      parse_obj("mtllib lib.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "x.obj", lookup, warnings);
  ASSERT_EQ(mesh.kd_maps.size(), 4u);
  EXPECT_EQ(mesh.kd_maps[0].path, kQuadPng);
  EXPECT_EQ(mesh.kd_maps[1].path, kQuadPng);
  EXPECT_EQ(mesh.kd_maps[2].path, kMeshes + "textures/quad.png");
  // Found nowhere: the path as written, against the MTL's folder (the scene loader's error).
  EXPECT_EQ(mesh.kd_maps[3].path, kMeshes + "textures/nowhere/none.png");
  EXPECT_EQ(mesh.kd_maps[3].origin, kMeshes + "textures/lib.mtl:12: map_Kd");
}

// A scene around mesh objects and materials (the camera is irrelevant to loading).
std::string scene_text(const std::string& materials, const std::string& objects) {
  return R"({"Materials": {"lamp": {"TYPE": "Emitting", "RGB": [1, 1, 1], "EMITTANCE": 3})" +
         materials + R"(},
             "Camera": {"RES": [8, 8], "FOVY": 20, "ITERATIONS": 1, "DEPTH": 2,
                        "EYE": [0, 1, 4], "LOOKAT": [0, 1, 0], "UP": [0, 1, 0]},
             "Objects": [{"TYPE": "sphere", "MATERIAL": "lamp"})" +
         (objects.empty() ? "" : ", " + objects) + "]}";
}

const Material& material_named(const Scene& s, const std::string& name) {
  for (const Material& m : s.materials)
    if (m.name == name) return m;
  ADD_FAILURE() << "no material " << name;
  return s.materials.front();
}

TEST(MtlMapKd, SceneLoadsEachImageOnce) {
  std::vector<std::string> warnings;
  const Scene s = parse_scene(scene_text("", R"({"TYPE": "mesh", "FILE": "textured_quad.obj"},
                        {"TYPE": "mesh", "FILE": "textured_quad.obj", "TRANS": [0, 0, 2]},
                        {"TYPE": "mesh", "FILE": "./textured_quad.obj", "SCALE": [-1, 1, 1]})"),
                              kMeshes + "scene.json", warnings);
  // Two materials of one file and three objects: one image.
  ASSERT_EQ(s.textures.size(), 1u);
  EXPECT_EQ(s.textures[0].path, kQuadPng);
  EXPECT_EQ(s.textures[0].width, 2);
  EXPECT_EQ(material_named(s, "textured_quad.obj:checker").texture.texture, 0);
  EXPECT_EQ(material_named(s, "textured_quad.obj:checker_again").texture.texture, 0);
  EXPECT_EQ(material_named(s, "textured_quad.obj:checker_again").color, glm::vec3(0.5f));
  EXPECT_EQ(material_named(s, "textured_quad.obj:mirror").texture.texture, -1);
  // The mirror's warning is passed on, once per file.
  int about_mirror = 0;
  for (const std::string& w : warnings)
    if (w.find("material \"mirror\"") != std::string::npos) ++about_mirror;
  EXPECT_EQ(about_mirror, 1);
  // World-space triangles keep their uvs; the mirrored object's winding turns with them.
  // Each object's three triangles in the file's order; the third has no vt.
  ASSERT_EQ(s.triangles.size(), 9u);
  for (std::size_t k = 0; k < 9; ++k) {
    const Triangle& t = s.triangles[k];
    const bool mirrored = k >= 6;  // SCALE x -1: world x = -(the file's x)
    for (int c = 0; c < 3; ++c) {
      const glm::vec2 expected =
          k % 3 == 2 ? glm::vec2(0.0f) : glm::vec2(mirrored ? -t.v[c].x : t.v[c].x, t.v[c].y);
      EXPECT_EQ(t.uv[c], expected) << k << " " << c;
    }
  }
}

TEST(MtlMapKd, NotReadWhereTheSceneNamesTheMaterial) {
  std::vector<std::string> warnings;
  const Scene s = parse_scene(scene_text("", R"({"TYPE": "mesh", "FILE": "missing_texture.obj",
                                     "MATERIAL": "lamp"})"),
                              kMeshes + "scene.json", warnings);
  EXPECT_TRUE(s.textures.empty());
  EXPECT_EQ(s.triangles.size(), 1u);
}

TEST(MtlMapKd, MissingImageNamesTheKeyTheMtlAndTheImage) {
  std::vector<std::string> warnings;
  try {
    parse_scene(scene_text("", R"({"TYPE": "mesh", "FILE": "missing_texture.obj"})"),
                kMeshes + "scene.json", warnings);
    ADD_FAILURE() << "expected an error";
  } catch (const SceneError& e) {
    EXPECT_CONTAINS(e.what(), kMeshes + "scene.json: Objects[1].FILE: " + kMeshes +
                                  "missing_texture.mtl:3: map_Kd: " + kMeshes +
                                  "textures/no_such_texture.png: cannot open the image file");
  }
}

// ---- The scene's TEXTURE key -------------------------------------------------------------------

TEST(SceneTexture, LoadsRelativeToTheSceneFileAndSharesImagesWithMtl) {
  std::vector<std::string> warnings;
  const Scene s = parse_scene(scene_text(R"(, "wood": {"TYPE": "Diffuse", "RGB": [0.5, 0.5, 0.5],
                               "TEXTURE": "textures/quad.png"},
                    "same": {"TYPE": "diffuse", "RGB": [1, 1, 1],
                             "TEXTURE": "../meshes/textures/./quad.png"},
                    "plain": {"TYPE": "Diffuse", "RGB": [1, 1, 1]})",
                                         R"({"TYPE": "cube", "MATERIAL": "wood"},
                    {"TYPE": "mesh", "FILE": "textured_quad.obj"})"),
                              kMeshes + "scene.json", warnings);
  ASSERT_EQ(s.textures.size(), 1u) << "one image, named three ways";
  EXPECT_EQ(s.textures[0].path, kQuadPng);
  EXPECT_EQ(material_named(s, "wood").texture.texture, 0);
  EXPECT_EQ(material_named(s, "wood").color, glm::vec3(0.5f));
  EXPECT_EQ(material_named(s, "same").texture.texture, 0);
  EXPECT_EQ(material_named(s, "plain").texture.texture, -1);
  EXPECT_EQ(material_named(s, "textured_quad.obj:checker").texture.texture, 0);
  // The one warning: the MTL's mirror.
  ASSERT_EQ(warnings.size(), 1u) << warnings.front();
  EXPECT_CONTAINS(warnings[0], "mirror");
}

TEST(SceneTexture, OnlyDiffuseMaterialsAreTextured) {
  std::vector<std::string> warnings;
  // Not read at all: the file does not exist, and that is no error here.
  const Scene s = parse_scene(
      scene_text(R"(, "chrome": {"TYPE": "Specular", "RGB": [1, 1, 1], "TEXTURE": "none.png"})",
                 R"({"TYPE": "cube", "MATERIAL": "chrome"})"),
      kMeshes + "scene.json", warnings);
  EXPECT_TRUE(s.textures.empty());
  EXPECT_EQ(material_named(s, "chrome").texture.texture, -1);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], kMeshes +
                             "scene.json: Materials.chrome.TEXTURE: only Diffuse, Plastic and Pbr "
                             "materials read TEXTURE; ignored");
}

std::string scene_error(const std::string& text, const std::string& path) {
  std::vector<std::string> warnings;
  try {
    parse_scene(text, path, warnings);
  } catch (const SceneError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no SceneError";
  return "";
}

TEST(SceneTexture, ErrorsNameTheSceneTheKeyAndTheImage) {
  const std::string scene = "tests/data/scene.json";
  EXPECT_EQ(scene_error(scene_text(R"(, "wood": {"TYPE": "Diffuse", "RGB": [1, 1, 1],
                                                 "TEXTURE": "textures/wood.png"})",
                                   ""),
                        scene),
            scene +
                ": Materials.wood.TEXTURE: tests/data/textures/wood.png: cannot open "
                "the image file: No such file or directory");
  EXPECT_CONTAINS(
      scene_error(
          scene_text(R"(, "wood": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "TEXTURE": 3})", ""),
          scene),
      "Materials.wood.TEXTURE: expected a string, got an integer");
  EXPECT_CONTAINS(
      scene_error(
          scene_text(R"(, "wood": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "TEXTURE": ""})", ""),
          scene),
      "Materials.wood.TEXTURE: expected a non-empty image file path");
  EXPECT_CONTAINS(scene_error(scene_text(R"(, "wood": {"TYPE": "Diffuse", "RGB": [1, 1, 1],
                                                       "TEXTURE": "meshes"})",
                                         ""),
                              scene),
                  "Materials.wood.TEXTURE: tests/data/meshes: is a directory");

  // A corrupt image next to a scene file of its own.
  const TempDir dir;
  const std::string corrupt =
      dir.file("broken.png", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(64, '\x07'));
  const std::string text =
      scene_text(R"(, "wood": {"TYPE": "Diffuse", "RGB": [1, 1, 1], "TEXTURE": "broken.png"})", "");
  const std::string scene_path = dir.file("scene.json", text);
  std::vector<std::string> warnings;
  try {
    load_scene(scene_path, warnings);
    ADD_FAILURE() << "expected an error";
  } catch (const SceneError& e) {
    EXPECT_CONTAINS(e.what(),
                    scene_path + ": Materials.wood.TEXTURE: " + corrupt + ": corrupt PNG: ");
  }
}

TEST(ImageFile, OneRuleForTextureMapKdAndEnvironment) {
  // The same cut HDR named by TEXTURE, by an MTL's map_Kd and as the environment: one message.
  const TempDir dir;
  const std::string cut =
      "#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 4 +X 8\n" + std::string(4 * 8 * 2, '\x80');
  dir.file("cut.hdr", cut);
  dir.file("quad.obj",
           "mtllib quad.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
           "usemtl m\nf 1/1 2/2 3/3\n");
  dir.file("quad.mtl", "newmtl m\nKd 1 1 1\nmap_Kd cut.hdr\n");
  const std::string expected =
      dir.path("cut.hdr") + ": corrupt HDR: truncated (the pixel data ends in row 2 of 4)";
  const auto error_of_scene = [&](const std::string& materials, const std::string& objects,
                                  const std::string& extra) {
    std::vector<std::string> warnings;
    std::string text = scene_text(materials, objects);
    text.insert(text.size() - 1, extra);
    try {
      parse_scene(text, dir.path("scene.json"), warnings);
    } catch (const SceneError& e) {
      return std::string(e.what());
    }
    return std::string("loaded");
  };
  EXPECT_CONTAINS(error_of_scene(R"(, "t": {"TYPE": "Diffuse", "RGB": [1, 1, 1],
                                 "TEXTURE": "cut.hdr"})",
                                 "", ""),
                  "Materials.t.TEXTURE: " + expected);
  EXPECT_CONTAINS(error_of_scene("", R"({"TYPE": "mesh", "FILE": "quad.obj"})", ""),
                  "quad.mtl:3: map_Kd: " + expected);
  EXPECT_CONTAINS(error_of_scene("", "", R"(, "Environment": {"FILE": "cut.hdr"})"),
                  "Environment.FILE: " + expected);
}

}  // namespace
}  // namespace raystream
