// The film on the host: an empty one, its mean (the image), its sample counts, and the sum of
// two (the shares of a split render). Plain C++: the readers and writers use it too.
#include "film/film_state.h"

#include <algorithm>
#include <stdexcept>

namespace raystream {

FilmState empty_film(int width, int height, const FilmLayers& layers) {
  FilmState f;
  f.width = width;
  f.height = height;
  const std::size_t n = f.pixels();
  f.sums.assign(3 * n, 0.0f);
  f.counts.assign(n, 0u);
  if (layers.squares) f.squares.assign(3 * n, 0.0);
  if (layers.first_hits) f.first_hits.assign(kFirstHitValues * n, 0.0f);
  return f;
}

Image film_image(const FilmState& film) {
  Image image;
  image.width = film.width;
  image.height = film.height;
  const std::size_t n = film.pixels();
  image.rgb.assign(3 * n, 0.0f);
  for (std::size_t p = 0; p < n && p < film.counts.size(); ++p) {
    if (film.counts[p] == 0) continue;
    const float count = static_cast<float>(film.counts[p]);
    for (int c = 0; c < 3; ++c) image.rgb[3 * p + c] = film.sums[3 * p + c] / count;
  }
  return image;
}

void add_sample_range(std::vector<std::uint32_t>& counts, unsigned long long begin,
                      unsigned long long end) {
  const unsigned long long n = counts.size();
  if (n == 0 || end <= begin) return;
  // Sample k is pixel k % n: below `end`, pixel p has end / n samples, one more if p < end % n.
  const unsigned long long qb = begin / n, rb = begin % n, qe = end / n, re = end % n;
  for (unsigned long long p = 0; p < n; ++p)
    counts[p] += static_cast<std::uint32_t>((qe + (p < re ? 1 : 0)) - (qb + (p < rb ? 1 : 0)));
}

FilmSampleCounts film_sample_counts(const FilmState& film) {
  FilmSampleCounts c;
  c.min = film.counts.empty() ? 0 : film.counts.front();
  for (std::uint32_t k : film.counts) {
    c.total += k;
    c.min = std::min(c.min, k);
    c.max = std::max(c.max, k);
  }
  return c;
}

void add_film(FilmState& total, const FilmState& film) {
  if (total.width == 0 && total.height == 0 && total.sums.empty()) {
    total = film;
    return;
  }
  if (total.width != film.width || total.height != film.height ||
      total.sums.size() != film.sums.size() || total.counts.size() != film.counts.size() ||
      total.squares.size() != film.squares.size() ||
      total.first_hits.size() != film.first_hits.size())
    throw std::runtime_error("the shares of a split render differ in their films");
  for (std::size_t k = 0; k < film.sums.size(); ++k) total.sums[k] += film.sums[k];
  for (std::size_t k = 0; k < film.counts.size(); ++k) total.counts[k] += film.counts[k];
  for (std::size_t k = 0; k < film.squares.size(); ++k) total.squares[k] += film.squares[k];
  for (std::size_t k = 0; k < film.first_hits.size(); ++k)
    total.first_hits[k] += film.first_hits[k];
}

}  // namespace raystream
