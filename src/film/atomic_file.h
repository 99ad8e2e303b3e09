// Writes a file atomically: the bytes go to a temporary file in the destination's folder, which
// is renamed over the destination only once complete, so a failed write leaves no partial file.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace raystream {

// A file that could not be written; the message names the file and the cause.
class OutputError : public std::runtime_error {
 public:
  explicit OutputError(const std::string& what) : std::runtime_error(what) {}
};

// Writes `bytes` to `path` atomically. Throws OutputError (and leaves neither `path` changed nor
// a temporary file behind) when the folder is missing or not writable, or the disk is full.
void write_file_atomically(const std::string& path, const std::vector<unsigned char>& bytes);

// Throws OutputError when a file cannot be created in the folder of `path` (checked by creating
// and removing a temporary file there), so a long render does not end in a failed write.
void check_writable(const std::string& path);

}  // namespace raystream
