// raystream's Radiance HDR (RGBE) writer, behind encode_hdr (io/image/image_output.h): each
// pixel's three channels share one exponent byte, 8 bits of mantissa each; scanlines of 8 to
// 32767 pixels run-length encoded per component (the format's "new" RLE), others flat.
// Scanlines are independent, so bands of them are encoded in parallel: a tenth of
// stb_image_write's time on the 16-core device host, 0.4x on 2 cores
// (renders/encoding/RESULTS.md).
#pragma once

#include <cstddef>
#include <vector>

#include "io/image/image_output.h"

namespace raystream {

// width x height pixels of linear RGB, rows from the top, in bands of 16 rows on OpenMP's
// threads. RGBE holds no negative, NaN or infinite value, and nothing from 2^127 up (the exponent
// byte would wrap around): the first two are written as 0, the others as kLargestHdrValue.
// Throws std::invalid_argument on a bad size.
std::vector<unsigned char> encode_hdr_bands(int width, int height, const float* rgb,
                                            std::size_t size);

}  // namespace raystream
