#include "utf8_cpu.h"

#include <omp.h>

#include <algorithm>
#include <cstring>

namespace utf8::cpu {
namespace {

constexpr std::uint32_t kReplacementChar = 0xFFFD;

bool continuation(std::uint8_t b) {
  return (b & 0xC0) == 0x80;
}

std::size_t encoded_size(std::uint32_t c) {
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c < 0x10000) return 3;
  if (c <= 0x10FFFF) return 4;
  return 3;  // U+FFFD
}

bool scalar_value(std::uint32_t c) {
  return c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);
}

// Writes the UTF-8 of c (U+FFFD when c is not a scalar value); returns the bytes written.
std::size_t put_utf8(std::uint32_t c, std::uint8_t* out) {
  if (!scalar_value(c)) c = kReplacementChar;
  if (c < 0x80) {
    out[0] = static_cast<std::uint8_t>(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = static_cast<std::uint8_t>(0xC0 | (c >> 6));
    out[1] = static_cast<std::uint8_t>(0x80 | (c & 0x3F));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = static_cast<std::uint8_t>(0xE0 | (c >> 12));
    out[1] = static_cast<std::uint8_t>(0x80 | ((c >> 6) & 0x3F));
    out[2] = static_cast<std::uint8_t>(0x80 | (c & 0x3F));
    return 3;
  }
  out[0] = static_cast<std::uint8_t>(0xF0 | (c >> 18));
  out[1] = static_cast<std::uint8_t>(0x80 | ((c >> 12) & 0x3F));
  out[2] = static_cast<std::uint8_t>(0x80 | ((c >> 6) & 0x3F));
  out[3] = static_cast<std::uint8_t>(0x80 | (c & 0x3F));
  return 4;
}

}  // namespace

std::size_t encode_range(const std::uint32_t* in, std::size_t begin, std::size_t end,
                         std::uint8_t* out, std::size_t* first_invalid) {
  std::size_t bad = kNone;
  std::uint8_t* o = out;
  for (std::size_t i = begin; i < end; ++i) {
    if (bad == kNone && !scalar_value(in[i])) bad = i;
    o += put_utf8(in[i], o);
  }
  *first_invalid = bad;
  return static_cast<std::size_t>(o - out);
}

namespace {

// The sequential decoder. kWrite == false only counts the code points (out is not touched).
template <bool kWrite>
std::size_t run_decoder(const std::uint8_t* in, std::size_t begin, std::size_t end,
                        std::uint32_t* out, std::size_t* first_invalid) {
  std::size_t bad = kNone;
  std::size_t count = 0;
  std::size_t i = begin;
  while (i < end) {
    // ASCII runs eight bytes at a time.
    if (i + 8 <= end) {
      std::uint64_t eight;
      std::memcpy(&eight, in + i, 8);
      if ((eight & 0x8080808080808080ull) == 0) {
        if (kWrite) {
          for (int k = 0; k < 8; ++k) out[count + k] = in[i + k];
        }
        count += 8;
        i += 8;
        continue;
      }
    }
    const std::uint8_t b = in[i];
    if (b < 0x80) {
      if (kWrite) out[count] = b;
      ++count;
      ++i;
      continue;
    }
    // Table 3-7: the lead byte fixes the number of continuation bytes and the second byte's range.
    int need = 0;
    std::uint8_t lo = 0x80, hi = 0xBF;
    std::uint32_t c = 0;
    if (b >= 0xC2 && b <= 0xDF) {
      need = 1;
      c = b & 0x1F;
    } else if (b >= 0xE0 && b <= 0xEF) {
      need = 2;
      c = b & 0x0F;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      need = 3;
      c = b & 0x07;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    }
    std::size_t j = i + 1;
    int got = 0;
    while (got < need && j < end && in[j] >= lo && in[j] <= hi) {
      c = (c << 6) | (in[j] & 0x3F);
      ++j;
      ++got;
      lo = 0x80;
      hi = 0xBF;
    }
    if (need > 0 && got == need) {
      if (kWrite) out[count] = c;
    } else {
      // A maximal subpart: the lead and the continuation bytes that fit, or one bad byte.
      if (kWrite) out[count] = kReplacementChar;
      if (bad == kNone) bad = i;
    }
    ++count;
    i = j;
  }
  *first_invalid = bad;
  return count;
}

}  // namespace

std::size_t decode_range(const std::uint8_t* in, std::size_t begin, std::size_t end,
                         std::uint32_t* out, std::size_t* first_invalid) {
  return run_decoder<true>(in, begin, end, out, first_invalid);
}

Decoded decode(const std::uint8_t* in, std::size_t n) {
  Decoded d;
  d.code_points.resize(n);
  d.code_points.resize(decode_range(in, 0, n, d.code_points.data(), &d.first_invalid));
  return d;
}

std::size_t first_invalid(const std::uint8_t* in, std::size_t n) {
  // Slices that end where a unit surely starts, so the scan stops soon after the first error.
  constexpr std::size_t kSlice = 1 << 16;
  std::size_t begin = 0;
  while (begin < n) {
    const std::size_t end = unit_boundary(in, n, std::min(n, begin + kSlice));
    std::size_t bad;
    run_decoder<false>(in, begin, end, nullptr, &bad);
    if (bad != kNone) return bad;
    begin = end;
  }
  return kNone;
}

std::size_t unit_boundary(const std::uint8_t* in, std::size_t n, std::size_t b) {
  std::size_t i = b;
  while (i < n && i < b + 3 && continuation(in[i])) ++i;
  return i;
}

std::size_t decode_parallel_into(const std::uint8_t* in, std::size_t n, std::uint32_t* out,
                                 std::size_t* first_invalid) {
  const int threads = omp_get_max_threads();
  const std::size_t chunks = std::max<std::size_t>(1, std::min<std::size_t>(threads * 4, n / 4096));
  std::vector<std::size_t> bounds(chunks + 1);
  for (std::size_t c = 0; c <= chunks; ++c) bounds[c] = unit_boundary(in, n, n / chunks * c);
  bounds[0] = 0;  // the input's first byte always starts a unit
  bounds[chunks] = n;
  // Chunks start where a unit surely starts, so each decodes alone: count, place, decode.
  std::vector<std::size_t> counts(chunks), bad(chunks), offsets(chunks + 1, 0);
#pragma omp parallel for schedule(dynamic)
  for (std::size_t c = 0; c < chunks; ++c) {
    counts[c] = run_decoder<false>(in, bounds[c], bounds[c + 1], nullptr, &bad[c]);
  }
  std::size_t first = kNone;
  for (std::size_t c = 0; c < chunks; ++c) {
    offsets[c + 1] = offsets[c] + counts[c];
    if (first == kNone) first = bad[c];
  }
#pragma omp parallel for schedule(dynamic)
  for (std::size_t c = 0; c < chunks; ++c) {
    std::size_t unused;
    run_decoder<true>(in, bounds[c], bounds[c + 1], out + offsets[c], &unused);
  }
  *first_invalid = first;
  return offsets[chunks];
}

Decoded decode_parallel(const std::uint8_t* in, std::size_t n) {
  Decoded d;
  d.code_points.resize(n);
  d.code_points.resize(decode_parallel_into(in, n, d.code_points.data(), &d.first_invalid));
  return d;
}

Encoded encode(const std::uint32_t* in, std::size_t n) {
  Encoded e;
  e.bytes.resize(4 * n);
  e.bytes.resize(encode_range(in, 0, n, e.bytes.data(), &e.first_invalid));
  return e;
}

std::size_t encode_parallel_into(const std::uint32_t* in, std::size_t n, std::uint8_t* out,
                                 std::size_t* first_invalid) {
  const int threads = omp_get_max_threads();
  const std::size_t chunks = std::max<std::size_t>(1, std::min<std::size_t>(threads * 4, n / 1024));
  std::vector<std::size_t> sizes(chunks, 0), offsets(chunks + 1, 0), bad(chunks);
  auto begin_of = [&](std::size_t c) { return n / chunks * c; };
  auto end_of = [&](std::size_t c) { return c + 1 == chunks ? n : n / chunks * (c + 1); };
#pragma omp parallel for schedule(dynamic)
  for (std::size_t c = 0; c < chunks; ++c) {
    std::size_t s = 0;
    for (std::size_t i = begin_of(c); i < end_of(c); ++i) s += encoded_size(in[i]);
    sizes[c] = s;
  }
  for (std::size_t c = 0; c < chunks; ++c) offsets[c + 1] = offsets[c] + sizes[c];
#pragma omp parallel for schedule(dynamic)
  for (std::size_t c = 0; c < chunks; ++c) {
    encode_range(in, begin_of(c), end_of(c), out + offsets[c], &bad[c]);
  }
  std::size_t first = kNone;
  for (std::size_t c = 0; c < chunks && first == kNone; ++c) first = bad[c];
  *first_invalid = first;
  return offsets[chunks];
}

Encoded encode_parallel(const std::uint32_t* in, std::size_t n) {
  Encoded e;
  e.bytes.resize(4 * n);
  e.bytes.resize(encode_parallel_into(in, n, e.bytes.data(), &e.first_invalid));
  return e;
}

}  // namespace utf8::cpu
