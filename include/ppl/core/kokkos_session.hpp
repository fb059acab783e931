#pragma once
// The one way ppl starts Kokkos (the `ppl` command, the test binaries, the benchmarks): the --kokkos-* flags are
// split from the program's own, checked (a malformed value is an input_error naming the flag, not an abort), spelt
// for the Kokkos this build has (--kokkos-threads on 3.x, --kokkos-num-threads on 4.x: both are accepted), and
// Kokkos is finalized when the session ends.
#include <exception>
#include <string>
#include <vector>

namespace ppl {

// Whether a program that owns its process (the command, a test or benchmark binary) may start itself again, once,
// to bound OpenMP's spinning (kokkos_session.cpp says why). A library inside another program (the Python module)
// must not: it would restart the host program.
enum class process_restart { allowed, forbidden };

class kokkos_session {
 public:
  // Takes the --kokkos-* arguments out of argv (argc/argv then hold the rest, argv[0] kept) and initializes
  // Kokkos with them. Throws input_error for a malformed flag value; Kokkos is not started then.
  kokkos_session(int& argc, char** argv, process_restart restart = process_restart::allowed);
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

// Kokkos' OpenMP backend keeps its threads' data in a fixed array of this many entries (OpenMPExec::MAX_THREAD_COUNT
// in Kokkos 3.4, OpenMPTraits::MAX_THREAD_COUNT in 4.6) and does not check the count it starts against it: more
// threads write past the array and corrupt the heap.
constexpr int kokkos_max_host_threads = 512;

// The host thread count Kokkos would start from `kokkos_flags` (--kokkos-threads / --kokkos-num-threads), else
// KOKKOS_NUM_THREADS, else OMP_NUM_THREADS, checked against kokkos_max_host_threads before Kokkos starts: more is an
// input_error naming the flag or variable (as is a KOKKOS_NUM_THREADS that is not a number). With nothing asked on
// a machine of more CPUs than the limit, returns the flag that caps Kokkos at it (else "").
std::string check_host_threads(const std::vector<std::string>& kokkos_flags);

// One line for an exception that ends a run (exit 1): a Kokkos allocation failure (3.4 reports it on four lines,
// 4.x on one, in other words) as "out of memory: Kokkos could not allocate 15.26 GiB for 'ppl::gmres::V' (Host
// memory)"; std::bad_alloc as "out of memory (...)"; any other message with its lines joined.
std::string one_line_failure(const std::exception& e);

}  // namespace ppl
