#pragma once
// A progress bar with an estimate of the time left, for jobs made of many similar steps (a sweep's points). On a
// terminal it redraws one line; otherwise (a log file, a pipe) it writes one line per step, so logs stay readable.
#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string>

namespace ppl {

struct progress_options {
  // Nothing is drawn until this long after the bar was made: a step that ends sooner stays silent.
  double delay_seconds = 0.0;
  // Not on a terminal: one line per tenth of the total (at most 10 lines, each a tenth further) instead of one per
  // step, so a log of a long loop stays short.
  bool sparse = false;
};

class progress_bar {
 public:
  // `total` steps will be counted; `terminal`: redraw in place (the stream is a terminal).
  progress_bar(std::ostream& out, std::size_t total, bool terminal, progress_options options = {});
  // `done` of the total are done (a loop whose steps are not all alike, e.g. points checked): the ETA is the time
  // since the bar was made, per step, times the steps left.
  void update(std::size_t done, const std::string& label);
  // One more step is done; `label` says which. The ETA is the mean time of the steps done so far (skip() steps
  // excluded) times the steps left.
  void step(const std::string& label);
  // One step counted without being timed (a sweep point already measured).
  void skip();
  // Ends the line on a terminal.
  void finish();

 private:
  void draw(const std::string& label);
  std::ostream& out_;
  std::size_t total_, done_ = 0, timed_ = 0;
  bool terminal_;
  progress_options options_;
  bool drawn_ = false;
  std::size_t last_tenth_ = 0;  // sparse: the tenth of the last line written
  std::chrono::steady_clock::time_point created_, start_;
  double timed_seconds_ = 0;
};

// "42 s", "3 min 05 s", "2 h 10 min".
std::string format_duration(double seconds);

// Whether file descriptor `fd` is a terminal.
bool is_terminal(int fd);

}  // namespace ppl
