#include "cli/stop_signals.h"

#include <signal.h>

#include <csignal>

namespace raystream {
namespace {

volatile std::sig_atomic_t caught = 0;

extern "C" void record_stop_signal(int signal) {
  if (caught == 0) caught = signal;
}

}  // namespace

void catch_stop_signals() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  struct sigaction action {};
  action.sa_handler = record_stop_signal;
  sigemptyset(&action.sa_mask);
  // The handler runs once per signal: the next one of the same kind takes the default action.
  action.sa_flags = SA_RESETHAND | SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int stop_signal() {
  return caught;
}

}  // namespace raystream
