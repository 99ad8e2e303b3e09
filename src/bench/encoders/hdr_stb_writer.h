// stb_image_write's Radiance HDR writer, for encoding_bench's comparison alone: the renderer
// writes HDR with its own bands (io/image/hdr_encoder.h).
#pragma once

#include <vector>

#include "film/image.h"

namespace raystream {

// The image as stb_image_write writes it, its values first clamped to what RGBE holds.
std::vector<unsigned char> encode_hdr_stb(const Image& image);

}  // namespace raystream
