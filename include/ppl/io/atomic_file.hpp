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

// Checks before the work starts that `path` can be written (its folder exists and is writable).
void check_writable(const std::string& path, const std::string& where);

}  // namespace ppl
