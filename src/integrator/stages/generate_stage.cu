// Stage: camera paths. The frame schedule starts one per pixel; the stream schedule starts new
// samples in the slots behind the survivors, from a device-side sample counter (with separate
// compaction it first moves the survivors there).
#include <cstddef>

#include "execution/parallel_for.cuh"
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
  bool carry;

  RAYSTREAM_HD RAYSTREAM_INLINE void operator()(std::size_t i) const {
    const auto pixel = static_cast<std::uint32_t>(i);
    if (i == 0) *live_count = n;
    if (pixel < first_pixel) {
      ids[i] = pixel | kDeadBit;
      return;
    }
    paths.store_path(pixel, camera_path(camera, pixel, sample, seed), carry);
    ids[i] = pixel;
  }
};

// The camera path of sample number k (sample k / pixels of pixel k % pixels) into slot `slot`.
RAYSTREAM_HD inline void start_sample(const CameraFrame& camera, const PathState& paths,
                                      std::uint32_t slot, unsigned long long k,
                                      std::uint32_t pixels, std::uint64_t seed, bool carry) {
  const auto pixel = static_cast<std::uint32_t>(k % pixels);
  const auto sample = static_cast<std::uint32_t>(k / pixels);
  paths.store_path(slot, camera_path(camera, pixel, sample, seed), carry);
}

struct StartBody {
  CameraFrame camera;
  PathState paths;
  const StreamCounters* counters;
  std::uint32_t pixels;
  std::uint64_t seed;
  bool carry;

  RAYSTREAM_HD RAYSTREAM_INLINE void operator()(std::size_t i, bool valid) const {
    if (!valid) return;
    const std::size_t live = counters->live;
    // advance_stream has moved `issued` past this wave's new samples.
    const unsigned long long first = counters->issued - (counters->active - live);
    start_sample(camera, paths, static_cast<std::uint32_t>(i), first + (i - live), pixels, seed,
                 carry);
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
  bool carry;

  RAYSTREAM_HD RAYSTREAM_INLINE void operator()(std::size_t i) const {
    const auto slot = static_cast<std::uint32_t>(i);
    const std::size_t live = counters->live;
    if (i < live) {
      to.store_path(slot, from.load_path(ids[i], carry), carry);
      ids[i] = slot;
      return;
    }
    const unsigned long long k = counters->issued + (i - live);
    if (k >= total || k >= counters->limit) {  // no samples left: the slot stays empty
      ids[i] = slot | kDeadBit;
      return;
    }
    start_sample(camera, to, slot, k, pixels, seed, carry);
    ids[i] = slot;
  }
};

struct AdvanceBody {
  StreamCounters* counters;
  std::size_t pool;
  unsigned long long total;
  bool fused;
  WaveRecord* record;

  RAYSTREAM_HD RAYSTREAM_INLINE void operator()(std::size_t) const {
    if (fused) {
      counters->live = counters->survivors;
      counters->survivors = 0;
      counters->shadow = 0;
    }
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

  RAYSTREAM_HD RAYSTREAM_INLINE void operator()(std::size_t) const {
    counters->limit = stop ? counters->issued : ~0ull;
  }
};

}  // namespace

void generate_camera_paths(const Executor& ex, const StageContext& k, const PathState& paths,
                           std::uint32_t* ids, std::size_t n, std::size_t* live_count,
                           std::uint32_t sample, std::uint32_t first_pixel) {
  parallel_for(ex, "generate stage", n,
               GenerateBody{k.scene.camera, paths, ids, n, live_count, sample, k.seed, first_pixel,
                            k.film.carry});
}

void set_stream_limit(const Executor& ex, StreamCounters* counters, bool stop) {
  parallel_for(ex, "stream limit", 1, LimitBody{counters, stop});
}

void start_paths(const Executor& ex, const StageContext& k, const PathState& paths,
                 std::size_t pool, const StreamCounters* counters, std::uint32_t pixels) {
  // Over [live, active): the two counts lie next to each other in the counters.
  static_assert(offsetof(StreamCounters, active) == offsetof(StreamCounters, live) + sizeof(std::size_t),
                "live and active form a range");
  parallel_for_range(ex, "start stage", pool, &counters->live,
                     StartBody{k.scene.camera, paths, counters, pixels, k.seed, k.film.carry});
}

void refill_paths(const Executor& ex, const StageContext& k, const PathState& from,
                  const PathState& to, std::uint32_t* ids, std::size_t pool,
                  const StreamCounters* counters, unsigned long long total_samples,
                  std::uint32_t pixels) {
  parallel_for(ex, "refill stage", pool,
               RefillBody{k.scene.camera, from, to, ids, counters, total_samples, pixels, k.seed,
                          k.film.carry});
}

void advance_stream(const Executor& ex, StreamCounters* counters, std::size_t pool,
                    unsigned long long total_samples, bool fused, WaveRecord* record) {
  parallel_for(ex, "advance stage", 1,
               AdvanceBody{counters, pool, total_samples, fused, record});
}

}  // namespace raystream
