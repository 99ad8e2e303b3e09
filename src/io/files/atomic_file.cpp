#include "io/files/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace raystream {
namespace {

std::string folder_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

bool starts_with(const std::string& s, const char* prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
  throw OutputError(path + ": cannot write the output: " + what + ": " + std::strerror(error));
}

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw OutputError(path + ": cannot write the output: " + why);
}

// How a path is written (see atomic_file.h).
struct Target {
  enum Kind { atomic, through } kind = atomic;
  std::string file;  // atomic: the file to create or replace (a link's final target)
  bool exists = false;
  struct stat st {};    // atomic and exists: the file replaced
  int descriptor = -1;  // through an open descriptor (/proc/self/fd/N, /dev/fd/N): N
};

// N for "/proc/self/fd/N", "/dev/fd/N" and "/proc/<this process>/fd/N", else -1.
int open_descriptor(const std::string& path) {
  std::string rest;
  const std::string own = "/proc/" + std::to_string(getpid()) + "/fd/";
  for (const std::string& prefix : {std::string("/proc/self/fd/"), std::string("/dev/fd/"), own}) {
    if (starts_with(path, prefix.c_str())) rest = path.substr(prefix.size());
  }
  if (rest.empty() || rest.size() > 9 || rest.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  return std::atoi(rest.c_str());
}

const char* kind_name(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// Decides how `path` is written, following symbolic links. A link to nothing is an error, or,
// with `dangling_ok`, the new file it would name (for comparing outputs).
Target resolve(const std::string& path, bool dangling_ok = false) {
  if (path.empty() || path.back() == '/') {
    throw OutputError("'" + path + "': the output path names a folder, not a file");
  }
  std::string current = path;
  for (int hop = 0; hop <= 40; ++hop) {
    Target t;
    // /dev/stdout -> /proc/self/fd/1: an open descriptor, not a file to replace.
    t.descriptor = open_descriptor(current);
    if (t.descriptor >= 0 || starts_with(current, "/proc/")) {
      struct stat st;
      if (stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) refuse(path, "it is a folder");
      t.kind = Target::through;
      t.file = path;
      return t;
    }
    struct stat st;
    if (lstat(current.c_str(), &st) != 0) {
      const int error = errno;
      if (error == ENOENT && hop > 0 && !dangling_ok) {
        refuse(path, "it is a symbolic link to '" + current + "', which does not exist");
      }
      if (error == ENOENT) {
        t.file = current;  // a new file (a missing folder shows when the file is created)
        return t;
      }
      fail(path, "cannot examine it", error);
    }
    if (S_ISLNK(st.st_mode)) {
      std::vector<char> target(static_cast<std::size_t>(st.st_size > 0 ? st.st_size : PATH_MAX) +
                               1);
      const ssize_t n = readlink(current.c_str(), target.data(), target.size());
      if (n < 0) fail(path, "cannot read the symbolic link '" + current + "'", errno);
      const std::string next(target.data(), static_cast<std::size_t>(n));
      current = next.empty() || next[0] == '/' ? next : folder_of(current) + "/" + next;
      continue;
    }
    if (S_ISREG(st.st_mode)) {
      t.file = current;
      t.exists = true;
      t.st = st;
      return t;
    }
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
      t.kind = Target::through;
      t.file = path;
      return t;
    }
    if (S_ISDIR(st.st_mode)) refuse(path, "it is a folder");
    refuse(path, std::string("it is ") + kind_name(st.st_mode) +
                     " (only regular files, FIFOs and character devices are written)");
  }
  fail(path, "cannot follow its symbolic links", ELOOP);
}

// A temporary file's name beside `file`: ".<name>.tmp-<pid>-", to which a unique suffix is added.
// The process id lets a later run tell a temporary file whose writer died
// (remove_stale_temporaries).
std::string temporary_prefix(const std::string& file) {
  const std::string base = file.substr(file.find_last_of('/') + 1);
  return folder_of(file) + "/." + base + ".tmp-" + std::to_string(getpid()) + "-";
}

// Creates a uniquely named temporary file next to `file`; returns its descriptor and name.
int create_temporary(const std::string& path, const std::string& file, std::string& temp_name) {
  std::string name = temporary_prefix(file) + "XXXXXX";
  const int fd = mkstemp(name.data());
  if (fd < 0) fail(path, "cannot create a file in folder '" + folder_of(file) + "'", errno);
  temp_name = name;
  return fd;
}

// An unnamed file in `file`'s folder (O_TMPFILE), which no crash can leave behind: it gets a name
// only once complete (link_temporary). -1 where the file system or the kernel has none.
int create_unnamed(const std::string& file) {
#ifdef O_TMPFILE
  static const bool linkable = access("/proc/self/fd", F_OK) == 0;
  if (linkable) return open(folder_of(file).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
#endif
  (void)file;
  return -1;
}

// Names the complete unnamed file `fd` beside `file`; returns the name.
std::string link_temporary(const std::string& path, const std::string& file, int fd) {
  const std::string from = "/proc/self/fd/" + std::to_string(fd);
  for (int attempt = 0;; ++attempt) {
    const std::string name = temporary_prefix(file) + "linked" + std::to_string(attempt);
    if (linkat(AT_FDCWD, from.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return name;
    if (errno != EEXIST || attempt > 100) fail(path, "cannot name the finished file", errno);
  }
}

mode_t current_umask() {
  const mode_t mask = umask(0);
  umask(mask);
  return mask;
}

bool write_all(int fd, const void* data, std::size_t size) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = write(fd, bytes + done, size - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// The output's bytes, all of them or streamed, into `fd`; false (errno set) when a write fails.
bool write_output(int fd, const OutputFile& file) {
  if (!file.stream) return write_all(fd, file.bytes.data(), file.bytes.size());
  bool ok = true;
  int error = 0;
  file.stream([&](const void* data, std::size_t n) {
    if (ok && !write_all(fd, data, n)) {
      ok = false;
      error = errno;
    }
  });
  errno = error;
  return ok;
}

// A complete temporary file for one output: unnamed and open until it is renamed into place
// (fd), or named (name) where unnamed files cannot be made.
struct Staged {
  int fd = -1;
  std::string name;
  std::size_t output = 0;  // which of the outputs
};

// Gives a staged file its place: a name beside the output (an unnamed one first gets one), then
// the rename over the output.
void commit(const std::string& path, const Target& target, Staged& staged) {
  if (staged.fd >= 0) {
    staged.name = link_temporary(path, target.file, staged.fd);
    close(staged.fd);
    staged.fd = -1;
  }
  if (rename(staged.name.c_str(), target.file.c_str()) != 0)
    fail(path, "cannot rename the temporary file into place", errno);
  staged.name.clear();
}

void discard(Staged& staged) {
  if (staged.fd >= 0) close(staged.fd);
  if (!staged.name.empty()) unlink(staged.name.c_str());
  staged = Staged{};
}

// Writes a complete temporary file for `target`, with the permission bits (and, where allowed,
// the owner) of the file it replaces.
Staged write_temporary(const std::string& path, const Target& target, const OutputFile& file) {
  Staged staged;
  int fd = create_unnamed(target.file);
  if (fd >= 0) {
    staged.fd = fd;
  } else {
    fd = create_temporary(path, target.file, staged.name);
  }
  const auto abandon = [&](const std::string& what, int error) {
    if (staged.fd < 0) close(fd);
    discard(staged);
    fail(path, what, error);
  };
  if (!write_output(fd, file)) abandon("write failed", errno);
  if (target.exists) {
    struct stat own;
    if (fstat(fd, &own) == 0 &&
        (own.st_uid != target.st.st_uid || own.st_gid != target.st.st_gid)) {
      // Best effort: only root may give a file away; others keep it as their own.
      if (fchown(fd, target.st.st_uid, target.st.st_gid) != 0) errno = 0;
    }
    if (fchmod(fd, target.st.st_mode & 07777) != 0) abandon("cannot set permissions", errno);
  } else {
    // mkstemp creates 0600; a new output is an ordinary new file.
    if (fchmod(fd, 0666 & ~current_umask()) != 0) abandon("cannot set permissions", errno);
  }
  if (fsync(fd) != 0) abandon("fsync failed", errno);
  if (staged.fd < 0 && close(fd) != 0) {
    const int error = errno;
    discard(staged);
    fail(path, "close failed", error);
  }
  return staged;
}

void write_through(const std::string& path, const Target& target, const OutputFile& file) {
  if (target.descriptor >= 0) {
    if (!write_output(target.descriptor, file)) fail(path, "write failed", errno);
    return;
  }
  // No O_CREAT (it exists), no O_TRUNC (a device or FIFO has nothing to truncate). Opening a
  // FIFO waits for its reader, as any writer does.
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) fail(path, "cannot open it", errno);
  if (!write_output(fd, file)) {
    const int error = errno;
    close(fd);
    fail(path, "write failed", error);
  }
  if (close(fd) != 0) fail(path, "close failed", errno);
}

// Refuses an existing file that cannot be replaced, found before a long render rather than at the
// rename after it: one marked immutable or append-only (chattr +i, +a), or one of another user in
// a folder with the sticky bit (/tmp).
void check_replaceable(const std::string& path, const Target& target) {
  const int fd = open(target.file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd >= 0) {
    int flags = 0;
    const bool known = ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0;
    close(fd);
    if (known && (flags & FS_IMMUTABLE_FL))
      refuse(path, "it is immutable (chattr +i) and cannot be replaced");
    if (known && (flags & FS_APPEND_FL))
      refuse(path, "it is append-only (chattr +a) and cannot be replaced");
  }
  struct stat folder;
  const uid_t me = geteuid();
  if (me != 0 && stat(folder_of(target.file).c_str(), &folder) == 0 && (folder.st_mode & S_ISVTX) &&
      target.st.st_uid != me && folder.st_uid != me)
    refuse(path,
           "it belongs to another user in a folder with the sticky bit, so it cannot be "
           "replaced");
}

// One file written twice: the same file replaced atomically (by its final name, or a hard link
// to it), or the same open descriptor.
bool same_target(const Target& a, const Target& b) {
  if (a.kind == Target::through || b.kind == Target::through)
    return a.descriptor >= 0 && a.descriptor == b.descriptor;
  if (a.exists && b.exists) return a.st.st_dev == b.st.st_dev && a.st.st_ino == b.st.st_ino;
  std::error_code ec;
  return std::filesystem::absolute(a.file, ec).lexically_normal() ==
         std::filesystem::absolute(b.file, ec).lexically_normal();
}

}  // namespace

bool is_written_through(const std::string& path) {
  try {
    return resolve(path).kind == Target::through;
  } catch (const OutputError&) {
    return false;
  }
}

bool is_same_output(const std::string& a, const std::string& b) {
  try {
    return same_target(resolve(a, true), resolve(b, true));
  } catch (const OutputError&) {
    return false;
  }
}

bool writes_to_stdout(const std::string& path) {
  try {
    const Target t = resolve(path);
    if (t.descriptor == STDOUT_FILENO) return true;
    // Another name for the file stdout is (a FIFO, a terminal, a file the shell opened).
    struct stat out, st;
    return fstat(STDOUT_FILENO, &out) == 0 && stat(t.file.c_str(), &st) == 0 &&
           out.st_dev == st.st_dev && out.st_ino == st.st_ino;
  } catch (const OutputError&) {
    return false;
  }
}

void write_files_atomically(const std::vector<OutputFile>& files) {
  std::vector<Target> targets;
  targets.reserve(files.size());
  for (const OutputFile& f : files) targets.push_back(resolve(f.path));
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (std::size_t k = 0; k < i; ++k) {
      if (same_target(targets[i], targets[k])) {
        throw OutputError(files[i].path + ": cannot write the output: it is the same file as " +
                          files[k].path);
      }
    }
  }
  // Temporary files not yet renamed into place, removed on any failure.
  std::vector<Staged> staged;
  try {
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (targets[i].kind != Target::atomic) continue;
      staged.push_back(write_temporary(files[i].path, targets[i], files[i]));
      staged.back().output = i;
    }
    for (std::size_t i = 0; i < files.size(); ++i) {
      if (targets[i].kind == Target::through) write_through(files[i].path, targets[i], files[i]);
    }
    for (Staged& s : staged) commit(files[s.output].path, targets[s.output], s);
  } catch (...) {
    for (Staged& s : staged) discard(s);
    throw;
  }
}

void write_file_atomically(const std::string& path, std::vector<unsigned char> bytes) {
  std::vector<OutputFile> files(1);
  files[0].path = path;
  files[0].bytes = std::move(bytes);
  write_files_atomically(files);
}

void check_writable(const std::string& path) {
  const Target target = resolve(path);
  if (target.kind == Target::through) {
    if (target.descriptor >= 0) {
      const int flags = fcntl(target.descriptor, F_GETFL);
      if (flags < 0) fail(path, "the descriptor is not open", errno);
      if ((flags & O_ACCMODE) == O_RDONLY) fail(path, "the descriptor is read-only", EBADF);
    } else if (access(path.c_str(), W_OK) != 0) {
      fail(path, "cannot open it", errno);
    }
    return;
  }
  if (target.exists) check_replaceable(path, target);
  std::string temp;
  const int fd = create_temporary(path, target.file, temp);
  close(fd);
  unlink(temp.c_str());
}

void remove_stale_temporaries(const std::string& path) {
  Target target;
  try {
    target = resolve(path, true);
  } catch (const OutputError&) {
    return;  // check_writable says why
  }
  if (target.kind != Target::atomic) return;
  const std::string folder = folder_of(target.file);
  const std::string base = target.file.substr(target.file.find_last_of('/') + 1);
  const std::string prefix = "." + base + ".tmp-";
  DIR* dir = opendir(folder.c_str());
  if (!dir) return;
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    // ".<base>.tmp-<pid>-...": its writer's process id; a live one is still writing.
    const std::string rest = name.substr(prefix.size());
    const std::size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || dash > 9 ||
        rest.find_first_not_of("0123456789") != dash)
      continue;
    const pid_t pid = static_cast<pid_t>(std::atol(rest.substr(0, dash).c_str()));
    if (pid == getpid() || kill(pid, 0) == 0 || errno != ESRCH) continue;
    unlinkat(dirfd(dir), name.c_str(), 0);
  }
  closedir(dir);
}

}  // namespace raystream
