#pragma once
// Output files are written to a temporary name beside the target and renamed on success, so a failed or
// interrupted run never leaves a half-written result under the real name.
#include <functional>
#include <iosfwd>
#include <string>

namespace ppl {

// Writes through `fill`; throws ppl::error(exit_code::failure) naming the path on any I/O failure.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& fill,
                           bool binary = false);

// Checks before the work starts that `path` can be written (its folder exists and is writable).
void check_writable(const std::string& path, const std::string& where);

}  // namespace ppl
