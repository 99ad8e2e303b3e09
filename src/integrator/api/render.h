// The renderer's entry points: render() renders a scene with the chosen executor and reports
// per-bounce statistics (render_stats.h), render_split() spreads one over several devices; the
// film they return is film/film_state.h's. What they are asked is render_settings.h.
#pragma once

#include <cstdint>
#include <vector>

#include "execution/executor_kind.h"
#include "film/film_state.h"
#include "integrator/api/render_settings.h"
#include "integrator/api/render_stats.h"
#include "scene/scene.h"

namespace raystream {

struct RenderResult {
  Image image;     // the film's mean per pixel (film_image)
  FilmState film;  // the sums behind it
  // Per share: the next sample number to render (all below it, in the share's range, are done).
  std::vector<std::uint64_t> next_samples;
  RenderStats stats;
};

// Throws std::runtime_error (with a clear message) on failure, e.g. out of GPU memory.
RenderResult render(const Scene& scene, const RenderSettings& settings);

// The primitives backend this binary was built with: own or thrust.
PrimitivesBackend primitives_backend();

// Renders the scene's samples split across CUDA devices (one host thread, stream, set of buffers
// and workspace each), and sums the films: the image equals the one-device image up to the
// order of the floating-point additions. `devices` lists CUDA device ordinals; with the CPU
// executor, each entry is a share rendered one after the other (for tests). The progress
// callback sees the sum over the shares. Throws naming the device whose share failed.
RenderResult render_split(const Scene& scene, const RenderSettings& settings,
                          const std::vector<int>& devices);

// The samples [first_sample, first_sample + spp) cut into `shares` contiguous ranges of whole
// passes, as even as can be: share k gets [first(k), first(k + 1)), the first shares one more
// when spp does not divide. The last shares are empty when spp < shares.
int share_first_sample(const RenderSettings& settings, int share, int shares);

// Adds `share`'s film (and so its image) and statistics into `total`, and its progress after
// total's. Used for device shares and for the processes of an MPI run.
void add_share(RenderResult& total, const RenderResult& share);

// The statistics part of add_share: sums and the per-share entry.
void add_share_stats(RenderStats& total, const RenderStats& share);

// The film's sample counts (the fewest and most of any pixel, and their sum) into the statistics.
void count_film_samples(const FilmState& film, RenderStats& stats);

}  // namespace raystream
