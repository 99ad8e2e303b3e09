// The edge-avoiding a-trous wavelet filter's per-pixel math (Dammertz et al. 2010, "Edge-Avoiding
// A-Trous Wavelet Transform for fast Global Illumination Filtering"), with the luminance stop
// scaled by an estimate of each pixel's noise as in SVGF (Schied et al. 2017): the one body that
// the CPU driver (OpenMP) and the GPU driver (CUDA kernels) run per pixel.
//
// Passes over the image, each a function of one pixel:
//   denoise_prepare      the guides (the first hit's mean albedo, normal and depth) and the
//                        colour to filter: radiance over albedo (demodulated) or radiance
//   denoise_variance     the noise estimate: the luminance variance of the 5 x 5 neighbours
//                        that the guides call the same surface
//   denoise_least_variance   the least of those estimates over the 3 x 3 neighbours
//   denoise_atrous       one a-trous step: a 5 x 5 B3-spline kernel with holes (taps `step`
//                        pixels apart, 1, 2, 4, ...), weighted by the guides and the luminance
//   denoise_finish       the filtered colour times the albedo again
#pragma once

#include <cmath>
#include <cstddef>
#include <glm/glm.hpp>

#include "core/host_device.h"

namespace raystream {

// Floats per pixel of the film's first-hit sums: albedo (3), shading normal (3), distance, and
// the number of samples that hit a surface (the film's kFirstHitValues).
inline constexpr int kDenoiseGuideSums = 8;

// A channel's albedo below this divides as this much (a black channel would divide by zero); the
// same divisor multiplies back, so the image keeps its values where nothing is filtered.
inline constexpr float kDenoiseMinAlbedo = 0.01f;

struct AtrousSettings {
  // The defaults were chosen by MSE against references on cornell, smallpt and engine.json at 16
  // spp (`scripts/bench.py denoise`).
  int iterations = 4;  // steps 1, 2, 4, 8: a footprint 61 pixels wide
  // true: filter radiance / albedo (the irradiance, smooth across textures and albedo edges) and
  // multiply back; false: filter the radiance, with the albedo as a guide too.
  bool demodulate = true;
  float sigma_luminance = 4.0f;  // luminance difference in the pixel's noise deviations
  float sigma_normal = 0.4f;     // shading normals' distance
  float sigma_depth = 1.0f;      // depth difference in the surface's depth change over the offset
  // Albedo distance. Demodulated, the filter needs the albedo only where the radiance over albedo
  // still steps (an emitter beside a ceiling of another albedo); on radiance, at every edge.
  float sigma_albedo = 0.4f;
  float sigma_albedo_radiance = 0.1f;
  // The radiance is filtered times this power of two (denoise_scale): the filter is the same at
  // any scale, and a bright image's squares stay within a float.
  float scale = 1.0f;
};

// The scale at which an image whose largest finite value is `largest` is filtered: 1 up to 2^32,
// else the power of two that brings it there, so that no luminance squared overflows a float.
inline float denoise_scale(float largest) {
  if (!(largest > 4294967296.0f)) return 1.0f;
  int exponent = 0;
  std::frexp(largest, &exponent);  // largest < 2^exponent
  return std::ldexp(1.0f, 32 - exponent);
}

// One pixel's guides: 32 bytes, read as two vectors.
struct alignas(16) DenoiseGuide {
  glm::vec3 albedo;  // the divisor: mean albedo of the hits, at least kDenoiseMinAlbedo; 1: none
  float depth;       // mean distance to the first hit; negative: no sample hit a surface
  glm::vec3 normal;  // mean shading normal (not renormalized: edges blend)
  // 1: the pixel's radiance is not finite (an overflowed sum): it is kept as it is, and neither
  // it nor its neighbours mix with the other; 0: filtered.
  float kept;
};

// The image the passes read: width x height pixels, row-major from the top.
struct DenoiseView {
  int width = 0, height = 0;
  const DenoiseGuide* guides = nullptr;
  const glm::vec4* color = nullptr;  // rgb: the colour being filtered; w: its luminance variance
};

RAYSTREAM_HD inline float denoise_luminance(const glm::vec3& c) {
  return 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
}

RAYSTREAM_HD inline bool denoise_finite(float x) {
  return fabsf(x) <= 3.4e38f;  // NaN and infinity fail the comparison
}

// Pixel p's guides from its first-hit sums (kDenoiseGuideSums floats) and the colour to filter
// from its mean radiance (3 floats) times the settings' scale: a radiance that is not finite is
// kept out of the filter (DenoiseGuide::kept), and guides that are not finite count as no hit, so
// that one bad sample cannot spread over the image.
RAYSTREAM_HD inline void denoise_prepare(const float* rgb, const float* first_hits,
                                         const AtrousSettings& s, DenoiseGuide& guide,
                                         glm::vec4& color) {
  const float hits = first_hits[7];
  glm::vec3 c(rgb[0], rgb[1], rgb[2]);
  guide.kept = 0.0f;
  for (int k = 0; k < 3; ++k)
    if (!denoise_finite(c[k])) guide.kept = 1.0f;
  c = guide.kept != 0.0f ? glm::vec3(0.0f) : c * s.scale;
  bool finite = true;
  for (int k = 0; k < kDenoiseGuideSums; ++k) finite = finite && denoise_finite(first_hits[k]);
  if (hits > 0.0f && finite) {
    const glm::vec3 albedo(first_hits[0], first_hits[1], first_hits[2]);
    guide.albedo =
        s.demodulate ? glm::max(albedo / hits, glm::vec3(kDenoiseMinAlbedo)) : albedo / hits;
    guide.normal = glm::vec3(first_hits[3], first_hits[4], first_hits[5]) / hits;
    guide.depth = first_hits[6] / hits;
  } else {
    guide.albedo = glm::vec3(1.0f);
    guide.normal = glm::vec3(0.0f);
    guide.depth = -1.0f;
  }
  color = glm::vec4(s.demodulate ? c / guide.albedo : c, 0.0f);
}

// How much the depth changes per pixel on pixel (x, y)'s surface: per axis the smaller of the
// one-sided differences (so a pixel on an edge takes its own side's), the larger axis of the two.
RAYSTREAM_HD inline float denoise_depth_slope(const DenoiseView& v, int x, int y) {
  const float d = v.guides[std::size_t(y) * v.width + x].depth;
  float slope = 0.0f;
  for (int axis = 0; axis < 2; ++axis) {
    float least = 1e30f;
    for (int sign = -1; sign <= 1; sign += 2) {
      const int qx = x + (axis == 0 ? sign : 0), qy = y + (axis == 1 ? sign : 0);
      if (qx < 0 || qy < 0 || qx >= v.width || qy >= v.height) continue;
      const float dq = v.guides[std::size_t(qy) * v.width + qx].depth;
      if (dq >= 0.0f) least = fminf(least, fabsf(dq - d));
    }
    if (least < 1e30f) slope = fmaxf(slope, least);
  }
  return slope;
}

// The guides' exponent for a neighbour `offset` pixels away (its L1 length), or a negative value
// when the two may not mix (one hit a surface and the other did not).
RAYSTREAM_HD inline float denoise_guide_exponent(const DenoiseGuide& p, const DenoiseGuide& q,
                                                 float slope, float offset,
                                                 const AtrousSettings& s) {
  if ((p.depth < 0.0f) != (q.depth < 0.0f) || p.kept != q.kept) return -1.0f;
  if (p.depth < 0.0f) return 0.0f;  // both missed: the luminance alone decides
  const glm::vec3 dn = p.normal - q.normal;
  float e = glm::dot(dn, dn) / (s.sigma_normal * s.sigma_normal);
  // The depth's own tolerance, 1% of the distance, keeps a surface facing the camera (no slope)
  // from rejecting its own neighbours over the depth's noise.
  e += fabsf(p.depth - q.depth) / (s.sigma_depth * slope * offset + 0.01f * p.depth + 1e-20f);
  const glm::vec3 da = p.albedo - q.albedo;
  const float sigma_albedo = s.demodulate ? s.sigma_albedo : s.sigma_albedo_radiance;
  return e + glm::dot(da, da) / (sigma_albedo * sigma_albedo);
}

// Pixel (x, y)'s colour with its noise estimate in w: the luminance variance over the 5 x 5
// neighbours of the same surface (weighted by the guides). It counts the signal's own change
// there too, which only makes the luminance stop more lenient.
RAYSTREAM_HD inline glm::vec4 denoise_variance(const DenoiseView& v, int x, int y,
                                               const AtrousSettings& s) {
  const std::size_t p = std::size_t(y) * v.width + x;
  const DenoiseGuide gp = v.guides[p];
  const float slope = denoise_depth_slope(v, x, y);
  float sum_w = 0.0f, sum_l = 0.0f, sum_l2 = 0.0f;
  for (int dy = -2; dy <= 2; ++dy) {
    const int qy = y + dy;
    if (qy < 0 || qy >= v.height) continue;
    for (int dx = -2; dx <= 2; ++dx) {
      const int qx = x + dx;
      if (qx < 0 || qx >= v.width) continue;
      const std::size_t q = std::size_t(qy) * v.width + qx;
      const float e = denoise_guide_exponent(gp, v.guides[q], slope, float(abs(dx) + abs(dy)), s);
      if (e < 0.0f) continue;
      const float w = expf(-e);
      const float l = denoise_luminance(glm::vec3(v.color[q]));
      sum_w += w;
      sum_l += w * l;
      sum_l2 += w * l * l;
    }
  }
  const float mean = sum_l / sum_w;  // the pixel itself has weight 1
  return glm::vec4(glm::vec3(v.color[p]), fmaxf(0.0f, sum_l2 / sum_w - mean * mean));
}

// Pixel (x, y)'s colour with the least noise estimate of its 3 x 3 neighbours: a window that
// straddles an edge (a light beside a ceiling of the same normal and depth) reads the step as
// noise, and one beside it, on the pixel's side, does not.
RAYSTREAM_HD inline glm::vec4 denoise_least_variance(const DenoiseView& v, int x, int y) {
  glm::vec4 c = v.color[std::size_t(y) * v.width + x];
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int qx = x + dx, qy = y + dy;
      if (qx < 0 || qy < 0 || qx >= v.width || qy >= v.height) continue;
      c.w = fminf(c.w, v.color[std::size_t(qy) * v.width + qx].w);
    }
  return c;
}

// The B3 spline's weight at a distance of 0, 1 or 2 taps: 3/8, 1/4, 1/16 (a function, not an
// array that the GPU would keep in local memory).
RAYSTREAM_HD inline float denoise_b3_weight(int taps) {
  return taps == 0 ? 0.375f : taps == 1 ? 0.25f : 0.0625f;
}

// One a-trous step at pixel (x, y) with taps `step` pixels apart: the filtered colour, and in w
// the variance of that weighted mean (the weights squared times the taps' variances), which the
// next step's luminance stop reads.
RAYSTREAM_HD inline glm::vec4 denoise_atrous(const DenoiseView& v, int x, int y, int step,
                                             float sigma_luminance, const AtrousSettings& s) {
  const std::size_t p = std::size_t(y) * v.width + x;
  const DenoiseGuide gp = v.guides[p];
  const glm::vec4 cp = v.color[p];
  // The pixel's noise: its variance blurred over 3 x 3 (one pixel's estimate is itself noisy).
  float variance = 0.0f, variance_w = 0.0f;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int qx = x + dx, qy = y + dy;
      if (qx < 0 || qy < 0 || qx >= v.width || qy >= v.height) continue;
      const float w = (dx == 0 ? 0.5f : 0.25f) * (dy == 0 ? 0.5f : 0.25f);
      variance += w * v.color[std::size_t(qy) * v.width + qx].w;
      variance_w += w;
    }
  const float luminance_scale = sigma_luminance * sqrtf(variance / variance_w) + 1e-20f;
  const float lp = denoise_luminance(glm::vec3(cp));
  const float slope = denoise_depth_slope(v, x, y);
  glm::vec3 sum(0.0f);
  float sum_w = 0.0f, sum_var = 0.0f;
  for (int dy = -2; dy <= 2; ++dy) {
    const int qy = y + dy * step;
    if (qy < 0 || qy >= v.height) continue;
    for (int dx = -2; dx <= 2; ++dx) {
      const int qx = x + dx * step;
      if (qx < 0 || qx >= v.width) continue;
      const std::size_t q = std::size_t(qy) * v.width + qx;
      const glm::vec4 cq = v.color[q];
      float e =
          denoise_guide_exponent(gp, v.guides[q], slope, float((abs(dx) + abs(dy)) * step), s);
      if (e < 0.0f) continue;
      e += fabsf(lp - denoise_luminance(glm::vec3(cq))) / luminance_scale;
      const float w = denoise_b3_weight(abs(dx)) * denoise_b3_weight(abs(dy)) * expf(-e);
      sum += w * glm::vec3(cq);
      sum_w += w;
      sum_var += w * w * cq.w;
    }
  }
  // The centre tap has weight 9/64 > 0, so sum_w is never 0.
  return glm::vec4(sum / sum_w, sum_var / (sum_w * sum_w));
}

// The luminance stop of iteration i: Dammertz et al. halve theirs every step; with the noise
// estimate shrinking as it is filtered, the stop follows it instead and stays constant.
RAYSTREAM_HD inline float denoise_luminance_sigma(const AtrousSettings& s, int /*iteration*/) {
  return s.sigma_luminance;
}

// The filtered colour back in radiance: times the albedo it was divided by, over the scale; a
// pixel kept out of the filter keeps its radiance (rgb, 3 floats).
RAYSTREAM_HD inline glm::vec3 denoise_finish(const DenoiseGuide& guide, const glm::vec4& color,
                                             const AtrousSettings& s, const float* rgb) {
  if (guide.kept != 0.0f) return glm::vec3(rgb[0], rgb[1], rgb[2]);
  return (s.demodulate ? glm::vec3(color) * guide.albedo : glm::vec3(color)) / s.scale;
}

}  // namespace raystream
