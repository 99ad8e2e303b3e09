#include "io/film_output.h"

#include <algorithm>
#include <limits>
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

std::vector<ExrLayer> film_exr_layers(const FilmState& film, const AovSet& aovs) {
  const std::size_t n = film.pixels();
  if ((aovs.albedo || aovs.normal || aovs.depth) && film.first_hits.size() != kFirstHitValues * n)
    throw std::invalid_argument("film_exr_layers: the film keeps no first hits");
  if (aovs.variance && film.squares.size() != 3 * n)
    throw std::invalid_argument("film_exr_layers: the film keeps no squared samples");
  std::vector<ExrLayer> layers;
  layers.push_back({"", {"R", "G", "B"}, film_image(film).rgb});
  // The first-hit sums per sample (escaped samples add 0, so edges blend as in the beauty).
  const auto first_hit_mean = [&](const char* name, std::vector<std::string> channels, int offset) {
    ExrLayer layer{name, std::move(channels), std::vector<float>(3 * n, 0.0f)};
    for (std::size_t p = 0; p < n; ++p) {
      if (film.counts[p] == 0) continue;
      for (int c = 0; c < 3; ++c)
        layer.values[3 * p + c] =
            film.first_hits[kFirstHitValues * p + offset + c] / float(film.counts[p]);
    }
    layers.push_back(std::move(layer));
  };
  if (aovs.albedo) first_hit_mean("albedo", {"R", "G", "B"}, 0);
  if (aovs.normal) first_hit_mean("normal", {"X", "Y", "Z"}, 3);
  if (aovs.depth) {
    ExrLayer depth{"depth", {"Z"}, std::vector<float>(n, std::numeric_limits<float>::infinity())};
    for (std::size_t p = 0; p < n; ++p) {
      const float hits = film.first_hits[kFirstHitValues * p + 7];
      if (hits > 0.0f) depth.values[p] = film.first_hits[kFirstHitValues * p + 6] / hits;
    }
    layers.push_back(std::move(depth));
  }
  if (aovs.variance) {
    ExrLayer variance{"variance", {"R", "G", "B"}, std::vector<float>(3 * n, 0.0f)};
    for (std::size_t p = 0; p < n; ++p) {
      const double count = film.counts[p];
      if (count < 2) continue;
      for (int c = 0; c < 3; ++c) {
        const double sum = film.sums[3 * p + c], squares = film.squares[3 * p + c];
        // The samples' variance (Bessel's correction) over their count; rounding of the float
        // sums can leave a tiny negative where every sample was equal.
        const double spread = (squares - sum * sum / count) / (count - 1.0);
        variance.values[3 * p + c] = float(std::max(0.0, spread) / count);
      }
    }
    layers.push_back(std::move(variance));
  }
  return layers;
}

std::vector<unsigned char> encode_film_exr(const FilmState& film, const AovSet& aovs) {
  return encode_exr(film.width, film.height, film_exr_layers(film, aovs));
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
