#include "io/film_output.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/excerpt.h"

namespace raystream {

AovSet parse_aovs(const std::string& text) {
  AovSet aovs;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    const std::string name = text.substr(start, comma - start);
    bool* flag = name == "albedo"     ? &aovs.albedo
                 : name == "normal"   ? &aovs.normal
                 : name == "depth"    ? &aovs.depth
                 : name == "variance" ? &aovs.variance
                                      : nullptr;
    if (flag == nullptr)
      throw std::invalid_argument("'" + excerpt(name) +
                                  "' is not an AOV (expected albedo, normal, depth or variance, "
                                  "comma separated)");
    if (*flag) throw std::invalid_argument(name + " is named twice");
    *flag = true;
    start = comma + 1;
  }
  return aovs;
}

std::string aov_names(const AovSet& aovs) {
  std::string names;
  const auto add = [&](bool on, const char* name) {
    if (on) names += (names.empty() ? "" : ",") + std::string(name);
  };
  add(aovs.albedo, "albedo");
  add(aovs.normal, "normal");
  add(aovs.depth, "depth");
  add(aovs.variance, "variance");
  return names;
}

FilmLayers film_layers_for(const AovSet& aovs) {
  FilmLayers layers;
  layers.first_hits = aovs.albedo || aovs.normal || aovs.depth;
  layers.squares = aovs.variance;
  return layers;
}

std::vector<ExrLayer> film_exr_layers(const FilmState& film, const AovSet& aovs) {
  const std::size_t n = film.pixels();
  if (film.sums.size() != 3 * n || film.counts.size() != n)
    throw std::invalid_argument(
        "film_exr_layers: the film's sums and counts disagree with its size");
  if ((aovs.albedo || aovs.normal || aovs.depth) && film.first_hits.size() != kFirstHitValues * n)
    throw std::invalid_argument("film_exr_layers: the film keeps no first hits");
  if (aovs.variance && film.squares.size() != 3 * n)
    throw std::invalid_argument("film_exr_layers: the film keeps no squared samples");
  const long pixels = long(n);
  std::vector<ExrLayer> layers;
  // The beauty: the mean, as film_image computes it (the sum over a float count), per pixel in
  // parallel.
  {
    ExrLayer beauty{"", {"R", "G", "B"}, std::vector<float>(3 * n, 0.0f)};
#pragma omp parallel for schedule(static)
    for (long p = 0; p < pixels; ++p) {
      if (film.counts[std::size_t(p)] == 0) continue;
      const float count = static_cast<float>(film.counts[std::size_t(p)]);
      for (int c = 0; c < 3; ++c)
        beauty.values[3 * std::size_t(p) + c] = film.sums[3 * std::size_t(p) + c] / count;
    }
    layers.push_back(std::move(beauty));
  }
  // The first-hit sums per sample (escaped samples add 0, so edges blend as in the beauty).
  // Albedo and normal lie in [0, 1] and [-1, 1]: half floats hold them to 2^-11 of their size,
  // far finer than a denoiser or a compositor needs.
  const auto first_hit_mean = [&](const char* name, std::vector<std::string> channels, int offset) {
    ExrLayer layer{name, std::move(channels), std::vector<float>(3 * n, 0.0f), true};
#pragma omp parallel for schedule(static)
    for (long p = 0; p < pixels; ++p) {
      const std::size_t q = std::size_t(p);
      if (film.counts[q] == 0) continue;
      for (int c = 0; c < 3; ++c)
        layer.values[3 * q + c] =
            film.first_hits[kFirstHitValues * q + offset + c] / float(film.counts[q]);
    }
    layers.push_back(std::move(layer));
  };
  if (aovs.albedo) first_hit_mean("albedo", {"R", "G", "B"}, 0);
  if (aovs.normal) first_hit_mean("normal", {"X", "Y", "Z"}, 3);
  // Depth and variance stay 32-bit: distances need their precision far from the camera, and a
  // dim pixel's variance (1e-9 and below) is beneath half's smallest value.
  if (aovs.depth) {
    ExrLayer depth{"depth", {"Z"}, std::vector<float>(n, std::numeric_limits<float>::infinity())};
#pragma omp parallel for schedule(static)
    for (long p = 0; p < pixels; ++p) {
      const std::size_t q = std::size_t(p);
      const float hits = film.first_hits[kFirstHitValues * q + 7];
      if (hits > 0.0f) depth.values[q] = film.first_hits[kFirstHitValues * q + 6] / hits;
    }
    layers.push_back(std::move(depth));
  }
  if (aovs.variance) {
    ExrLayer variance{"variance", {"R", "G", "B"}, std::vector<float>(3 * n, 0.0f)};
#pragma omp parallel for schedule(static)
    for (long p = 0; p < pixels; ++p) {
      const std::size_t q = std::size_t(p);
      const double count = film.counts[q];
      if (count < 2) continue;
      for (int c = 0; c < 3; ++c) {
        const double sum = film.sums[3 * q + c], squares = film.squares[3 * q + c];
        // The samples' variance (Bessel's correction) over their count; rounding of the float
        // sums can leave a tiny negative where every sample was equal.
        const double spread = (squares - sum * sum / count) / (count - 1.0);
        variance.values[3 * q + c] = float(std::max(0.0, spread) / count);
      }
    }
    layers.push_back(std::move(variance));
  }
  return layers;
}

std::vector<unsigned char> encode_film_exr(const FilmState& film, const AovSet& aovs,
                                           ExrCompression compression) {
  return encode_exr(film.width, film.height, film_exr_layers(film, aovs), compression);
}

}  // namespace raystream
