#include "io/image/png_encoder.h"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace raystream {
namespace {

constexpr int kBytesPerPixel = 3;
constexpr std::size_t kBandBytes = 128 * 1024;

void put_u32(unsigned char* out, std::uint32_t v) {
  out[0] = static_cast<unsigned char>(v >> 24);
  out[1] = static_cast<unsigned char>(v >> 16);
  out[2] = static_cast<unsigned char>(v >> 8);
  out[3] = static_cast<unsigned char>(v);
}

std::uint8_t paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  return static_cast<std::uint8_t>(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// One row through filter `type`: out[0] is the type, out[1..n] the filtered bytes. `prev` is the
// row above, or null for the first row (PNG takes it as zeros).
void filter_row(int type, const std::uint8_t* cur, const std::uint8_t* prev, std::size_t n,
                std::uint8_t* out) {
  out[0] = static_cast<std::uint8_t>(type);
  std::uint8_t* o = out + 1;
  const std::size_t b = kBytesPerPixel;
  switch (type) {
    case 1:
      for (std::size_t i = 0; i < std::min(b, n); ++i) o[i] = cur[i];
      for (std::size_t i = b; i < n; ++i) o[i] = std::uint8_t(cur[i] - cur[i - b]);
      break;
    case 2:
      if (prev == nullptr) {
        std::memcpy(o, cur, n);
      } else {
        for (std::size_t i = 0; i < n; ++i) o[i] = std::uint8_t(cur[i] - prev[i]);
      }
      break;
    case 3:
      for (std::size_t i = 0; i < n; ++i) {
        const int left = i >= b ? cur[i - b] : 0, up = prev ? prev[i] : 0;
        o[i] = std::uint8_t(cur[i] - ((left + up) >> 1));
      }
      break;
    case 4:
      for (std::size_t i = 0; i < n; ++i) {
        const int left = i >= b ? cur[i - b] : 0, up = prev ? prev[i] : 0;
        const int corner = prev && i >= b ? prev[i - b] : 0;
        o[i] = std::uint8_t(cur[i] - paeth(left, up, corner));
      }
      break;
    default:
      std::memcpy(o, cur, n);
      break;
  }
}

// libpng's heuristic: the filter whose output, read as signed bytes, has the smallest sum of
// absolute values.
void filter_row_adaptive(const std::uint8_t* cur, const std::uint8_t* prev, std::size_t n,
                         std::uint8_t* out, std::vector<std::uint8_t>& scratch) {
  scratch.resize(n + 1);
  unsigned long best = ~0ul;
  for (int type = 0; type <= 4; ++type) {
    filter_row(type, cur, prev, n, scratch.data());
    unsigned long sum = 0;
    for (std::size_t i = 1; i <= n; ++i) sum += std::uint8_t(std::abs(std::int8_t(scratch[i])));
    if (sum < best) {
      best = sum;
      std::memcpy(out, scratch.data(), n + 1);
    }
  }
}

// One band's part of the zlib stream: raw deflate data ending on a byte boundary (the last band
// ends the stream), and the Adler-32 of its filtered bytes.
struct Band {
  std::vector<unsigned char> deflated;
  uLong adler = 0;
  std::size_t filtered_size = 0;
};

bool compress_band(const std::uint8_t* rgb, std::size_t row_bytes, int y0, int y1, bool last,
                   const PngSettings& settings, Band& band) {
  std::vector<std::uint8_t> filtered((row_bytes + 1) * std::size_t(y1 - y0)), scratch;
  for (int y = y0; y < y1; ++y) {
    const std::uint8_t* cur = rgb + std::size_t(y) * row_bytes;
    const std::uint8_t* prev = y > 0 ? cur - row_bytes : nullptr;
    std::uint8_t* out = filtered.data() + std::size_t(y - y0) * (row_bytes + 1);
    if (settings.filter == PngFilter::adaptive)
      filter_row_adaptive(cur, prev, row_bytes, out, scratch);
    else
      filter_row(static_cast<int>(settings.filter), cur, prev, row_bytes, out);
  }
  band.filtered_size = filtered.size();
  band.adler = adler32(adler32(0, nullptr, 0), filtered.data(), uInt(filtered.size()));
  z_stream z{};
  if (deflateInit2(&z, settings.level, Z_DEFLATED, -15, 8,
                   settings.rle ? Z_RLE : Z_DEFAULT_STRATEGY) != Z_OK)
    return false;
  // deflateBound covers the data and the stream's end; a sync flush adds an empty stored block.
  band.deflated.resize(deflateBound(&z, uLong(filtered.size())) + 16);
  z.next_in = filtered.data();
  z.avail_in = uInt(filtered.size());
  z.next_out = band.deflated.data();
  z.avail_out = uInt(band.deflated.size());
  const int result = deflate(&z, last ? Z_FINISH : Z_SYNC_FLUSH);
  const bool ok =
      last ? result == Z_STREAM_END : result == Z_OK && z.avail_in == 0 && z.avail_out > 0;
  band.deflated.resize(band.deflated.size() - z.avail_out);
  deflateEnd(&z);
  return ok;
}

}  // namespace

int png_band_rows(int width) {
  const std::size_t row = std::size_t(width) * kBytesPerPixel + 1;
  return int(std::max<std::size_t>(1, kBandBytes / row));
}

std::vector<unsigned char> encode_png_rgb8(int width, int height, const std::uint8_t* rgb,
                                           std::size_t size, const PngSettings& settings) {
  // PNG allows 2^31 - 1 per side; a band's bytes must fit zlib's 32-bit counts.
  if (width <= 0 || height <= 0 || width > (1 << 28))
    throw std::invalid_argument("encode_png: bad size " + std::to_string(width) + " x " +
                                std::to_string(height));
  const std::size_t row_bytes = std::size_t(width) * kBytesPerPixel;
  if (rgb == nullptr || size < row_bytes * std::size_t(height))
    throw std::invalid_argument("encode_png: " + std::to_string(size) + " bytes for " +
                                std::to_string(width) + " x " + std::to_string(height) + " RGB");
  if (settings.level < 0 || settings.level > 9)
    throw std::invalid_argument("encode_png: zlib level " + std::to_string(settings.level));

  const int band_rows = png_band_rows(width);
  const int bands = (height + band_rows - 1) / band_rows;
  std::vector<Band> parts(std::size_t(bands), Band{});
  std::atomic<bool> failed{false};
#pragma omp parallel for schedule(dynamic, 1)
  for (int b = 0; b < bands; ++b) {
    const int y0 = b * band_rows, y1 = std::min(height, y0 + band_rows);
    try {  // nothing may leave an OpenMP loop by an exception
      if (!compress_band(rgb, row_bytes, y0, y1, b == bands - 1, settings, parts[std::size_t(b)]))
        failed = true;
    } catch (const std::bad_alloc&) {
      failed = true;
    }
  }
  if (failed) throw std::runtime_error("encode_png: zlib failed (or memory ran out)");

  uLong adler = parts[0].adler;
  for (std::size_t b = 1; b < parts.size(); ++b)
    adler = adler32_combine(adler, parts[b].adler, z_off_t(parts[b].filtered_size));

  // Signature, IHDR, one IDAT per band (the first begins with the zlib header, the last ends
  // with the checksum), IEND.
  static const unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  const int flevel = settings.level <= 1   ? 0
                     : settings.level <= 5 ? 1
                     : settings.level == 6 ? 2
                                           : 3;
  const unsigned cmf = 0x78,
                 flg = unsigned(flevel << 6) + 31 - ((cmf * 256 + unsigned(flevel << 6)) % 31);
  std::vector<std::size_t> offset(parts.size() + 1);
  offset[0] = sizeof kSignature + 25;
  for (std::size_t b = 0; b < parts.size(); ++b) {
    const std::size_t data =
        parts[b].deflated.size() + (b == 0 ? 2 : 0) + (b + 1 == parts.size() ? 4 : 0);
    offset[b + 1] = offset[b] + 12 + data;
  }
  std::vector<unsigned char> out(offset.back() + 12);
  std::memcpy(out.data(), kSignature, sizeof kSignature);
  unsigned char* ihdr = out.data() + sizeof kSignature;
  put_u32(ihdr, 13);
  std::memcpy(ihdr + 4, "IHDR", 4);
  put_u32(ihdr + 8, std::uint32_t(width));
  put_u32(ihdr + 12, std::uint32_t(height));
  ihdr[16] = 8;                        // bits per channel
  ihdr[17] = 2;                        // RGB
  ihdr[18] = ihdr[19] = ihdr[20] = 0;  // deflate, adaptive filtering, no interlace
  put_u32(ihdr + 21, std::uint32_t(crc32(0, ihdr + 4, 17)));
  const long count = long(parts.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (long b = 0; b < count; ++b) {
    unsigned char* chunk = out.data() + offset[std::size_t(b)];
    const std::size_t length = offset[std::size_t(b) + 1] - offset[std::size_t(b)] - 12;
    put_u32(chunk, std::uint32_t(length));
    std::memcpy(chunk + 4, "IDAT", 4);
    unsigned char* data = chunk + 8;
    if (b == 0) {
      *data++ = static_cast<unsigned char>(cmf);
      *data++ = static_cast<unsigned char>(flg);
    }
    const std::vector<unsigned char>& d = parts[std::size_t(b)].deflated;
    std::memcpy(data, d.data(), d.size());
    data += d.size();
    if (b + 1 == count) put_u32(data, std::uint32_t(adler)), data += 4;
    put_u32(data, std::uint32_t(crc32(0, chunk + 4, uInt(length + 4))));
  }
  unsigned char* iend = out.data() + offset.back();
  put_u32(iend, 0);
  std::memcpy(iend + 4, "IEND", 4);
  put_u32(iend + 8, std::uint32_t(crc32(0, iend + 4, 4)));
  return out;
}

}  // namespace raystream
