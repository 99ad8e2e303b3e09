#include "cli/progress.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace raystream {

std::string clock_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  const long long s = std::llround(seconds);
  char buffer[32];
  if (s >= 3600) {
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", s / 3600, (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld", s / 60, s % 60);
  }
  return buffer;
}

std::string progress_line(int done, int total, double elapsed_s, double samples_per_frame,
                          int bar_width, double budget_s) {
  double fraction = total > 0 ? static_cast<double>(done) / total : 0.0;
  if (budget_s > 0) fraction = std::max(fraction, std::min(1.0, elapsed_s / budget_s));
  const int filled = static_cast<int>(fraction * bar_width);
  std::string bar(static_cast<std::size_t>(bar_width), '.');
  for (int i = 0; i < filled && i < bar_width; ++i) bar[static_cast<std::size_t>(i)] = '#';
  double eta = done > 0 ? elapsed_s / done * (total - done) : -1.0;
  // With a budget the render ends when it is spent, if not before.
  if (budget_s > 0)
    eta = eta >= 0 ? std::min(eta, std::max(0.0, budget_s - elapsed_s))
                   : std::max(0.0, budget_s - elapsed_s);
  const double rate = elapsed_s > 0 ? done * samples_per_frame / elapsed_s / 1e6 : 0.0;
  char buffer[256];
  std::snprintf(buffer, sizeof buffer, "[%s] %d/%d spp  elapsed %s  ETA %s  %.2f Msamples/s",
                bar.c_str(), done, total, clock_text(elapsed_s).c_str(), clock_text(eta).c_str(),
                rate);
  return buffer;
}

ProgressBar::ProgressBar(bool enabled, double samples_per_frame, std::FILE* stream)
    : enabled_(enabled),
      samples_per_frame_(samples_per_frame),
      stream_(stream),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void ProgressBar::update(int done, int total) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && done < total && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  drawn_ = true;
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  std::fprintf(stream_, "\r%s\033[K",
               progress_line(done, total, elapsed, samples_per_frame_, 30, budget_s_).c_str());
  std::fflush(stream_);
}

void ProgressBar::finish() {
  if (enabled_ && drawn_) std::fputc('\n', stream_);
  drawn_ = false;
}

bool progress_wanted(bool quiet) {
  return !quiet && isatty(STDERR_FILENO);
}

}  // namespace raystream
