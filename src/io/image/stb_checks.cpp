#include "io/image/stb_checks.h"

#include <cstdint>
#include <cstdlib>

#include "core/excerpt.h"
#include "scene/scene_error.h"

namespace raystream {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw SceneError(path + ": " + message);
}

std::uint8_t byte_at(const std::string& b, std::size_t i) {
  return static_cast<std::uint8_t>(b[i]);
}

std::uint32_t le16(const std::string& b, std::size_t i) {
  return std::uint32_t(byte_at(b, i)) | std::uint32_t(byte_at(b, i + 1)) << 8;
}

}  // namespace

// ---- TGA ---------------------------------------------------------------------------------------

bool plausible_tga(const std::string& b) {
  if (b.size() < 18) return false;
  const std::uint32_t colour_map = byte_at(b, 1), type = byte_at(b, 2), bits = byte_at(b, 16);
  const bool types = type == 1 || type == 2 || type == 3 || type == 9 || type == 10 || type == 11;
  return colour_map <= 1 && types && le16(b, 12) > 0 && le16(b, 14) > 0 &&
         (bits == 8 || bits == 15 || bits == 16 || bits == 24 || bits == 32);
}

void check_tga(const std::string& b, const std::string& path) {
  const std::size_t n = b.size();
  const std::uint64_t colour_map = byte_at(b, 1), type = byte_at(b, 2);
  const std::uint64_t map_length = le16(b, 5), map_bits = byte_at(b, 7);
  const std::uint64_t pixels = std::uint64_t(le16(b, 12)) * le16(b, 14);
  const std::uint64_t bytes_per_pixel = (std::uint64_t(byte_at(b, 16)) + 7) / 8;
  std::uint64_t pos =
      18 + std::uint64_t(byte_at(b, 0)) + (colour_map ? map_length * ((map_bits + 7) / 8) : 0);
  const auto truncated = [&](const char* where) {
    fail(path, std::string("corrupt TGA: truncated (the file ends within its ") + where + ")");
  };
  if (pos > n) truncated("colour map");
  if (type < 9) {
    if (n - pos < pixels * bytes_per_pixel) truncated("pixels");
    return;
  }
  // Run-length packets: a count byte, then one pixel repeated or that many pixels.
  for (std::uint64_t done = 0; done < pixels;) {
    if (pos >= n) truncated("run-length pixels");
    const std::uint64_t head = byte_at(b, std::size_t(pos++));
    const std::uint64_t count = (head & 0x7Fu) + 1;
    const std::uint64_t size = (head & 0x80u) ? bytes_per_pixel : count * bytes_per_pixel;
    if (n - pos < size) truncated("run-length pixels");
    pos += size;
    done += count;
  }
}

// ---- Radiance HDR ------------------------------------------------------------------------------

namespace {

// The line starting at `pos` (without its '\n'); `pos` moves past the '\n'. False at the end of
// the data without a '\n'.
bool next_line(const std::string& b, std::size_t& pos, std::string& line) {
  const std::size_t begin = pos;
  while (pos < b.size() && b[pos] != '\n') ++pos;
  line.assign(b, begin, pos - begin);
  if (pos == b.size()) return false;
  ++pos;
  return true;
}

// The decimal digits at line[i], i moved past them ("" when there are none).
std::string read_digits(const std::string& line, std::size_t& i) {
  const std::size_t begin = i;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9') ++i;
  return line.substr(begin, i - begin);
}

// The value of decimal digits, capped at 10^9 (beyond any accepted size).
long count_of(const std::string& digits) {
  if (digits.size() > 9) return 1000000000L;
  return std::strtol(digits.c_str(), nullptr, 10);
}

}  // namespace

HdrLayout read_hdr_header(const std::string& bytes, const std::string& path) {
  std::size_t pos = 0;
  std::string line;
  next_line(bytes, pos, line);  // "#?RADIANCE" or "#?RGBE"
  bool format = false;
  for (;;) {
    if (!next_line(bytes, pos, line)) {
      fail(path, "corrupt HDR: the header ends before the image size");
    }
    if (line.empty() || line[0] == '\0') break;
    if (line == "FORMAT=32-bit_rle_rgbe") format = true;
  }
  if (!format) {
    fail(path, "unsupported HDR format (only FORMAT=32-bit_rle_rgbe, RGBE, is read)");
  }
  HdrLayout layout;
  layout.complete = next_line(bytes, pos, line);
  // "-Y <height> +X <width>": rows from the top, pixels left to right.
  std::size_t i = 0;
  bool valid = false;
  if (line.compare(0, 3, "-Y ") == 0) {
    i = 3;
    layout.height_digits = read_digits(line, i);
    if (!layout.height_digits.empty() && i < line.size() && line[i] == ' ') {
      while (i < line.size() && line[i] == ' ') ++i;
      if (line.compare(i, 3, "+X ") == 0) {
        i += 3;
        layout.width_digits = read_digits(line, i);
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        valid = !layout.width_digits.empty() && i == line.size();
      }
    }
  }
  if (!valid) {
    if (!layout.complete && line.empty()) fail(path, "corrupt HDR: the image size is missing");
    fail(path, "unsupported HDR layout \"" + excerpt(line, 40) +
                   "\" (only \"-Y <height> +X <width>\", rows from the top, is read)");
  }
  layout.height = count_of(layout.height_digits);
  layout.width = count_of(layout.width_digits);
  if (layout.width == 0 || layout.height == 0) {
    fail(path, "corrupt HDR: the image is " + std::to_string(layout.width) + " x " +
                   std::to_string(layout.height) + " texels");
  }
  layout.data = pos;
  return layout;
}

void check_hdr_pixels(const std::string& bytes, const std::string& path, const HdrLayout& layout) {
  if (!layout.complete) fail(path, "corrupt HDR: truncated (no pixel data)");
  const std::size_t n = bytes.size();
  const std::size_t w = static_cast<std::size_t>(layout.width);
  const std::size_t h = static_cast<std::size_t>(layout.height);
  const auto truncated = [&](std::size_t row) {
    fail(path, "corrupt HDR: truncated (the pixel data ends in row " + std::to_string(row) +
                   " of " + std::to_string(h) + ")");
  };
  const auto flat_from = [&](std::size_t pos) {
    const std::size_t available = n - pos;
    if (available / 4 / w < h) truncated(available / 4 / w);
  };
  std::size_t pos = layout.data;
  if (w < 8 || w >= 32768) return flat_from(pos);  // stb_image reads these widths flat only
  for (std::size_t row = 0; row < h; ++row) {
    if (n - pos < 4) truncated(row);
    const bool rle = byte_at(bytes, pos) == 2 && byte_at(bytes, pos + 1) == 2 &&
                     (byte_at(bytes, pos + 2) & 0x80) == 0;
    if (!rle) {
      if (row == 0) return flat_from(pos);  // a flat file
      fail(path, "corrupt HDR: row " + std::to_string(row) +
                     " is not run-length encoded while the rows before it are");
    }
    const std::size_t length =
        (std::size_t(byte_at(bytes, pos + 2)) << 8) | byte_at(bytes, pos + 3);
    if (length != w) {
      fail(path, "corrupt HDR: row " + std::to_string(row) + " has a run-length width of " +
                     std::to_string(length) + ", not " + std::to_string(w));
    }
    pos += 4;
    for (int channel = 0; channel < 4; ++channel) {
      std::size_t filled = 0;
      while (filled < w) {
        if (pos >= n) truncated(row);
        std::size_t count = byte_at(bytes, pos++);
        std::size_t skip = count;  // bytes that follow the count
        if (count > 128) {
          count -= 128;
          skip = 1;
        }
        if (count > w - filled) {
          fail(path, "corrupt HDR: bad run-length data in row " + std::to_string(row));
        }
        if (n - pos < skip) truncated(row);
        pos += skip;
        filled += count;
      }
    }
  }
}

bool is_radiance_hdr(const std::string& bytes) {
  return bytes.rfind("#?RADIANCE\n", 0) == 0 || bytes.rfind("#?RGBE\n", 0) == 0;
}

}  // namespace raystream
