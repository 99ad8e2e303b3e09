#include "core/excerpt.h"

namespace raystream {
namespace {

bool continuation(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

// The length of the UTF-8 character of 2 to 4 bytes at text[i] when it is well formed (no
// overlong form, no surrogate, at most U+10FFFF) and prints (not a C1 control character,
// U+0080 to U+009F); else 0.
std::size_t printable_utf8_length(const std::string& text, std::size_t i) {
  const unsigned char lead = static_cast<unsigned char>(text[i]);
  std::size_t n = 0;
  unsigned code = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    n = 2, code = lead & 0x1Fu;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    n = 3, code = lead & 0x0Fu;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4, code = lead & 0x07u;
  } else {
    return 0;
  }
  if (i + n > text.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if (!continuation(text[i + k])) return 0;
    code = (code << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3Fu);
  }
  const bool overlong = (n == 3 && code < 0x800) || (n == 4 && code < 0x10000);
  const bool surrogate = code >= 0xD800 && code <= 0xDFFF;
  const bool c1 = code >= 0x80 && code <= 0x9F;
  return overlong || surrogate || c1 || code > 0x10FFFF ? 0 : n;
}

// Control characters and bytes that are not part of a printable UTF-8 character as escapes
// (\n, \t, \r, \xHH), so the text cannot break the line it is printed on, nor put bytes that
// are not UTF-8 into it.
std::string escaped(const std::string& text, std::size_t limit) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() < limit ? text.size() : limit);
  for (std::size_t i = 0; i < text.size() && out.size() < limit; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const std::size_t length = c >= 0x80 ? printable_utf8_length(text, i) : 1;
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F || length == 0) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out.append(text, i, length);
      i += length - 1;
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
