// Restarts after a breakdown (solver_options::max_restarts). The motivating system: a 200 x 200 grid of 2D
// convection-diffusion with first-order upwinding (40,000 rows), which Jacobi-BiCGSTAB with r_hat = b drives into
// a near-breakdown: (r_hat, r) decays to rounding level within a few dozen iterations (cosine below 1e-15), the
// solve used to stop there with diverged_breakdown and a residual far above ||b||. Restarting from the current
// iterate with a new shadow residual converges. ppl's generators are 3D Q1; this matrix is built here.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "krylov_test_support.hpp"
#include "ppl/sparse/krylov.hpp"
#include "ppl/sparse/spmv_strategy.hpp"

namespace ppl::test {
namespace {

// -Laplace(u) + beta . grad(u) on the unit square, m x m interior points, h = 1/(m+1), five-point differences with
// the convection term upwinded (beta >= 0: backward differences), scaled by h^2.
host_csr upwind_convection_diffusion_2d(int m, double bx, double by) {
  const double h = 1.0 / (m + 1);
  host_csr A;
  A.rows = A.cols = m * m;
  A.row_map.push_back(0);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) {
      const int r = j * m + i;
      auto add = [&](int c, double v) {
        A.entries.push_back(c);
        A.values.push_back(v);
      };
      if (j > 0) add(r - m, -1.0 - by * h);
      if (i > 0) add(r - 1, -1.0 - bx * h);
      add(r, 4.0 + (bx + by) * h);
      if (i < m - 1) add(r + 1, -1.0);
      if (j < m - 1) add(r + m, -1.0);
      A.row_map.push_back(static_cast<std::int64_t>(A.entries.size()));
    }
  return A;
}

struct solved {
  solver_result r;
  double host_residual;
};

solved solve_upwind(const std::string& method, int max_restarts) {
  static const host_csr Ah = upwind_convection_diffusion_2d(200, 100.0, 100.0);  // host only: outlives Kokkos
  const crs_matrix A = to_device(Ah);
  const std::vector<double> b(Ah.rows, 1.0);
  solver_options o;
  o.preconditioner = "jacobi";
  o.max_iters = 2000;
  o.max_restarts = max_restarts;
  // The subject is the breakdown: without restarts the recursive residual grows past PETSc's default dtol (1e5
  // ||r_0||) before (r_hat, r) vanishes in some summation orders (2 OpenMP threads), which would stop it first.
  o.dtol = std::numeric_limits<double>::infinity();
  auto spmv = make_spmv_strategy("kokkos_kernels");
  spmv->prepare(A);
  vector_view x("x", Ah.rows);
  solved s;
  s.r = make_solver(method, o)->solve(execution(), A, *spmv, to_device_vector(b), x);
  s.host_residual = host_relative_residual(Ah, b, to_host_vector(x));
  return s;
}

TEST(breakdown_restart, bicgstab_jacobi_solves_the_upwind_system_after_restarting) {
  // Without restarts: the breakdown this test is about (rho, after 68 iterations in the run that chose it). r_hat
  // loses its angle to r and to A p together (both cosines at rounding level), so which test trips first depends
  // on the rounding of the kernels: rho with p formed before D^-1 p, alpha with p_hat updated directly.
  const auto stop = solve_upwind("bicgstab", 0);
  ASSERT_EQ(stop.r.outcome, solver_outcome::diverged_breakdown);
  EXPECT_TRUE(stop.r.breakdown == "rho" || stop.r.breakdown == "alpha") << stop.r.breakdown;
  EXPECT_LT(stop.r.iterations, 150);
  EXPECT_GT(stop.r.true_residual, 1.0);
  EXPECT_EQ(stop.r.breakdown_restarts, 0);
  // With the default bound: converged (335 iterations, 2 restarts in that run), checked on the host.
  const auto s = solve_upwind("bicgstab", solver_options{}.max_restarts);
  ASSERT_TRUE(is_converged(s.r.outcome)) << to_string(s.r.outcome) << " " << s.r.breakdown << " after "
                                         << s.r.iterations << " iterations, " << s.r.breakdown_restarts << " restarts";
  EXPECT_GE(s.r.breakdown_restarts, 1);
  EXPECT_LE(s.r.breakdown_restarts, solver_options{}.max_restarts);
  EXPECT_LT(s.r.iterations, 600);
  EXPECT_LE(s.host_residual, 1.01e-8);
  ASSERT_EQ(s.r.history.size(), static_cast<std::size_t>(s.r.iterations + 1));
}

solver_options exact(int max_restarts) {
  solver_options o;
  o.rtol = 1e-10;
  o.max_iters = 50;
  o.max_restarts = max_restarts;
  return o;
}

solver_result solve_small(const std::string& method, const std::vector<std::vector<double>>& rows,
                          const std::vector<double>& b, const solver_options& o, std::vector<double>* x_out = nullptr) {
  const auto A = to_device(csr_from_dense(rows));
  auto spmv = make_spmv_strategy("kokkos_kernels");
  spmv->prepare(A);
  vector_view x("x", b.size());
  const auto r = make_solver(method, o)->solve(execution(), A, *spmv, to_device_vector(b), x);
  if (x_out) *x_out = to_host_vector(x);
  return r;
}

// The exact breakdowns of test_outcomes.cpp, now with restarts allowed. A rho breakdown leaves a moved iterate: the
// restart goes on from it and the 3 x 3 systems are solved.
TEST(breakdown_restart, an_exact_rho_breakdown_is_restarted_and_solved) {
  const auto st = solve_small("bicgstab", {{1, 2, 1}, {1, 1, 2}, {-1, -1, 1}}, {0, 2, 0}, exact(10));
  EXPECT_TRUE(is_converged(st.outcome)) << to_string(st.outcome) << " " << st.breakdown;
  EXPECT_EQ(st.breakdown_restarts, 1);
  const auto bi = solve_small("bicg", {{-1, 1, 0}, {2, -1, -1}, {1, 2, -1}}, {0, 2, 0}, exact(10));
  EXPECT_TRUE(is_converged(bi.outcome)) << to_string(bi.outcome) << " " << bi.breakdown;
  EXPECT_EQ(bi.breakdown_restarts, 1);
}

// diag(2, -2, 3), b = (2, 2, 1): omega breaks down after x = 3 b; the restart from there breaks down in alpha at
// once and leaves x where it was, so the solve stops instead of repeating it (1 restart, not max_restarts).
TEST(breakdown_restart, a_restart_that_cannot_move_x_is_not_repeated) {
  std::vector<double> x;
  const auto r = solve_small("bicgstab", {{2, 0, 0}, {0, -2, 0}, {0, 0, 3}}, {2, 2, 1}, exact(10), &x);
  EXPECT_EQ(r.outcome, solver_outcome::diverged_breakdown);
  EXPECT_EQ(r.breakdown, "alpha");
  EXPECT_EQ(r.breakdown_restarts, 1);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_EQ(x, (std::vector<double>{6, 6, 3}));
  // A rotation breaks down in the first iteration without moving x: no restart at all.
  for (const std::string method : {"bicgstab", "bicg"}) {
    const auto rot = solve_small(method, {{0, 1}, {-1, 0}}, {1, 0}, exact(10));
    EXPECT_EQ(rot.breakdown, "alpha") << method;
    EXPECT_EQ(rot.breakdown_restarts, 0) << method;
    EXPECT_EQ(rot.iterations, 1) << method;
  }
}

}  // namespace
}  // namespace ppl::test
