// Image textures read from files: PNG (libspng) and JPEG (libjpeg-turbo), TGA (stb_image)
// decoded from sRGB to linear, Radiance HDR (.hdr, stb_image) taken as linear.
#pragma once

#include <cstdint>
#include <string>

#include "scene/texture_image.h"

namespace raystream {

// The sRGB electro-optical transfer function (IEC 61966-2-1): an encoded value in [0, 1] to
// linear, c / 12.92 up to 0.04045, else ((c + 0.055) / 1.055)^2.4.
float srgb_to_linear(float encoded);

// An 8-bit sRGB value to linear (a table of srgb_to_linear(value / 255)).
float srgb8_to_linear(std::uint8_t value);

// Reads the image at `path` into linear RGBA, the format told by the file's first bytes. 8-bit
// formats (PNG, JPEG, TGA; 16-bit PNGs are read at 8 bits; grey and grey-alpha images are
// expanded): RGB decoded from sRGB, alpha divided by 255. Radiance HDR: the values as stored,
// alpha 1. Throws SceneError naming `path`: the file cannot be read (read_input_file: missing,
// not a regular file, over kImageFile's cap), it is empty, it is larger than kMaxTextureSide on a
// side or kMaxTextureTexels in all (from its header, before anything is decoded), it is not
// whole or is damaged (the decoder's check: io/image/image_decoders.h for PNG and JPEG,
// io/image/stb_checks.h for TGA and HDR), or it is in no format read here.
TextureImage load_texture_image(const std::string& path);

// As load_texture_image, from an image file's bytes; `path` names it in messages (a file, or
// where in a file it was embedded).
TextureImage decode_texture_image(const std::string& bytes, const std::string& path);

}  // namespace raystream
