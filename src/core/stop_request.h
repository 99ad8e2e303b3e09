// A stop asked for while the scene loads or the BVH is built (SIGINT, SIGTERM) reaches the long
// loops of the readers and the builders through this hook: the program installs the check once,
// the loops poll it and end with StopRequested, so that a stop before the first sample is prompt
// and writes nothing. Without an installed check (tests, other programs) nothing ever stops.
#pragma once

#include <stdexcept>

namespace raystream {

// The work was abandoned because a stop was asked for.
class StopRequested : public std::runtime_error {
 public:
  StopRequested() : std::runtime_error("stopped before it finished, as asked") {}
};

// Installs the check that says whether a stop was asked for (nullptr: none). It is called from
// any thread, so it must be safe to call concurrently (reading a flag).
void set_stop_check(bool (*check)());

// Whether the installed check says stop (false without one).
bool stop_asked();

// Throws StopRequested when stop_asked().
void poll_stop();

}  // namespace raystream
