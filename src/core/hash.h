// A 64-bit hash over 8-byte words (FNV-1a's constants, with a shift to mix high bits down), fed
// in pieces of any size: the same bytes hash alike however they are cut. Checks a file's
// integrity and tells scenes apart; not meant to resist a forger.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace raystream {

class Hash {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    while (n > 0 && pending_ > 0 && pending_ < 8) {  // complete a word begun by the last piece
      word_[pending_++] = *p++;
      --n;
    }
    if (pending_ == 8) {
      mix_word(word_);
      pending_ = 0;
    }
    for (; n >= 8; n -= 8, p += 8) mix_word(p);
    for (; n > 0; --n) word_[pending_++] = *p++;
  }
  template <class T>
  void value(const T& v) {
    static_assert(std::is_trivially_copyable<T>::value, "plain values only");
    bytes(&v, sizeof v);
  }
  void value(const std::string& s) {
    value(s.size());
    bytes(s.data(), s.size());
  }
  template <class T>
  void value(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable<T>::value, "plain values only");
    value(v.size());
    if (!v.empty()) bytes(v.data(), v.size() * sizeof(T));
  }
  // The hash of every byte so far (the last, partial word folded in with its length).
  std::uint64_t get() const {
    std::uint64_t h = h_, tail = pending_;
    for (std::size_t i = 0; i < pending_; ++i) tail = (tail << 8) | word_[i];
    mix(h, tail);
    return h;
  }

 private:
  static void mix(std::uint64_t& h, std::uint64_t word) {
    h ^= word;
    h *= 0x100000001b3ull;
    h ^= h >> 29;
  }
  void mix_word(const unsigned char* p) {
    std::uint64_t word;
    std::memcpy(&word, p, 8);
    mix(h_, word);
  }
  std::uint64_t h_ = 0xcbf29ce484222325ull;
  unsigned char word_[8] = {};
  std::size_t pending_ = 0;
};

}  // namespace raystream
