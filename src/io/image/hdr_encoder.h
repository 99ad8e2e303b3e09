// Radiance HDR (RGBE) files: each pixel's three channels share one exponent byte, 8 bits of
// mantissa each; scanlines of 8 to 32767 pixels run-length encoded per component (the format's
// "new" RLE), others flat. Scanlines are independent, so bands of them are encoded in parallel.
#pragma once

#include <cstddef>
#include <vector>

namespace raystream {

// The largest value RGBE holds: the float just below 2^127.
inline constexpr float kLargestRgbeValue = 1.70141173e38f;  // 2^127 - 2^103

// width x height pixels of linear RGB, rows from the top. RGBE holds no negative, NaN or
// infinite value, and nothing from 2^127 up (the exponent byte would wrap around): the first two
// are written as 0, the others as kLargestRgbeValue. Throws std::invalid_argument on a bad size.
std::vector<unsigned char> encode_rgbe_hdr(int width, int height, const float* rgb,
                                           std::size_t size);

}  // namespace raystream
