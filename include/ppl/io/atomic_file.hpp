#pragma once
// Output files are written to a temporary name beside the target, synced to disk and renamed on success, so a
// failed or interrupted run (SIGINT, SIGTERM, SIGHUP, a full disk, a file size limit) never leaves a half-written
// result under the real name nor a temporary file beside it.
#include <functional>
#include <iosfwd>
#include <string>

namespace ppl {

// Writes through `fill`; throws ppl::error(exit_code::failure) naming the path on any I/O failure.
// Bytes are written as given (no text-mode translation on POSIX).
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill);

// While one of these lives, SIGINT, SIGTERM and SIGHUP are held: the first to arrive takes its course (temporary
// files removed, the signal's default action) when the last one goes away. Held around writes that belong together
// (a sweep's record and its CSV view), so an interruption lands between whole records, never inside one.
class deferred_signals {
 public:
  deferred_signals();
  ~deferred_signals();
  deferred_signals(const deferred_signals&) = delete;
  deferred_signals& operator=(const deferred_signals&) = delete;
};

// Checks before the work starts that `path` can be written (its folder exists and is writable).
void check_writable(const std::string& path, const std::string& where);

}  // namespace ppl
