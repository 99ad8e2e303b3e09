// The alpha test of traversal: a candidate hit on a triangle whose material cuts its surface by
// opacity (glTF's alphaMode MASK and BLEND, MTL's d and map_d) is accepted or passed through before
// it can become the closest hit, for camera, bounce and shadow rays alike, on both executors.
// MASK: the surface is there where opacity >= alpha_cutoff. BLEND: stochastic transparency, the
// surface is there with probability opacity, decided by a hash of the primitive and the ray (the
// same ray meets the same decision; an unbiased estimate of the blended surface over samples).
// Spheres and cubes are always opaque.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/host_device.h"
#include "core/rng.h"
#include "geometry/scene_geometry.h"
#include "materials/material_eval.h"

namespace raystream {

RAYSTREAM_HD inline std::uint32_t float_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}

// A number in [0, 1) fixed by the primitive and the ray.
RAYSTREAM_HD inline float blend_number(std::int32_t ref, const Ray& ray) {
  std::uint32_t h = pcg_hash(static_cast<std::uint32_t>(ref) ^ 0x9e3779b9u);
  h = pcg_hash(h ^ float_bits(ray.origin.x));
  h = pcg_hash(h ^ float_bits(ray.origin.y));
  h = pcg_hash(h ^ float_bits(ray.origin.z));
  h = pcg_hash(h ^ float_bits(ray.direction.x));
  h = pcg_hash(h ^ float_bits(ray.direction.y));
  h = pcg_hash(h ^ float_bits(ray.direction.z));
  return static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
}

struct AlphaTest {
  const TriangleShading* shading = nullptr;
  const TriangleDetail* details = nullptr;
  const MaterialData* materials = nullptr;
  MaterialTextures textures;

  RAYSTREAM_HD bool operator()(std::int32_t ref, float u, float v, const Ray& ray) const {
    if (ref < 0) return true;
    const TriangleShading& s = shading[ref];
    const MaterialData& m = materials[s.material];
    if (m.alpha_mode == 0) return true;
    TexCoords tc;
    const float w = 1.0f - u - v;
    tc.uv0 = w * s.uv0 + u * s.uv1 + v * s.uv2;
    tc.uv1 = tc.uv0;
    if (s.detail >= 0 && details != nullptr) {
      const TriangleDetail& d = details[s.detail];
      tc.uv1 = w * d.uv0 + u * d.uv1 + v * d.uv2;
    }
    tc.lod = -100.0f;
    const float opacity = opacity_at(m, textures, tc);
    if (m.alpha_mode == 1) return opacity >= m.alpha_cutoff;
    return blend_number(ref, ray) < opacity;
  }
};

// The alpha test of a scene (geometry, materials and textures as the stages read them).
template <class SceneViewT>
RAYSTREAM_HD inline AlphaTest alpha_test(const SceneViewT& scene) {
  AlphaTest a;
  a.shading = scene.geometry.triangle_shading;
  a.details = scene.geometry.triangle_details;
  a.materials = scene.materials;
  a.textures = scene.textures;
  return a;
}

}  // namespace raystream
