// Stage: camera paths. The frame schedule starts one per pixel; the stream schedule packs the
// surviving paths together and starts new ones behind them, from a device-side sample counter.
#include "integrator/backend/parallel_for.cuh"
#include "integrator/stages/stages.h"

namespace raystream {

namespace {

struct GenerateBody {
  CameraFrame camera;
  PathState paths;
  std::uint32_t* ids;
  std::size_t n;
  std::size_t* live_count;
  std::uint32_t sample;
  std::uint64_t seed;
  std::uint32_t first_pixel;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    const auto pixel = static_cast<std::uint32_t>(i);
    if (i == 0) *live_count = n;
    if (pixel < first_pixel) {
      ids[i] = pixel | kDeadBit;
      return;
    }
    paths.store(pixel, camera_path(camera, pixel, sample, seed));
    ids[i] = pixel;
  }
};

struct RefillBody {
  CameraFrame camera;
  PathState from, to;
  std::uint32_t* ids;
  const StreamCounters* counters;
  unsigned long long total;
  std::uint32_t pixels;
  std::uint64_t seed;

  RAYSTREAM_HD void operator()(std::size_t i) const {
    const auto slot = static_cast<std::uint32_t>(i);
    const std::size_t live = counters->live;
    if (i < live) {
      const std::uint32_t s = ids[i];
      to.store(slot, from.load<PathSample>(s));
      ids[i] = slot;
      return;
    }
    const unsigned long long k = counters->issued + (i - live);
    if (k >= total || k >= counters->limit) {  // no samples left: the slot stays empty
      ids[i] = slot | kDeadBit;
      return;
    }
    const auto pixel = static_cast<std::uint32_t>(k % pixels);
    const auto sample = static_cast<std::uint32_t>(k / pixels);
    to.store(slot, camera_path(camera, pixel, sample, seed));
    ids[i] = slot;
  }
};

struct AdvanceBody {
  StreamCounters* counters;
  std::size_t pool;
  unsigned long long total;
  WaveRecord* record;

  RAYSTREAM_HD void operator()(std::size_t) const {
    const std::size_t live = counters->live;
    const unsigned long long end = total < counters->limit ? total : counters->limit;
    const unsigned long long left = end > counters->issued ? end - counters->issued : 0ull;
    const unsigned long long free_slots = pool - live;
    const unsigned long long fresh = left < free_slots ? left : free_slots;
    counters->issued += fresh;
    counters->active = live + static_cast<std::size_t>(fresh);
    record->live_in = live;
    record->regenerated = fresh;
  }
};

struct LimitBody {
  StreamCounters* counters;
  bool stop;

  RAYSTREAM_HD void operator()(std::size_t) const {
    counters->limit = stop ? counters->issued : ~0ull;
  }
};

}  // namespace

void generate_camera_paths(const Executor& ex, const SceneView& scene, const PathState& paths,
                           std::uint32_t* ids, std::size_t n, std::size_t* live_count,
                           std::uint32_t sample, std::uint64_t seed, std::uint32_t first_pixel) {
  parallel_for(ex, "generate stage", n,
               GenerateBody{scene.camera, paths, ids, n, live_count, sample, seed, first_pixel});
}

void set_stream_limit(const Executor& ex, StreamCounters* counters, bool stop) {
  parallel_for(ex, "stream limit", 1, LimitBody{counters, stop});
}

void refill_paths(const Executor& ex, const SceneView& scene, const PathState& from,
                  const PathState& to, std::uint32_t* ids, std::size_t pool,
                  const StreamCounters* counters, unsigned long long total_samples,
                  std::uint32_t pixels, std::uint64_t seed) {
  parallel_for(ex, "refill stage", pool,
               RefillBody{scene.camera, from, to, ids, counters, total_samples, pixels, seed});
}

void advance_stream(const Executor& ex, StreamCounters* counters, std::size_t pool,
                    unsigned long long total_samples, WaveRecord* record) {
  parallel_for(ex, "advance stage", 1, AdvanceBody{counters, pool, total_samples, record});
}

}  // namespace raystream
