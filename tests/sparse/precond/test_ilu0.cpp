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
#include "support/portable_random.hpp"

namespace ppl::test {
namespace {

// n rows; each row has its diagonal and up to `per_row` random off-diagonal columns, with values in [-1, 1]. The
// diagonal is sign * (dominance * sum |off-diagonal| + 0.5), with dominance drawn in [0.4, 1.2], so some rows are
// not diagonally dominant and the pivots vary. `band` adds the sub- and super-diagonal, which chains the rows
// into many levels.
host_csr random_matrix(int n, int per_row, bool band, std::mt19937_64& rng) {
  host_csr A;
  A.rows = A.cols = n;
  A.row_map.push_back(0);
  for (int i = 0; i < n; ++i) {
    std::vector<int> cols{i};
    if (band && i > 0) cols.push_back(i - 1);
    if (band && i + 1 < n) cols.push_back(i + 1);
    for (int k = 0; k < per_row && n > 1; ++k) cols.push_back(static_cast<int>(below(rng, n)));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    double off = 0;
    std::vector<double> vals;
    for (int c : cols) {
      vals.push_back(c == i ? 0.0 : uniform(rng, -1.0, 1.0));
      off += std::fabs(vals.back());
    }
    const double sign = unit(rng) < 0.5 ? -1.0 : 1.0;
    for (std::size_t k = 0; k < cols.size(); ++k)
      if (cols[k] == i) vals[k] = sign * (uniform(rng, 0.4, 1.2) * off + 0.5);
    A.entries.insert(A.entries.end(), cols.begin(), cols.end());
    A.values.insert(A.values.end(), vals.begin(), vals.end());
    A.row_map.push_back(static_cast<std::int64_t>(A.entries.size()));
  }
  return A;
}

host_csr transpose(const host_csr& A) {
  host_csr T;
  T.rows = A.cols;
  T.cols = A.rows;
  T.row_map.assign(T.rows + 1, 0);
  for (int c : A.entries) ++T.row_map[c + 1];
  for (int i = 0; i < T.rows; ++i) T.row_map[i + 1] += T.row_map[i];
  T.entries.resize(A.entries.size());
  T.values.resize(A.values.size());
  auto next = T.row_map;
  for (int i = 0; i < A.rows; ++i)  // rows in order, so every row of T comes out sorted
    for (auto p = A.row_map[i]; p < A.row_map[i + 1]; ++p) {
      const auto q = next[A.entries[p]]++;
      T.entries[q] = i;
      T.values[q] = A.values[p];
    }
  return T;
}

// Largest |x - y| / (|y| + 1) over the entries; the patterns must be equal. `skip_diagonal` drops L's stored unit
// diagonal from x (it is checked to be exactly 1).
double factor_difference(const host_csr& x, const host_csr& y, bool skip_diagonal) {
  EXPECT_EQ(x.rows, y.rows);
  double worst = 0;
  for (int i = 0; i < x.rows; ++i) {
    std::vector<int> xc;
    std::vector<double> xv;
    for (auto p = x.row_map[i]; p < x.row_map[i + 1]; ++p) {
      if (skip_diagonal && x.entries[p] == i) {
        EXPECT_EQ(x.values[p], 1.0) << "L's diagonal, row " << i;
        EXPECT_EQ(p, x.row_map[i + 1] - 1) << "L's diagonal is not last in row " << i;
        continue;
      }
      xc.push_back(x.entries[p]);
      xv.push_back(x.values[p]);
    }
    const std::vector<int> yc(y.entries.begin() + y.row_map[i], y.entries.begin() + y.row_map[i + 1]);
    if (xc != yc) {
      ADD_FAILURE() << "pattern of row " << i << " differs";
      return INFINITY;
    }
    for (std::size_t k = 0; k < xc.size(); ++k) {
      const double ref = y.values[y.row_map[i] + k];
      worst = std::max(worst, std::fabs(xv[k] - ref) / (std::fabs(ref) + 1.0));
    }
  }
  return worst;
}

double max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double e : v) m = std::max(m, std::fabs(e));
  return m;
}

double max_difference(const std::vector<double>& x, const std::vector<double>& y) {
  double m = 0;
  for (std::size_t i = 0; i < x.size(); ++i) m = std::max(m, std::fabs(x[i] - y[i]));
  return m;
}

// Level sets of a triangular solve: row i's level is one more than the largest level of the rows it reads; the
// count of levels is the longest dependency chain (what sptrsv launches once per level).
int solve_levels(const host_csr& T, bool lower) {
  std::vector<int> level(T.rows, 0);
  int count = 0;
  for (int step = 0; step < T.rows; ++step) {
    const int i = lower ? step : T.rows - 1 - step;
    for (auto k = T.row_map[i]; k < T.row_map[i + 1]; ++k)
      if (T.entries[k] != i) level[i] = std::max(level[i], level[T.entries[k]] + 1);
    count = std::max(count, level[i] + 1);
  }
  return count;
}

// Factors A with Kokkos Kernels and with the host oracle; checks the factors, apply() and apply_transpose().
void check_against_host_once(const host_csr& A, const std::string& what, const ilu0_options& o) {
  SCOPED_TRACE(what);
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
  ilu0_options o;
  o.work_bytes = 3 * sizeof(int) * 400;
  ilu0_factorization whole(to_device(A)), split(to_device(A), o);
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
