// progress_bar (ppl/core/progress.hpp).
#include "ppl/core/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <ostream>

namespace ppl {

progress_bar::progress_bar(std::ostream& out, std::size_t total, bool terminal, progress_options options)
    : out_(out),
      total_(total),
      terminal_(terminal),
      options_(options),
      created_(std::chrono::steady_clock::now()),
      start_(created_) {}

void progress_bar::update(std::size_t done, const std::string& label) {
  const auto now = std::chrono::steady_clock::now();
  done_ = timed_ = std::min(done, total_);
  timed_seconds_ = std::chrono::duration<double>(now - created_).count();
  start_ = now;
  draw(label);
}

void progress_bar::skip() {
  ++done_;
  start_ = std::chrono::steady_clock::now();  // the next timed step starts now
}

void progress_bar::step(const std::string& label) {
  const auto now = std::chrono::steady_clock::now();
  timed_seconds_ += std::chrono::duration<double>(now - start_).count();
  start_ = now;
  ++done_;
  ++timed_;
  draw(label);
}

void progress_bar::draw(const std::string& label) {
  constexpr int width = 30;
  if (options_.delay_seconds > 0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - created_).count() < options_.delay_seconds)
    return;
  if (options_.sparse && !terminal_) {
    const std::size_t tenth = total_ ? done_ * 10 / total_ : 10;
    if (drawn_ && tenth <= last_tenth_) return;
    last_tenth_ = tenth;
  }
  drawn_ = true;
  const double fraction = total_ ? double(done_) / double(total_) : 1.0;
  const int filled = std::clamp(int(fraction * width + 0.5), 0, width);
  const double eta = timed_ ? timed_seconds_ / double(timed_) * double(total_ - done_) : 0.0;
  const std::string line =
      fmt::format("[{}{}] {}/{} {:3.0f}%  ETA {}  {}", std::string(filled, '#'), std::string(width - filled, '.'),
                  done_, total_, 100.0 * fraction, format_duration(eta), label);
  if (terminal_)
    out_ << "\r\033[K" << line << std::flush;
  else
    out_ << line << "\n" << std::flush;
}

void progress_bar::finish() {
  if (terminal_ && timed_ && drawn_) out_ << "\n" << std::flush;
}

std::string format_duration(double seconds) {
  const long s = long(seconds + 0.5);
  if (s < 60) return fmt::format("{} s", s);
  if (s < 3600) return fmt::format("{} min {:02} s", s / 60, s % 60);
  return fmt::format("{} h {:02} min", s / 3600, (s % 3600) / 60);
}

bool is_terminal(int fd) {
  return ::isatty(fd) == 1;
}

}  // namespace ppl
