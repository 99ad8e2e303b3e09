#include "io/environment_reader.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "io/exr_image.h"
#include "io/input_file.h"
#include "lights/environment_map.h"
#include "scene/scene_error.h"

// Only the Radiance HDR reader of stb_image (its writer lives in io/image_output.cpp).
#define STBI_ONLY_HDR
#define STBI_NO_STDIO
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

namespace raystream {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw SceneError(path + ": " + message);
}

std::string number_text(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(value));
  return text;
}

// The size and the start of the pixel data of a Radiance HDR file, read as stb_image reads the
// header: the identifier line, header lines up to an empty one (FORMAT=32-bit_rle_rgbe among
// them), then the resolution line "-Y <height> +X <width>" (the only layout it reads).
struct HdrLayout {
  int width = 0, height = 0;
  std::size_t data = 0;  // offset of the first pixel byte
};

// The file's bytes, read in place.
struct Bytes {
  const unsigned char* data;
  std::size_t length;
  std::size_t size() const { return length; }
  bool empty() const { return length == 0; }
  unsigned char operator[](std::size_t i) const { return data[i]; }
};

// The line starting at `pos` (without its '\n'); `pos` moves past the '\n'. False at the end of
// the data without a '\n'.
bool next_line(const Bytes& bytes, std::size_t& pos, std::string& line) {
  const std::size_t begin = pos;
  while (pos < bytes.size() && bytes[pos] != '\n') ++pos;
  line.assign(reinterpret_cast<const char*>(bytes.data) + begin, pos - begin);
  if (pos == bytes.size()) return false;
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

HdrLayout read_header(const std::string& path, const Bytes& bytes) {
  std::size_t pos = 0;
  std::string line;
  next_line(bytes, pos, line);  // "#?RADIANCE" or "#?RGBE" (stbi_is_hdr checked it)
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
  const bool complete = next_line(bytes, pos, line);
  // "-Y <height> +X <width>": rows from the top, pixels left to right.
  std::size_t i = 0;
  std::string height_digits, width_digits;
  bool layout = false;
  if (line.compare(0, 3, "-Y ") == 0) {
    i = 3;
    height_digits = read_digits(line, i);
    if (!height_digits.empty() && i < line.size() && line[i] == ' ') {
      while (i < line.size() && line[i] == ' ') ++i;
      if (line.compare(i, 3, "+X ") == 0) {
        i += 3;
        width_digits = read_digits(line, i);
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        layout = !width_digits.empty() && i == line.size();
      }
    }
  }
  if (!layout) {
    if (!complete && line.empty()) fail(path, "corrupt HDR: the image size is missing");
    fail(path, "unsupported HDR layout \"" + excerpt(line, 40) +
                   "\" (only \"-Y <height> +X <width>\", rows from the top, is read)");
  }
  const long height = count_of(height_digits), width = count_of(width_digits);
  if (width == 0 || height == 0) {
    fail(path, "corrupt HDR: the image is " + std::to_string(width) + " x " +
                   std::to_string(height) + " texels");
  }
  if (width > kMaxEnvironmentWidth || height > kMaxEnvironmentHeight) {
    fail(path, excerpt(width_digits, 24) + " x " + excerpt(height_digits, 24) +
                   " texels is too large for an environment map (at most " +
                   std::to_string(kMaxEnvironmentWidth) + " x " +
                   std::to_string(kMaxEnvironmentHeight) + ")");
  }
  if (!complete) fail(path, "corrupt HDR: truncated (no pixel data)");
  return {static_cast<int>(width), static_cast<int>(height), pos};
}

// Walks the pixel data as stb_image decodes it and fails where it is truncated or malformed:
// stb_image reads a truncated flat file from uninitialised memory, and loops forever on a
// run-length-encoded one cut short.
void check_pixel_data(const std::string& path, const Bytes& bytes, const HdrLayout& layout) {
  const std::size_t n = bytes.size();
  const std::size_t w = static_cast<std::size_t>(layout.width);
  const std::size_t h = static_cast<std::size_t>(layout.height);
  const auto truncated = [&](std::size_t row) {
    fail(path, "corrupt HDR: truncated (the pixel data ends in row " + std::to_string(row) +
                   " of " + std::to_string(h) + ")");
  };
  const auto flat_from = [&](std::size_t pos) {
    const std::size_t available = n - pos;
    if (available < w * h * 4) truncated(available / 4 / w);
  };
  std::size_t pos = layout.data;
  if (w < 8 || w >= 32768) return flat_from(pos);  // stb_image reads these widths flat only
  for (std::size_t row = 0; row < h; ++row) {
    if (n - pos < 4) truncated(row);
    const bool rle = bytes[pos] == 2 && bytes[pos + 1] == 2 && (bytes[pos + 2] & 0x80) == 0;
    if (!rle) {
      if (row == 0) return flat_from(pos);  // a flat file
      fail(path, "corrupt HDR: row " + std::to_string(row) +
                     " is not run-length encoded while the rows before it are");
    }
    const std::size_t length = (static_cast<std::size_t>(bytes[pos + 2]) << 8) | bytes[pos + 3];
    if (length != w) {
      fail(path, "corrupt HDR: row " + std::to_string(row) + " has a run-length width of " +
                     std::to_string(length) + ", not " + std::to_string(w));
    }
    pos += 4;
    for (int channel = 0; channel < 4; ++channel) {
      std::size_t filled = 0;
      while (filled < w) {
        if (pos >= n) truncated(row);
        std::size_t count = bytes[pos++];
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

}  // namespace

Environment load_environment_map(const std::string& path, float scale, float rotate_degrees) {
  if (!(scale >= 0.0f) || !std::isfinite(scale)) {
    throw std::invalid_argument("load_environment_map: scale must be finite and >= 0");
  }
  const std::string file = read_input_file(path, kEnvironmentFile);
  int width = 0, height = 0;
  std::vector<float> decoded;
  const float* pixels = nullptr;
  struct Free {
    float* p = nullptr;
    ~Free() {
      if (p) stbi_image_free(p);
    }
  } owner;
  if (is_exr(file)) {
    ExrRgb exr = decode_exr_rgb(file, path, kMaxEnvironmentWidth, kMaxEnvironmentHeight);
    width = exr.width;
    height = exr.height;
    decoded = std::move(exr.rgb);
    pixels = decoded.data();
  } else {
    const Bytes bytes{reinterpret_cast<const unsigned char*>(file.data()), file.size()};
    const int length = static_cast<int>(bytes.size());
    if (bytes.empty() || !stbi_is_hdr_from_memory(bytes.data, length)) {
      fail(path, "not a Radiance HDR (.hdr) or OpenEXR (.exr) image");
    }
    const HdrLayout layout = read_header(path, bytes);
    check_pixel_data(path, bytes, layout);
    int channels = 0;
    owner.p = stbi_loadf_from_memory(bytes.data, length, &width, &height, &channels, 3);
    if (!owner.p) {
      const char* reason = stbi_failure_reason();
      fail(path, std::string("corrupt HDR: ") + (reason ? reason : "unreadable"));
    }
    pixels = owner.p;
    if (width != layout.width || height != layout.height) {
      fail(path, "corrupt HDR: the image size could not be read consistently");
    }
  }

  Environment env;
  env.file = path;
  env.scale = scale;
  env.rotate_degrees = rotate_degrees;
  env.present = true;
  env.width = width;
  env.height = height;
  env.texels.resize(static_cast<std::size_t>(width) * height);
  for (std::size_t t = 0; t < env.texels.size(); ++t) {
    const glm::vec3 value(pixels[3 * t], pixels[3 * t + 1], pixels[3 * t + 2]);
    const glm::vec3 scaled = value * scale;
    const std::string where =
        "texel (" + std::to_string(t % width) + ", " + std::to_string(t / width) + ")";
    for (int c = 0; c < 3; ++c) {
      if (!std::isfinite(value[c])) fail(path, where + " is not a finite number");
      if (value[c] < 0.0f) fail(path, where + " is negative");
      if (!std::isfinite(scaled[c])) {
        fail(path, where + " times SCALE " + number_text(scale) + " overflows a float");
      }
    }
    env.texels[t] = scaled;
  }
  build_environment_cdfs(env);
  return env;
}

}  // namespace raystream
