// raystream's own EXR writer over libdeflate, for the encoding benchmark only: the renderer
// writes EXR with OpenEXR (io/image/exr_image.h). Deleting it is deleting these two files, their
// test (tests/bench/exr_libdeflate_encoder_test.cpp), their lines in src/CMakeLists.txt and
// tests/bench/CMakeLists.txt (with libdeflate), and its rows in encoding_bench.cpp.
#pragma once

#include <vector>

#include "io/image/exr_image.h"

namespace raystream {

// A scanline EXR of the layers' channels, the blocks compressed (zips, zip: OpenEXR's byte split
// and predictor, then libdeflate at level 1) on OpenMP's threads, the same bytes on any number.
// Throws std::invalid_argument when a layer has no channel or no values, or a channel name is
// empty, longer than 255 characters or given twice, and std::runtime_error when memory for the
// compressor runs out.
std::vector<unsigned char> encode_exr_libdeflate(int width, int height,
                                                 const std::vector<ExrLayerView>& layers,
                                                 ExrCompression compression);

}  // namespace raystream
