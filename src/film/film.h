// The film of a render in executor memory: the buffers of its layers, cleared or filled from a
// resumed film, and copied back to the host as a FilmState with the samples' counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "execution/buffer.h"
#include "film/film_state.h"
#include "film/film_view.h"

namespace raystream {

class Film {
 public:
  // An empty film (or, with `initial`, a resumed one: its layers must include `layers`).
  Film(const Executor& ex, int width, int height, const FilmLayers& layers, bool count_samples,
       const FilmState* initial, MemoryTally* tally);

  const FilmView& view() const { return view_; }
  int width() const { return width_; }
  int height() const { return height_; }
  std::size_t pixels() const { return std::size_t(width_) * std::size_t(height_); }

  // The film on the host (waits for the executor), its counts those of the resumed film (if any)
  // plus one per sample of [begin, next_sample).
  FilmState download(unsigned long long begin, unsigned long long next_sample) const;

 private:
  void upload(const FilmState& film);
  template <class Scalar, class Value>
  void download_into(std::vector<Scalar>& host, const Buffer<Value>& buffer) const;

  const Executor& ex_;
  int width_, height_;
  std::vector<std::uint32_t> initial_counts_;  // the resumed film's, or none
  Buffer<glm::vec3> sums_;
  Buffer<glm::dvec3> squares_;
  Buffer<FirstHitSums> first_hits_;
  FilmView view_;
};

}  // namespace raystream
