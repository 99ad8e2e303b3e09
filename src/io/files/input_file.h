// Reading the files a scene names (the scene itself, OBJ and MTL files, textures, environment
// maps): each must be a regular file of at most its kind's size. A FIFO, a device or a socket is
// refused before it is read (reading a FIFO waits for a writer; /dev/zero never ends), and the
// cap keeps a huge file from being read whole into memory before its content is judged.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scene/scene.h"

namespace raystream {

// A kind of input file: its name in messages and the largest size accepted.
struct InputKind {
  const char* name;    // "scene file", "OBJ file", ...
  const char* a_name;  // the name with its article: "a scene file", "an OBJ file", ...
  std::uint64_t max_bytes;
};

// Scene and MTL files are text parsed into trees that take several times their size.
inline constexpr InputKind kSceneFile{"scene file", "a scene file", std::uint64_t(64) << 20};
inline constexpr InputKind kMtlFile{"MTL file", "an MTL file", std::uint64_t(64) << 20};
inline constexpr InputKind kObjFile{"OBJ file", "an OBJ file", std::uint64_t(1) << 30};
// Textures and environment maps (a flat 16384 x 8192 Radiance HDR map is 512 MiB).
inline constexpr InputKind kImageFile{"image file", "an image file", std::uint64_t(1) << 30};
inline constexpr InputKind kEnvironmentFile{"environment map", "an environment map",
                                            std::uint64_t(1) << 30};

// The whole content of the file at `path`. Throws SceneError naming `path` and the problem: the
// path holds a NUL character, the file is missing or cannot be opened, it is a directory or
// anything else that is not a regular file (a FIFO, a device, a socket), it is larger than
// kind.max_bytes, or reading it fails.
std::string read_input_file(const std::string& path, const InputKind& kind);

// A file opened by the rules of read_input_file (and recorded as it records them), read piece by
// piece: a checkpoint is read straight into the film it holds, never whole into memory first.
class InputStream {
 public:
  InputStream(const std::string& path, const InputKind& kind);
  ~InputStream();
  InputStream(const InputStream&) = delete;
  InputStream& operator=(const InputStream&) = delete;

  // The file's size when it was opened.
  std::uint64_t size() const { return size_; }
  // Reads up to `n` bytes into `data`; returns how many (fewer only at the end of the file).
  // Throws SceneError naming the file when reading fails.
  std::size_t read(void* data, std::size_t n);

 private:
  std::string path_;
  const InputKind& kind_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// Records the files read_input_file reads on this thread while it lives: the kind's name, the
// path and the file's device and inode. Logs nest: an inner one's files also go to the one
// around it when it ends.
class InputFileLog {
 public:
  InputFileLog();
  ~InputFileLog();
  InputFileLog(const InputFileLog&) = delete;
  InputFileLog& operator=(const InputFileLog&) = delete;

  const std::vector<SceneInput>& files() const { return files_; }
  void add(SceneInput file) { files_.push_back(std::move(file)); }

 private:
  InputFileLog* outer_;
  std::vector<SceneInput> files_;
};

}  // namespace raystream
