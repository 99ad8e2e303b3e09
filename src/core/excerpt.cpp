#include "core/excerpt.h"

namespace raystream {
namespace {

bool continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// Control characters as escapes, so the text cannot break the line it is printed on.
std::string escaped(const std::string& text, std::size_t limit) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() < limit ? text.size() : limit);
  for (const char ch : text) {
    if (out.size() >= limit) break;
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += ch;
    }
  }
  return out;
}

}  // namespace

std::string excerpt(const std::string& text, std::size_t max) {
  if (max < 8) max = 8;
  // Each input byte gives at most 4 output bytes: escaping more than this of either end is
  // never needed.
  const std::size_t window = 4 * max + 4;
  if (text.size() <= window) {
    const std::string whole = escaped(text, text.size() * 4 + 1);
    if (whole.size() <= max) return whole;
  }
  const std::size_t head_size = (max - 3) * 2 / 3;
  const std::size_t tail_size = max - 3 - head_size;
  std::string head = escaped(text.substr(0, std::min(text.size(), window)), head_size);
  if (head.size() > head_size) head.resize(head_size);
  // Not in the middle of a UTF-8 character (the escapes are ASCII).
  while (!head.empty() && continuation(head.back())) head.pop_back();
  if (!head.empty() && (static_cast<unsigned char>(head.back()) & 0xC0) == 0xC0) head.pop_back();
  const std::size_t from = text.size() > window ? text.size() - window : 0;
  std::string tail = escaped(text.substr(from), std::string::npos);
  if (tail.size() > tail_size) tail.erase(0, tail.size() - tail_size);
  std::size_t skip = 0;
  while (skip < tail.size() && continuation(tail[skip])) ++skip;
  tail.erase(0, skip);
  return head + "..." + tail;
}

}  // namespace raystream
