// A one-line progress bar on stderr: samples done, elapsed time, ETA and Msamples/s.
#pragma once

#include <chrono>
#include <cstdio>
#include <string>

namespace raystream {

// The bar's text for `done` of `total` frames after `elapsed_s` seconds, each frame being
// `samples_per_frame` pixel samples; `bar_width` characters of bar.
std::string progress_line(int done, int total, double elapsed_s, double samples_per_frame,
                          int bar_width = 30);

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

 private:
  bool enabled_;
  double samples_per_frame_;
  std::FILE* stream_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  bool drawn_ = false;
};

// Whether a progress bar belongs on stderr: not --quiet, and stderr is a terminal.
bool progress_wanted(bool quiet);

}  // namespace raystream
