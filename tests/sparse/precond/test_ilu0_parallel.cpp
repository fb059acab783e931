// ILU(0)'s parallel paths (include/ppl/sparse/ilu0.hpp: `factorization: parallel`, `triangular_solve: jacobi`)
// against the independent float64 host references of tests/sparse/host_ilu0.hpp: the fixed-point sweeps entry by
// entry after every sweep count, the exact ILU(0) once the sweeps reach the pattern's dependency depth, the residual
// of A - L U on the pattern falling with the sweeps; the Jacobi solves against host Jacobi sweeps and, with enough
// sweeps, against the exact triangular solves; the transposed application as the transpose of the application.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "ppl/core/parameters.hpp"
#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/ilu0.hpp"
#include "ppl/sparse/matrix_market.hpp"
#include "ppl/sparse/preconditioner.hpp"
#include "sparse/host_ilu0.hpp"
#include "sparse/host_krylov.hpp"
#include "sparse/krylov/krylov_test_support.hpp"
#include "sparse/precond/ilu0_test_support.hpp"
#include "support/portable_random.hpp"

namespace ppl::test {
namespace {

constexpr bool host_memory = Kokkos::SpaceAccessibility<Kokkos::HostSpace, sparse_space::memory_space>::accessible;

ilu0_options parallel_options(int factor_sweeps, ilu0_triangular_solve solve = ilu0_triangular_solve::level_scheduled,
                              int solve_sweeps = 3) {
  ilu0_options o;
  o.factorization = ilu0_factorization_method::parallel;
  o.factor_sweeps = factor_sweeps;
  o.solve = solve;
  o.solve_sweeps = solve_sweeps;
  return o;
}

// The seeded random matrices of test_ilu0.cpp (some rows not diagonally dominant; the band chains them).
std::vector<std::pair<std::string, host_csr>> random_matrices() {
  std::mt19937_64 rng(ppl_test::seed(11));
  std::vector<std::pair<std::string, host_csr>> out;
  for (int n : {1, 2, 5, 40, 120})
    for (int per_row : {1, 4, 12})
      for (bool band : {false, true})
        out.emplace_back("n = " + std::to_string(n) + ", per_row = " + std::to_string(per_row) + (band ? ", band" : ""),
                         random_matrix(n, per_row, band, rng));
  return out;
}

host_csr generated(double peclet, int n) {
  convection_diffusion_params p;
  p.n = n;
  p.peclet = peclet;
  return to_host(make_convection_diffusion_matrix(p));
}

// ||(A - L U) restricted to A's pattern||_F / ||A||_F, L unit lower (its stored diagonal skipped), U upper: the
// product row by row, l_ik times row k of U, kept where A has an entry.
double pattern_residual(const host_csr& A, const host_csr& L, const host_csr& U) {
  std::vector<std::int64_t> where(A.cols, -1);
  double r2 = 0, a2 = 0;
  for (int i = 0; i < A.rows; ++i) {
    std::vector<double> lu(A.row_map[i + 1] - A.row_map[i], 0.0);
    for (auto p = A.row_map[i]; p < A.row_map[i + 1]; ++p) where[A.entries[p]] = p - A.row_map[i];
    auto add_row = [&](int k, double l) {
      for (auto q = U.row_map[k]; q < U.row_map[k + 1]; ++q)
        if (where[U.entries[q]] >= 0) lu[where[U.entries[q]]] += l * U.values[q];
    };
    for (auto p = L.row_map[i]; p < L.row_map[i + 1]; ++p)
      if (L.entries[p] != i) add_row(L.entries[p], L.values[p]);
    add_row(i, 1.0);
    for (auto p = A.row_map[i]; p < A.row_map[i + 1]; ++p) {
      const double d = A.values[p] - lu[p - A.row_map[i]];
      r2 += d * d;
      a2 += A.values[p] * A.values[p];
      where[A.entries[p]] = -1;
    }
  }
  return std::sqrt(r2 / a2);
}

// After k sweeps the device factors are the host reference's after k sweeps, for k below, at and above the depth.
TEST(Ilu0Parallel, SweepsMatchTheHostReference) {
  for (const auto& [what, A] : random_matrices()) {
    SCOPED_TRACE(what);
    const int depth = oracle::parallel_ilu0_depth(A);
    for (int k : {0, 1, 2, depth}) {
      const ilu0_factorization f(to_device(A), parallel_options(k));
      const auto ref = oracle::parallel_ilu0(A, k);
      EXPECT_LE(factor_difference(to_host(f.lower()), ref.L, true), 1e-13) << "L after " << k << " sweeps";
      EXPECT_LE(factor_difference(to_host(f.upper()), ref.U, false), 1e-13) << "U after " << k << " sweeps";
      EXPECT_EQ(f.stats().factor_sweeps, k);
      EXPECT_EQ(f.stats().factorization, ilu0_factorization_method::parallel);
    }
  }
}

// Sweeps up to the dependency depth give the exact ILU(0) (the IKJ elimination), one sweep fewer does not (where
// the depth is short enough that the unfinished chain is still visible).
TEST(Ilu0Parallel, DepthSweepsGiveTheExactFactors) {
  std::vector<std::pair<std::string, host_csr>> cases = random_matrices();
  for (const std::string name : {"2dcyl1", "ani4", "ani1_nonsymm"})
    cases.emplace_back(name, read_matrix_market_host(shared_matrix(name + ".mtx")));
  cases.emplace_back("cd27 n = 6, Pe 10", generated(10.0, 6));
  int sharp = 0;
  for (const auto& [what, A] : cases) {
    SCOPED_TRACE(what);
    const auto exact = oracle::ilu0(A);
    ASSERT_LT(exact.zero_pivot_row, 0);
    const int depth = oracle::parallel_ilu0_depth(A);
    const ilu0_factorization f(to_device(A), parallel_options(depth));
    EXPECT_LE(factor_difference(to_host(f.lower()), exact.L, true), 1e-12) << "L, " << depth << " sweeps";
    EXPECT_LE(factor_difference(to_host(f.upper()), exact.U, false), 1e-12) << "U, " << depth << " sweeps";
    if (depth > 0) {
      const ilu0_factorization g(to_device(A), parallel_options(depth - 1));
      const double off = std::max(factor_difference(to_host(g.lower()), exact.L, true),
                                  factor_difference(to_host(g.upper()), exact.U, false));
      if (depth <= 10) {
        EXPECT_GT(off, 1e-12) << "one sweep fewer than the depth (" << depth << ") already exact";
        ++sharp;
      }
    }
  }
  EXPECT_GE(sharp, 10);
}

// ||A - L U|| on the pattern falls with every sweep on the matrices of the solve tests, to rounding at the depth.
// Not a theorem (the sweeps are a nonlinear fixed-point iteration): on a convection-dominated system (cell Peclet
// number 4) the first sweep raises it, and only the fall over the sweeps is required there.
TEST(Ilu0Parallel, PatternResidualFallsWithTheSweeps) {
  std::vector<std::pair<std::string, host_csr>> cases;
  for (const std::string name : {"2dcyl1", "ani4"})
    cases.emplace_back(name, read_matrix_market_host(shared_matrix(name + ".mtx")));
  cases.emplace_back("cd27 n = 12, Pe 10", generated(10.0, 12));
  cases.emplace_back("cd27 n = 12, Pe 100", generated(100.0, 12));
  for (const auto& [what, A] : cases) {
    SCOPED_TRACE(what);
    const bool monotone = what.find("Pe 100") == std::string::npos;
    double last = INFINITY, first = 0;
    for (int k = 0; k <= 6; ++k) {
      const ilu0_factorization f(to_device(A), parallel_options(k));
      const double r = pattern_residual(A, to_host(f.lower()), to_host(f.upper()));
      std::printf("  %s: %d sweeps, ||A - LU||_pattern / ||A|| = %.3e\n", what.c_str(), k, r);
      if (monotone) {
        EXPECT_LT(r, last) << k << " sweeps";
      }
      if (k == 0) first = r;
      last = r;
    }
    EXPECT_LT(last, first / 5) << "6 sweeps against none";
    const ilu0_factorization f(to_device(A), parallel_options(oracle::parallel_ilu0_depth(A)));
    EXPECT_LE(pattern_residual(A, to_host(f.lower()), to_host(f.upper())), 1e-14);
  }
}

// z = M^-1 r with Jacobi solves: the host Jacobi sweeps on the same factors for each sweep count; with as many sweeps
// as each factor has levels (minus one) the exact triangular solves (oracle::triangular_solve); one sweep fewer
// falls short of them where the chain is short enough to see.
TEST(Ilu0Parallel, JacobiSolvesMatchHostSweepsAndReachTheExactSolve) {
  std::vector<std::pair<std::string, host_csr>> cases = random_matrices();
  for (const std::string name : {"2dcyl1", "ani4"})
    cases.emplace_back(name, read_matrix_market_host(shared_matrix(name + ".mtx")));
  int sharp = 0;
  for (const auto& [what, A] : cases) {
    SCOPED_TRACE(what);
    const auto ref = oracle::ilu0(A);
    std::mt19937_64 rng(ppl_test::seed(12));
    const auto r = random_vector(A.rows, rng);
    vector_view z("z", A.rows);
    ilu0_options o;
    o.factorization = ilu0_factorization_method::exact;
    o.solve = ilu0_triangular_solve::jacobi;
    auto apply = [&](int sweeps) {
      o.solve_sweeps = sweeps;
      const ilu0_factorization f(to_device(A), o);
      EXPECT_EQ(f.stats().solve, ilu0_triangular_solve::jacobi);
      EXPECT_EQ(f.stats().solve_sweeps, sweeps);
      Kokkos::deep_copy(z, std::nan(""));
      f.apply(to_device(r), z);
      return to_host(z);
    };
    for (int s : {0, 1, 2, 3}) {
      const auto expect =
          oracle::jacobi_triangular_solve(ref.U, oracle::jacobi_triangular_solve(ref.L, r, true, s), false, s);
      EXPECT_LE(max_difference(apply(s), expect), 1e-12 * max_abs(expect)) << s << " sweeps";
    }
    // Row i of the oracle's L holds no diagonal: its level count is that of L with the unit diagonal.
    const int enough = std::max(solve_levels(ref.L, true), solve_levels(ref.U, false)) - 1;
    const auto exact = oracle::triangular_solve(ref.U, oracle::triangular_solve(ref.L, r, true, true), false, false);
    EXPECT_LE(max_difference(apply(enough), exact), 1e-10 * max_abs(exact)) << enough << " sweeps";
    if (enough > 0) {
      const double off = max_difference(apply(enough - 1), exact) / max_abs(exact);
      if (enough <= 10) {
        EXPECT_GT(off, 1e-10) << enough - 1 << " sweeps";
        ++sharp;
      }
    }
  }
  EXPECT_GE(sharp, 10);
}

// apply_transpose is the transpose of apply's operator, sweeps and all: <M^-1 x, y> = <x, M^-T y> with the default
// sweeps on factors that are not exact; and with enough sweeps (L U)^-T r itself.
TEST(Ilu0Parallel, TransposeIsTheTransposedOperator) {
  std::vector<std::pair<std::string, host_csr>> cases = random_matrices();
  cases.emplace_back("2dcyl1", read_matrix_market_host(shared_matrix("2dcyl1.mtx")));
  cases.emplace_back("cd27 n = 8, Pe 10", generated(10.0, 8));
  for (const auto& [what, A] : cases) {
    SCOPED_TRACE(what);
    std::mt19937_64 rng(ppl_test::seed(13));
    const auto x = random_vector(A.rows, rng), y = random_vector(A.rows, rng);
    vector_view mx("Mx", A.rows), mty("MTy", A.rows);
    const ilu0_factorization f(to_device(A), parallel_options(2, ilu0_triangular_solve::jacobi, 3));
    f.apply(to_device(x), mx);
    f.apply_transpose(to_device(y), mty);
    const auto a = to_host(mx), b = to_host(mty);
    const double lhs = oracle::dot(a, y), rhs = oracle::dot(x, b);
    EXPECT_LE(std::fabs(lhs - rhs), 1e-12 * (norm2(a) * norm2(y) + norm2(x) * norm2(b))) << lhs << " vs " << rhs;

    const auto ref = oracle::ilu0(A);
    const int enough = std::max(solve_levels(ref.L, true), solve_levels(ref.U, false)) - 1;
    const ilu0_factorization g(to_device(A),
                               parallel_options(oracle::parallel_ilu0_depth(A), ilu0_triangular_solve::jacobi, enough));
    g.apply_transpose(to_device(y), mty);
    const auto expect = oracle::triangular_solve(
        transpose(ref.L), oracle::triangular_solve(transpose(ref.U), y, true, false), false, true);
    EXPECT_LE(max_difference(to_host(mty), expect), 1e-10 * max_abs(expect)) << "(L U)^-T";
  }
}

// Every solve path on parallel factors: the factors are the same, so each path's application is checked against
// the host solves of those factors.
TEST(Ilu0Parallel, ParallelFactorsWithEverySolvePath) {
  std::mt19937_64 rng(ppl_test::seed(14));
  const auto A = random_matrix(200, 5, true, rng);
  const auto r = random_vector(A.rows, rng);
  std::vector<ilu0_triangular_solve> paths{ilu0_triangular_solve::level_scheduled, ilu0_triangular_solve::jacobi};
  if (host_memory) paths.push_back(ilu0_triangular_solve::sequential);
  for (const auto path : paths) {
    const ilu0_factorization f(to_device(A), parallel_options(2, path, 400));
    const auto L = to_host(f.lower()), U = to_host(f.upper());
    const auto expect = oracle::triangular_solve(U, oracle::triangular_solve(L, r, true, true), false, false);
    vector_view z("z", A.rows);
    f.apply(to_device(r), z);
    EXPECT_LE(max_difference(to_host(z), expect), 1e-10 * max_abs(expect)) << static_cast<int>(path);
  }
}

// `automatic`: exact factors and the host rule's solves on host memory (these tests run on 1 or 2 threads, so
// sequential), parallel factors and Jacobi solves on a GPU; the registry's `auto` is the same.
TEST(Ilu0Parallel, AutomaticChoices) {
  std::mt19937_64 rng(ppl_test::seed(15));
  const auto A = to_device(random_matrix(60, 4, true, rng));
  const ilu0_factorization f(A);
  EXPECT_EQ(f.stats().factorization,
            host_memory ? ilu0_factorization_method::exact : ilu0_factorization_method::parallel);
  EXPECT_EQ(f.stats().solve, host_memory ? ilu0_triangular_solve::sequential : ilu0_triangular_solve::jacobi);
  EXPECT_EQ(f.stats().factor_sweeps, host_memory ? 0 : 3);
  EXPECT_EQ(f.stats().solve_sweeps, host_memory ? 0 : 2);
  EXPECT_FALSE(f.stats().factorization_fell_back);
  EXPECT_FALSE(f.stats().solve_fell_back);
  const auto M = make_preconditioner("ilu0", A);
  const std::string d = M->describe();
  if (host_memory)
    EXPECT_EQ(d, "ilu0: exact factors, sequential solves");
  else
    EXPECT_EQ(d.rfind("ilu0: parallel factors (3 sweeps, residual ", 0), 0u) << d;
  const auto P = make_preconditioner("ilu0", A,
                                     {{"factorization", std::string("parallel")},
                                      {"factor_sweeps", 4},
                                      {"triangular_solve", std::string("jacobi")},
                                      {"solve_sweeps", 1}});
  const std::string e = P->describe();
  EXPECT_EQ(e.rfind("ilu0: parallel factors (4 sweeps, residual ", 0), 0u) << e;
  EXPECT_NE(e.find("), jacobi solves (1 sweeps)"), std::string::npos) << e;
}

// docs/solver.md ("ILU(0)") holds the parameter table as `ppl strategies --parameters` prints it.
TEST(Ilu0Parallel, DocsHoldTheParameterTable) {
  const auto readme = std::filesystem::path(ppl_test::data_path("README.md"));
  const std::string docs = ppl_test::read_file((readme.parent_path().parent_path() / "docs/solver.md").string());
  const std::string table = parameter_table(preconditioners().get("ilu0", "test").parameters);
  EXPECT_NE(docs.find(table), std::string::npos) << "docs/solver.md lacks this table of ilu0:\n" << table;
}

// Bad parameters: one parameter_error naming the key, from the registry's factory and from the options.
TEST(Ilu0Parallel, BadParametersNameTheKey) {
  const auto A = to_device(csr_from_dense({{4, 1}, {1, 4}}));
  auto error_of = [&](const parameter_values& v) {
    try {
      make_preconditioner("ilu0", A, v);
    } catch (const parameter_error& e) {
      return e.parameter() + ": " + e.reason();
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of({{"factorization", std::string("approximate")}}).find("factorization: "), std::string::npos);
  EXPECT_NE(error_of({{"triangular_solve", std::string("gauss_seidel")}}).find("triangular_solve: "),
            std::string::npos);
  EXPECT_NE(error_of({{"factor_sweeps", -1}}).find("factor_sweeps: "), std::string::npos);
  EXPECT_NE(error_of({{"solve_sweeps", 10001}}).find("solve_sweeps: "), std::string::npos);
  EXPECT_NE(error_of({{"sweeps", 3}}).find("sweeps: is not a parameter"), std::string::npos);
  if (!host_memory) {
    EXPECT_NE(error_of({{"triangular_solve", std::string("sequential")}}).find("triangular_solve: "),
              std::string::npos);
  }
  ilu0_options o;
  o.solve_sweeps = -2;
  EXPECT_NE(ppl_test::error_of<parameter_error>([&] { ilu0_factorization f(A, o); }).find("'solve_sweeps'"),
            std::string::npos);
}

// A pivot the sweeps leave at zero is an input error naming the row; the exact ILU(0) of the matrix is fine.
TEST(Ilu0Parallel, ZeroPivotAfterTheSweepsNamesTheRow) {
  // u_22 = a_22 - l_21 u_12 = 2 - 2 x 1 = 0 after one sweep (l_21 = a_21 / a_11 = 2 from the start), the exact
  // ILU(0)'s zero pivot too.
  const auto A = to_device(csr_from_dense({{1, 1}, {2, 2}}));
  const auto msg = ppl_test::error_of<input_error>([&] { ilu0_factorization f(A, parallel_options(1)); });
  EXPECT_NE(msg.find("row 2 (1-based) has a zero or non-finite pivot"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ppl::test
