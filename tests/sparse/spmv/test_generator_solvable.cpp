// The generated systems are meant for Krylov studies: a plain host Jacobi-BiCGSTAB (written here, independent of
// the library's solvers) must reach a 1e-8 relative residual in a modest number of iterations for Peclet numbers
// from 0.1 to 50 (cell Peclet up to about 1 at n = 24), and land near x*.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "host_reference.hpp"
#include "ppl/sparse/generators.hpp"

namespace ppl {
namespace {

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// Right-preconditioned BiCGSTAB with D^-1; returns the iterations used (or -1) and leaves the solution in x.
int host_jacobi_bicgstab(const host_csr& A, const std::vector<double>& b, std::vector<double>& x, double rtol,
                         int max_iters) {
  const std::size_t n = b.size();
  std::vector<double> dinv(n, 0.0);
  for (int r = 0; r < A.rows; ++r)
    for (auto j = A.row_map[r]; j < A.row_map[r + 1]; ++j)
      if (A.entries[j] == r) dinv[r] = 1.0 / A.values[j];
  x.assign(n, 0.0);
  std::vector<double> r = b, rhat = b, p(n, 0.0), v(n, 0.0), ph(n), sh(n), s(n), t(n);
  const double bnorm = std::sqrt(dot(b, b));
  double rho = 1, alpha = 1, omega = 1;
  for (int it = 1; it <= max_iters; ++it) {
    const double rho_new = dot(rhat, r);
    const double beta = (rho_new / rho) * (alpha / omega);
    rho = rho_new;
    for (std::size_t i = 0; i < n; ++i) p[i] = r[i] + beta * (p[i] - omega * v[i]);
    for (std::size_t i = 0; i < n; ++i) ph[i] = dinv[i] * p[i];
    v = test::host_spmv(A, ph).y;
    alpha = rho / dot(rhat, v);
    for (std::size_t i = 0; i < n; ++i) s[i] = r[i] - alpha * v[i];
    for (std::size_t i = 0; i < n; ++i) sh[i] = dinv[i] * s[i];
    t = test::host_spmv(A, sh).y;
    omega = dot(t, s) / dot(t, t);
    for (std::size_t i = 0; i < n; ++i) x[i] += alpha * ph[i] + omega * sh[i];
    for (std::size_t i = 0; i < n; ++i) r[i] = s[i] - omega * t[i];
    if (std::sqrt(dot(r, r)) <= rtol * bnorm) return it;
    if (!std::isfinite(rho) || !std::isfinite(omega)) return -1;
  }
  return -1;
}

class generator_solvable : public ::testing::TestWithParam<std::tuple<int, double>> {};

TEST_P(generator_solvable, jacobi_bicgstab_converges_to_x_star) {
  convection_diffusion_params p;
  p.n = 24;
  p.components = std::get<0>(GetParam());
  p.peclet = std::get<1>(GetParam());
  const generated_system s = make_convection_diffusion(p);
  const host_csr A = to_host(s.A);
  const auto b = to_host(s.b), xs = to_host(s.x_exact);
  std::vector<double> x;
  const int iters = host_jacobi_bicgstab(A, b, x, 1e-8, 400);
  ASSERT_GT(iters, 0) << "no convergence in 400 iterations";
  EXPECT_LE(iters, 200);
  // True residual and distance to x*.
  const auto ax = test::host_spmv(A, x).y;
  double rr = 0, bb = 0, ee = 0, xx = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    rr += (b[i] - ax[i]) * (b[i] - ax[i]), bb += b[i] * b[i];
    ee += (x[i] - xs[i]) * (x[i] - xs[i]), xx += xs[i] * xs[i];
  }
  EXPECT_LE(std::sqrt(rr / bb), 2e-8);
  EXPECT_LE(std::sqrt(ee / xx), 1e-4);
  std::printf("  components %d, Peclet %g: %d iterations, ||x - x*|| / ||x*|| = %.2e\n", p.components, p.peclet, iters,
              std::sqrt(ee / xx));
}

INSTANTIATE_TEST_SUITE_P(peclet, generator_solvable,
                         ::testing::Combine(::testing::Values(1, 3), ::testing::Values(0.1, 1.0, 10.0, 50.0)));

}  // namespace
}  // namespace ppl
