// The text formats the readers parse: their encoding (UTF-8), and the lines and words of OBJ and
// MTL text.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "scene/scene_error.h"

namespace raystream {

// The text readers (JSON, OBJ, MTL) read UTF-8: a file that starts with a UTF-16 or UTF-32
// byte-order mark (FF FE or FE FF; FF FE 00 00 or 00 00 FE FF) is refused, naming `path`:
// "<path>: the file is UTF-16 (byte-order mark); save it as UTF-8".
inline void refuse_utf16(const std::string& text, const std::string& path) {
  const auto starts = [&](const char* bytes, std::size_t n) {
    return text.compare(0, n, bytes, n) == 0;
  };
  const char* encoding = nullptr;
  if (starts("\xFF\xFE\0\0", 4) || starts("\0\0\xFE\xFF", 4)) {
    encoding = "UTF-32";
  } else if (starts("\xFF\xFE", 2) || starts("\xFE\xFF", 2)) {
    encoding = "UTF-16";
  }
  if (encoding != nullptr)
    throw SceneError(path + ": the file is " + encoding + " (byte-order mark); save it as UTF-8");
}

// The lines of an OBJ or MTL text, ended by "\n", "\r\n" or a lone "\r" (as the OBJ reader,
// io/scene/obj_text.cpp, ends them), without their line ends, numbered from 1:
// visit(number, offset, line).
template <typename Visit>
inline void for_each_line(const std::string& text, Visit visit) {
  std::size_t start = 0, number = 0;
  while (start < text.size()) {
    // A plain loop: find_first_of("\r\n") calls memchr on the set for every character.
    const std::size_t end = static_cast<std::size_t>(
        std::find_if(text.begin() + static_cast<std::ptrdiff_t>(start), text.end(),
                     [](char c) { return c == '\n' || c == '\r'; }) -
        text.begin());
    visit(++number, start, text.substr(start, end - start));
    start = end + (text.compare(end, 2, "\r\n") == 0 ? 2 : 1);
  }
}

// The words of a line, separated by spaces, tabs and carriage returns.
inline std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    i = line.find_first_not_of(" \t\r", i);
    if (i == std::string::npos) break;
    const std::size_t end = std::min(line.find_first_of(" \t\r", i), line.size());
    out.push_back(line.substr(i, end - i));
    i = end;
  }
  return out;
}

}  // namespace raystream
