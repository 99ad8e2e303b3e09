// OpenEXR images in memory: written as named float or half channels by raystream's own encoder
// (exr_encoder.cpp), so that the output goes through the atomic writer like every other image,
// and read as linear RGB by OpenEXR's library from the bytes of a file already read under its
// size cap (environment maps; exr_image.cpp).
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
  bool half = false;                  // stored as 16-bit half floats (else 32-bit floats)
};

// The EXR compressions written, all lossless: none; zips, deflate per scanline; zip, deflate per
// 16 scanlines.
enum class ExrCompression { none, zips, zip };

// The default: the fastest that compresses (deflate at zlib's level 1 per scanline: the most
// blocks to share among the threads), as docs/cli.md says; the others measured in
// renders/encoding/RESULTS.md.
inline constexpr ExrCompression kDefaultExrCompression = ExrCompression::zips;

// "none", "zips", "zip".
const char* exr_compression_name(ExrCompression compression);

// A layer whose values stay where they are (width x height x channels.size() floats at
// `values`, interleaved per pixel): what the encoder reads, so that no copy is made of them.
struct ExrLayerView {
  std::string name;
  std::vector<std::string> channels;
  const float* values = nullptr;
  bool half = false;
};

// A scanline EXR with every layer's channels (named "<layer>.<channel>", in the file's
// alphabetical order), each block deflated at level 1 on OpenMP's threads, or stored as it is
// where that would not shrink it. Throws std::invalid_argument on an empty image, a layer whose
// values do not fit the size (the views: a layer with no channel or no values), a channel name
// that is empty, longer than 255 characters or given twice, and std::runtime_error when memory
// for the compressor runs out.
std::vector<unsigned char> encode_exr(int width, int height, const std::vector<ExrLayer>& layers,
                                      ExrCompression compression = kDefaultExrCompression);
std::vector<unsigned char> encode_exr(int width, int height,
                                      const std::vector<ExrLayerView>& layers,
                                      ExrCompression compression = kDefaultExrCompression);

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
