// Folders of a test's own under the system's temporary folder: TempDir (named by a prefix, the
// process id and the running test's name; made when constructed, removed when destroyed) and
// TempFolderTest, a fixture that holds one for each test.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace raystream::test {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix) {
    const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info();
    root_ = std::filesystem::temp_directory_path() /
            (prefix + std::to_string(::getpid()) + "-" + (test ? test->name() : "none"));
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::permissions(root_, std::filesystem::perms::owner_all, ec);
    std::filesystem::remove_all(root_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::string path() const { return root_.string(); }
  std::string path(const std::string& name) const { return (root_ / name).string(); }
  // Writes a file of the folder; returns its path.
  std::string file(const std::string& name, const std::string& bytes) const {
    std::ofstream(root_ / name, std::ios::binary) << bytes;
    return path(name);
  }
  // Makes a FIFO in the folder; returns its path.
  std::string fifo(const std::string& name) const {
    const std::string p = path(name);
    EXPECT_EQ(::mkfifo(p.c_str(), 0600), 0) << p;
    return p;
  }

 private:
  std::filesystem::path root_;
};

class TempFolderTest : public testing::Test {
 protected:
  explicit TempFolderTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    dir_holder_ = std::make_unique<TempDir>(prefix_);
    dir_ = dir_holder_->root();
  }
  void TearDown() override { dir_holder_.reset(); }
  // A file of the folder.
  std::string path(const std::string& name) const { return dir_holder_->path(name); }
  static void write(const std::string& file, const std::vector<unsigned char>& bytes) {
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }

  std::filesystem::path dir_;

 private:
  std::string prefix_;
  std::unique_ptr<TempDir> dir_holder_;
};

}  // namespace raystream::test
