#pragma once
// Errors and the process exit codes they map to (documented in docs/cli.md).
#include <stdexcept>
#include <string>

namespace ppl {

enum class exit_code : int {
  ok = 0,
  failure = 1,              // a run-time failure (I/O error while writing, device error)
  bad_input = 2,            // usage, config, input-file errors: nothing was written
  verification_failed = 3,  // a result differed from the float64 reference beyond its tolerance
  not_converged = 4,        // a solver stopped without meeting its tolerance
};

class error : public std::runtime_error {
 public:
  error(exit_code code, const std::string& message) : std::runtime_error(message), code_(code) {}
  exit_code code() const noexcept { return code_; }

 private:
  exit_code code_;
};

// Bad input: a config key, an input file line, a command-line argument. The message names the place.
class input_error : public error {
 public:
  explicit input_error(const std::string& message) : error(exit_code::bad_input, message) {}
};

}  // namespace ppl
