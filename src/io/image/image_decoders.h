// The decoders of 8-bit image files that check the whole file as they decode it: PNG by libspng
// (every chunk's CRC, the image data's zlib stream and its Adler-32, the chunks up to IEND) and
// JPEG by libjpeg-turbo (the data up to the end-of-image marker). Both give RGBA, 8 bits per
// channel, rows from the top.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace raystream {

struct Rgba8Image {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;  // width x height x 4
};

// Called with the size the file's header gives, before any pixel is decoded; throws to refuse it.
using ImageSizeCheck = std::function<void(long long width, long long height)>;

// A PNG file's bytes as RGBA: grey expanded, a palette looked up, 16-bit channels read at 8 bits,
// transparency (tRNS) applied as alpha; no gamma correction. Throws SceneError "<path>: corrupt
// PNG: <reason>": truncated (the file ends before its IEND chunk), a chunk's CRC that does not
// match, or libspng's reason for anything else it refuses.
Rgba8Image decode_png_rgba8(const std::string& bytes, const std::string& path,
                            const ImageSizeCheck& check_size);

// A JPEG file's bytes as RGBA (alpha 255): grey expanded, CMYK (Adobe's inverted) converted.
// Throws SceneError "<path>: corrupt JPEG: <reason>": truncated (the data ends before the
// end-of-image marker: libjpeg's warning "Premature end of JPEG file", or "premature end of data
// segment" where a marker cuts the image data), or libjpeg's reason for an error.
Rgba8Image decode_jpeg_rgba8(const std::string& bytes, const std::string& path,
                             const ImageSizeCheck& check_size);

}  // namespace raystream
