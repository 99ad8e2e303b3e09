// The per-thread rules of the GPU UTF-8 codec, as plain functions that compile for host and
// device, so the CPU tests run exactly the logic each GPU thread runs.
//
// Decoding follows the Unicode standard, ch. 3, Table 3-7 (well-formed byte sequences) and
// "U+FFFD Substitution of Maximal Subparts": the decoder reads a *unit* at a time; a unit is a
// well-formed sequence (one code point) or a maximal subpart of an ill-formed one (one U+FFFD).
//
// Why units can be found in parallel: a byte that is not a continuation byte (80..BF) always
// starts a unit, and a unit never extends over more than 3 bytes after its first. So whether the
// byte at i starts a unit depends only on bytes [i-3, i+2] (see classify_span).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define UTF8_HD __host__ __device__ __forceinline__
#else
#define UTF8_HD inline
#endif

namespace utf8 {

inline constexpr std::uint32_t kReplacement = 0xFFFD;
inline constexpr int kSpanBytes = 16;  // bytes one decode thread owns

UTF8_HD bool is_continuation(std::uint32_t byte) {
  return (byte & 0xC0u) == 0x80u;
}

// One unit read at b0 with the three bytes after it (bytes past the end of the input read as 0,
// which is never a continuation byte, so a sequence cut by the end is a maximal subpart).
struct Unit {
  int length;           // bytes consumed, 1..4
  bool valid;           // a well-formed sequence (else one U+FFFD)
  std::uint32_t value;  // the code point, or U+FFFD
};

UTF8_HD Unit read_unit(std::uint32_t b0, std::uint32_t b1, std::uint32_t b2, std::uint32_t b3) {
  if (b0 < 0x80u) return {1, true, b0};
  int need;  // continuation bytes a well-formed sequence with this lead has
  std::uint32_t lo = 0x80u, hi = 0xBFu;  // the allowed range of the second byte
  if (b0 < 0xC2u) {
    return {1, false, kReplacement};  // continuation byte or overlong lead C0, C1
  } else if (b0 < 0xE0u) {
    need = 1;
  } else if (b0 < 0xF0u) {
    need = 2;
    if (b0 == 0xE0u) lo = 0xA0u;  // overlong
    if (b0 == 0xEDu) hi = 0x9Fu;  // surrogates
  } else if (b0 < 0xF5u) {
    need = 3;
    if (b0 == 0xF0u) lo = 0x90u;  // overlong
    if (b0 == 0xF4u) hi = 0x8Fu;  // above U+10FFFF
  } else {
    return {1, false, kReplacement};  // F5..FF never appear in UTF-8
  }
  int length = 1;
  if (b1 >= lo && b1 <= hi) {
    length = 2;
    if (need >= 2 && is_continuation(b2)) {
      length = 3;
      if (need >= 3 && is_continuation(b3)) length = 4;
    }
  }
  if (length != need + 1) return {length, false, kReplacement};
  std::uint32_t value;
  if (need == 1) {
    value = ((b0 & 0x1Fu) << 6) | (b1 & 0x3Fu);
  } else if (need == 2) {
    value = ((b0 & 0x0Fu) << 12) | ((b1 & 0x3Fu) << 6) | (b2 & 0x3Fu);
  } else {
    value = ((b0 & 0x07u) << 18) | ((b1 & 0x3Fu) << 12) | ((b2 & 0x3Fu) << 6) | (b3 & 0x3Fu);
  }
  return {length, true, value};
}

// The bytes a decode thread sees: [p - 4, p + 20) for the span [p, p + 16) it owns, as six
// little-endian words; bytes outside the input read as 0.
struct ByteWindow {
  std::uint32_t word[6];
  // k in [-4, 20), relative to p. Fully unrolled loops make k a constant, so this is a shift.
  UTF8_HD std::uint32_t byte(int k) const {
    return (word[(k + 4) >> 2] >> (8 * ((k + 4) & 3))) & 0xFFu;
  }
  UTF8_HD bool own_bytes_ascii() const {
    return ((word[1] | word[2] | word[3] | word[4]) & 0x80808080u) == 0;
  }
  // Bytes k..k+3 (k in [-4, 15], not a constant), first byte lowest. Selects rather than an
  // indexed array, so that the window stays in registers on the GPU.
  UTF8_HD std::uint32_t four_bytes_at(int k) const {
    const int q = k + 4;
    const int i = q >> 2;
    std::uint32_t lo = word[0], hi = word[1];
    if (i >= 1) lo = word[1], hi = word[2];
    if (i >= 2) lo = word[2], hi = word[3];
    if (i >= 3) lo = word[3], hi = word[4];
    if (i >= 4) lo = word[4], hi = word[5];
    const unsigned shift = 8u * static_cast<unsigned>(q & 3);
#if defined(__CUDA_ARCH__)
    return __funnelshift_r(lo, hi, shift);
#else
    return shift == 0 ? lo : (lo >> shift) | (hi << (32u - shift));
#endif
  }
};

UTF8_HD int lowest_bit(std::uint32_t x) {  // x != 0
#if defined(__CUDA_ARCH__)
  return __ffs(x) - 1;
#else
  return __builtin_ctz(x);
#endif
}

// One bit per byte of x (bit b for byte b) whose top two bits equal those of `pattern` (0x80 or
// 0xC0 repeated): SWAR, no carries between bytes.
UTF8_HD std::uint32_t top_bits_mask(std::uint32_t x, std::uint32_t pattern) {
  const std::uint32_t t = (x & 0xC0C0C0C0u) ^ pattern;  // 0 where equal
  const std::uint32_t nonzero = (((t & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | t) & 0x80808080u;
  const std::uint32_t zero = (nonzero ^ 0x80808080u) >> 7;  // 01 where equal
  return (zero * 0x01020408u) >> 24;  // gathers the four 01 bits into bits 0..3
}

// Bit k set: a unit starts at p + k (and, in `invalid`, that unit is ill-formed).
struct SpanMasks {
  std::uint32_t starts;
  std::uint32_t invalid;
};

// `own` = how many of the span's 16 bytes lie inside the input (0..16).
UTF8_HD std::uint32_t own_mask(int own) {
  return own >= kSpanBytes ? 0xFFFFu : ((1u << (own < 0 ? 0 : own)) - 1u);
}

// Finds the units that start inside the span, from the window alone. Window masks have bit
// k + 4 for position k in [-4, 16).
// - ASCII bytes and leads (C0..FF, including the never-valid C0, C1, F5..FF) always start a unit.
// - A lead at j reads the unit [j, j + L) (read_unit), which covers continuation bytes only.
// - A continuation byte starts a unit (a stray one, U+FFFD) unless a lead's unit covers it; that
//   lead is at most 3 bytes before it, so inside the window for every byte the span owns.
// Only the leads need work (a loop over their bits); ASCII-only spans take a shortcut.
UTF8_HD SpanMasks classify_span(const ByteWindow& w, int own) {
  const std::uint32_t mask = own_mask(own);
  if (w.own_bytes_ascii()) return {mask, 0u};
  std::uint32_t continuation = 0, leads = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int i = 0; i < 5; ++i) {
    continuation |= top_bits_mask(w.word[i], 0x80808080u) << (4 * i);
    leads |= top_bits_mask(w.word[i], 0xC0C0C0C0u) << (4 * i);
  }
  std::uint32_t covered = 0, invalid = 0;
  while (leads != 0) {
    const int b = lowest_bit(leads);
    leads &= leads - 1;
    const std::uint32_t x = w.four_bytes_at(b - 4);
    const Unit u = read_unit(x & 0xFFu, (x >> 8) & 0xFFu, (x >> 16) & 0xFFu, x >> 24);
    covered |= ((1u << u.length) - 2u) << b;  // bits b + 1 .. b + length - 1
    if (!u.valid) invalid |= 1u << b;
  }
  invalid |= continuation & ~covered;  // stray continuation bytes
  const std::uint32_t starts = (~covered >> 4) & mask;
  return {starts, (invalid >> 4) & starts};
}

// Calls store(j, value) for the j-th unit starting in the span, in order; `starts` is
// classify_span's.
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class Store>
UTF8_HD void emit_span(const ByteWindow& w, std::uint32_t starts, Store&& store) {
  if (w.own_bytes_ascii()) {  // then starts is a run of ones from bit 0: unit j is byte j
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int k = 0; k < kSpanBytes; ++k) {
      if ((starts >> k) & 1u) store(k, w.byte(k));
    }
    return;
  }
  int j = 0;
  while (starts != 0) {
    const int k = lowest_bit(starts);
    starts &= starts - 1;
    const std::uint32_t x = w.four_bytes_at(k);
    store(j++, read_unit(x & 0xFFu, (x >> 8) & 0xFFu, (x >> 16) & 0xFFu, x >> 24).value);
  }
}

// Encoding. A scalar value is a code point outside the surrogates D800..DFFF, at most 10FFFF;
// anything else encodes as U+FFFD (EF BF BD).
UTF8_HD bool is_scalar_value(std::uint32_t c) {
  return c <= 0x10FFFFu && (c - 0xD800u) >= 0x800u;
}

UTF8_HD std::uint32_t encoded_length(std::uint32_t c) {
  if (c < 0x80u) return 1;
  if (c < 0x800u) return 2;
  if (c < 0x10000u) return 3;  // surrogates too: their U+FFFD has 3 bytes
  return c <= 0x10FFFFu ? 4 : 3;
}

// The encoded bytes packed little-endian: the first byte in bits 0..7.
UTF8_HD std::uint32_t encoded_bytes(std::uint32_t c) {
  if (!is_scalar_value(c)) c = kReplacement;
  if (c < 0x80u) return c;
  if (c < 0x800u) return (0xC0u | (c >> 6)) | ((0x80u | (c & 0x3Fu)) << 8);
  if (c < 0x10000u) {
    return (0xE0u | (c >> 12)) | ((0x80u | ((c >> 6) & 0x3Fu)) << 8) |
           ((0x80u | (c & 0x3Fu)) << 16);
  }
  return (0xF0u | (c >> 18)) | ((0x80u | ((c >> 12) & 0x3Fu)) << 8) |
         ((0x80u | ((c >> 6) & 0x3Fu)) << 16) | ((0x80u | (c & 0x3Fu)) << 24);
}

// encoded_bytes with the unused high bytes set to FF, a byte UTF-8 never contains: the
// "4 bytes each, compact the padding away" encoder writes this.
UTF8_HD std::uint32_t padded_bytes(std::uint32_t c) {
  const std::uint32_t length = encoded_length(c);
  return length == 4 ? encoded_bytes(c) : encoded_bytes(c) | (0xFFFFFFFFu << (8 * length));
}

}  // namespace utf8
