// Statistics shared by the Monte Carlo tests: chi-square critical values, normal quantiles.
#pragma once

#include <cmath>
#include <vector>

namespace raystream::test {

// Upper critical value of chi-square with k degrees of freedom at p = 0.001 (Wilson-Hilferty).
inline double chi_square_critical(int k) {
  const double z = 3.0902;  // standard normal quantile of 0.999
  const double a = 2.0 / (9.0 * k);
  return k * std::pow(1.0 - a + z * std::sqrt(a), 3.0);
}

// Pearson's statistic of observed counts against one expected count per bin.
inline double chi_square(const std::vector<double>& observed, double expected_each) {
  double chi = 0.0;
  for (double o : observed) chi += (o - expected_each) * (o - expected_each) / expected_each;
  return chi;
}

// z with P(|N(0,1)| > z) = p, by bisection on erfc.
inline double two_sided_normal_quantile(double p) {
  double lo = 0.0, hi = 40.0;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (std::erfc(mid / std::sqrt(2.0)) > p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

}  // namespace raystream::test
