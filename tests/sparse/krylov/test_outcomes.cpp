// Named outcomes: breakdowns constructed so that the vanishing denominator is exactly 0 in floating point (small
// integer systems whose BiCGSTAB/BiCG scalars are dyadic, found by an exact rational search), max_iters, NaN,
// zero diagonals with Jacobi, atol, b = 0, and the timing switch.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "krylov_test_support.hpp"
#include "ppl/core/error.hpp"
#include "ppl/sparse/generators.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl::test {
namespace {

struct outcome_run {
  solver_result result;
  std::vector<double> x;
};

outcome_run solve_dense(const std::string& method, const std::vector<std::vector<double>>& rows,
                        const std::vector<double>& b, solver_options o, bool keep_zero_diagonal = false) {
  const auto A = to_device(csr_from_dense(rows, keep_zero_diagonal));
  auto spmv = make_spmv_strategy("kokkos_kernels");
  spmv->prepare(A);
  vector_view x("x", b.size());
  auto solver = make_solver(method, o);
  outcome_run out;
  out.result = solver->solve(execution(), A, *spmv, to_device_vector(b), x);
  out.x = to_host_vector(x);
  return out;
}

// No restarts after a breakdown: these tests check that each breakdown is detected and named where it happens
// (test_breakdown_restart.cpp checks what the restarts do with the same systems).
solver_options plain() {
  solver_options o;
  o.rtol = 1e-10;
  o.max_iters = 50;
  o.max_restarts = 0;
  return o;
}

// A rotation: (r0, A r0) = 0, so alpha = rho / (r_hat, A p) has a zero denominator in the first iteration.
TEST(outcomes, rotation_breaks_down_in_alpha_for_both_solvers) {
  for (const std::string method : {"bicgstab", "bicg"}) {
    auto run = solve_dense(method, {{0, 1}, {-1, 0}}, {1, 0}, plain());
    EXPECT_EQ(run.result.outcome, solver_outcome::diverged_breakdown) << method;
    EXPECT_EQ(run.result.breakdown, "alpha") << method;
    EXPECT_EQ(run.result.iterations, 1) << method;
    // The guard kept the iterate finite: x is still a valid (unchanged) point with residual ||b||.
    EXPECT_TRUE(std::isfinite(run.x[0]) && std::isfinite(run.x[1])) << method;
    EXPECT_NEAR(run.result.true_residual, 1.0, 1e-15) << method;
  }
}

// diag(2, -2, 3), b = (2, 2, 1): alpha = 3, s = (-10, 14, -8), t = A s = (-20, -28, -24) and (t, s) = 0 exactly.
TEST(outcomes, bicgstab_breaks_down_in_omega) {
  auto run = solve_dense("bicgstab", {{2, 0, 0}, {0, -2, 0}, {0, 0, 3}}, {2, 2, 1}, plain());
  EXPECT_EQ(run.result.outcome, solver_outcome::diverged_breakdown);
  EXPECT_EQ(run.result.breakdown, "omega");
  EXPECT_EQ(run.result.iterations, 1);
  // omega was guarded to 0, so x = alpha p = 3 b exactly and the reported true residual is that of x.
  EXPECT_EQ(run.x, (std::vector<double>{6, 6, 3}));
  const double expect = std::sqrt(10.0 * 10 + 14 * 14 + 8 * 8) / 3.0;
  EXPECT_NEAR(run.result.true_residual, expect, 1e-14 * expect);
}

// rho_0 = 4, alpha = 1, omega = 1/2, then (r_hat, r_1) = 0 exactly.
TEST(outcomes, bicgstab_breaks_down_in_rho) {
  auto run = solve_dense("bicgstab", {{1, 2, 1}, {1, 1, 2}, {-1, -1, 1}}, {0, 2, 0}, plain());
  EXPECT_EQ(run.result.outcome, solver_outcome::diverged_breakdown);
  EXPECT_EQ(run.result.breakdown, "rho");
  EXPECT_EQ(run.result.iterations, 1);
}

// rho_0 = 4, alpha = -1, then (r_1, r~_1) = 0 exactly.
TEST(outcomes, bicg_breaks_down_in_rho) {
  auto run = solve_dense("bicg", {{-1, 1, 0}, {2, -1, -1}, {1, 2, -1}}, {0, 2, 0}, plain());
  EXPECT_EQ(run.result.outcome, solver_outcome::diverged_breakdown);
  EXPECT_EQ(run.result.breakdown, "rho");
  EXPECT_EQ(run.result.iterations, 1);
}

// With Jacobi on diag(1, -1) and b = (1, 1): rho_0 = (D^-1 r, r) = 1 - 1 = 0 before the first iteration.
TEST(outcomes, bicg_with_jacobi_breaks_down_at_the_start_on_an_indefinite_diagonal) {
  auto o = plain();
  o.preconditioner = "jacobi";
  auto run = solve_dense("bicg", {{1, 0}, {0, -1}}, {1, 1}, o);
  EXPECT_EQ(run.result.outcome, solver_outcome::diverged_breakdown);
  EXPECT_EQ(run.result.breakdown, "rho");
  EXPECT_EQ(run.result.iterations, 0);
}

class outcomes_generated : public ::testing::TestWithParam<std::string> {
 protected:
  generated_system sys = make_convection_diffusion({12, 1, 1.0, 1.0});
  solver_result solve(const solver_options& o, vector_view x) {
    auto spmv = make_spmv_strategy("kokkos_kernels");
    spmv->prepare(sys.A);
    return make_solver(GetParam(), o)->solve(execution(), sys.A, *spmv, sys.b, x);
  }
};

TEST_P(outcomes_generated, max_iters_stops_with_its_outcome) {
  auto o = plain();
  o.max_iters = 3;
  vector_view x("x", sys.A.numRows());
  const auto r = solve(o, x);
  EXPECT_EQ(r.outcome, solver_outcome::diverged_max_iters);
  EXPECT_EQ(r.iterations, 3);
  ASSERT_EQ(r.history.size(), 4u);
  EXPECT_GT(r.true_residual, 1e-10);
  EXPECT_LT(r.true_residual, 1.0);  // it made progress
}

TEST_P(outcomes_generated, nan_in_b_gives_diverged_nan_without_iterating) {
  auto b = to_host_vector(sys.b);
  b[b.size() / 3] = std::nan("");
  auto spmv = make_spmv_strategy("kokkos_kernels");
  spmv->prepare(sys.A);
  vector_view x("x", sys.A.numRows());
  const auto r = make_solver(GetParam(), plain())->solve(execution(), sys.A, *spmv, to_device_vector(b), x);
  EXPECT_EQ(r.outcome, solver_outcome::diverged_nan);
  EXPECT_EQ(r.iterations, 0);
}

TEST_P(outcomes_generated, atol_is_named_when_it_decides) {
  auto o = plain();
  o.rtol = 0.0;
  const double b_norm = norm2(to_host_vector(sys.b));
  o.atol = 1e-7 * b_norm;
  vector_view x("x", sys.A.numRows());
  const auto r = solve(o, x);
  EXPECT_EQ(r.outcome, solver_outcome::converged_atol);
  EXPECT_LE(r.true_residual_norm, o.atol);
  EXPECT_LE(host_relative_residual(to_host(sys.A), to_host_vector(sys.b), to_host_vector(x)), 1.01e-7);
}

TEST_P(outcomes_generated, zero_rhs_converges_at_once_to_zero) {
  vector_view x("x", sys.A.numRows()), b("b", sys.A.numRows());
  auto spmv = make_spmv_strategy("kokkos_kernels");
  spmv->prepare(sys.A);
  const auto r = make_solver(GetParam(), plain())->solve(execution(), sys.A, *spmv, b, x);
  EXPECT_TRUE(is_converged(r.outcome));
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(norm2(to_host_vector(x)), 0.0);
}

TEST_P(outcomes_generated, exact_initial_guess_converges_at_once) {
  vector_view x("x", sys.A.numRows());
  Kokkos::deep_copy(x, sys.x_exact);
  const auto r = solve(plain(), x);
  EXPECT_EQ(r.outcome, solver_outcome::converged_rtol);
  EXPECT_EQ(r.iterations, 0);
}

TEST_P(outcomes_generated, profile_times_the_phases_and_plain_runs_do_not) {
  auto o = plain();
  o.max_iters = 5;
  o.preconditioner = "jacobi";
  vector_view x("x", sys.A.numRows());
  const auto plain_run = solve(o, x);
  EXPECT_FALSE(plain_run.times.profiled);
  EXPECT_EQ(plain_run.times.spmv + plain_run.times.dot + plain_run.times.update + plain_run.times.precond, 0.0);
  EXPECT_GT(plain_run.times.total, 0.0);
  o.profile = true;
  Kokkos::deep_copy(x, 0.0);
  const auto prof = solve(o, x);
  EXPECT_TRUE(prof.times.profiled);
  EXPECT_GT(prof.times.spmv, 0.0);
  EXPECT_GT(prof.times.dot, 0.0);
  EXPECT_GT(prof.times.update, 0.0);
  if (GetParam() == "bicgstab")
    EXPECT_EQ(prof.times.precond, 0.0);  // its Jacobi applications are fused into the updates
  else
    EXPECT_GT(prof.times.precond, 0.0);
  EXPECT_LE(prof.times.spmv + prof.times.dot + prof.times.update + prof.times.precond + prof.times.host,
            prof.times.iterate * 1.001);
  // The same iteration either way. Not bitwise: kokkos_kernels' transpose product (BiCG) sums with atomics on GPUs,
  // so two runs differ in the last bits.
  EXPECT_EQ(prof.iterations, plain_run.iterations);
  ASSERT_EQ(prof.history.size(), plain_run.history.size());
  for (std::size_t k = 0; k < prof.history.size(); ++k)
    EXPECT_NEAR(prof.history[k], plain_run.history[k], 1e-10 * plain_run.history[0]) << k;
}

TEST_P(outcomes_generated, progress_is_reported_every_n_iterations) {
  auto o = plain();
  o.max_iters = 7;
  o.progress_every = 3;
  std::vector<int> seen;
  o.progress = [&](int k, double rel) {
    seen.push_back(k);
    EXPECT_GT(rel, 0.0);
  };
  vector_view x("x", sys.A.numRows());
  solve(o, x);
  EXPECT_EQ(seen, (std::vector<int>{3, 6}));
}

TEST_P(outcomes_generated, zero_diagonal_with_jacobi_names_the_row) {
  auto o = plain();
  o.preconditioner = "jacobi";
  std::vector<std::vector<double>> rows = {{4, 1, 0, 0}, {1, 4, 1, 0}, {0, 1, 0, 1}, {0, 0, 1, 4}};
  try {
    solve_dense(GetParam(), rows, {1, 1, 1, 1}, o, /*keep_zero_diagonal=*/true);
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("row 3 (1-based) has a zero diagonal"), std::string::npos) << e.what();
  }
  try {
    solve_dense(GetParam(), rows, {1, 1, 1, 1}, o, /*keep_zero_diagonal=*/false);
    FAIL() << "expected an input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("row 3 (1-based) has no diagonal entry"), std::string::npos) << e.what();
  }
  // Without Jacobi the same system solves.
  o.preconditioner = "none";
  auto run = solve_dense(GetParam(), rows, {1, 1, 1, 1}, o, true);
  EXPECT_TRUE(is_converged(run.result.outcome));
}

INSTANTIATE_TEST_SUITE_P(solvers, outcomes_generated, ::testing::Values("bicgstab", "bicg", "gmres"));

// dtol: Jacobi-BiCG on 2dcyl1 grows its residual from 24.2 to 2105 in 3 iterations (seeded b).
// dtol = 50 stops it there, as PETSc's KSP_DIVERGED_DTOL (||r_k|| >= dtol ||r_0||); the default 1e5 lets it go on.
TEST(outcomes, dtol_stops_a_growing_residual) {
  const auto A = read_matrix_market(shared_matrix("2dcyl1.mtx"));
  std::mt19937_64 rng(99);
  const auto b = to_device_vector(random_vector(A.numRows(), rng));
  auto spmv = make_spmv_strategy("scalar");
  spmv->prepare(A);
  solver_options o;
  o.max_iters = 20;
  o.preconditioner = "jacobi";
  o.dtol = 50;
  vector_view x("x", A.numRows());
  const auto r = make_solver("bicg", o)->solve(execution(), A, *spmv, b, x);
  EXPECT_EQ(r.outcome, solver_outcome::diverged_dtol);
  EXPECT_EQ(r.iterations, 3);
  ASSERT_EQ(r.history.size(), 4u);
  EXPECT_GE(r.history[3], 50 * r.history[0]);
  for (int k = 1; k < 3; ++k) EXPECT_LT(r.history[k], 50 * r.history[0]);
  Kokkos::deep_copy(x, 0.0);
  o.dtol = solver_options{}.dtol;
  const auto go_on = make_solver("bicg", o)->solve(execution(), A, *spmv, b, x);
  EXPECT_EQ(go_on.outcome, solver_outcome::diverged_max_iters);
  EXPECT_EQ(go_on.iterations, 20);
  EXPECT_EQ(go_on.history[3], r.history[3]);
}

TEST(outcomes, names_are_petsc_like) {
  EXPECT_EQ(to_string(solver_outcome::converged_rtol), "converged_rtol");
  EXPECT_EQ(to_string(solver_outcome::converged_atol), "converged_atol");
  EXPECT_EQ(to_string(solver_outcome::diverged_max_iters), "diverged_max_iters");
  EXPECT_EQ(to_string(solver_outcome::diverged_breakdown), "diverged_breakdown");
  EXPECT_EQ(to_string(solver_outcome::diverged_nan), "diverged_nan");
  EXPECT_EQ(to_string(solver_outcome::diverged_dtol), "diverged_dtol");
  EXPECT_EQ(solvers().names(), (std::vector<std::string>{"bicgstab", "bicg", "gmres"}));
}

}  // namespace
}  // namespace ppl::test
