#include "core/stop_request.h"

#include <atomic>

namespace raystream {
namespace {

std::atomic<bool (*)()> installed_check{nullptr};

}  // namespace

void set_stop_check(bool (*check)()) {
  installed_check.store(check);
}

bool stop_asked() {
  bool (*check)() = installed_check.load(std::memory_order_relaxed);
  return check != nullptr && check();
}

void poll_stop() {
  if (stop_asked()) throw StopRequested();
}

}  // namespace raystream
