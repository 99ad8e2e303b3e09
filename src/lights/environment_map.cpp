#include "lights/environment_map.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "primitives/cpu/cpu_backend.h"

namespace raystream {
namespace {

constexpr double kPiD = 3.14159265358979323846;

}  // namespace

EnvironmentTables build_environment_tables(const Environment& env) {
  EnvironmentTables tables;
  if (env.width <= 0 || env.height <= 0) return tables;
  const std::size_t w = static_cast<std::size_t>(env.width);
  const std::size_t h = static_cast<std::size_t>(env.height);
  if (env.texels.size() != w * h) {
    throw std::invalid_argument("build_environment_tables: " + std::to_string(env.texels.size()) +
                                " texels for a " + std::to_string(w) + " x " + std::to_string(h) +
                                " map");
  }
  // Sums in double: a bright sun next to millions of dim texels keeps their share.
  std::vector<double> weights(w), sums(w + 1, 0.0), row_weights(h), rows(h + 1, 0.0);
  tables.conditional_cdf.resize(h * (w + 1));
  tables.marginal_cdf.resize(h + 1);
  for (std::size_t row = 0; row < h; ++row) {
    const double sin_theta = std::sin(kPiD * (static_cast<double>(row) + 0.5) / h);
    for (std::size_t column = 0; column < w; ++column) {
      const float l = environment_luminance(env.texels[row * w + column]);
      weights[column] = l > 0.0f ? static_cast<double>(l) * sin_theta : 0.0;
    }
    prim::cpu::inclusive_scan(weights.data(), sums.data() + 1, w, 0.0);
    const double total = sums[w];
    float* cdf = tables.conditional_cdf.data() + row * (w + 1);
    for (std::size_t i = 0; i <= w; ++i) {
      cdf[i] = total > 0.0 ? static_cast<float>(sums[i] / total)
                           : static_cast<float>(static_cast<double>(i) / w);
    }
    cdf[w] = 1.0f;
    row_weights[row] = total;
  }
  prim::cpu::inclusive_scan(row_weights.data(), rows.data() + 1, h, 0.0);
  const double total = rows[h];
  for (std::size_t j = 0; j <= h; ++j) {
    tables.marginal_cdf[j] = total > 0.0 ? static_cast<float>(rows[j] / total)
                                         : static_cast<float>(static_cast<double>(j) / h);
  }
  tables.marginal_cdf[h] = 1.0f;
  return tables;
}

}  // namespace raystream
