// Film output: tone mapping, PNG and HDR files that read back, atomic writes that leave no
// partial file behind.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "io/files/atomic_file.h"
#include "io/image/image_output.h"

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
  EXPECT_EQ(image_format_of_path("a/b.hdr"), ImageFormat::hdr);
  EXPECT_EQ(image_format_of_path("B.HDR"), ImageFormat::hdr);
  EXPECT_EQ(image_format_of_path("b.png"), ImageFormat::png);
  EXPECT_EQ(image_format_of_path("c.Pfm"), ImageFormat::pfm);
  EXPECT_EQ(image_format_of_path("hdr"), std::nullopt);
  EXPECT_EQ(image_format_of_path("b.exr"), ImageFormat::exr);
  EXPECT_EQ(image_format_of_path("b.tiff"), std::nullopt);
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

TEST_F(ImageOutput, PfmHoldsEveryFloatExactly) {
  Image image = gradient(5, 3);
  image.rgb[0] = 3.5e-7f;  // a channel far below the pixel's brightest: RGBE would round it off
  image.rgb[1] = 1.0e30f;
  image.rgb[4] = 0.1234567f;
  const std::string file = path("out.pfm");
  write_image(image, file);
  const std::string bytes = read_all(file);
  const std::string header = "PF\n5 3\n-1.0\n";
  ASSERT_EQ(bytes.rfind(header, 0), 0u);
  ASSERT_EQ(bytes.size(), header.size() + image.rgb.size() * sizeof(float));
  // Rows bottom to top, little-endian floats, bit for bit.
  for (int y = 0; y < 3; ++y)
    for (int k = 0; k < 15; ++k) {
      float v = 0.0f;
      std::memcpy(&v, bytes.data() + header.size() + (std::size_t(2 - y) * 15 + k) * 4, 4);
      EXPECT_EQ(v, image.rgb[std::size_t(y) * 15 + k]) << "row " << y << " value " << k;
    }
}

// Issue 34, item 10: values above 1e30 and infinity were written as 1e30. RGBE holds up to just
// below 2^127: values up to there are written as they are, larger ones and infinity as the
// largest.
TEST_F(ImageOutput, HdrWritesWhatRgbeHolds) {
  Image image = gradient(2, 2);
  const float values[4] = {1e35f, 3e38f, std::numeric_limits<float>::infinity(), 1.6e38f};
  for (int p = 0; p < 4; ++p)
    for (int c = 0; c < 3; ++c) image.rgb[3 * p + c] = values[p];
  const std::string file = path("big.hdr");
  write_image(image, file);
  int w = 0, h = 0, channels = 0;
  float* data = stbi_loadf(file.c_str(), &w, &h, &channels, 3);
  ASSERT_NE(data, nullptr) << stbi_failure_reason();
  ASSERT_EQ(w * h, 4);
  EXPECT_NEAR(data[0], 1e35f, 1e35f / 128);
  EXPECT_NEAR(data[3 * 3], 1.6e38f, 1.6e38f / 128);
  for (int p = 1; p <= 2; ++p) {  // 3e38 and infinity: the largest value RGBE holds
    EXPECT_TRUE(std::isfinite(data[3 * p]));
    EXPECT_NEAR(data[3 * p], kLargestHdrValue, kLargestHdrValue / 128) << "pixel " << p;
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

// ---- Finding 2: what the output path names decides how it is written ----------------------------

mode_t mode_of(const std::string& path) {
  struct stat st;
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST_F(ImageOutput, ReplacedFileKeepsItsMode) {
  const std::string file = path("out.png");
  { std::ofstream(file) << "old"; }
  ASSERT_EQ(chmod(file.c_str(), 0600), 0);
  write_image(gradient(2, 2), file);
  EXPECT_EQ(mode_of(file), 0600u);
  ASSERT_EQ(chmod(file.c_str(), 0640), 0);
  write_file_atomically(file, {1, 2, 3});
  EXPECT_EQ(mode_of(file), 0640u);
  EXPECT_EQ(read_all(file), "\x01\x02\x03");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.png"});
}

TEST_F(ImageOutput, NewFileGetsTheUmask) {
  const mode_t old = umask(027);
  write_file_atomically(path("a.json"), {'x'});
  umask(002);
  write_file_atomically(path("b.json"), {'x'});
  umask(old);
  EXPECT_EQ(mode_of(path("a.json")), 0640u);
  EXPECT_EQ(mode_of(path("b.json")), 0664u);
}

TEST_F(ImageOutput, SymbolicLinkIsFollowedAndStaysALink) {
  fs::create_directories(path("real"));
  { std::ofstream(path("real/target.png")) << "old"; }
  fs::create_symlink("real/target.png", path("link.png"));
  write_file_atomically(path("link.png"), {'n', 'e', 'w'});
  EXPECT_TRUE(fs::is_symlink(path("link.png")));
  EXPECT_EQ(read_all(path("real/target.png")), "new");
  // A chain of links, one of them absolute.
  fs::create_symlink(path("link.png"), path("link2.png"));
  write_file_atomically(path("link2.png"), {'2'});
  EXPECT_TRUE(fs::is_symlink(path("link2.png")));
  EXPECT_EQ(read_all(path("real/target.png")), "2");
  EXPECT_EQ(entries().size(), 3u);
  EXPECT_EQ(std::distance(fs::directory_iterator(path("real")), fs::directory_iterator()), 1);
}

TEST_F(ImageOutput, LinkToNothingIsAnError) {
  fs::create_symlink("missing/target.png", path("dangling.png"));
  try {
    write_file_atomically(path("dangling.png"), {'x'});
    FAIL() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("is a symbolic link to"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_writable(path("dangling.png")), OutputError);
  EXPECT_EQ(entries(), std::vector<std::string>{"dangling.png"});
  fs::create_symlink("loop.png", path("loop.png"));
  EXPECT_THROW(write_file_atomically(path("loop.png"), {'x'}), OutputError);
}

TEST_F(ImageOutput, FifoIsWrittenThroughNotReplaced) {
  const std::string fifo = path("pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  check_writable(fifo);  // does not wait for a reader
  // The reader is open first (without waiting for a writer), so the write does not wait either.
  const int reader = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  write_file_atomically(fifo, {'a', 'b', 'c'});
  char buffer[8] = {};
  EXPECT_EQ(read(reader, buffer, sizeof buffer), 3);
  close(reader);
  EXPECT_EQ(std::string(buffer), "abc");
  struct stat st;
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_EQ(entries(), std::vector<std::string>{"pipe"});
}

TEST_F(ImageOutput, CharacterDeviceIsWrittenThroughNotReplaced) {
  // As root, renaming over /dev/null would have deleted the device.
  struct stat before, after;
  ASSERT_EQ(stat("/dev/null", &before), 0);
  ASSERT_TRUE(S_ISCHR(before.st_mode));
  check_writable("/dev/null");
  write_file_atomically("/dev/null", {'x'});
  write_image(gradient(2, 2), "/dev/null");
  ASSERT_EQ(stat("/dev/null", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode));
  EXPECT_EQ(before.st_ino, after.st_ino);
  EXPECT_EQ(before.st_rdev, after.st_rdev);
  // Through a link to it, too.
  fs::create_symlink("/dev/null", path("null.png"));
  write_file_atomically(path("null.png"), {'x'});
  EXPECT_TRUE(fs::is_symlink(path("null.png")));
  EXPECT_EQ(entries(), std::vector<std::string>{"null.png"});
}

TEST_F(ImageOutput, OpenDescriptorIsWrittenThrough) {
  // /dev/stdout and friends name an open descriptor: written through it, whatever it is.
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const std::string name = "/dev/fd/" + std::to_string(fds[1]);
  check_writable(name);
  write_file_atomically(name, {'o', 'k'});
  close(fds[1]);
  char buffer[8] = {};
  EXPECT_EQ(read(fds[0], buffer, sizeof buffer), 2);
  close(fds[0]);
  EXPECT_EQ(std::string(buffer), "ok");
}

TEST_F(ImageOutput, SocketIsRefused) {
  const std::string name = path("sock");
  const int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(name.size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, name.c_str());
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  try {
    write_file_atomically(name, {'x'});
    ADD_FAILURE() << "no error";
  } catch (const OutputError& e) {
    EXPECT_NE(std::string(e.what()).find("it is a socket"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_writable(name), OutputError);
  close(fd);
  EXPECT_FALSE(fs::is_regular_file(name));
  EXPECT_EQ(entries(), std::vector<std::string>{"sock"});
}

// ---- Finding 8: the image and the statistics land together or not at all ---------------------

TEST_F(ImageOutput, PairLandsTogetherOrNotAtAll) {
  const std::string image = path("out.png"), stats = path("stats.json");
  write_files_atomically({{image, {'i'}}, {stats, {'s'}}});
  EXPECT_EQ(read_all(image), "i");
  EXPECT_EQ(read_all(stats), "s");

  // The statistics cannot be written (a full disk: /dev/full, for every user): the image is not
  // replaced either, and no temporary file is left.
  if (fs::exists("/dev/full")) {
    try {
      write_files_atomically({{image, {'I'}}, {"/dev/full", {'S'}}});
      ADD_FAILURE() << "no error";
    } catch (const OutputError& e) {
      EXPECT_NE(std::string(e.what()).find("/dev/full: cannot write the output: write failed"),
                std::string::npos)
          << e.what();
    }
    EXPECT_EQ(read_all(image), "i");
    EXPECT_THROW(write_files_atomically({{path("new.png"), {'I'}}, {"/dev/full", {'S'}}}),
                 OutputError);
    EXPECT_FALSE(fs::exists(path("new.png")));
  }
  // The statistics' folder is a file: neither is written.
  { std::ofstream(path("plain")) << "file"; }
  EXPECT_THROW(write_files_atomically({{image, {'I'}}, {path("plain/stats.json"), {'S'}}}),
               OutputError);
  EXPECT_THROW(write_files_atomically({{path("new.png"), {'I'}}, {path("plain/s.json"), {'S'}}}),
               OutputError);
  // The second temporary file fails part way (a size limit, as a full disk would): the first is
  // removed again.
  struct rlimit old_limit;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &old_limit), 0);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = old_limit;
  small.rlim_cur = 1000;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  bool failed = false;
  try {
    write_files_atomically({{image, {'I'}}, {stats, std::vector<unsigned char>(5000, 'S')}});
  } catch (const OutputError&) {
    failed = true;
  }
  setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_TRUE(failed);
  EXPECT_EQ(read_all(image), "i");
  EXPECT_EQ(read_all(stats), "s");
  std::vector<std::string> names = entries();
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"out.png", "plain", "stats.json"}));
}

TEST_F(ImageOutput, TwoOutputsNamingOneFileAreRefused) {
  { std::ofstream(path("out.png")) << "old"; }
  fs::create_symlink("out.png", path("alias.png"));
  EXPECT_THROW(write_files_atomically({{path("out.png"), {'a'}}, {path("alias.png"), {'b'}}}),
               OutputError);
  EXPECT_EQ(read_all(path("out.png")), "old");
}

}  // namespace
}  // namespace raystream
