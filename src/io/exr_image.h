// OpenEXR images in memory (OpenEXR's C++ library): written as named float channels, so that the
// output goes through the atomic writer like every other image, and read as linear RGB from the
// bytes of a file already read under its size cap (environment maps).
#pragma once

#include <string>
#include <vector>

namespace raystream {

// One layer of an EXR file: channels named "<layer>.<channel>" ("R" etc. alone for the unnamed
// layer), their values interleaved per pixel, rows from the top.
struct ExrLayer {
  std::string name;                   // "" for the beauty's R, G, B
  std::vector<std::string> channels;  // e.g. {"R", "G", "B"}, {"X", "Y", "Z"}, {"Z"}
  std::vector<float> values;          // width x height x channels.size()
};

// A scanline EXR of 32-bit float channels, ZIP compressed (lossless), with every layer's
// channels. Throws std::invalid_argument when a layer's values do not fit the size, and
// std::runtime_error when the library fails.
std::vector<unsigned char> encode_exr(int width, int height, const std::vector<ExrLayer>& layers);

// Whether bytes start with the OpenEXR magic number.
bool is_exr(const std::string& bytes);

// A decoded EXR: width x height pixels of linear RGB, rows from the top.
struct ExrRgb {
  int width = 0, height = 0;
  std::vector<float> rgb;
};

// Decodes the RGB of an EXR file's bytes (the first part; scanline or tiled; half, float or
// unsigned channels): R, G and B, or Y alone as grey. The size is checked against the limits
// before any pixel is decoded. Throws SceneError naming `path`: not an EXR, corrupt or truncated
// (the library's reason), no R, G, B or Y channel, larger than max_width x max_height.
ExrRgb decode_exr_rgb(const std::string& bytes, const std::string& path, int max_width,
                      int max_height);

// The channel names of an EXR file's bytes, in the file's (alphabetical) order; for tests and
// messages. Throws SceneError as above.
std::vector<std::string> exr_channel_names(const std::string& bytes, const std::string& path);

}  // namespace raystream
