// The film as an OpenEXR file: the beauty (linear RGB) and the AOVs asked for with --aov, each a
// layer of 32-bit float channels, albedo and normal of 16-bit half floats (docs/cli.md names
// them):
//   R, G, B                          the mean radiance of the pixel's samples (with --denoise:
//                                    the denoised image, and the mean in noisy.R, .G, .B)
//   albedo.R, albedo.G, albedo.B     the first hit's albedo, averaged over the pixel's samples
//   normal.X, normal.Y, normal.Z     the first hit's shading normal (world space), averaged
//   depth.Z                          distance from the camera to the first hit, over the samples
//                                    that hit (infinity where none did)
//   variance.R, variance.G, variance.B   the variance of the pixel's mean: the samples'
//                                    variance over their count (0 below two samples)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "film/film_state.h"
#include "io/image/exr_image.h"

namespace raystream {

struct AovSet {
  bool albedo = false, normal = false, depth = false, variance = false;
  bool any() const { return albedo || normal || depth || variance; }
};

// "albedo,normal,depth,variance": any of them, in any order, separated by commas. Throws
// std::invalid_argument naming an unknown or repeated name.
AovSet parse_aovs(const std::string& text);

// The names of the set, comma separated, in the order above ("" for none).
std::string aov_names(const AovSet& aovs);

// The film layers a render must keep for these AOVs.
FilmLayers film_layers_for(const AovSet& aovs);

// The EXR layers of the film: the beauty, then each AOV asked for (the film must keep its
// layers: throws std::invalid_argument otherwise).
std::vector<ExrLayer> film_exr_layers(const FilmState& film, const AovSet& aovs);

// The film as EXR bytes: film_exr_layers' layers through encode_exr (computed in parallel into
// planes that the writer reads where they are).
std::vector<unsigned char> encode_film_exr(const FilmState& film, const AovSet& aovs,
                                           ExrCompression compression = kDefaultExrCompression);

// The layers of the film as planes of floats, and the views of them that encode_exr reads (valid
// while the planes live): for writers other than encode_exr to read the same values.
struct FilmPlanes {
  std::vector<std::unique_ptr<float[]>> storage;
  std::vector<ExrLayerView> views;
  std::size_t pixels = 0;

  float* add(const char* name, std::vector<std::string> channels, bool half);
};
FilmPlanes film_planes(const FilmState& film, const AovSet& aovs);

// The film as EXR bytes with a denoised beauty: `denoised` as R, G, B, the film's own mean kept
// as the layer "noisy" (noisy.R, noisy.G, noisy.B), then the AOVs as above.
std::vector<unsigned char> encode_denoised_film_exr(const FilmState& film, const AovSet& aovs,
                                                    const Image& denoised);

}  // namespace raystream
