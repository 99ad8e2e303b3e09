// An image: linear radiance per pixel, what the film's mean is and what the writers encode.
#pragma once

#include <vector>

namespace raystream {

struct Image {
  int width = 0, height = 0;
  std::vector<float> rgb;  // linear radiance, mean over samples, row-major from the top
};

}  // namespace raystream
