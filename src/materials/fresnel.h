// Fresnel equations for a smooth dielectric interface, unpolarized light.
#pragma once

#include "core/host_device.h"

namespace raystream {

// cos of the transmitted angle for incidence cos_i from a medium of index eta_i into eta_t, or a
// negative value under total internal reflection.
RAYSTREAM_HD inline float refracted_cos(float cos_i, float eta_i, float eta_t) {
  const float eta = eta_i / eta_t;
  const float sin2_t = eta * eta * fmaxf(0.0f, 1.0f - cos_i * cos_i);
  if (sin2_t >= 1.0f) return -1.0f;
  return sqrtf(1.0f - sin2_t);
}

// Fraction of light reflected (exact Fresnel, from the amplitude ratios r_s and r_p); 1 under
// total internal reflection. cos_i in [0, 1].
RAYSTREAM_HD inline float fresnel_reflectance(float cos_i, float eta_i, float eta_t) {
  const float cos_t = refracted_cos(cos_i, eta_i, eta_t);
  if (cos_t < 0.0f) return 1.0f;
  const float r_s = (eta_i * cos_i - eta_t * cos_t) / (eta_i * cos_i + eta_t * cos_t);
  const float r_p = (eta_t * cos_i - eta_i * cos_t) / (eta_t * cos_i + eta_i * cos_t);
  return 0.5f * (r_s * r_s + r_p * r_p);
}

// The reflectance for a direction at cos_o to a (micro)surface normal whose inside has relative
// index eta (inside / outside): cos_o < 0 means the light comes from inside.
RAYSTREAM_HD inline float fresnel_dielectric(float cos_o, float eta) {
  return cos_o >= 0.0f ? fresnel_reflectance(fminf(cos_o, 1.0f), 1.0f, eta)
                       : fresnel_reflectance(fminf(-cos_o, 1.0f), eta, 1.0f);
}

// Fraction of power transmitted, computed independently of the reflectance from the transmission
// amplitudes t_s, t_p and the beam's change of cross-section: T = (eta_t cos_t) / (eta_i cos_i)
// * (t_s^2 + t_p^2) / 2. Energy conservation says reflectance + transmittance = 1.
RAYSTREAM_HD inline float fresnel_transmittance(float cos_i, float eta_i, float eta_t) {
  const float cos_t = refracted_cos(cos_i, eta_i, eta_t);
  if (cos_t < 0.0f || cos_i <= 0.0f) return 0.0f;
  const float t_s = 2.0f * eta_i * cos_i / (eta_i * cos_i + eta_t * cos_t);
  const float t_p = 2.0f * eta_i * cos_i / (eta_t * cos_i + eta_i * cos_t);
  return (eta_t * cos_t) / (eta_i * cos_i) * 0.5f * (t_s * t_s + t_p * t_p);
}

}  // namespace raystream
