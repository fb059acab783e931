// Kokkos is started the way the command line asked: the thread count of a --kokkos-threads / --kokkos-num-threads
// flag reaches the host execution space on every supported Kokkos (4.x ignores --kokkos-threads, so without the
// translation in kokkos_session a `.threads1` test would quietly run with the default thread count).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
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
