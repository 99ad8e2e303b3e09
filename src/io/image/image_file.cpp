#include "io/image/image_file.h"

#include <array>
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

std::uint32_t be32(const std::string& b, std::size_t i) {
  return std::uint32_t(byte_at(b, i)) << 24 | std::uint32_t(byte_at(b, i + 1)) << 16 |
         std::uint32_t(byte_at(b, i + 2)) << 8 | std::uint32_t(byte_at(b, i + 3));
}

std::uint32_t le16(const std::string& b, std::size_t i) {
  return std::uint32_t(byte_at(b, i)) | std::uint32_t(byte_at(b, i + 1)) << 8;
}

std::uint32_t le32(const std::string& b, std::size_t i) {
  return le16(b, i) | le16(b, i + 2) << 16;
}

bool starts_with(const std::string& b, const char* magic, std::size_t n) {
  return b.size() >= n && b.compare(0, n, magic, n) == 0;
}

// ---- PNG ---------------------------------------------------------------------------------------

// CRC-32 as PNG computes it (ISO 3309, polynomial 0xEDB88320, reflected).
std::uint32_t crc32(const std::string& b, std::size_t begin, std::size_t end) {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xFFFFFFFFu;
  for (std::size_t i = begin; i < end; ++i) c = table[(c ^ byte_at(b, i)) & 0xFFu] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

void check_png(const std::string& b, const std::string& path) {
  const std::size_t n = b.size();
  std::size_t pos = 8;
  bool first = true, image_data = false;
  for (;;) {
    if (n - pos < 8) fail(path, "corrupt PNG: truncated (the file ends before its IEND chunk)");
    const std::uint32_t length = be32(b, pos);
    const std::string type = excerpt(b.substr(pos + 4, 4), 16);
    if (length > 0x7FFFFFFFu || n - pos - 8 < std::size_t(length) + 4)
      fail(path, "corrupt PNG: truncated (chunk " + type + " runs past the end of the file)");
    if (crc32(b, pos + 4, pos + 8 + length) != be32(b, pos + 8 + length))
      fail(path, "corrupt PNG: the CRC of chunk " + type + " does not match (a damaged file)");
    if (first && type != "IHDR")
      fail(path, "corrupt PNG: the first chunk is " + type + ", not IHDR");
    first = false;
    image_data = image_data || type == "IDAT";
    pos += 12 + std::size_t(length);
    if (type == "IEND") break;
  }
  if (!image_data) fail(path, "corrupt PNG: no image data (IDAT chunk)");
}

// ---- JPEG --------------------------------------------------------------------------------------

void check_jpeg(const std::string& b, const std::string& path) {
  const std::size_t n = b.size();
  const auto truncated = [&] {
    fail(path, "corrupt JPEG: truncated (the file ends before its end-of-image marker)");
  };
  std::size_t pos = 2;  // after SOI
  for (;;) {
    if (pos >= n) truncated();
    if (byte_at(b, pos) != 0xFF)
      fail(path, "corrupt JPEG: no marker at byte " + std::to_string(pos));
    while (pos < n && byte_at(b, pos) == 0xFF) ++pos;  // fill bytes
    if (pos >= n) truncated();
    const std::uint8_t marker = byte_at(b, pos++);
    if (marker == 0xD9) return;                                          // EOI
    if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) continue;  // no length
    if (n - pos < 2) truncated();
    const std::size_t length = std::size_t(byte_at(b, pos)) << 8 | byte_at(b, pos + 1);
    if (length < 2) fail(path, "corrupt JPEG: a segment of length " + std::to_string(length));
    if (n - pos < length) truncated();
    pos += length;
    if (marker != 0xDA) continue;
    // Start of scan: entropy-coded data up to the next marker (0xFF 0x00 is a stuffed 0xFF,
    // 0xFF 0xD0-0xD7 a restart marker, both part of the data).
    for (;;) {
      if (pos + 1 >= n) truncated();
      if (byte_at(b, pos) != 0xFF) {
        ++pos;
        continue;
      }
      const std::uint8_t next = byte_at(b, pos + 1);
      if (next == 0x00 || (next >= 0xD0 && next <= 0xD7)) {
        pos += 2;
      } else if (next == 0xFF) {
        ++pos;
      } else {
        break;
      }
    }
  }
}

// ---- BMP ---------------------------------------------------------------------------------------

void check_bmp(const std::string& b, const std::string& path) {
  const std::size_t n = b.size();
  if (n < 26) fail(path, "corrupt BMP: truncated (the file ends within its header)");
  const std::uint64_t offset = le32(b, 10);
  const std::uint32_t header = le32(b, 14);
  std::uint64_t width = 0, height = 0, bits = 0, compression = 0;
  if (header == 12) {
    width = le16(b, 18);
    height = le16(b, 20);
    bits = le16(b, 24);
  } else {
    if (n < 34) fail(path, "corrupt BMP: truncated (the file ends within its header)");
    width = std::uint64_t(std::llabs(static_cast<std::int32_t>(le32(b, 18))));
    height = std::uint64_t(std::llabs(static_cast<std::int32_t>(le32(b, 22))));
    bits = le16(b, 28);
    compression = le32(b, 30);
  }
  // Uncompressed (0) and bit fields (3, 6): rows of whole 32-bit words from `offset`.
  if (compression != 0 && compression != 3 && compression != 6) return;
  if (width > (1u << 20) || height > (1u << 20) || bits > 64) return;  // the decoder refuses
  const std::uint64_t row = (width * bits + 31) / 32 * 4;
  const std::uint64_t needed = offset + row * height;
  if (needed > n)
    fail(path, "corrupt BMP: truncated (its pixels need " + std::to_string(needed) +
                   " bytes, the file has " + std::to_string(n) + ")");
}

// ---- TGA ---------------------------------------------------------------------------------------

// True for a header stb_image would take as a TGA's.
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

// stb_image reads a truncated flat file from uninitialised memory, and loops forever on a
// run-length-encoded one cut short.
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

void check_image_file(const std::string& bytes, const std::string& path) {
  if (starts_with(bytes, "\x89PNG\r\n\x1a\n", 8)) return check_png(bytes, path);
  if (starts_with(bytes, "\xFF\xD8\xFF", 3)) return check_jpeg(bytes, path);
  if (starts_with(bytes, "BM", 2)) return check_bmp(bytes, path);
  if (starts_with(bytes, "#?RADIANCE\n", 11) || starts_with(bytes, "#?RGBE\n", 7))
    return check_hdr_pixels(bytes, path, read_hdr_header(bytes, path));
  if (plausible_tga(bytes)) return check_tga(bytes, path);
}

}  // namespace raystream
