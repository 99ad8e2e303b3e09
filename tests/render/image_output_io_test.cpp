// Film output: tone mapping, PNG and HDR files that read back, atomic writes that leave no
// partial file behind.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "film/atomic_file.h"
#include "film/image_output.h"

#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

namespace raystream {
namespace {

namespace fs = std::filesystem;

// A fresh folder per test, removed afterwards.
class ImageOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("raystream-image-test-" + std::to_string(getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
    return names;
  }
  fs::path dir_;
};

// A width x height image whose values vary per pixel and channel, in [0, 1.2].
Image gradient(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgb.resize(static_cast<std::size_t>(width) * height * 3);
  for (std::size_t i = 0; i < image.rgb.size(); ++i) {
    image.rgb[i] = static_cast<float>(i % 13) / 10.0f;
  }
  return image;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(ToneMap, KnownValues) {
  EXPECT_EQ(tone_map_srgb8(0.0f), 0);
  EXPECT_EQ(tone_map_srgb8(1.0f), 255);
  // Linear part of the sRGB curve: 12.92 * 0.001 * 255 = 3.29.
  EXPECT_EQ(tone_map_srgb8(0.001f), 3);
  // 1.055 * 0.2^(1/2.4) - 0.055 = 0.48451; * 255 = 123.55.
  EXPECT_EQ(tone_map_srgb8(0.2f), 124);
  // Values above 1 clip to white; negative ones and NaN become black.
  EXPECT_EQ(tone_map_srgb8(7.0f), 255);
  EXPECT_EQ(tone_map_srgb8(std::numeric_limits<float>::infinity()), 255);
  EXPECT_EQ(tone_map_srgb8(-0.5f), 0);
  EXPECT_EQ(tone_map_srgb8(std::numeric_limits<float>::quiet_NaN()), 0);
}

TEST(ToneMap, MonotonicOverTheUnitRange) {
  int previous = 0;
  for (int i = 0; i <= 4096; ++i) {
    const int v = tone_map_srgb8(static_cast<float>(i) / 4096.0f);
    EXPECT_GE(v, previous) << "at " << i;
    previous = v;
  }
  EXPECT_EQ(previous, 255);
}

TEST(ToneMap, WholeImageInOrder) {
  const Image image = gradient(4, 3);
  const std::vector<std::uint8_t> pixels = tone_map_srgb8(image);
  ASSERT_EQ(pixels.size(), image.rgb.size());
  for (std::size_t i = 0; i < pixels.size(); ++i)
    EXPECT_EQ(pixels[i], tone_map_srgb8(image.rgb[i]));
}

TEST(ImagePaths, Extensions) {
  EXPECT_TRUE(is_hdr_path("a/b.hdr"));
  EXPECT_TRUE(is_hdr_path("B.HDR"));
  EXPECT_FALSE(is_hdr_path("b.png"));
  EXPECT_FALSE(is_hdr_path("hdr"));
  EXPECT_TRUE(is_supported_image_path("x.png"));
  EXPECT_TRUE(is_supported_image_path("x.PNG"));
  EXPECT_TRUE(is_supported_image_path("x.hdr"));
  EXPECT_FALSE(is_supported_image_path("x.jpg"));
  EXPECT_FALSE(is_supported_image_path("png"));
}

TEST_F(ImageOutput, PngReadsBackAsTheToneMappedImage) {
  const Image image = gradient(5, 3);
  const std::string file = path("out.png");
  write_image(image, file);
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(file.c_str(), &w, &h, &channels, 3);
  ASSERT_NE(data, nullptr) << stbi_failure_reason();
  EXPECT_EQ(w, 5);
  EXPECT_EQ(h, 3);
  EXPECT_EQ(channels, 3);
  const std::vector<std::uint8_t> expected = tone_map_srgb8(image);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(data[i], expected[i]) << "byte " << i;
  }
  stbi_image_free(data);
  EXPECT_EQ(entries(), std::vector<std::string>{"out.png"});  // no temporary file left
  EXPECT_EQ(fs::status(file).permissions() & fs::perms::others_read, fs::perms::others_read);
}

TEST_F(ImageOutput, HdrHasRadianceHeaderAndLinearValues) {
  Image image = gradient(5, 3);
  image.rgb[0] = 3.5f;  // beyond what a PNG holds
  image.rgb[1] = -1.0f;
  image.rgb[2] = std::numeric_limits<float>::quiet_NaN();
  const std::string file = path("out.hdr");
  write_image(image, file);
  const std::string bytes = read_all(file);
  EXPECT_EQ(bytes.rfind("#?RADIANCE\n", 0), 0u);
  EXPECT_NE(bytes.find("FORMAT=32-bit_rle_rgbe\n"), std::string::npos);
  EXPECT_NE(bytes.find("-Y 3 +X 5\n"), std::string::npos);

  int w = 0, h = 0, channels = 0;
  float* data = stbi_loadf(file.c_str(), &w, &h, &channels, 3);
  ASSERT_NE(data, nullptr) << stbi_failure_reason();
  EXPECT_EQ(w, 5);
  EXPECT_EQ(h, 3);
  EXPECT_NEAR(data[0], 3.5f, 3.5f / 128);
  EXPECT_EQ(data[1], 0.0f);
  EXPECT_EQ(data[2], 0.0f);
  for (std::size_t i = 3; i < image.rgb.size(); ++i) {
    // RGBE keeps 8 bits of mantissa relative to the largest channel of the pixel.
    const std::size_t p = i / 3 * 3;
    const float largest = std::max({image.rgb[p], image.rgb[p + 1], image.rgb[p + 2]});
    EXPECT_NEAR(data[i], image.rgb[i], largest / 128 + 1e-6f) << "value " << i;
  }
  stbi_image_free(data);
}

TEST_F(ImageOutput, OverwritesAnExistingFileWhole) {
  const std::string file = path("out.png");
  { std::ofstream(file) << std::string(100000, 'x'); }
  write_image(gradient(2, 2), file);
  const std::string bytes = read_all(file);
  EXPECT_EQ(bytes.substr(1, 3), "PNG");
  EXPECT_LT(bytes.size(), 1000u);
  EXPECT_EQ(entries(), std::vector<std::string>{"out.png"});
}

TEST_F(ImageOutput, MissingFolderIsAClearErrorAndLeavesNothing) {
  const std::string file = path("no/such/folder/out.png");
  try {
    write_image(gradient(2, 2), file);
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(ImageOutput, ParentThatIsAFileIsAClearErrorAndLeavesNothing) {
  // Fails for every user, root included.
  { std::ofstream(path("plain")) << "not a folder"; }
  const std::string file = path("plain/out.png");
  EXPECT_THROW(write_image(gradient(2, 2), file), OutputError);
  EXPECT_THROW(check_writable(file), OutputError);
  EXPECT_EQ(entries(), std::vector<std::string>{"plain"});
  EXPECT_EQ(read_all(path("plain")), "not a folder");
}

TEST_F(ImageOutput, OutputThatIsAFolderIsAnError) {
  fs::create_directories(path("out.png"));
  EXPECT_THROW(write_image(gradient(2, 2), path("out.png")), OutputError);
  EXPECT_THROW(check_writable(path("out.png")), OutputError);
  EXPECT_TRUE(fs::is_directory(path("out.png")));
  EXPECT_EQ(entries(), std::vector<std::string>{"out.png"});
}

TEST_F(ImageOutput, ReadOnlyFolderLeavesNoPartialFile) {
  if (geteuid() == 0) GTEST_SKIP() << "root may write into read-only folders";
  const std::string folder = path("locked");
  fs::create_directories(folder);
  fs::permissions(folder, fs::perms::owner_read | fs::perms::owner_exec);
  const std::string file = folder + "/out.png";
  try {
    write_image(gradient(2, 2), file);
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Permission denied"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_writable(file), OutputError);
  EXPECT_TRUE(fs::is_empty(folder));
}

TEST_F(ImageOutput, FailedWriteKeepsTheOldFileAndLeavesNoPartialFile) {
  // A file size limit makes the write fail part way, as a full disk would (for root too).
  const std::string file = path("out.hdr");
  { std::ofstream(file) << "previous image"; }
  struct rlimit old_limit;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old_limit;
  small.rlim_cur = 1000;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  try {
    write_image(gradient(64, 64), file);  // about 16 KiB of RGBE
  } catch (const OutputError& e) {
    message = e.what();
  }
  setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_NE(message.find(file), std::string::npos) << message;
  EXPECT_NE(message.find("write failed"), std::string::npos) << message;
  EXPECT_EQ(read_all(file), "previous image");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.hdr"});
}

TEST_F(ImageOutput, CheckWritableLeavesNoFile) {
  check_writable(path("out.png"));
  EXPECT_TRUE(entries().empty());
}

TEST_F(ImageOutput, InconsistentImageIsRejectedBeforeWriting) {
  Image image = gradient(4, 4);
  image.rgb.pop_back();
  EXPECT_THROW(write_image(image, path("out.png")), std::invalid_argument);
  Image empty;
  EXPECT_THROW(write_image(empty, path("out.hdr")), std::invalid_argument);
  EXPECT_TRUE(entries().empty());
}

TEST_F(ImageOutput, AtomicWriteOfBytes) {
  const std::string file = path("data.bin");
  const std::vector<unsigned char> bytes = {1, 2, 3, 0, 255};
  write_file_atomically(file, bytes);
  EXPECT_EQ(read_all(file), std::string("\x01\x02\x03\x00\xff", 5));
  write_file_atomically(file, {});
  EXPECT_EQ(read_all(file), "");
  EXPECT_EQ(entries(), std::vector<std::string>{"data.bin"});
  EXPECT_THROW(write_file_atomically(path("sub/"), bytes), OutputError);
}

}  // namespace
}  // namespace raystream
