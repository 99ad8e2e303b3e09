#include "film/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace raystream {
namespace {

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
  throw OutputError(path + ": cannot write the output: " + what + ": " + std::strerror(error));
}

// Creates a uniquely named temporary file next to `path`; returns its descriptor and name.
int create_temporary(const std::string& path, std::string& temp_name) {
  if (path.empty() || path.back() == '/') {
    throw OutputError("'" + path + "': the output path names a folder, not a file");
  }
  const std::string folder = folder_of(path);
  const std::string base = path.substr(path.find_last_of('/') + 1);
  std::string name = folder + "/." + base + ".tmp-XXXXXX";
  const int fd = mkstemp(name.data());
  if (fd < 0) fail(path, "cannot create a file in folder '" + folder + "'", errno);
  temp_name = name;
  return fd;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::vector<unsigned char>& bytes) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw OutputError(path + ": cannot write the output: it is a folder");
  }
  std::string temp;
  const int fd = create_temporary(path, temp);
  const auto abandon = [&](const std::string& what, int error) {
    close(fd);
    unlink(temp.c_str());
    fail(path, what, error);
  };
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      abandon("write failed", errno);
    }
    done += static_cast<std::size_t>(n);
  }
  // Readable by everyone, like an ordinary new file (mkstemp creates it 0600).
  if (fchmod(fd, 0644) != 0) abandon("cannot set permissions", errno);
  if (fsync(fd) != 0) abandon("fsync failed", errno);
  if (close(fd) != 0) {
    const int error = errno;
    unlink(temp.c_str());
    fail(path, "close failed", error);
  }
  if (rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    unlink(temp.c_str());
    fail(path, "cannot rename the temporary file into place", error);
  }
}

void check_writable(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    throw OutputError(path + ": cannot write the output: it is a folder");
  }
  std::string temp;
  const int fd = create_temporary(path, temp);
  close(fd);
  unlink(temp.c_str());
}

}  // namespace raystream
