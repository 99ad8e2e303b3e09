// The one rule for every image file the renderer reads (textures, MTL map_Kd, glTF images,
// environment maps): before a decoder sees the bytes, the file's structure is walked to its end,
// so that a truncated or damaged file is refused naming the file and the problem. stb_image
// would decode a cut BMP, TGA or Radiance HDR from zeros (or loop on a cut run-length HDR), and it
// does not check a PNG's CRCs.
#pragma once

#include <cstddef>
#include <string>

namespace raystream {

// Throws SceneError "<path>: corrupt <format>: <problem>" when `bytes`, a PNG, JPEG, BMP, TGA or
// Radiance HDR file (told apart by its first bytes; TGA, which has none, by a plausible header),
// is not whole:
//  - PNG: every chunk within the file and its CRC matching, IHDR first, image data (IDAT), and
//    the IEND chunk that ends it;
//  - JPEG: every segment within the file, up to the end-of-image marker (EOI);
//  - BMP: the pixel rows the header describes within the file (uncompressed and bit-field
//    files; stb_image reads no other);
//  - TGA: the colour map and the pixels (or their run-length packets) within the file;
//  - Radiance HDR: as read_hdr_header and check_hdr_pixels.
// Other bytes are left to the decoder, which names what it does not read.
void check_image_file(const std::string& bytes, const std::string& path);

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
// stb_image decodes it. Throws SceneError naming `path` where it is truncated or malformed.
void check_hdr_pixels(const std::string& bytes, const std::string& path, const HdrLayout& layout);

}  // namespace raystream
