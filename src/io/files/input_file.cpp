#include "io/files/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "scene/scene_error.h"

namespace raystream {
namespace {

const char* file_type(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "of an unknown type";
}

thread_local InputFileLog* active_log = nullptr;

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw SceneError(path + ": " + message);
}

// Refuses what is not a regular file, and a regular file over the cap (its size as stat gives
// it; files whose size stat does not know, as in /proc, are held to the cap while read).
void check_type_and_size(const std::string& path, const InputKind& kind, const struct stat& st) {
  if (S_ISDIR(st.st_mode)) fail(path, std::string("is a directory, expected ") + kind.a_name);
  if (!S_ISREG(st.st_mode)) {
    fail(path, std::string("is not a regular file (") + file_type(st.st_mode) + "), expected " +
                   kind.a_name);
  }
  if (st.st_size > 0 && std::uint64_t(st.st_size) > kind.max_bytes) {
    fail(path, std::string("the ") + kind.name + " is too large (" + std::to_string(st.st_size) +
                   " bytes; at most " + std::to_string(kind.max_bytes) + ")");
  }
}

}  // namespace

namespace {

// Opens `path` for reading after the checks of read_input_file; fills `st` from the open file.
int open_input(const std::string& path, const InputKind& kind, struct stat& st) {
  if (path.find('\0') != std::string::npos) fail(path, "the path holds a NUL character");
  // The type is checked before the file is opened (opening a FIFO for reading waits for a
  // writer), and again on the open descriptor, in case the path changed in between.
  if (::stat(path.c_str(), &st) != 0) {
    fail(path, std::string("cannot open the ") + kind.name + ": " + std::strerror(errno));
  }
  check_type_and_size(path, kind, st);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) fail(path, std::string("cannot open the ") + kind.name + ": " + std::strerror(errno));
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    fail(path, std::string("cannot read the ") + kind.name + ": " + std::strerror(error));
  }
  try {
    check_type_and_size(path, kind, st);
  } catch (...) {
    ::close(fd);
    throw;
  }
  return fd;
}

// Reads up to n bytes (fewer only at the end of the file).
std::size_t read_some(int fd, void* data, std::size_t n, const std::string& path,
                      const InputKind& kind) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = ::read(fd, static_cast<char*>(data) + done, n - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      fail(path, std::string("error while reading the ") + kind.name + ": " + std::strerror(errno));
    }
    if (got == 0) break;
    done += std::size_t(got);
  }
  return done;
}

void record(const std::string& path, const InputKind& kind, const struct stat& st) {
  if (active_log)
    active_log->add({kind.name, path, std::uint64_t(st.st_dev), std::uint64_t(st.st_ino)});
}

}  // namespace

std::string read_input_file(const std::string& path, const InputKind& kind) {
  struct stat st {};
  const int fd = open_input(path, kind, st);
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  std::string bytes;
  bytes.resize(std::size_t(std::min<std::uint64_t>(std::uint64_t(st.st_size), kind.max_bytes)) + 1);
  std::size_t size = 0;
  for (;;) {
    if (size == bytes.size()) {
      if (size > kind.max_bytes) {
        fail(path, std::string("the ") + kind.name + " is too large (more than " +
                       std::to_string(kind.max_bytes) + " bytes)");
      }
      bytes.resize(std::min<std::uint64_t>(2 * size, kind.max_bytes + 1));
    }
    const std::size_t n = read_some(fd, &bytes[size], bytes.size() - size, path, kind);
    if (n == 0) break;
    size += n;
  }
  bytes.resize(size);
  record(path, kind, st);
  return bytes;
}

InputStream::InputStream(const std::string& path, const InputKind& kind)
    : path_(path), kind_(kind) {
  struct stat st {};
  fd_ = open_input(path, kind, st);
  size_ = std::uint64_t(st.st_size);
  record(path, kind, st);
}

InputStream::~InputStream() {
  ::close(fd_);
}

std::size_t InputStream::read(void* data, std::size_t n) {
  return read_some(fd_, data, n, path_, kind_);
}

InputFileLog::InputFileLog() : outer_(active_log) {
  active_log = this;
}

InputFileLog::~InputFileLog() {
  active_log = outer_;
  if (outer_) outer_->files_.insert(outer_->files_.end(), files_.begin(), files_.end());
}

}  // namespace raystream
