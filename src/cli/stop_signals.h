// SIGINT and SIGTERM stop a render cleanly: the first one is recorded and the render, which polls
// it between waves or frames, stops starting samples, writes the image so far and a checkpoint,
// and the process exits with 128 + the signal (130, 143). Before the first sample (the scene
// loading, the BVH being built, polled through core/stop_request.h) the run ends writing
// nothing. A second one ends the process at once (the default action), for a render that does
// not stop soon enough.
#pragma once

namespace raystream {

// Installs the handlers (once; later calls do nothing).
void catch_stop_signals();

// The first stop signal caught (SIGINT or SIGTERM), or 0.
int stop_signal();

}  // namespace raystream
