#pragma once
// The one way ppl starts Kokkos (the `ppl` command, the test binaries, the benchmarks): the --kokkos-* flags are
// split from the program's own, checked (a malformed value is an input_error naming the flag, not an abort), spelt
// for the Kokkos this build has (--kokkos-threads on 3.x, --kokkos-num-threads on 4.x: both are accepted), and
// Kokkos is finalized when the session ends.
#include <string>
#include <vector>

namespace ppl {

class kokkos_session {
 public:
  // Takes the --kokkos-* arguments out of argv (argc/argv then hold the rest, argv[0] kept) and initializes
  // Kokkos with them. Throws input_error for a malformed flag value; Kokkos is not started then.
  kokkos_session(int& argc, char** argv);
  ~kokkos_session();
  kokkos_session(const kokkos_session&) = delete;
  kokkos_session& operator=(const kokkos_session&) = delete;

  // The Kokkos flags as given (for messages and reports).
  const std::vector<std::string>& kokkos_flags() const { return flags_; }

 private:
  std::vector<std::string> flags_;
};

// Checks and translates one --kokkos-* flag for this build's Kokkos; exposed for tests.
std::string kokkos_flag_for_this_build(const std::string& flag);

}  // namespace ppl
