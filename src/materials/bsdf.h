// The BSDF interface every lobe implements: sample (a direction, its weight f |cos| / pdf, its pdf
// and whether it is a delta lobe), eval (f |cos| for a pair of directions) and pdf (the density
// sample draws that pair with); here directions go from world space into the local frame of the
// shading normal and back. The lobes are listed once (RAYSTREAM_LOBES, materials/material_data.h)
// and LobeSet::dispatch calls the one a material has: the only switch over the kinds. Every
// function is templated on the lobe (or set of lobes) it is compiled for: AnyLobe serves every
// material, a lobe type the materials of one queue.
//
// A material may also emit (emission > 0): an emitter is a surface like any other, which reflects
// by its BSDF. The course format's Emitting materials have no BSDF (kind none): they are black.
#pragma once

#include <cstddef>
#include <cstdint>
#include <glm/glm.hpp>
#include <type_traits>
#include <vector>

#include "core/host_device.h"
#include "core/sampling.h"
#include "materials/conductor.h"
#include "materials/dielectric.h"
#include "materials/lambertian.h"
#include "materials/material_data.h"
#include "materials/material_eval.h"
#include "materials/metallic_roughness.h"
#include "materials/plastic.h"

namespace raystream {

// The "lobe" of a material that does not reflect: no sample, black.
struct NoLobe {
  static constexpr BsdfKind kKind = BsdfKind::none;
  static float alpha_of(float) { return 0.0f; }
  RAYSTREAM_HD static bool delta(const BsdfParams&) { return true; }
  RAYSTREAM_HD static LobeSample sample(const BsdfParams&, const glm::vec3&, float, float, float) {
    return LobeSample{};
  }
  RAYSTREAM_HD static glm::vec3 eval(const BsdfParams&, const glm::vec3&, const glm::vec3&) {
    return glm::vec3(0.0f);
  }
  RAYSTREAM_HD static float pdf(const BsdfParams&, const glm::vec3&, const glm::vec3&) {
    return 0.0f;
  }
};

// Calls f(Lobe{}) for NoLobe and every listed lobe, in kind order (host code: one launch each).
template <class F>
inline void for_each_lobe(F&& f) {
  f(NoLobe{});
#define RAYSTREAM_LOBE_CALL(lobe, scene_type) f(lobe{});
  RAYSTREAM_LOBES(RAYSTREAM_LOBE_CALL)
#undef RAYSTREAM_LOBE_CALL
}

// The name of a lobe kind, for reports: "emitter" (none), then the lobe types' names.
inline const char* lobe_name(int kind) {
  if (kind == 0) return "emitter";
  int k = 0;
#define RAYSTREAM_LOBE_NAME(lobe, scene_type) \
  if (++k == kind) return #lobe;
  RAYSTREAM_LOBES(RAYSTREAM_LOBE_NAME)
#undef RAYSTREAM_LOBE_NAME
  return "unknown";
}

// The bit of a lobe kind in a set of lobes.
constexpr unsigned lobe_bit(BsdfKind kind) {
  return 1u << static_cast<unsigned>(kind);
}
#define RAYSTREAM_LOBE_BIT(lobe, scene_type) | lobe_bit(lobe::kKind)
inline constexpr unsigned kAllLobes = lobe_bit(BsdfKind::none) RAYSTREAM_LOBES(RAYSTREAM_LOBE_BIT);
#undef RAYSTREAM_LOBE_BIT

// The lobes of a set of kinds (Mask: lobe_bit of each), behind the lobe interface: each call
// dispatches on the material's kind, among the set's lobes alone (a kind outside the set is
// black: code compiled for a set runs only on scenes the set covers). Textures: whether the
// set's materials may be textured. Rough: whether they may be rough (alpha at least
// kMinGgxAlpha); a smooth set sees every alpha as 0, so the microfacet branches fold away. A
// kernel templated on a lobe takes AnyLobe to serve every material, a smaller set to leave the
// other lobes' code out, a lobe type for its queue alone.
template <unsigned Mask, bool Textures = true, bool Rough = true>
struct LobeSet {
  // Whether code compiled for the set renders materials of the kinds in `mask` (textured or not,
  // rough or not) as AnyLobe would.
  static constexpr bool covers(unsigned mask, bool textured, bool rough) {
    return (mask & ~Mask) == 0u && (Textures || !textured) && (Rough || !rough);
  }
  template <class F>
  RAYSTREAM_HD static decltype(auto) dispatch(std::int32_t kind, F&& f) {
    switch (static_cast<BsdfKind>(kind)) {
#define RAYSTREAM_LOBE_IN_SET(lobe, scene_type)        \
  case lobe::kKind:                                    \
    if constexpr ((Mask & lobe_bit(lobe::kKind)) != 0) \
      return f(lobe{});                                \
    else                                               \
      return f(NoLobe{});
      RAYSTREAM_LOBES(RAYSTREAM_LOBE_IN_SET)
#undef RAYSTREAM_LOBE_IN_SET
      default:
        return f(NoLobe{});
    }
  }
  // Calls f(lobe, params) with the parameters' lobe and the parameters as the set sees them.
  template <class F>
  RAYSTREAM_HD static decltype(auto) with_lobe(const BsdfParams& p, F&& f) {
    if constexpr (Rough) {
      return dispatch(p.kind, [&](auto lobe) { return f(lobe, p); });
    } else {
      BsdfParams smooth = p;
      smooth.alpha = 0.0f;
      return dispatch(p.kind, [&](auto lobe) { return f(lobe, smooth); });
    }
  }
  RAYSTREAM_HD static bool delta(const BsdfParams& p) {
    return with_lobe(p, [&](auto lobe, const BsdfParams& q) { return decltype(lobe)::delta(q); });
  }
  RAYSTREAM_HD static LobeSample sample(const BsdfParams& p, const glm::vec3& wo, float uc,
                                        float u1, float u2) {
    return with_lobe(p, [&](auto lobe, const BsdfParams& q) {
      return decltype(lobe)::sample(q, wo, uc, u1, u2);
    });
  }
  RAYSTREAM_HD static glm::vec3 eval(const BsdfParams& p, const glm::vec3& wo,
                                     const glm::vec3& wi) {
    return with_lobe(
        p, [&](auto lobe, const BsdfParams& q) { return decltype(lobe)::eval(q, wo, wi); });
  }
  RAYSTREAM_HD static float pdf(const BsdfParams& p, const glm::vec3& wo, const glm::vec3& wi) {
    return with_lobe(
        p, [&](auto lobe, const BsdfParams& q) { return decltype(lobe)::pdf(q, wo, wi); });
  }
};

// Every lobe, textures too: one kernel for any scene.
using AnyLobe = LobeSet<kAllLobes, true>;
// The course's materials, smooth and without textures (Diffuse, Specular and Refractive of
// ROUGHNESS 0; emitters): the smallest set most shipped scenes need (smallpt, the Cornell boxes).
using ClassicLobes = LobeSet<lobe_bit(BsdfKind::none) | lobe_bit(BsdfKind::kLambertian) |
                                 lobe_bit(BsdfKind::kConductor) | lobe_bit(BsdfKind::kDielectric),
                             false, false>;

// Whether a material is rough: a smooth lobe set does not cover it (a roughness texture may make
// any texel rough).
RAYSTREAM_HD inline bool is_rough(const MaterialData& m) {
  return m.alpha >= kMinGgxAlpha || m.roughness_texture >= 0;
}

// What a scene's materials need of the lobe code: the lobe kinds they use (lobe_bit of each) and
// whether any is textured or rough. The host picks the smallest specialized kernel that covers
// them (lobe_features: computed once per render, from the materials as uploaded).
struct LobeFeatures {
  unsigned mask = kAllLobes;
  bool textured = true;
  unsigned textured_kinds = kAllLobes;  // lobe_bit of each kind some textured material has
  bool rough = true;
  bool alpha = true;  // some material cuts its surface by opacity (integrator/path/alpha_test.h)
  // Whether the classic set renders the scene as AnyLobe would (it has no alpha test).
  RAYSTREAM_HD bool classic() const {
    return !alpha && ClassicLobes::covers(mask, textured, rough);
  }
};

// Whether a lobe's materials may be textured, so that code compiled without textures leaves the
// lookup out: a set's flag; every lobe alone (a scene file textures Diffuse and Plastic, a glTF
// base colour texture any reflecting material).
template <class Lobe>
struct LobeTextured : std::true_type {};
template <>
struct LobeTextured<NoLobe> : std::false_type {};
template <unsigned Mask, bool Textures, bool Rough>
struct LobeTextured<LobeSet<Mask, Textures, Rough>> : std::bool_constant<Textures> {};

// A lobe type compiled without textures: a material queue's kernel where no material of the
// lobe reads one (LobeFeatures::textured_kinds) and no light is textured, which leaves out the
// lookups, the normal map and their registers.
template <class Lobe>
struct Untextured : Lobe {};
template <class Lobe>
struct LobeTextured<Untextured<Lobe>> : std::false_type {};

RAYSTREAM_HD inline bool is_emissive(const MaterialData& m) {
  return m.emission.x > 0.0f || m.emission.y > 0.0f || m.emission.z > 0.0f;
}

// Radiance leaving the surface towards wo (unit, pointing away) with outward unit normal n, for
// emission `emission` there (the material's, its texture read: emission_at).
RAYSTREAM_HD inline glm::vec3 emitted_radiance(const MaterialData& m, const glm::vec3& emission,
                                               const glm::vec3& wo, const glm::vec3& n) {
  return m.two_sided || glm::dot(wo, n) > 0.0f ? emission : glm::vec3(0.0f);
}

// True when every direction the BSDF scatters into is a delta (or it scatters none): light
// sampling cannot help there.
template <class Lobe = AnyLobe>
RAYSTREAM_HD inline bool is_specular(const BsdfParams& p) {
  return Lobe::delta(p);
}

// The local frame of unit normal n.
struct ShadingFrame {
  glm::vec3 t, b, n;
  RAYSTREAM_HD explicit ShadingFrame(const glm::vec3& normal) : n(normal) {
    orthonormal_basis(n, t, b);
  }
  RAYSTREAM_HD glm::vec3 to_local(const glm::vec3& v) const {
    return glm::vec3(glm::dot(v, t), glm::dot(v, b), glm::dot(v, n));
  }
  RAYSTREAM_HD glm::vec3 to_world(const glm::vec3& v) const { return v.x * t + v.y * b + v.z * n; }
};

struct BsdfSample {
  glm::vec3 wi{0.0f};      // unit, world space
  glm::vec3 weight{0.0f};  // f |cos| / pdf; zero: the path ends
  float pdf = 0.0f;        // solid-angle density (a delta lobe's: its choice probability)
  bool delta = false;
};

// Samples the direction light arrives from, for light leaving towards wo (unit, away from the
// surface) at a surface with unit shading normal n, for the material's parameters there (its
// textures read: materials/material_eval.h). uc chooses between lobes, (u1, u2) the direction.
template <class Lobe = AnyLobe>
RAYSTREAM_HD inline BsdfSample sample_bsdf(const BsdfParams& p, const glm::vec3& wo,
                                           const glm::vec3& n, float uc, float u1, float u2) {
  const ShadingFrame frame(n);
  const LobeSample s = Lobe::sample(p, frame.to_local(wo), uc, u1, u2);
  BsdfSample b;
  if (!(s.pdf > 0.0f)) return b;  // no sample: zero weight, the path ends
  b.wi = glm::normalize(frame.to_world(s.wi));
  b.weight = s.weight;
  b.pdf = s.pdf;
  b.delta = s.delta;
  return b;
}

// f(wo, wi) |cos theta_i|; zero for delta lobes.
template <class Lobe = AnyLobe>
RAYSTREAM_HD inline glm::vec3 eval_bsdf(const BsdfParams& p, const glm::vec3& wo,
                                        const glm::vec3& wi, const glm::vec3& n) {
  const ShadingFrame frame(n);
  return Lobe::eval(p, frame.to_local(wo), frame.to_local(wi));
}

// The density with which sample_bsdf draws wi given wo; zero for delta lobes.
template <class Lobe = AnyLobe>
RAYSTREAM_HD inline float pdf_bsdf(const BsdfParams& p, const glm::vec3& wo, const glm::vec3& wi,
                                   const glm::vec3& n) {
  const ShadingFrame frame(n);
  return Lobe::pdf(p, frame.to_local(wo), frame.to_local(wi));
}

// The lobe features of a scene's materials (host).
LobeFeatures lobe_features(const MaterialData* materials, std::size_t count);

// The material as the kernels see it; its texture slots become bindings appended to `bindings`
// (host).
MaterialData make_material_data(const Material& material, std::vector<TextureBinding>& bindings);

}  // namespace raystream
