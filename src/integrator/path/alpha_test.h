// The alpha test of traversal: a candidate hit on a triangle whose material cuts its surface by
// opacity (glTF's alphaMode MASK and BLEND, MTL's d and map_d) is accepted or passed through before
// it can become the closest hit, for camera, bounce and shadow rays alike, on both executors.
// MASK: the surface is there where opacity >= alpha_cutoff. BLEND, for camera and bounce rays:
// stochastic transparency, the surface is there with probability opacity, decided by a hash of
// the path's sample (pixel, sample, depth, seed) and the primitive: the same path meets the same
// decision on every executor and schedule, whatever the last bits of its ray. BLEND for shadow
// rays: their expected value, the light's contribution times the transmittance (1 - opacity of
// each blended surface crossed, times the opacity of a blended light itself), so light sampling
// and BSDF sampling estimate the same image. Spheres and cubes are always opaque.
#pragma once

#include <cstdint>

#include "core/host_device.h"
#include "core/rng.h"
#include "geometry/scene_geometry.h"
#include "materials/material_eval.h"

namespace raystream {

// The key of a path's ray at `depth`: its pixel, sample and depth, and the render's seed (a
// render of another seed decides anew, as every other random choice does).
RAYSTREAM_HD inline std::uint32_t blend_key(std::uint32_t pixel, std::uint32_t sample, int depth,
                                            std::uint64_t seed) {
  const std::uint32_t s = pcg_hash(static_cast<std::uint32_t>(seed) ^
                                   pcg_hash(static_cast<std::uint32_t>(seed >> 32)));
  return pcg_hash(pcg_hash(pixel ^ s) ^ (sample * 0x85ebca6bu) ^
                  (static_cast<std::uint32_t>(depth) * 0xc2b2ae35u));
}

// A number in [0, 1) fixed by the ray's key and the primitive.
RAYSTREAM_HD inline float blend_number(std::uint32_t key, std::int32_t ref) {
  const std::uint32_t h = pcg_hash(key ^ pcg_hash(static_cast<std::uint32_t>(ref)));
  return static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
}

struct AlphaTest {
  const TriangleShading* shading = nullptr;
  const TriangleDetail* details = nullptr;
  const MaterialData* materials = nullptr;
  MaterialTextures textures;
  std::uint32_t key = 0;             // camera and bounce rays: blend_key of the path's ray
  float* transmittance = nullptr;    // shadow rays: what blended surfaces let through
  std::int32_t light = kNoPrimitive;  // shadow rays: the light's primitive

  RAYSTREAM_HD bool operator()(std::int32_t ref, float u, float v, const Ray&) const {
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
    if (transmittance == nullptr) return blend_number(key, ref) < opacity;
    // A shadow ray: its light is there with its opacity, every other blended surface lets
    // 1 - opacity through.
    *transmittance *= ref == light ? opacity : 1.0f - opacity;
    return ref == light;
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
