#include "cli/team.h"

#include "materials/material_data.h"

#ifndef RAYSTREAM_MPI
#define RAYSTREAM_MPI 0
#endif

#include <algorithm>
#include <cstring>
#include <vector>

#if RAYSTREAM_MPI
#include <mpi.h>
#endif

namespace raystream {

#if !RAYSTREAM_MPI

Team::Team(int&, char**&) {}
Team::~Team() = default;

int Team::agree(int code, std::string&) {
  return code;
}

int Team::broadcast(int value) {
  return value;
}

void Team::abort(int) {}

void Team::combine(RenderResult&) {}

#else

namespace {

// Up to this many characters of a failing rank's message travel to every rank.
constexpr int kMessageBytes = 4096;
constexpr int kDeviceNameBytes = 128;
// A share's statistics as numbers, for MPI_Gather: the fixed fields (eleven, one per stage, one
// per material queue), then kBounceFields per depth. pack and unpack must list the same fields in
// the same order.
constexpr int kFixedFields = 11 + kStageCount + kBsdfKindCount;
constexpr int kBounceFields = 8;

std::vector<double> pack(const RenderStats& s) {
  std::vector<double> v = {
      double(s.spp),           double(s.first_sample),      double(s.device_index), s.total_ms,
      double(s.path_segments), double(s.peak_device_bytes), double(s.timed_units),  double(s.pool),
      double(s.shadow_rays),   double(s.samples),           double(s.stopped)};
  for (double ms : s.stage_ms) v.push_back(ms);
  for (int k = 0; k < kBsdfKindCount; ++k)
    v.push_back(k < int(s.queue_paths.size()) ? double(s.queue_paths[k]) : 0.0);
  for (const BounceStats& b : s.bounces) {
    v.insert(v.end(), {double(b.paths_in), double(b.paths_out), double(b.shadow_rays),
                       b.ms(Stage::intersect), b.ms(Stage::sort), b.ms(Stage::shade),
                       b.ms(Stage::shadow), b.ms(Stage::compact)});
  }
  return v;
}

// `like` gives the fields every share has in common (schedule, size, depth, ...).
RenderStats unpack(const double* v, const RenderStats& like, const char* device, int rank) {
  RenderStats s = like;
  s.waves.clear();
  s.frame_ms.clear();
  s.shares.clear();
  s.spp = int(v[0]);
  s.first_sample = int(v[1]);
  s.device_index = int(v[2]);
  s.total_ms = v[3];
  s.path_segments = std::uint64_t(v[4]);
  s.peak_device_bytes = std::size_t(v[5]);
  s.timed_units = int(v[6]);
  s.pool = std::size_t(v[7]);
  s.shadow_rays = std::uint64_t(v[8]);
  s.samples = std::uint64_t(v[9]);
  s.stopped = static_cast<StopReason>(int(v[10]));
  for (int k = 0; k < kStageCount; ++k) s.stage_ms[k] = v[11 + k];
  for (std::size_t k = 0; k < s.queue_paths.size(); ++k)
    s.queue_paths[k] = std::uint64_t(v[11 + kStageCount + k]);
  for (std::size_t b = 0; b < s.bounces.size(); ++b) {
    const double* d = v + kFixedFields + kBounceFields * b;
    s.bounces[b].paths_in = std::uint64_t(d[0]);
    s.bounces[b].paths_out = std::uint64_t(d[1]);
    s.bounces[b].shadow_rays = std::uint64_t(d[2]);
    s.bounces[b].ms(Stage::intersect) = d[3];
    s.bounces[b].ms(Stage::sort) = d[4];
    s.bounces[b].ms(Stage::shade) = d[5];
    s.bounces[b].ms(Stage::shadow) = d[6];
    s.bounces[b].ms(Stage::compact) = d[7];
  }
  s.device = device;
  s.rank = rank;
  return s;
}

}  // namespace

Team::Team(int& argc, char**& argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local);
  MPI_Comm_rank(local, &local_rank_);
  MPI_Comm_free(&local);
}

Team::~Team() {
  MPI_Finalize();
}

int Team::agree(int code, std::string& message) {
  if (size_ == 1) return code;
  // The lowest failing rank: minimum over (failed ? rank : size).
  const int mine = code != 0 ? rank_ : size_;
  int first = size_;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size_) return 0;
  int first_code = code;
  MPI_Bcast(&first_code, 1, MPI_INT, first, MPI_COMM_WORLD);
  std::vector<char> text(kMessageBytes, '\0');
  if (rank_ == first) std::strncpy(text.data(), message.c_str(), kMessageBytes - 1);
  MPI_Bcast(text.data(), kMessageBytes, MPI_CHAR, first, MPI_COMM_WORLD);
  message = "rank " + std::to_string(first) + ": " + text.data();
  return first_code;
}

int Team::broadcast(int value) {
  MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return value;
}

void Team::abort(int code) {
  if (size_ > 1) MPI_Abort(MPI_COMM_WORLD, code);
}

void Team::combine(RenderResult& result) {
  if (size_ == 1) return;
  // The films, summed on the leader: every layer as doubles, one reduction.
  FilmState& film = result.film;
  std::vector<double> mine;
  mine.reserve(film.sums.size() + film.counts.size() + film.squares.size() +
               film.first_hits.size());
  mine.insert(mine.end(), film.sums.begin(), film.sums.end());
  mine.insert(mine.end(), film.counts.begin(), film.counts.end());
  mine.insert(mine.end(), film.squares.begin(), film.squares.end());
  mine.insert(mine.end(), film.first_hits.begin(), film.first_hits.end());
  std::vector<double> total(leader() ? mine.size() : 0);
  MPI_Reduce(mine.data(), leader() ? total.data() : nullptr, int(mine.size()), MPI_DOUBLE, MPI_SUM,
             0, MPI_COMM_WORLD);

  // The statistics of every share.
  const std::vector<double> packed = pack(result.stats);
  const int fields = int(packed.size());
  std::vector<double> all(leader() ? std::size_t(fields) * size_ : 0);
  MPI_Gather(packed.data(), fields, MPI_DOUBLE, all.data(), fields, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::vector<char> name(kDeviceNameBytes, '\0'), names(leader() ? kDeviceNameBytes * size_ : 0);
  std::strncpy(name.data(), result.stats.device.c_str(), kDeviceNameBytes - 1);
  MPI_Gather(name.data(), kDeviceNameBytes, MPI_CHAR, names.data(), kDeviceNameBytes, MPI_CHAR, 0,
             MPI_COMM_WORLD);
  if (!leader()) return;

  const RenderStats like = result.stats;
  RenderStats stats;
  for (int r = 0; r < size_; ++r) {
    const RenderStats share = unpack(all.data() + std::size_t(fields) * r, like,
                                     names.data() + std::size_t(kDeviceNameBytes) * r, r);
    if (share.spp > 0) add_share_stats(stats, share);
  }
  result.stats = stats;
  std::size_t k = 0;
  for (float& v : film.sums) v = float(total[k++]);
  for (std::uint32_t& v : film.counts) v = std::uint32_t(total[k++]);
  for (double& v : film.squares) v = total[k++];
  for (float& v : film.first_hits) v = float(total[k++]);
  result.image = film_image(film);
  count_film_samples(film, result.stats);
}

#endif

}  // namespace raystream
