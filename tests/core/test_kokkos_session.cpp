// Kokkos is started the way the command line asked: the thread count of a --kokkos-threads / --kokkos-num-threads
// flag reaches the host execution space on every supported Kokkos (4.x ignores --kokkos-threads, so without the
// translation in kokkos_session a `.threads1` test would quietly run with the default thread count).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_session.hpp"
#include "support/ppl_test.hpp"

namespace {

// The value of the last thread-count flag among `flags` (either spelling), or -1 when there is none.
int requested_threads(const std::vector<std::string>& flags) {
  int n = -1;
  for (const auto& f : flags)
    for (const std::string name : {"--kokkos-threads=", "--kokkos-num-threads="})
      if (f.compare(0, name.size(), name) == 0) n = std::stoi(f.substr(name.size()));
  return n;
}

}  // namespace

TEST(kokkos_session, host_concurrency_is_the_requested_thread_count) {
  const int requested = requested_threads(ppl_test::kokkos_flags());
  if (requested < 0) GTEST_SKIP() << "started without a thread-count flag";
#if defined(KOKKOS_ENABLE_SERIAL)
  if (std::is_same_v<Kokkos::DefaultHostExecutionSpace, Kokkos::Serial>) GTEST_SKIP() << "no threaded host space";
#endif
  EXPECT_EQ(Kokkos::DefaultHostExecutionSpace().concurrency(), requested)
      << "Kokkos " << KOKKOS_VERSION << " did not apply the flag(s) given to this binary";
}

TEST(kokkos_session, thread_flag_is_spelt_for_this_kokkos) {
#if KOKKOS_VERSION >= 30700
  const std::string threads = "--kokkos-num-threads=3";
#else
  const std::string threads = "--kokkos-threads=3";
#endif
  EXPECT_EQ(ppl::kokkos_flag_for_this_build("--kokkos-threads=3"), threads);
  EXPECT_EQ(ppl::kokkos_flag_for_this_build("--kokkos-num-threads=3"), threads);
  EXPECT_EQ(ppl::kokkos_flag_for_this_build("--kokkos-device-id=1"), "--kokkos-device-id=1");
  EXPECT_THROW(ppl::kokkos_flag_for_this_build("--kokkos-threads=two"), ppl::input_error);
}

namespace {

// Sets an environment variable for one scope, then puts back what was there.
struct scoped_env {
  std::string name;
  bool had = false;
  std::string old;
  scoped_env(const char* n, const char* value) : name(n) {
    if (const char* v = std::getenv(n)) had = true, old = v;
    if (value)
      setenv(n, value, 1);
    else
      unsetenv(n);
  }
  ~scoped_env() {
    if (had)
      setenv(name.c_str(), old.c_str(), 1);
    else
      unsetenv(name.c_str());
  }
};

}  // namespace

// Kokkos' OpenMP backend holds the data of at most 512 threads in a fixed array and does not check: 600 corrupted
// the heap (even `ppl info`). The count is refused before Kokkos starts, naming where it came from.
TEST(kokkos_session, more_host_threads_than_kokkos_holds_are_refused_naming_the_source) {
  scoped_env kokkos_env("KOKKOS_NUM_THREADS", nullptr), omp("OMP_NUM_THREADS", nullptr);
  EXPECT_EQ(ppl::check_host_threads({"--kokkos-threads=512"}), "");
  EXPECT_EQ(ppl::check_host_threads({"--kokkos-num-threads=1"}), "");
#if defined(KOKKOS_ENABLE_OPENMP)
  using ::testing::HasSubstr;
  const std::string flag =
      ppl_test::error_of<ppl::input_error>([] { ppl::check_host_threads({"--kokkos-threads=600"}); });
  EXPECT_THAT(flag, HasSubstr("--kokkos-threads: 600 threads is more than Kokkos' OpenMP backend holds (512"));
  EXPECT_THAT(ppl_test::error_of<ppl::input_error>([] { ppl::check_host_threads({"--kokkos-num-threads=513"}); }),
              HasSubstr("--kokkos-num-threads: 513 threads"));
  {
    scoped_env set("OMP_NUM_THREADS", "600,2");
    EXPECT_THAT(ppl_test::error_of<ppl::input_error>([] { ppl::check_host_threads({}); }),
                HasSubstr("OMP_NUM_THREADS: 600 threads"));
    EXPECT_EQ(ppl::check_host_threads({"--kokkos-threads=4"}), "");  // the flag is the count Kokkos takes
  }
  {
    scoped_env set("KOKKOS_NUM_THREADS", "1000");
    EXPECT_THAT(ppl_test::error_of<ppl::input_error>([] { ppl::check_host_threads({}); }),
                HasSubstr("KOKKOS_NUM_THREADS: 1000 threads"));
  }
#endif
  scoped_env word("KOKKOS_NUM_THREADS", "many");
  EXPECT_THAT(ppl_test::error_of<ppl::input_error>([] { ppl::check_host_threads({}); }),
              ::testing::HasSubstr("KOKKOS_NUM_THREADS='many'"));
}

// An allocation Kokkos cannot make ends the run with one line naming the allocation (Kokkos 3.4 reports it over
// four lines, with a traceback note; 4.x on one, in other words).
TEST(kokkos_session, an_allocation_failure_is_one_line_naming_the_label) {
  std::string msg;
  try {
    Kokkos::View<double*> huge("ppl::test::huge", std::size_t(1) << 57);  // 1 EiB
    FAIL() << "allocated 1 EiB";
  } catch (const std::exception& e) {
    msg = ppl::one_line_failure(e);
  }
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  EXPECT_NE(msg.find("out of memory: Kokkos could not allocate"), std::string::npos) << msg;
  EXPECT_NE(msg.find("for 'ppl::test::huge'"), std::string::npos) << msg;
  // Both Kokkos' wordings, as their sources write them.
  EXPECT_EQ(ppl::one_line_failure(std::runtime_error(
                "Kokkos failed to allocate memory for label \"ppl::gmres::V\".  Allocation using MemorySpace named "
                "\"Host\" failed with the following error:  Allocation of size 15.26 G failed, likely due to "
                "insufficient memory.  (The allocation mechanism was posix_memalign().)\n\nTraceback functionality "
                "not available\n")),
            "out of memory: Kokkos could not allocate 15.26 GiB for 'ppl::gmres::V' (Host memory)");
  EXPECT_EQ(ppl::one_line_failure(std::runtime_error(
                "Kokkos ERROR: Cuda memory space failed to allocate 15.26 GiB (label=\"ppl::gmres::V\").")),
            "out of memory: Kokkos could not allocate 15.26 GiB for 'ppl::gmres::V' (Cuda memory)");
  EXPECT_EQ(ppl::one_line_failure(std::bad_alloc()), "out of memory (std::bad_alloc)");
  EXPECT_EQ(ppl::one_line_failure(std::runtime_error("first\n\nTraceback functionality not available\n")), "first");
}
