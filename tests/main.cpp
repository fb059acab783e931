// GoogleTest main for ppl: Kokkos is initialized once for the whole binary with the --kokkos-* flags.
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <gtest/gtest.h>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // Kokkos warns when OMP_PROC_BIND is unset; libgomp has read its environment already, so "false" is what
  // applies anyway. Users who want pinned threads set OMP_PROC_BIND=spread OMP_PLACES=threads themselves.
  setenv("OMP_PROC_BIND", "false", 0);
  Kokkos::initialize(argc, argv);
  int rc = RUN_ALL_TESTS();
  Kokkos::finalize();
  return rc;
}
