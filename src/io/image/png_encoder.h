// PNG files of 8-bit RGB written with zlib, the rows compressed in parallel bands: each band is
// its own deflate run ended on a byte boundary (a sync flush), so the bands' bytes join into the
// one zlib stream PNG holds (the way pigz splits gzip), and the Adler-32 checksums of the bands
// combine into the stream's. A band starts with an empty window, which costs a little size;
// its height depends on the width only, so the bytes do not depend on the thread count.
#pragma once

#include <cstdint>
#include <vector>

namespace raystream {

// The filter applied to every row before compression (PNG's filter types; adaptive picks, per
// row, the one whose bytes have the smallest sum of absolute values, as libpng does).
enum class PngFilter { none = 0, sub = 1, up = 2, average = 3, paeth = 4, adaptive = 5 };

// The default, zlib's level 1 with runs only (Z_RLE) after the Sub filter, is the fastest of
// those measured, and its files are as small as level 1's full search on renders of moderate
// noise, up to a third larger on very noisy ones (renders/encoding/RESULTS.md).
struct PngSettings {
  int level = 1;    // zlib's level, 0 (stored) .. 9
  bool rle = true;  // zlib's Z_RLE strategy: matches of the previous byte only
  PngFilter filter = PngFilter::sub;
};

// The rows of a band: about 128 KiB of pixels, at least one row.
int png_band_rows(int width);

// A PNG of width x height RGB pixels, 8 bits per channel, `rgb` interleaved, rows from the top.
// Throws std::invalid_argument on an empty size or a short buffer, std::runtime_error when zlib
// fails.
std::vector<unsigned char> encode_png_rgb8(int width, int height, const std::uint8_t* rgb,
                                           std::size_t size, const PngSettings& settings = {});

}  // namespace raystream
