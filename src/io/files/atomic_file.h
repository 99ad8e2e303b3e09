// Writes output files (the image, the --stats JSON) so that a failure leaves no partial file.
// What happens depends on what the path names (docs/robustness.md has the table):
//  - nothing, or a regular file: written atomically: the bytes go to a temporary file in the same
//    folder, which is renamed over the path only once complete. A replaced file keeps its
//    permission bits (and its owner, where the process may set it); a new file gets 0666 less the
//    umask, as any new file does.
//  - a symbolic link: followed; its final target is written by these rules and the link stays a
//    link. A link to nothing is an error.
//  - a FIFO or a character device (/dev/null, a terminal), or an open descriptor named through
//    /proc or /dev/fd (/dev/stdout, /dev/stderr): written through, in place. It is never
//    replaced, renamed over or removed, and no temporary file is made next to it.
//  - anything else (a folder, a socket, a block device): refused with an OutputError.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace raystream {

// A file that could not be written; the message names the file and the cause.
class OutputError : public std::runtime_error {
 public:
  explicit OutputError(const std::string& what) : std::runtime_error(what) {}
};

// Takes an output's bytes piece by piece; throws OutputError when they cannot be written.
using ByteSink = std::function<void(const void* data, std::size_t n)>;

// One output: where it goes and its bytes, or the function that hands them to a sink piece by
// piece (then `bytes` is unused: a large output, a checkpoint, is never held whole in memory).
struct OutputFile {
  OutputFile() = default;
  OutputFile(std::string file, std::vector<unsigned char> content)
      : path(std::move(file)), bytes(std::move(content)) {}
  std::string path;
  std::vector<unsigned char> bytes;
  std::function<void(const ByteSink&)> stream;
};

// Writes all of `files` or, of those written atomically, none: first every temporary file is
// written and synced, then the outputs written through (FIFOs, devices) are written, and only when
// all of that succeeded are the temporary files renamed into place. On a failure every temporary
// file is removed and OutputError names the file and the cause; files already in place keep
// their old contents. (Only a failing rename after that, which the checks before make unlikely,
// can leave one file renamed and the other not.)
void write_files_atomically(const std::vector<OutputFile>& files);

// One file, as above.
void write_file_atomically(const std::string& path, std::vector<unsigned char> bytes);

// Throws OutputError when `path` cannot be written by the rules above: for a file written
// atomically, a file cannot be created in its folder (checked by creating and removing a
// temporary file there); for one written through, it is not writable. Called before a long render
// so that it does not end in a failed write: an existing file must be replaceable too (not
// immutable or append-only, not another user's in a sticky folder). Never opens a FIFO (that
// would wait for a reader).
void check_writable(const std::string& path);

// Removes the temporary files that writes of `path` left behind in its folder when their process
// died before finishing (killed, or out of power): ".<name>.tmp-<pid>-*" of a process that no
// longer runs. Where the file system makes unnamed files (O_TMPFILE, Linux), a write leaves none
// but in the instant between naming its finished file and renaming it into place.
void remove_stale_temporaries(const std::string& path);

// True when `path` is written through (an open descriptor such as /dev/stdout, a FIFO, a
// character device) rather than replaced atomically. False when it cannot be resolved
// (check_writable says why).
bool is_written_through(const std::string& path);

// True when `a` and `b` name one output: the same file replaced atomically (by name, through
// symbolic links, or a hard link to it), or the same open descriptor. False when either cannot be
// resolved.
bool is_same_output(const std::string& a, const std::string& b);

// True when writing `path` writes to this process's stdout: descriptor 1 (/dev/stdout,
// /proc/self/fd/1), or another name for the file that stdout is.
bool writes_to_stdout(const std::string& path);

}  // namespace raystream
