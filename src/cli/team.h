// The processes a render is split across: this process alone, or every rank of an MPI run (built
// with -DRAYSTREAM_MPI=ON and started by mpirun). Each process renders its share of the samples
// on its own GPU (local rank -> device) or the CPU; the films and the statistics are summed on
// rank 0, which alone writes the image and the report. Every process calls the same functions at
// the same points: a failure on one rank ends every rank, with that rank's message.
#pragma once

#include <cstdint>
#include <string>

#include "integrator/api/render.h"

namespace raystream {

class Team {
 public:
  Team(int& argc, char**& argv);  // MPI_Init when built with MPI
  ~Team();                        // MPI_Finalize
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  bool leader() const { return rank_ == 0; }
  // This process's rank among the processes of its host (picks its GPU).
  int local_rank() const { return local_rank_; }

  // Every process reports how its last step went (exit code 0: fine). Returns 0 when every one
  // did fine; else the code of the lowest failing rank, whose message every process gets in
  // `message` (prefixed with "rank N: " when there are several processes).
  int agree(int code, std::string& message);

  // The leader's value of `value` on every process.
  int broadcast(int value);

  // Ends every process with `code` (MPI_Abort) after an error only this process met; returns
  // when this process renders alone.
  void abort(int code);

  // Sums every process's share into the leader's `result`: the films (and so the image), the
  // statistics per depth and per stage, and one entry per rank in result.stats.shares. Other
  // processes keep their own share (and their own progress: each writes its own checkpoint).
  void combine(RenderResult& result);

 private:
  int rank_ = 0;
  int size_ = 1;
  int local_rank_ = 0;
};

}  // namespace raystream
