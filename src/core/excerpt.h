// Short, single-line excerpts of input for messages: an error or a warning stays one line of
// modest length whatever the input holds (a 10 MB string, a key with newlines in it).
#pragma once

#include <cstddef>
#include <string>

namespace raystream {

// Longest excerpt of input (a key, a name, a token) quoted in a message, in bytes.
inline constexpr std::size_t kMaxExcerpt = 64;
// Longest whole message (error or warning), in bytes.
inline constexpr std::size_t kMaxMessage = 600;

// `text` on one line of UTF-8: control characters, and bytes that are not part of a well-formed,
// printable UTF-8 character (a UTF-16 file's byte-order mark, Latin-1 text), are written as
// escapes (\n, \t, \xHH). When that is longer than `max` bytes, its beginning and its end are
// kept with "..." between them, cut on UTF-8 character boundaries.
std::string excerpt(const std::string& text, std::size_t max = kMaxExcerpt);

}  // namespace raystream
