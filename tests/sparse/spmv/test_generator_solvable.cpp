// The generated systems are meant for Krylov studies: a plain host Jacobi-BiCGSTAB (tests/sparse/host_krylov.hpp,
// independent of the library's solvers) must reach a 1e-8 relative residual in a modest number of iterations for Peclet
// numbers from 0.1 to 50 (cell Peclet up to about 1 at n = 24), and land near x*.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "host_reference.hpp"
#include "ppl/sparse/generators.hpp"
#include "sparse/host_krylov.hpp"

namespace ppl {
namespace {

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
  const int iters = test::oracle::bicgstab(A, b, x, 1e-8, 400, /*jacobi=*/true);
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
