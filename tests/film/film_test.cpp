// The film's sums as the stages make them (film/film_view.h, on the host): the variance layer's
// squares are kept in double, so that a radiance whose square overflows a float (above 1.8e19)
// still gives its pixel's variance (it gave 0 or infinity).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "film/film_state.h"
#include "film/film_view.h"
#include "io/image/film_output.h"

namespace raystream {
namespace {

TEST(FilmTest, SquaresOfBrightSamplesDoNotOverflow) {
  std::vector<glm::vec3> sums(1, glm::vec3(0.0f));
  std::vector<glm::dvec3> squares(1, glm::dvec3(0.0));
  FilmView view;
  view.sums = sums.data();
  view.squares = squares.data();
  view.carry = true;
  // Each square is above a float's largest value (3.4e38); their spread is not.
  const float samples[] = {3e19f, 3.1e19f, 2.9e19f, 3.2e19f};
  for (float s : samples) finish_sample(view, 0, glm::vec3(s, 1.0f, 0.0f));
  double expected = 0.0, sum = 0.0;
  for (float s : samples) expected += double(s) * double(s), sum += s;
  EXPECT_DOUBLE_EQ(squares[0].x, expected);
  EXPECT_DOUBLE_EQ(squares[0].y, 4.0);
  EXPECT_EQ(squares[0].z, 0.0);

  // The variance layer from that film: the samples' variance over their count, in float.
  FilmState film = empty_film(1, 1, FilmLayers{false, true});
  film.sums = {sums[0].x, sums[0].y, sums[0].z};
  film.counts = {4};
  film.squares = {squares[0].x, squares[0].y, squares[0].z};
  AovSet aovs;
  aovs.variance = true;
  const double mean = sum / 4;
  const double variance = (expected - 4 * mean * mean) / 3 / 4;
  bool found = false;
  for (const ExrLayer& layer : film_exr_layers(film, aovs)) {
    if (layer.name != "variance") continue;
    found = true;
    ASSERT_EQ(layer.values.size(), 3u);
    // The float sums' rounding, squared against the spread, leaves about 1e-4.
    EXPECT_NEAR(layer.values[0], variance, 1e-3 * variance);
    EXPECT_EQ(layer.values[1], 0.0f);
    EXPECT_EQ(layer.values[2], 0.0f);
  }
  EXPECT_TRUE(found);
}

TEST(FilmTest, AVarianceBeyondAFloatIsInfinity) {
  FilmState film = empty_film(1, 1, FilmLayers{false, true});
  film.sums = {3e38f, 0.0f, 0.0f};
  film.counts = {2};
  film.squares = {9e76, 0.0, 0.0};  // one sample of 3e38, one of 0
  AovSet aovs;
  aovs.variance = true;
  for (const ExrLayer& layer : film_exr_layers(film, aovs)) {
    if (layer.name == "variance") {
      EXPECT_EQ(layer.values[0], std::numeric_limits<float>::infinity());
    }
  }
}

}  // namespace
}  // namespace raystream
