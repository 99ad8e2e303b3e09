// A one-line progress bar on stderr: samples done, elapsed time, ETA and Msamples/s.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace raystream {

// The bar's text for `done` of `total` frames after `elapsed_s` seconds, each frame being
// `samples_per_frame` pixel samples; `bar_width` characters of bar. With a time budget
// (budget_s > 0) the bar and the ETA follow the time as well: the render ends when it is spent.
std::string progress_line(int done, int total, double elapsed_s, double samples_per_frame,
                          int bar_width = 30, double budget_s = 0);

// "m:ss" or "h:mm:ss"; "--:--" for unknown (negative or non-finite) times.
std::string clock_text(double seconds);

// Draws progress_line() over itself on a terminal; does nothing when disabled.
class ProgressBar {
 public:
  ProgressBar(bool enabled, double samples_per_frame, std::FILE* stream = stderr);
  ~ProgressBar() { finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;
  void update(int done, int total);  // redraws at most ten times a second, and at the end
  void finish();                     // ends the line
  void set_budget(double seconds) { budget_s_ = seconds; }  // a time budget (--time)

 private:
  bool enabled_;
  double samples_per_frame_;
  std::FILE* stream_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  bool drawn_ = false;
  double budget_s_ = 0;
};

// Whether a progress bar belongs on stderr: not --quiet, and stderr is a terminal.
bool progress_wanted(bool quiet);

}  // namespace raystream
