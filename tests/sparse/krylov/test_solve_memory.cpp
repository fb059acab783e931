// The memory estimate a solve job checks before any work (solve_memory.hpp), against sizes counted by hand from the
// solvers' allocations, and the power-of-two scaling that keeps a solve's norms in range (system_scaling.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "ppl/sparse/solve_memory.hpp"
#include "ppl/sparse/system_scaling.hpp"

namespace ppl {
namespace {

const solve_memory_item* find(const std::vector<solve_memory_item>& items, const std::string& what_starts) {
  for (const auto& i : items)
    if (i.what.compare(0, what_starts.size(), what_starts) == 0) return &i;
  return nullptr;
}

// GMRES(10000) on 205,000 rows: the basis alone is 10001 x 205000 doubles, 15.3 GiB (the size a run once failed to
// allocate after validation passed); the Hessenberg matrix 10001 x 10000 doubles on the host.
TEST(solve_memory, gmres_basis_and_hessenberg_follow_the_restart) {
  solve_memory_problem p;
  p.rows = 205000;
  p.nnz = 5 * 205000;
  p.method = "gmres";
  p.gmres_restart = 10000;
  const auto need = estimate_solve_memory(p);
  const auto* basis = find(need.device, "GMRES Krylov basis");
  ASSERT_NE(basis, nullptr);
  EXPECT_EQ(basis->bytes, 10001.0 * 205000 * 8);
  EXPECT_NEAR(basis->bytes / 1073741824.0, 15.27, 0.01);
  EXPECT_EQ(basis->key, "solver.restart");
  const auto* hessenberg = find(need.host, "GMRES Hessenberg");
  ASSERT_NE(hessenberg, nullptr);
  EXPECT_GE(hessenberg->bytes, 10001.0 * 10000 * 8);
  // Matrix (12 bytes a nonzero, 8 a row offset), b and x, and GMRES' u and z besides.
  EXPECT_EQ(need.device_bytes(), 10001.0 * 205000 * 8 + 12.0 * p.nnz + 8.0 * (p.rows + 1) + 4.0 * 205000 * 8);
  // A basis of more than n vectors cannot grow: restart is clipped to n.
  p.rows = 10;
  p.nnz = 30;
  EXPECT_EQ(find(estimate_solve_memory(p).device, "GMRES Krylov basis")->bytes, 11.0 * 10 * 8);
}

TEST(solve_memory, methods_and_preconditioners_add_their_vectors) {
  solve_memory_problem p;
  p.rows = 1000;
  p.nnz = 7000;
  const double vec = 8000, csr = 12.0 * 7000 + 8.0 * 1001;
  EXPECT_EQ(estimate_solve_memory(p).device_bytes(), csr + 2 * vec + 7 * vec);  // BiCGSTAB: 7 work vectors
  p.method = "bicg";
  EXPECT_EQ(estimate_solve_memory(p).device_bytes(), 2 * csr + 2 * vec + 8 * vec);  // and A^T
  p.preconditioner = "jacobi";
  EXPECT_EQ(estimate_solve_memory(p).device_bytes(), 2 * csr + 2 * vec + 8 * vec + vec);
  p.method = "bicgstab";
  p.preconditioner = "ilu0";
  EXPECT_GT(estimate_solve_memory(p).device_bytes(), csr + 9 * vec + csr);  // the factors hold A's pattern at least
  const double exact = estimate_solve_memory(p).device_bytes();
  p.ilu0_parallel = true;  // the sweeps' copies of the values and U^T's pattern: more than the factors again
  EXPECT_GT(estimate_solve_memory(p).device_bytes(), exact + csr);
  p.host_matrix_copy = true;
  p.host_vectors = 2;
  EXPECT_EQ(estimate_solve_memory(p).host_bytes(), csr + 2 * vec);
}

TEST(system_scaling, magnitudes_within_the_band_are_left_alone) {
  EXPECT_TRUE(choose_system_scaling(4.0, 1.0, 0.0).identity());
  EXPECT_TRUE(choose_system_scaling(1e30, 1e-30, 1e25).identity());
  EXPECT_TRUE(choose_system_scaling(0.0, 0.0, 0.0).identity());
  EXPECT_TRUE(choose_system_scaling(std::ldexp(1.0, scaling_band), 1.0, 0.0).identity());
  EXPECT_FALSE(choose_system_scaling(std::ldexp(1.0, scaling_band + 1), 1.0, 0.0).identity());
}

TEST(system_scaling, brings_the_largest_magnitudes_into_one_to_two) {
  auto in_one_two = [](double v) { return v >= 1.0 && v < 2.0; };
  for (const auto& [a, b, x0] : {std::tuple{1e300, 1e300, 0.0}, std::tuple{1e-300, 1.0, 0.0},
                                 std::tuple{3.0, 1e300, 3e299}, std::tuple{1e200, 1e100, 0.0}}) {
    const auto s = choose_system_scaling(a, b, x0);
    SCOPED_TRACE(std::to_string(a) + " " + std::to_string(b) + " " + std::to_string(x0));
    const double a2 = a * s.matrix();
    EXPECT_TRUE(in_one_two(a2) || s.matrix_exponent == 0) << a2;
    // The scaled b = s_A s_x b and x0 = s_x x0: the larger of them in [1, 2), or both within the band.
    const double b2 = std::ldexp(b, s.matrix_exponent + s.solution_exponent), x2 = x0 * s.solution();
    const double big = std::fmax(b2, x2);
    EXPECT_TRUE(in_one_two(big) || (std::fabs(std::ilogb(big)) <= scaling_band && s.solution_exponent == 0)) << big;
    EXPECT_EQ(s.residual(), std::ldexp(1.0, s.matrix_exponent + s.solution_exponent));
  }
  // A matrix of 1e300 with b of 1e300: only the matrix is scaled (s_A b is about 1).
  const auto s = choose_system_scaling(1e300, 1e300, 0.0);
  EXPECT_EQ(s.matrix_exponent, -std::ilogb(1e300));
  EXPECT_EQ(s.solution_exponent, 0);
  // x ~ b / A beyond a double's range: no scaling fixes that; none is applied.
  EXPECT_TRUE(choose_system_scaling(1e-300, 1e300, 0.0).identity());
}

}  // namespace
}  // namespace ppl
