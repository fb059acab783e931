// The Kokkos start-up (src/core/kokkos_session.cpp) bounds libgomp's spin-waiting when the user has chosen no wait
// policy: unbounded (libgomp's 300,000 rounds), a 2-thread Krylov iteration on a machine with one core taken by
// other work ran 800 times slower (docs/cli.md). libgomp reads the setting when it is loaded, so the session starts
// the program again with GOMP_SPINCOUNT set. Checked from outside: this test binary is run as a child with
// OMP_DISPLAY_ENV=verbose, which makes libgomp print its settings each time it is loaded.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "support/ppl_test.hpp"

namespace ppl::test {
namespace {

// The GOMP_SPINCOUNT values libgomp displayed in a child run of this binary (one per load of the program), with
// neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT inherited, `env` added, and `threads` Kokkos threads.
std::vector<std::string> spin_counts_of_a_child(const std::string& env, int threads) {
  ppl_test::temp_dir d;
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string(), log = d.file("stderr.txt");
  const std::string cmd = "env -u OMP_WAIT_POLICY -u GOMP_SPINCOUNT OMP_DISPLAY_ENV=verbose " + env + " '" + exe +
                          "' --kokkos-threads=" + std::to_string(threads) +
                          " --gtest_filter=outcomes.names_are_petsc_like >/dev/null 2>'" + log + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string text = ppl_test::read_file(log);
  std::vector<std::string> counts;
  const std::regex spin("GOMP_SPINCOUNT = '([0-9]+)'");
  for (std::sregex_iterator i(text.begin(), text.end(), spin), end; i != end; ++i) counts.push_back((*i)[1]);
  return counts;
}

TEST(openmp_spin, bounded_by_default_and_a_users_choice_is_kept) {
#if !defined(KOKKOS_ENABLE_OPENMP)
  GTEST_SKIP() << "no OpenMP backend";
#endif
  const auto two = spin_counts_of_a_child("", 2);
  if (two.empty()) GTEST_SKIP() << "the OpenMP runtime is not libgomp (no GOMP_SPINCOUNT displayed)";
  // Loaded with libgomp's own count, then started again with max(1000, 625 x threads).
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two.back(), "1250");
  EXPECT_EQ(spin_counts_of_a_child("", 16).back(), "10000");
  // A choice of the user's: no second start, libgomp as told.
  EXPECT_EQ(spin_counts_of_a_child("GOMP_SPINCOUNT=300000", 2), (std::vector<std::string>{"300000"}));
  EXPECT_EQ(spin_counts_of_a_child("OMP_WAIT_POLICY=passive", 2), (std::vector<std::string>{"0"}));
}

}  // namespace
}  // namespace ppl::test
