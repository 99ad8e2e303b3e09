#include "io/image/film_output.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>

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

// Each plane is written whole by the threads (left uninitialized until then, so that the pages
// are first touched in parallel).
float* FilmPlanes::add(const char* name, std::vector<std::string> channels, bool half) {
  storage.emplace_back(new float[pixels * channels.size()]);
  views.push_back({name, std::move(channels), storage.back().get(), half});
  return storage.back().get();
}

FilmPlanes film_planes(const FilmState& film, const AovSet& aovs) {
  const std::size_t n = film.pixels();
  if (film.sums.size() != 3 * n || film.counts.size() != n)
    throw std::invalid_argument(
        "film_exr_layers: the film's sums and counts disagree with its size");
  if ((aovs.albedo || aovs.normal || aovs.depth) && film.first_hits.size() != kFirstHitValues * n)
    throw std::invalid_argument("film_exr_layers: the film keeps no first hits");
  if (aovs.variance && film.squares.size() != 3 * n)
    throw std::invalid_argument("film_exr_layers: the film keeps no squared samples");
  const long pixels = long(n);
  FilmPlanes planes;
  planes.pixels = n;
  // The beauty: the mean, as film_image computes it (the sum over a float count).
  float* beauty = planes.add("", {"R", "G", "B"}, false);
#pragma omp parallel for schedule(static)
  for (long p = 0; p < pixels; ++p) {
    const std::size_t q = std::size_t(p);
    const float count = static_cast<float>(film.counts[q]);
    for (int c = 0; c < 3; ++c)
      beauty[3 * q + c] = count > 0.0f ? film.sums[3 * q + c] / count : 0.0f;
  }
  // The first-hit sums per sample (escaped samples add 0, so edges blend as in the beauty).
  // Albedo and normal lie in [0, 1] and [-1, 1]: half floats hold them to 2^-11 of their size,
  // far finer than a denoiser or a compositor needs.
  const auto first_hit_mean = [&](const char* name, std::vector<std::string> channels, int offset) {
    float* layer = planes.add(name, std::move(channels), true);
#pragma omp parallel for schedule(static)
    for (long p = 0; p < pixels; ++p) {
      const std::size_t q = std::size_t(p);
      const float count = float(film.counts[q]);
      for (int c = 0; c < 3; ++c)
        layer[3 * q + c] =
            count > 0.0f ? film.first_hits[kFirstHitValues * q + offset + c] / count : 0.0f;
    }
  };
  if (aovs.albedo) first_hit_mean("albedo", {"R", "G", "B"}, 0);
  if (aovs.normal) first_hit_mean("normal", {"X", "Y", "Z"}, 3);
  // Depth and variance stay 32-bit: distances need their precision far from the camera, and a
  // dim pixel's variance (1e-9 and below) is beneath half's smallest value.
  if (aovs.depth) {
    float* depth = planes.add("depth", {"Z"}, false);
#pragma omp parallel for schedule(static)
    for (long p = 0; p < pixels; ++p) {
      const std::size_t q = std::size_t(p);
      const float hits = film.first_hits[kFirstHitValues * q + 7];
      depth[q] = hits > 0.0f ? film.first_hits[kFirstHitValues * q + 6] / hits
                             : std::numeric_limits<float>::infinity();
    }
  }
  if (aovs.variance) {
    float* variance = planes.add("variance", {"R", "G", "B"}, false);
#pragma omp parallel for schedule(static)
    for (long p = 0; p < pixels; ++p) {
      const std::size_t q = std::size_t(p);
      const double count = film.counts[q];
      for (int c = 0; c < 3; ++c) {
        if (count < 2) {
          variance[3 * q + c] = 0.0f;
          continue;
        }
        const double sum = film.sums[3 * q + c], squares = film.squares[3 * q + c];
        // The samples' variance (Bessel's correction) over their count; rounding of the float
        // sums can leave a tiny negative where every sample was equal.
        const double spread = (squares - sum * sum / count) / (count - 1.0);
        // A variance beyond a float's range is written as infinity.
        const double v = std::max(0.0, spread) / count;
        variance[3 * q + c] = v > std::numeric_limits<float>::max()
                                  ? std::numeric_limits<float>::infinity()
                                  : float(v);
      }
    }
  }
  return planes;
}

std::vector<ExrLayer> film_exr_layers(const FilmState& film, const AovSet& aovs) {
  const FilmPlanes planes = film_planes(film, aovs);
  std::vector<ExrLayer> layers;
  for (const ExrLayerView& view : planes.views) {
    const float* values = view.values;
    layers.push_back({view.name, view.channels,
                      std::vector<float>(values, values + planes.pixels * view.channels.size()),
                      view.half});
  }
  return layers;
}

std::vector<unsigned char> encode_film_exr(const FilmState& film, const AovSet& aovs,
                                           ExrCompression compression) {
  const FilmPlanes planes = film_planes(film, aovs);
  return encode_exr(film.width, film.height, planes.views, compression);
}

std::vector<unsigned char> encode_denoised_film_exr(const FilmState& film, const AovSet& aovs,
                                                    const Image& denoised) {
  if (denoised.width != film.width || denoised.height != film.height)
    throw std::invalid_argument("encode_denoised_film_exr: the image is not the film's size");
  std::vector<ExrLayer> layers = film_exr_layers(film, aovs);
  ExrLayer noisy{"noisy", {"R", "G", "B"}, std::move(layers[0].values)};
  layers[0].values = denoised.rgb;
  layers.insert(layers.begin() + 1, std::move(noisy));
  return encode_exr(film.width, film.height, layers);
}

}  // namespace raystream
