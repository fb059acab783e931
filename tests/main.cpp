// GoogleTest main for ppl: Kokkos is started once for the whole binary with the --kokkos-* flags
// (ppl::kokkos_session, as the `ppl` command does); the seed in use is printed when a test fails.
#include <gtest/gtest.h>

#include <iostream>

#include "ppl/core/error.hpp"
#include "ppl/core/kokkos_session.hpp"
#include "support/ppl_test.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  try {
    ppl::kokkos_session kokkos(argc, argv);
    ppl_test::record_kokkos_flags(kokkos.kokkos_flags());
    ppl_test::install_seed_reporter();
    return RUN_ALL_TESTS();
  } catch (const ppl::error& e) {
    std::cerr << "test main: " << e.what() << "\n";
    return 2;
  }
}
