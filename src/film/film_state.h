// The film of a render on the host, as sums over its samples per pixel: what the image, the AOVs
// and a checkpoint are made of. Plain C++: the readers and writers use it too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "film/image.h"

namespace raystream {

// kFirstHitValues floats per pixel of the first-hit layer: albedo (3), shading normal (3),
// distance from where the camera ray started, and the count of samples whose camera ray hit.
inline constexpr int kFirstHitValues = 8;

// Sample number k of a render is sample k / pixels of pixel k % pixels; a render's samples are a
// range of these numbers.
struct FilmState {
  int width = 0, height = 0;
  std::vector<float> sums;            // 3 per pixel: the samples' radiance summed
  std::vector<std::uint32_t> counts;  // per pixel: the samples it got
  // 3 per pixel: each sample's radiance squared, summed (the variance AOV), in double so that no
  // square of a float radiance overflows; empty: not kept.
  std::vector<double> squares;
  // kFirstHitValues per pixel, summed over the samples whose camera ray hit a surface; empty:
  // not kept.
  std::vector<float> first_hits;
  std::size_t pixels() const { return std::size_t(width) * std::size_t(height); }
};

// What a render keeps on its film beyond the radiance and the sample counts.
struct FilmLayers {
  bool first_hits = false;  // albedo, normal and depth of the first hit (the AOVs)
  bool squares = false;     // squared samples (the variance AOV)
};

// A film of no samples with the given layers.
FilmState empty_film(int width, int height, const FilmLayers& layers);

// The mean radiance per pixel: sums / counts (0 for a pixel with no sample).
Image film_image(const FilmState& film);

// The samples on the film: their total and the fewest and most of any pixel.
struct FilmSampleCounts {
  std::uint64_t total = 0;
  std::uint32_t min = 0, max = 0;
};
FilmSampleCounts film_sample_counts(const FilmState& film);

// Adds the samples [begin, end) of a render to the per-pixel counts (sample k is pixel
// k % counts.size()). Every schedule ends such a range, so the counts are not kept per sample.
void add_sample_range(std::vector<std::uint32_t>& counts, unsigned long long begin,
                      unsigned long long end);

// Adds one film into another of the same size and layers (throws std::runtime_error otherwise).
void add_film(FilmState& total, const FilmState& film);

}  // namespace raystream
