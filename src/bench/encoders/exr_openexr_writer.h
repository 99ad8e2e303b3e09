// OpenEXR's own writer, for encoding_bench's comparison alone: the renderer writes EXR with its
// own encoder (io/image/exr_image.h), which took 0.54 of this one's time on the device host at
// 1920x1080 with four AOVs (renders/encoding/RESULTS.md).
#pragma once

#include <vector>

#include "io/image/exr_image.h"

namespace raystream {

// The zlib level OpenEXR uses where none is given (zip_level -1 below).
int exr_library_zip_level();

// A scanline EXR of the layers' channels, its blocks compressed on the library's thread pool
// (sized to OpenMP's thread count) at zlib level `zip_level` (0 to 9; -1: the library's
// default) for zip and zips. Throws std::invalid_argument on a bad layer or level and
// std::runtime_error when the library fails.
std::vector<unsigned char> encode_exr_openexr(int width, int height,
                                              const std::vector<ExrLayerView>& layers,
                                              ExrCompression compression, int zip_level);

}  // namespace raystream
