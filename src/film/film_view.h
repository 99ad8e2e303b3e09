// The film as the stages see it: sums of the samples' radiance per pixel in executor memory (the
// image is the sum over the samples per pixel), and the deposits into it. With count_samples
// every ending path adds exactly 1 instead (a test mode: each pixel's sum then counts its
// samples). The other layers are kept when their pointer is set (FilmLayers). How many samples
// each pixel got is not counted here: every schedule ends a contiguous range of sample numbers,
// so the host knows it (add_sample_range).
//
// Light reaches the film where a path gathers it (gather: an emitter hit, an escaped ray's
// environment, a shadow ray's light), a few atomic adds each and none for black, so a path
// carries no radiance between bounces. Two exceptions carry it instead (`carry`) and add it once,
// when the path ends (finish_sample): the variance layer (squares), which needs each sample
// whole, and the megakernel, whose path lives in registers.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>

#include "core/finite.h"
#include "core/host_device.h"
#include "execution/atomics.h"
#include "film/film_state.h"

namespace raystream {

// What a camera ray's first hit adds to its pixel's first-hit sums (the albedo, normal and depth
// AOVs): kFirstHitValues floats, in this order.
struct FirstHitSums {
  glm::vec3 albedo{0.0f};  // the surface's albedo (a denoiser's albedo feature)
  glm::vec3 normal{0.0f};  // the shading normal, world space
  float depth = 0.0f;      // distance from where the camera ray started
  float hits = 0.0f;       // samples that hit a surface
};
static_assert(sizeof(FirstHitSums) == kFirstHitValues * sizeof(float), "first-hit layout");

struct FilmView {
  glm::vec3* sums = nullptr;
  bool count_samples = false;
  // Each sample's radiance squared, summed in double: a float radiance's square always fits (a
  // float's would overflow above 1.8e19). Null: not kept.
  glm::dvec3* squares = nullptr;
  FirstHitSums* first_hits = nullptr;  // null: not kept
  // Paths carry their radiance and add it when they end (set with squares; the megakernel sets
  // it on its copy).
  bool carry = false;
  RAYSTREAM_HD bool whole_samples() const { return squares != nullptr; }
};

// Adds radiance to its pixel's sum. Samples of the same pixel may add at the same time (stream
// schedule, both executors), so the adds are atomic; their order, and so the rounding of the
// sums, depends on the schedule. Non-finite radiance is dropped: it would poison the pixel.
RAYSTREAM_HD inline void deposit(const FilmView& film, std::uint32_t pixel,
                                 const glm::vec3& value) {
  if (!is_finite(value)) return;
  if (value.x == 0.0f && value.y == 0.0f && value.z == 0.0f) return;  // nothing to add
  atomic_add(film.sums + pixel, value);
}

// Light a path gathers: onto its pixel at once, or into the path's radiance when the film has it
// carried. A non-finite contribution is dropped alone; the rest of the path counts. (Counting
// samples, light is not added at all.)
RAYSTREAM_HD inline void gather(const FilmView& film, std::uint32_t pixel, glm::vec3& radiance,
                                const glm::vec3& contribution) {
  if (film.carry) {
    if (is_finite(contribution)) radiance += contribution;
  } else if (!film.count_samples) {
    deposit(film, pixel, contribution);
  }
}

// A path has ended: a carried radiance (with whole samples, its shadow rays' included) goes to
// its pixel, and its square to the variance layer; counting samples, the pixel gets 1. A
// non-finite radiance counts as 0 (a sum of finite contributions that overflowed).
RAYSTREAM_HD inline void finish_sample(const FilmView& film, std::uint32_t pixel,
                                       const glm::vec3& radiance) {
  if (film.count_samples) {
    atomic_add(film.sums + pixel, glm::vec3(1.0f));
    return;
  }
  if (!film.carry) return;  // its light is on the film already
  deposit(film, pixel, radiance);
  if (film.squares && is_finite(radiance)) {
    const glm::dvec3 r(radiance);
    if (r.x != 0.0 || r.y != 0.0 || r.z != 0.0) atomic_add(film.squares + pixel, r * r);
  }
}

// Adds a camera ray's first hit to its pixel's first-hit sums (the film must keep them).
RAYSTREAM_HD inline void add_first_hit(const FilmView& film, std::uint32_t pixel,
                                       const glm::vec3& albedo, const glm::vec3& normal,
                                       float distance) {
  FirstHitSums* sums = film.first_hits + pixel;
  atomic_add(&sums->albedo, albedo);
  atomic_add(&sums->normal, normal);
  if (is_finite(distance)) atomic_add(&sums->depth, distance);
  atomic_add(&sums->hits, 1.0f);
}

}  // namespace raystream
