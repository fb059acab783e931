// ILU(0) through Kokkos Kernels against the independent float64 host ILU(0) (tests/sparse/host_ilu0.hpp): the
// factors entry by entry, apply() and apply_transpose() against host triangular solves, on seeded random
// nonsymmetric matrices with full diagonals and on the matrices in data/; and the input errors (missing
// diagonal, zero pivots) with the row they name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ppl/core/error.hpp"
#include "ppl/sparse/ilu0.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "sparse/host_ilu0.hpp"
#include "sparse/krylov/krylov_test_support.hpp"
#include "sparse/precond/ilu0_test_support.hpp"
#include "support/portable_random.hpp"

namespace ppl::test {
namespace {

// Factors A with Kokkos Kernels and with the host oracle; checks the factors, apply() and apply_transpose().
// These are the exact (Kokkos Kernels) factors: a GPU build's `automatic` would take the parallel ones.
void check_against_host_once(const host_csr& A, const std::string& what, ilu0_options o) {
  SCOPED_TRACE(what);
  o.factorization = ilu0_factorization_method::exact;
  const auto ref = oracle::ilu0(A);
  ASSERT_LT(ref.zero_pivot_row, 0) << "the test matrix has a zero pivot";
  ilu0_factorization f(to_device(A), o);
  EXPECT_EQ(f.stats().sequential_solves, o.solve == ilu0_triangular_solve::sequential);
  const host_csr L = to_host(f.lower()), U = to_host(f.upper());
  // Same elimination order as the oracle, so only rounding (and contractions into FMA) may differ.
  EXPECT_LE(factor_difference(L, ref.L, true), 1e-12) << "L";
  EXPECT_LE(factor_difference(U, ref.U, false), 1e-12) << "U";
  EXPECT_EQ(f.stats().nnz_L + f.stats().nnz_U, static_cast<std::int64_t>(A.entries.size()) + A.rows);
  if (o.solve == ilu0_triangular_solve::level_scheduled) {
    EXPECT_EQ(f.stats().L_levels, solve_levels(L, true));
    EXPECT_EQ(f.stats().U_levels, solve_levels(U, false));
  }

  std::mt19937_64 rng(ppl_test::seed(7));
  const auto r = random_vector(A.rows, rng);
  vector_view z("z", A.rows);
  Kokkos::deep_copy(z, std::nan(""));
  f.apply(to_device(r), z);
  // The host solves of the oracle's factors: z = U^-1 L^-1 r.
  const auto expect = oracle::triangular_solve(ref.U, oracle::triangular_solve(ref.L, r, true, true), false, false);
  const double scale = max_abs(expect);
  EXPECT_LE(max_difference(to_host(z), expect), 1e-10 * scale) << "apply";

  // (L U)^-T r = L^-T U^-T r: U^T is lower, L^T unit upper.
  Kokkos::deep_copy(z, std::nan(""));
  f.apply_transpose(to_device(r), z);
  const auto expect_t = oracle::triangular_solve(
      transpose(ref.L), oracle::triangular_solve(transpose(ref.U), r, true, false), false, true);
  EXPECT_LE(max_difference(to_host(z), expect_t), 1e-10 * max_abs(expect_t)) << "apply_transpose";
}

// The same with the level-scheduled triangular solves and (host memory) the sequential ones.
void check_against_host(const host_csr& A, const std::string& what, ilu0_options o = {}) {
  std::vector<ilu0_triangular_solve> modes{ilu0_triangular_solve::level_scheduled};
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible)
    modes.push_back(ilu0_triangular_solve::sequential);
  for (const auto mode : modes) {
    o.solve = mode;
    check_against_host_once(A, what + (mode == ilu0_triangular_solve::sequential ? ", sequential" : ", sptrsv"), o);
  }
}

TEST(Ilu0, MatchesHostOnRandomMatrices) {
  std::mt19937_64 rng(ppl_test::seed(1));
  for (int n : {1, 2, 5, 40, 300}) {
    for (int per_row : {1, 4, 12}) {
      for (bool band : {false, true}) {
        const auto A = random_matrix(n, per_row, band, rng);
        check_against_host(
            A, "n = " + std::to_string(n) + ", per_row = " + std::to_string(per_row) + (band ? ", band" : ""));
      }
    }
  }
}

TEST(Ilu0, MatchesHostOnDataMatrices) {
  for (const std::string name : {"2dcyl1", "ani4", "ani1_nonsymm"})
    check_against_host(read_matrix_market_host(shared_matrix(name + ".mtx")), name);
}

// A work budget of a few rows per launch splits the factorisation's levels; the factors must not change.
TEST(Ilu0, SplitLevelsGiveTheSameFactors) {
  std::mt19937_64 rng(ppl_test::seed(2));
  const auto A = random_matrix(400, 6, false, rng);
  ilu0_options exact, o;  // level sets are the exact factorisation's (a GPU's `automatic` factors in parallel)
  exact.factorization = o.factorization = ilu0_factorization_method::exact;
  o.work_bytes = 3 * sizeof(int) * 400;
  ilu0_factorization whole(to_device(A), exact), split(to_device(A), o);
  EXPECT_EQ(split.stats().rows_per_launch, 3);
  EXPECT_GT(whole.stats().rows_per_launch, 3);
  const auto Lw = to_host(whole.lower()), Ls = to_host(split.lower());
  const auto Uw = to_host(whole.upper()), Us = to_host(split.upper());
  EXPECT_EQ(Lw.values, Ls.values);
  EXPECT_EQ(Uw.values, Us.values);
  check_against_host(A, "3 rows per launch", o);
}

// `automatic` solves sequentially on host memory below the rule's thresholds (these tests run on 1 or 2 threads),
// level by level on a GPU; the rule's boundaries (docs/solver.md, "ILU(0)").
TEST(Ilu0, AutomaticSolvePath) {
  std::mt19937_64 rng(ppl_test::seed(3));
  const ilu0_factorization f(to_device(random_matrix(50, 4, true, rng)));
  constexpr bool host = Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible;
  const bool pays = ilu0_level_scheduling_pays(sparse_space().concurrency(), 50, f.stats().factor_levels);
  EXPECT_FALSE(pays);
  EXPECT_EQ(f.stats().sequential_solves, host);
  EXPECT_FALSE(ilu0_level_scheduling_pays(4, 970299, 687));  // 4 threads: sequential on every matrix measured
  EXPECT_TRUE(ilu0_level_scheduling_pays(8, 970299, 687));   // 1,412 rows per level
  EXPECT_TRUE(ilu0_level_scheduling_pays(16, 250047, 435));  // 575 rows per level
  EXPECT_FALSE(ilu0_level_scheduling_pays(16, 59319, 267));  // 222 rows per level
  EXPECT_FALSE(ilu0_level_scheduling_pays(16, 3081, 183));   // ani4
}

std::string setup_error(const std::vector<std::vector<double>>& rows, bool keep_zero_diagonal) {
  return ppl_test::error_of<input_error>(
      [&] { ilu0_factorization f(to_device(csr_from_dense(rows, keep_zero_diagonal))); });
}

TEST(Ilu0, MissingDiagonalNamesTheRow) {
  const auto msg = setup_error({{2, 1, 0}, {1, 3, 1}, {0, 1, 0}}, false);
  EXPECT_NE(msg.find("row 3 (1-based) has no diagonal entry"), std::string::npos) << msg;
}

TEST(Ilu0, ZeroPivotNamesTheRow) {
  // A stored zero diagonal in the first row.
  auto msg = setup_error({{0, 1}, {1, 1}}, true);
  EXPECT_NE(msg.find("row 1 (1-based) has a zero pivot"), std::string::npos) << msg;
  // A pivot that cancels during the elimination: u_22 = 1 - 1 * 1.
  msg = setup_error({{1, 1, 0}, {1, 1, 1}, {0, 1, 4}}, false);
  EXPECT_NE(msg.find("row 2 (1-based) has a zero pivot"), std::string::npos) << msg;
}

// Kokkos Kernels stores a zero pivot as 1e6: a true pivot of exactly 1e6 must not be taken for one.
TEST(Ilu0, PivotOfOneMillionIsNotAnError) {
  const auto A = csr_from_dense({{1, 1}, {-1, 1e6 - 1}});
  ilu0_factorization f(to_device(A));
  const auto U = to_host(f.upper());
  EXPECT_EQ(U.values.back(), 1e6);
  check_against_host(A, "pivot 1e6");
}

}  // namespace
}  // namespace ppl::test
