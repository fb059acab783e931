// The small instances of the 2016 BiCG paper's two systems (data/matrices/stenosis-small and fsi-small, generated
// by perf/sparse/freefem/generate.sh with FreeFem++): their shape (rows, nonzeros per row, nonsymmetric, every
// diagonal stored), and BiCG on them as the paper ran it, Jacobi on the stenosis system and ILU(0) on the FSI one.
// ppl's BiCG + Jacobi takes the iterations of an independent float64 host BiCG (tests/sparse/host_krylov.hpp)
// within max(2, 5%) and reaches a true residual <= 1e-8 recomputed on the host; BiCG + ILU(0) (exact factors,
// level-scheduled solves: on every backend the same operator) converges in fewer iterations than Jacobi's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "ppl/sparse/spmv_strategy.hpp"
#include "sparse/host_krylov.hpp"
#include "sparse/krylov/krylov_test_support.hpp"

namespace ppl::test {
namespace {

struct paper_system {
  std::string name;
  int rows;
  double per_row_lo, per_row_hi;
};

void PrintTo(const paper_system& p, std::ostream* os) {
  *os << p.name;
}

class paper_systems : public ::testing::TestWithParam<paper_system> {};

struct loaded {
  crs_matrix A;
  host_csr A_host;
  std::vector<double> b;
};

loaded load(const std::string& name) {
  loaded s;
  s.A_host = read_matrix_market_host(shared_matrix(name + ".mtx"));
  s.A = to_device(s.A_host);
  s.b = read_matrix_market_vector_host(shared_matrix(name + ".rhs.mtx"));
  return s;
}

solver_result solve(const loaded& s, const std::string& pc, std::vector<double>& x) {
  solver_options o;
  o.rtol = 1e-8;
  o.max_iters = 2000;
  o.preconditioner = pc;
  if (pc == "ilu0")
    o.preconditioner_params = {{"factorization", std::string("exact")},
                               {"triangular_solve", std::string("level_scheduled")}};
  auto spmv = make_spmv_strategy("auto");
  spmv->prepare(s.A);
  vector_view xd("x", s.A.numRows());
  const auto r = make_solver("bicg", o)->solve(execution(), s.A, *spmv, to_device_vector(s.b), xd);
  x = to_host_vector(xd);
  return r;
}

TEST_P(paper_systems, shape_and_bicg_against_the_host_oracle) {
  const auto& p = GetParam();
  const auto s = load(p.name);
  const auto& A = s.A_host;
  ASSERT_EQ(A.rows, p.rows);
  ASSERT_EQ(static_cast<int>(s.b.size()), A.rows);
  const double per_row = static_cast<double>(A.entries.size()) / A.rows;
  EXPECT_GE(per_row, p.per_row_lo);
  EXPECT_LE(per_row, p.per_row_hi);
  // Every diagonal stored; nonsymmetric values (convection), counted over the stored pairs.
  std::map<std::pair<int, int>, double> entries;
  for (int r = 0; r < A.rows; ++r)
    for (auto k = A.row_map[r]; k < A.row_map[r + 1]; ++k) entries[{r, A.entries[k]}] = A.values[k];
  int asymmetric = 0;
  for (int r = 0; r < A.rows; ++r) {
    EXPECT_TRUE(entries.count({r, r})) << "row " << r;
    for (auto k = A.row_map[r]; k < A.row_map[r + 1]; ++k) {
      const auto t = entries.find({A.entries[k], r});
      if (t != entries.end() && std::abs(t->second - A.values[k]) > 1e-12 * std::abs(A.values[k])) ++asymmetric;
    }
  }
  EXPECT_GT(asymmetric, A.rows / 10);

  std::vector<double> x_host;
  const int oracle = oracle::bicg(A, s.b, x_host, 1e-8, 2000, true);
  ASSERT_GT(oracle, 0);
  std::vector<double> x;
  const auto jac = solve(s, "jacobi", x);
  ASSERT_TRUE(is_converged(jac.outcome)) << to_string(jac.outcome);
  EXPECT_LE(host_relative_residual(A, s.b, x), 1e-8 + 1e-10);
  EXPECT_LE(std::abs(jac.iterations - oracle), std::max(2, oracle / 20)) << "host BiCG + Jacobi: " << oracle;
  const auto ilu = solve(s, "ilu0", x);
  ASSERT_TRUE(is_converged(ilu.outcome)) << to_string(ilu.outcome);
  EXPECT_LE(host_relative_residual(A, s.b, x), 1e-8 + 1e-10);
  EXPECT_LT(ilu.iterations, jac.iterations);
  std::printf("  %s: %d rows, %.2f per row; BiCG + Jacobi %d iterations (host %d), + ILU(0) %d\n", p.name.c_str(),
              A.rows, per_row, jac.iterations, oracle, ilu.iterations);
}

std::string test_name(const ::testing::TestParamInfo<paper_system>& info) {
  std::string n = info.param.name;
  std::replace(n.begin(), n.end(), '-', '_');
  return n;
}

INSTANTIATE_TEST_SUITE_P(data, paper_systems,
                         ::testing::Values(paper_system{"stenosis-small", 23157, 26.5, 27.5},
                                           paper_system{"fsi-small", 6603, 75.5, 77.5}),
                         test_name);

}  // namespace
}  // namespace ppl::test
