// What stb_image leaves unchecked in the two formats it reads here, checked before it decodes
// them: it fills a TGA cut short with zeros, reads a cut flat Radiance HDR past its pixels, and
// loops forever on a cut run-length-encoded one (stb_image 2.27, Debian 12's). PNG and JPEG go
// to libraries that check as they decode (io/image/image_decoders.h).
#pragma once

#include <cstddef>
#include <string>

namespace raystream {

// True for a header stb_image would take as a TGA's (the format has no magic number).
bool plausible_tga(const std::string& bytes);

// Throws SceneError "<path>: corrupt TGA: truncated (...)" when the colour map and the pixels
// (or their run-length packets) of the TGA in `bytes` (plausible_tga) do not lie within it.
void check_tga(const std::string& bytes, const std::string& path);

// The size and the start of the pixel data of a Radiance HDR file, read as stb_image reads the
// header: the identifier line, header lines up to an empty one (FORMAT=32-bit_rle_rgbe among
// them), then the resolution line "-Y <height> +X <width>" (the only layout it reads).
struct HdrLayout {
  long width = 0, height = 0;  // as written, capped at 10^9
  std::string width_digits, height_digits;
  std::size_t data = 0;   // offset of the first pixel byte
  bool complete = false;  // false: the file ends right after the resolution line
};

// Reads the header of the Radiance HDR in `bytes` (which starts with "#?RADIANCE" or "#?RGBE").
// Throws SceneError naming `path`: the header ends before the image size, the format is not
// 32-bit_rle_rgbe, the layout is not "-Y <height> +X <width>", a side is 0.
HdrLayout read_hdr_header(const std::string& bytes, const std::string& path);

// Walks the pixel data of the Radiance HDR in `bytes` (whose header `layout` describes) as
// stb_image decodes it, flat or run-length encoded. Throws SceneError naming `path` where it is
// truncated or malformed.
void check_hdr_pixels(const std::string& bytes, const std::string& path, const HdrLayout& layout);

// Whether `bytes` start as a Radiance HDR file does ("#?RADIANCE\n" or "#?RGBE\n").
bool is_radiance_hdr(const std::string& bytes);

}  // namespace raystream
