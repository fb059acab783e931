#pragma once
// A progress bar with an estimate of the time left, for jobs made of many similar steps (a sweep's points). On a
// terminal it redraws one line; otherwise (a log file, a pipe) it writes one line per step, so logs stay readable.
#include <chrono>
#include <cstddef>
#include <iosfwd>
#include <string>

namespace ppl {

class progress_bar {
 public:
  // `total` steps will be counted; `terminal`: redraw in place (the stream is a terminal).
  progress_bar(std::ostream& out, std::size_t total, bool terminal);
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
  std::chrono::steady_clock::time_point start_;
  double timed_seconds_ = 0;
};

// "42 s", "3 min 05 s", "2 h 10 min".
std::string format_duration(double seconds);

// Whether file descriptor `fd` is a terminal.
bool is_terminal(int fd);

}  // namespace ppl
