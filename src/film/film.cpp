#include "film/film.h"

#include <stdexcept>
#include <string>

namespace raystream {

Film::Film(const Executor& ex, int width, int height, const FilmLayers& layers, bool count_samples,
           const FilmState* initial, MemoryTally* tally)
    : ex_(ex),
      width_(width),
      height_(height),
      sums_(ex, "film", pixels(), tally),
      squares_(ex, "film squared samples", layers.squares ? pixels() : 0, tally),
      first_hits_(ex, "film first hits", layers.first_hits ? pixels() : 0, tally) {
  view_.sums = sums_.data();
  view_.count_samples = count_samples;
  view_.squares = layers.squares ? squares_.data() : nullptr;
  view_.first_hits = layers.first_hits ? first_hits_.data() : nullptr;
  view_.carry = view_.squares != nullptr;
  if (initial) {
    upload(*initial);
    return;
  }
  fill_bytes(ex, sums_.data(), 0, sums_.bytes());
  if (view_.squares) fill_bytes(ex, squares_.data(), 0, squares_.bytes());
  if (view_.first_hits) fill_bytes(ex, first_hits_.data(), 0, first_hits_.bytes());
}

// A resumed render's film into the executor's buffers: the layers the render keeps must be
// there (a layer the film has and the render does not keep is left out).
void Film::upload(const FilmState& f) {
  const std::size_t n = pixels();
  if (f.width != width_ || f.height != height_ || f.sums.size() != 3 * n || f.counts.size() != n)
    throw std::runtime_error("render: the resumed film is " + std::to_string(f.width) + "x" +
                             std::to_string(f.height) + ", the render " + std::to_string(width_) +
                             "x" + std::to_string(height_));
  if ((view_.squares && f.squares.size() != 3 * n) ||
      (view_.first_hits && f.first_hits.size() != kFirstHitValues * n))
    throw std::runtime_error("render: the resumed film lacks a layer this render keeps");
  initial_counts_ = f.counts;
  copy_from_host(ex_, sums_.data(), f.sums.data(), sums_.bytes());
  if (view_.squares) copy_from_host(ex_, squares_.data(), f.squares.data(), squares_.bytes());
  if (view_.first_hits)
    copy_from_host(ex_, first_hits_.data(), f.first_hits.data(), first_hits_.bytes());
}

FilmState Film::download(unsigned long long begin, unsigned long long next_sample) const {
  FilmState f;
  f.width = width_;
  f.height = height_;
  const std::size_t n = pixels();
  if (!initial_counts_.empty())
    f.counts = initial_counts_;
  else
    f.counts.assign(n, 0u);
  add_sample_range(f.counts, begin, next_sample);
  download_into(f.sums, sums_);
  if (view_.squares) download_into(f.squares, squares_);
  if (view_.first_hits) download_into(f.first_hits, first_hits_);
  return f;
}

// A buffer's values into a host vector of its scalars: on the CPU executor copied as the vector is
// made (one pass over memory that a film of gigabytes pays for in seconds), on the GPU into it.
template <class Scalar, class Value>
void Film::download_into(std::vector<Scalar>& host, const Buffer<Value>& buffer) const {
  static_assert(sizeof(Value) % sizeof(Scalar) == 0, "a buffer of whole scalars");
  const std::size_t n = buffer.bytes() / sizeof(Scalar);
  if (!ex_.gpu()) {
    const auto* first = reinterpret_cast<const Scalar*>(buffer.data());
    host.assign(first, first + n);
    return;
  }
  host.resize(n);
  copy_to_host(ex_, host.data(), buffer.data(), buffer.bytes());
}

}  // namespace raystream
